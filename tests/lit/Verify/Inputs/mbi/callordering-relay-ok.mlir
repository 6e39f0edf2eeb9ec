// MBI class: Call ordering (CallMatching). np: 2. Correct.
// The twin of callordering-relay-bad: member 0 sends first and then receives
// the reply; member 1 receives, then sends back what it received (ping-pong).
module attributes {distruntime.num_replicas = 1 : i64, distruntime.num_partitions = 2 : i64} {
func.func @main() -> i32 {
  %me = distruntime.team_member team(0)
  %c0 = arith.constant 0 : index
  %is0 = arith.cmpi eq, %me, %c0 : index
  %one = arith.constant 1.0 : f32
  %y = memref.alloc() : memref<4xf32>
  linalg.fill ins(%one : f32) outs(%y : memref<4xf32>)
  scf.if %is0 {
    distruntime.send ins(%y : memref<4xf32>) {source_target_pairs = dense<[[0, 1]]> : tensor<1x2xi64>, channel_id = 1 : i64, is_host_transfer = false}
    distruntime.recv outs(%y : memref<4xf32>) {source_target_pairs = dense<[[1, 0]]> : tensor<1x2xi64>, channel_id = 2 : i64, is_host_transfer = false}
  } else {
    distruntime.recv outs(%y : memref<4xf32>) {source_target_pairs = dense<[[0, 1]]> : tensor<1x2xi64>, channel_id = 1 : i64, is_host_transfer = false}
    distruntime.send ins(%y : memref<4xf32>) {source_target_pairs = dense<[[1, 0]]> : tensor<1x2xi64>, channel_id = 2 : i64, is_host_transfer = false}
  }
  %r = arith.constant 0 : i32
  return %r : i32
}
}
