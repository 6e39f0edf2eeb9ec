// MBI class: Invalid parameter (InvalidOtherArg: a negative count). np: 2.
// Erroneous.
// An all_reduce on a view whose size is -4 (a count computed wrongly), the
// nearest a memref comes to MPI's negative count.
func.func @main() -> i32 {
  %a = memref.alloc() : memref<4xf32>
  %n = arith.constant -4 : index
  %v = memref.reinterpret_cast %a to offset: [0], sizes: [%n], strides: [1] : memref<4xf32> to memref<?xf32>
  distruntime.all_reduce ins(%v : memref<?xf32>) outs(%v : memref<?xf32>) {reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>}
  %r = arith.constant 0 : i32
  return %r : i32
}
