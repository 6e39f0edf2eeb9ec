// MBI class: Call ordering (CallMatching). np: 2. Correct.
// The twin of callordering-loop-bad: each member proposes the member id plus
// one as a trip count, an all_reduce takes the maximum, and every member
// loops that many times over all_reduce: the count is the same everywhere.
func.func @main() -> i32 {
  %me = distruntime.team_member team(0)
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %mine = arith.addi %me, %c1 : index
  %mi = arith.index_cast %mine : index to i64
  %cnt = memref.alloc() : memref<1xi64>
  memref.store %mi, %cnt[%c0] : memref<1xi64>
  distruntime.all_reduce ins(%cnt : memref<1xi64>) outs(%cnt : memref<1xi64>) {reduction = #distruntime.reduction<max>, replica_groups = dense<> : tensor<0x0xi64>}
  %m = memref.load %cnt[%c0] : memref<1xi64>
  %n = arith.index_cast %m : i64 to index
  %a = memref.alloc() : memref<4xf32>
  scf.for %i = %c0 to %n step %c1 {
    distruntime.all_reduce ins(%a : memref<4xf32>) outs(%a : memref<4xf32>) {reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>}
  }
  %r = arith.constant 0 : i32
  return %r : i32
}
