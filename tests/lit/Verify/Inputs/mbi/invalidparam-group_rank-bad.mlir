// MBI class: Invalid parameter (InvalidCommunicator: a group naming a rank
// that does not exist). np: 2. Erroneous.
// An all_reduce over the group [[0, 1, 2]] run on 2 processes: rank 2 does
// not exist. The same program at np 3 is invalidparam-group_rank-ok.
func.func @main() -> i32 {
  %a = memref.alloc() : memref<4xf32>
  distruntime.all_reduce ins(%a : memref<4xf32>) outs(%a : memref<4xf32>) {reduction = #distruntime.reduction<sum>, replica_groups = dense<[[0, 1, 2]]> : tensor<1x3xi64>}
  %r = arith.constant 0 : i32
  return %r : i32
}
