// MBI class: Parameter matching (OperatorMatching). np: 2. Erroneous.
// The same all_reduce with another reduction operator per member: sum on
// member 0, max on the others (MPI: undefined result).
func.func @main() -> i32 {
  %me = distruntime.team_member team(0)
  %c0 = arith.constant 0 : index
  %is0 = arith.cmpi eq, %me, %c0 : index
  %a = memref.alloc() : memref<4xf32>
  scf.if %is0 {
    distruntime.all_reduce ins(%a : memref<4xf32>) outs(%a : memref<4xf32>) {reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>}
  } else {
    distruntime.all_reduce ins(%a : memref<4xf32>) outs(%a : memref<4xf32>) {reduction = #distruntime.reduction<max>, replica_groups = dense<> : tensor<0x0xi64>}
  }
  %r = arith.constant 0 : i32
  return %r : i32
}
