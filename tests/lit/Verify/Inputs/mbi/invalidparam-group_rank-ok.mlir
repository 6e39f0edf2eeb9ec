// MBI class: Invalid parameter (InvalidCommunicator). np: 3. Correct.
// The twin of invalidparam-group_rank-bad, run on 3 processes: every rank
// the group [[0, 1, 2]] names exists.
func.func @main() -> i32 {
  %a = memref.alloc() : memref<4xf32>
  distruntime.all_reduce ins(%a : memref<4xf32>) outs(%a : memref<4xf32>) {reduction = #distruntime.reduction<sum>, replica_groups = dense<[[0, 1, 2]]> : tensor<1x3xi64>}
  %r = arith.constant 0 : i32
  return %r : i32
}
