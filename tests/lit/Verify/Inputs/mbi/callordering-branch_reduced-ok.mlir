// MBI class: Call ordering (CallMatching). np: 2. Correct.
// A collective under a branch whose condition is an all_reduce's result:
// the sum of the member ids is the same on every member, so either all of
// them run the all_gather or none does (here all do).
func.func @main() -> i32 {
  %me = distruntime.team_member team(0)
  %c0 = arith.constant 0 : index
  %z = arith.constant 0 : i64
  %mi = arith.index_cast %me : index to i64
  %s = memref.alloc() : memref<1xi64>
  memref.store %mi, %s[%c0] : memref<1xi64>
  distruntime.all_reduce ins(%s : memref<1xi64>) outs(%s : memref<1xi64>) {reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>}
  %sum = memref.load %s[%c0] : memref<1xi64>
  %pos = arith.cmpi sgt, %sum, %z : i64
  %g = memref.alloc() : memref<2xi32>
  %o = memref.alloc() : memref<4xi32>
  scf.if %pos {
    distruntime.all_gather ins(%g : memref<2xi32>) outs(%o : memref<4xi32>) {all_gather_dim = 0 : i64, replica_groups = dense<> : tensor<0x0xi64>}
  }
  %r = arith.constant 0 : i32
  return %r : i32
}
