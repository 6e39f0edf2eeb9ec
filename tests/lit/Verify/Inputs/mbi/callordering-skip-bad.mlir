// MBI class: Call ordering (CallMatching). np: 2. Erroneous.
// Only member 0 runs the all_reduce; member 1 skips it and goes on to exit,
// so member 0 waits in a collective its partner never calls (MPI: a
// deadlock, or a collective matched against finalization).
func.func @main() -> i32 {
  %me = distruntime.team_member team(0)
  %c0 = arith.constant 0 : index
  %is0 = arith.cmpi eq, %me, %c0 : index
  %a = memref.alloc() : memref<4xf32>
  scf.if %is0 {
    distruntime.all_reduce ins(%a : memref<4xf32>) outs(%a : memref<4xf32>) {reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>}
  }
  %r = arith.constant 0 : i32
  return %r : i32
}
