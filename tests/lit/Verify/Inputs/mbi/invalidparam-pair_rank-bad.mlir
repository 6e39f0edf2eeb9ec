// MBI class: Invalid parameter (InvalidSrcDest). np: 2. Erroneous.
// A collective_permute whose pairs send from 1 to 2 on 2 processes: the
// destination rank 2 does not exist.
func.func @main() -> i32 {
  %a = memref.alloc() : memref<4xf32>
  %b = memref.alloc() : memref<4xf32>
  distruntime.collective_permute ins(%a : memref<4xf32>) outs(%b : memref<4xf32>) {source_target_pairs = dense<[[0, 1], [1, 2]]> : tensor<2x2xi64>}
  %r = arith.constant 0 : i32
  return %r : i32
}
