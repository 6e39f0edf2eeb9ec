// MBI class: Parameter matching (CommunicatorMatching). np: 4. Erroneous.
// The same all_reduce over other process groups (communicators): member 0
// pairs (0 1)(2 3), the others (0 2)(1 3).
func.func @main() -> i32 {
  %me = distruntime.team_member team(0)
  %c0 = arith.constant 0 : index
  %is0 = arith.cmpi eq, %me, %c0 : index
  %a = memref.alloc() : memref<4xf32>
  scf.if %is0 {
    distruntime.all_reduce ins(%a : memref<4xf32>) outs(%a : memref<4xf32>) {reduction = #distruntime.reduction<sum>, replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>}
  } else {
    distruntime.all_reduce ins(%a : memref<4xf32>) outs(%a : memref<4xf32>) {reduction = #distruntime.reduction<sum>, replica_groups = dense<[[0, 2], [1, 3]]> : tensor<2x2xi64>}
  }
  %r = arith.constant 0 : i32
  return %r : i32
}
