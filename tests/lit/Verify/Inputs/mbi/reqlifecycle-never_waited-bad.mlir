// MBI class: Request lifecycle (MissingWait). np: 2. Erroneous.
// An async all_reduce whose handle is never waited: the request is never
// completed and its result never defined (MPI: a missing MPI_Wait).
func.func @main() -> i32 {
  %a = memref.alloc() : memref<4xf32>
  %h = distruntime.all_reduce ins(%a : memref<4xf32>) outs(%a : memref<4xf32>) async {reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>}
  %r = arith.constant 0 : i32
  return %r : i32
}
