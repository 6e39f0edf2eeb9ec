// MBI class: Request lifecycle (MissingWait). np: 2. Correct.
// The twin of reqlifecycle-never_waited-bad: the async all_reduce is waited
// later, after independent work on another buffer, and its result is read
// after the wait.
func.func @main() -> i32 {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1.0 : f32
  %a = memref.alloc() : memref<4xf32>
  %b = memref.alloc() : memref<4xf32>
  linalg.fill ins(%one : f32) outs(%a : memref<4xf32>)
  %h = distruntime.all_reduce ins(%a : memref<4xf32>) outs(%a : memref<4xf32>) async {reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>}
  linalg.fill ins(%one : f32) outs(%b : memref<4xf32>)
  distruntime.wait %h
  %x = memref.load %a[%c0] : memref<4xf32>
  memref.store %x, %b[%c0] : memref<4xf32>
  %r = arith.constant 0 : i32
  return %r : i32
}
