// MBI class: Local concurrency (LocalConcurrency). np: 2. Correct.
// The collective twin of localconcurrency-recv_read-bad: while an async
// all_reduce from a into b runs, its input a is only read (MPI allows
// reading a send buffer) and another buffer is written; its output b is
// read only after the wait.
func.func @main() -> i32 {
  %c0 = arith.constant 0 : index
  %a = memref.alloc() : memref<4xf32>
  %b = memref.alloc() : memref<4xf32>
  %s = memref.alloc() : memref<2xf32>
  %h = distruntime.all_reduce ins(%a : memref<4xf32>) outs(%b : memref<4xf32>) async {reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>}
  %v = memref.load %a[%c0] : memref<4xf32>
  memref.store %v, %s[%c0] : memref<2xf32>
  distruntime.wait %h
  %c1 = arith.constant 1 : index
  %w = memref.load %b[%c0] : memref<4xf32>
  memref.store %w, %s[%c1] : memref<2xf32>
  %r = arith.constant 0 : i32
  return %r : i32
}
