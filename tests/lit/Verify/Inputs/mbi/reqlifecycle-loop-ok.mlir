// MBI class: Request lifecycle (MissingWait). np: 2. Correct.
// The twin of reqlifecycle-twice-bad: each of the loop's three turns issues
// its own async all_reduce and waits for it once.
func.func @main() -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %a = memref.alloc() : memref<4xf32>
  scf.for %i = %c0 to %c3 step %c1 {
    %h = distruntime.all_reduce ins(%a : memref<4xf32>) outs(%a : memref<4xf32>) async {reduction = #distruntime.reduction<max>, replica_groups = dense<> : tensor<0x0xi64>}
    distruntime.wait %h
  }
  %r = arith.constant 0 : i32
  return %r : i32
}
