// MBI class: Parameter matching (CommunicatorMatching). np: 4. Correct.
// Split communicators: an all_reduce within the groups (0 1)(2 3) sums the
// member ids (1 in the first group, 5 in the second); a branch on that sum
// runs another all_reduce over the same groups. The sum is the same within
// each group, so each group's members take the same side.
func.func @main() -> i32 {
  %me = distruntime.team_member team(0)
  %c0 = arith.constant 0 : index
  %mi = arith.index_cast %me : index to i64
  %s = memref.alloc() : memref<1xi64>
  memref.store %mi, %s[%c0] : memref<1xi64>
  distruntime.all_reduce ins(%s : memref<1xi64>) outs(%s : memref<1xi64>) {reduction = #distruntime.reduction<sum>, replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>}
  %sum = memref.load %s[%c0] : memref<1xi64>
  %three = arith.constant 3 : i64
  %big = arith.cmpi sgt, %sum, %three : i64
  %a = memref.alloc() : memref<4xf32>
  scf.if %big {
    distruntime.all_reduce ins(%a : memref<4xf32>) outs(%a : memref<4xf32>) {reduction = #distruntime.reduction<sum>, replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>}
  }
  %r = arith.constant 0 : i32
  return %r : i32
}
