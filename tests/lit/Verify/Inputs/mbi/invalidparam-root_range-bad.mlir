// MBI class: Invalid parameter (InvalidRoot). np: 2. Erroneous.
// collective_broadcast with a root read at run time (position 2) in a group
// of two members: positions are 0 and 1. Every member passes the same,
// wrong, root.
func.func @main() -> i32 {
  %n = distruntime.team_size team(0)
  %c0 = arith.constant 0 : index
  %ni = arith.index_cast %n : index to i32
  %roots = memref.alloc() : memref<1xi32>
  memref.store %ni, %roots[%c0] : memref<1xi32>
  %x = memref.alloc() : memref<4xf32>
  distruntime.collective_broadcast ins(%x : memref<4xf32>) roots(%roots : memref<1xi32>) outs(%x : memref<4xf32>) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}
  %r = arith.constant 0 : i32
  return %r : i32
}
