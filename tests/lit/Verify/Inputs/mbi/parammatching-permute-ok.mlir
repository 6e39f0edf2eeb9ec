// MBI class: Parameter matching (the sources and destinations of a
// permutation). np: 2. Correct.
// Every member swaps with the other ([[0, 1], [1, 0]]), the same pairs on
// every member, the data (the member id) differing per member.
func.func @main() -> i32 {
  %me = distruntime.team_member team(0)
  %mf = arith.index_cast %me : index to i32
  %v = arith.sitofp %mf : i32 to f32
  %x = memref.alloc() : memref<2xf32>
  %y = memref.alloc() : memref<2xf32>
  linalg.fill ins(%v : f32) outs(%x : memref<2xf32>)
  distruntime.collective_permute ins(%x : memref<2xf32>) outs(%y : memref<2xf32>) {source_target_pairs = dense<[[0, 1], [1, 0]]> : tensor<2x2xi64>}
  %r = arith.constant 0 : i32
  return %r : i32
}
