// MBI class: Parameter matching (DatatypeMatching). np: 2. Correct.
// The twin of parammatching-dtype-bad: every member gathers two i32, whose
// values (the member id) differ per member. Rank-dependent data is fine;
// only the datatype and count must match.
func.func @main() -> i32 {
  %me = distruntime.team_member team(0)
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %mi = arith.index_cast %me : index to i32
  %g = memref.alloc() : memref<2xi32>
  %o = memref.alloc() : memref<4xi32>
  memref.store %mi, %g[%c0] : memref<2xi32>
  memref.store %mi, %g[%c1] : memref<2xi32>
  distruntime.all_gather ins(%g : memref<2xi32>) outs(%o : memref<4xi32>) {all_gather_dim = 0 : i64, replica_groups = dense<> : tensor<0x0xi64>}
  %r = arith.constant 0 : i32
  return %r : i32
}
