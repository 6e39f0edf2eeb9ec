// MBI class: Invalid parameter (InvalidCommunicator). np: 2. Correct.
// An all_reduce over groups of one member each ([[0], [1]]): valid groups
// (each member reduces with itself), as MPI_COMM_SELF is a valid
// communicator.
func.func @main() -> i32 {
  %a = memref.alloc() : memref<4xf32>
  distruntime.all_reduce ins(%a : memref<4xf32>) outs(%a : memref<4xf32>) {reduction = #distruntime.reduction<sum>, replica_groups = dense<[[0], [1]]> : tensor<2x1xi64>}
  %r = arith.constant 0 : i32
  return %r : i32
}
