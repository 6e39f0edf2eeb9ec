// MBI class: Parameter matching (OperatorMatching). np: 2. Correct.
// The twin of parammatching-reduction-bad: member 0 names the reduction
// (sum), the others spell the same operator as a computation region (an
// addf of its two arguments). Both are MPI_SUM: the operators match.
func.func @main() -> i32 {
  %me = distruntime.team_member team(0)
  %c0 = arith.constant 0 : index
  %is0 = arith.cmpi eq, %me, %c0 : index
  %a = memref.alloc() : memref<4xf32>
  scf.if %is0 {
    distruntime.all_reduce ins(%a : memref<4xf32>) outs(%a : memref<4xf32>) {reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>}
  } else {
    distruntime.all_reduce ins(%a : memref<4xf32>) outs(%a : memref<4xf32>) {replica_groups = dense<> : tensor<0x0xi64>} computation {
    ^bb0(%l: f32, %r: f32):
      %s = arith.addf %l, %r : f32
      distruntime.yield %s : f32
    }
  }
  %r = arith.constant 0 : i32
  return %r : i32
}
