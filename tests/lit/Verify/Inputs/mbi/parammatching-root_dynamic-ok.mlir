// MBI class: Parameter matching (RootMatching). np: 2. Correct.
// The twin of parammatching-root_dynamic-bad: the root is computed at run
// time from the team size (the last member), the same on every member.
func.func @main() -> i32 {
  %n = distruntime.team_size team(0)
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %last = arith.subi %n, %c1 : index
  %li = arith.index_cast %last : index to i32
  %roots = memref.alloc() : memref<1xi32>
  memref.store %li, %roots[%c0] : memref<1xi32>
  %x = memref.alloc() : memref<4xf32>
  distruntime.collective_broadcast ins(%x : memref<4xf32>) roots(%roots : memref<1xi32>) outs(%x : memref<4xf32>) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}
  %r = arith.constant 0 : i32
  return %r : i32
}
