// MBI class: Parameter matching (RootMatching). np: 2. Erroneous.
// collective_broadcast with a root known at run time (the roots operand):
// each member names its own position, so the members of the group disagree
// on the root.
func.func @main() -> i32 {
  %me = distruntime.team_member team(0)
  %c0 = arith.constant 0 : index
  %mi = arith.index_cast %me : index to i32
  %roots = memref.alloc() : memref<1xi32>
  memref.store %mi, %roots[%c0] : memref<1xi32>
  %x = memref.alloc() : memref<4xf32>
  distruntime.collective_broadcast ins(%x : memref<4xf32>) roots(%roots : memref<1xi32>) outs(%x : memref<4xf32>) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}
  %r = arith.constant 0 : i32
  return %r : i32
}
