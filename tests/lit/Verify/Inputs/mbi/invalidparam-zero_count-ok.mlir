// MBI class: Invalid parameter (InvalidOtherArg). np: 2. Correct.
// The twin of invalidparam-negative_count-bad: an all_reduce of zero
// elements, a count MPI allows (it communicates nothing).
func.func @main() -> i32 {
  %a = memref.alloc() : memref<4xf32>
  %n = arith.constant 0 : index
  %v = memref.reinterpret_cast %a to offset: [0], sizes: [%n], strides: [1] : memref<4xf32> to memref<?xf32>
  distruntime.all_reduce ins(%v : memref<?xf32>) outs(%v : memref<?xf32>) {reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>}
  %r = arith.constant 0 : i32
  return %r : i32
}
