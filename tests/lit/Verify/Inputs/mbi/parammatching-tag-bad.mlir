// MBI class: Parameter matching (TagMatching). np: 2. Erroneous.
// Member 0 sends on channel 1, member 1 receives on channel 2 (the channel
// is the tag): the receive never matches and member 1 waits forever.
module attributes {distruntime.num_replicas = 1 : i64, distruntime.num_partitions = 2 : i64} {
func.func @main() -> i32 {
  %me = distruntime.team_member team(0)
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %is0 = arith.cmpi eq, %me, %c0 : index
  %is1 = arith.cmpi eq, %me, %c1 : index
  %y = memref.alloc() : memref<4xf32>
  scf.if %is0 {
    distruntime.send ins(%y : memref<4xf32>) {source_target_pairs = dense<[[0, 1]]> : tensor<1x2xi64>, channel_id = 1 : i64, is_host_transfer = false}
  }
  scf.if %is1 {
    distruntime.recv outs(%y : memref<4xf32>) {source_target_pairs = dense<[[0, 1]]> : tensor<1x2xi64>, channel_id = 2 : i64, is_host_transfer = false}
  }
  %r = arith.constant 0 : i32
  return %r : i32
}
}
