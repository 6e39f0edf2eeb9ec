// MBI class: Call ordering (CallMatching). np: 2. Erroneous.
// Member 1 returns from main before the all_reduce that member 0 runs (an
// early exit under a cf branch on the member id).
func.func @main() -> i32 {
  %me = distruntime.team_member team(0)
  %c1 = arith.constant 1 : index
  %is1 = arith.cmpi eq, %me, %c1 : index
  %a = memref.alloc() : memref<4xf32>
  %r = arith.constant 0 : i32
  cf.cond_br %is1, ^out, ^work
^work:
  distruntime.all_reduce ins(%a : memref<4xf32>) outs(%a : memref<4xf32>) {reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>}
  return %r : i32
^out:
  return %r : i32
}
