// MBI class: Local concurrency (LocalConcurrency). np: 2. Correct.
// The twin of localconcurrency-subview-bad: the async all_reduce works on
// the lower half of a (a subview), and the upper half, another subview
// that shares no element with it, is written before the wait.
func.func @main() -> i32 {
  %c0 = arith.constant 0 : index
  %v = arith.constant 1.0 : f32
  %a = memref.alloc() : memref<8xf32>
  %lo = memref.subview %a[0] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1]>>
  %hi = memref.subview %a[4] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1], offset: 4>>
  %h = distruntime.all_reduce ins(%lo : memref<4xf32, strided<[1]>>) outs(%lo : memref<4xf32, strided<[1]>>) async {reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>}
  memref.store %v, %hi[%c0] : memref<4xf32, strided<[1], offset: 4>>
  distruntime.wait %h
  %r = arith.constant 0 : i32
  return %r : i32
}
