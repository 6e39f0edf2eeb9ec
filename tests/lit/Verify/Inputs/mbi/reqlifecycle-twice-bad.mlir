// MBI class: Request lifecycle (a request completed twice: waiting on a
// freed request). np: 2. Erroneous.
// The handle of an async all_reduce issued before a loop is waited in each
// of the loop's two turns: the second wait is on a completed handle.
func.func @main() -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %a = memref.alloc() : memref<4xf32>
  %h = distruntime.all_reduce ins(%a : memref<4xf32>) outs(%a : memref<4xf32>) async {reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>}
  scf.for %i = %c0 to %c2 step %c1 {
    distruntime.wait %h
  }
  %r = arith.constant 0 : i32
  return %r : i32
}
