// MBI class: Request lifecycle (MissingWait). np: 2. Correct.
// An async all_reduce issued before a loop of local work on another buffer
// and waited once after the loop (the twin of reqlifecycle-twice-bad, whose
// wait is inside the loop).
func.func @main() -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %v = arith.constant 1.0 : f32
  %a = memref.alloc() : memref<4xf32>
  %b = memref.alloc() : memref<4xf32>
  %h = distruntime.all_reduce ins(%a : memref<4xf32>) outs(%a : memref<4xf32>) async {reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>}
  scf.for %i = %c0 to %c4 step %c1 {
    memref.store %v, %b[%i] : memref<4xf32>
  }
  distruntime.wait %h
  %r = arith.constant 0 : i32
  return %r : i32
}
