// MBI class: Invalid parameter (InvalidSrcDest). np: 2. Correct.
// The twin of invalidparam-pair_rank-bad: a collective_permute that only
// sends from 0 to 1. Member 1 receives; member 0, nobody's target, gets
// zeros, as the op defines.
func.func @main() -> i32 {
  %a = memref.alloc() : memref<4xf32>
  %b = memref.alloc() : memref<4xf32>
  distruntime.collective_permute ins(%a : memref<4xf32>) outs(%b : memref<4xf32>) {source_target_pairs = dense<[[0, 1]]> : tensor<1x2xi64>}
  %r = arith.constant 0 : i32
  return %r : i32
}
