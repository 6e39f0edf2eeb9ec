// MBI class: Local concurrency (LocalConcurrency). np: 2. Erroneous.
// An async in-place all_reduce over all 8 elements of a; before its wait,
// element 4 is written through a subview of a (the upper half).
func.func @main() -> i32 {
  %c0 = arith.constant 0 : index
  %v = arith.constant 1.0 : f32
  %a = memref.alloc() : memref<8xf32>
  %h = distruntime.all_reduce ins(%a : memref<8xf32>) outs(%a : memref<8xf32>) async {reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>}
  %hi = memref.subview %a[4] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1], offset: 4>>
  memref.store %v, %hi[%c0] : memref<4xf32, strided<[1], offset: 4>>
  distruntime.wait %h
  %r = arith.constant 0 : i32
  return %r : i32
}
