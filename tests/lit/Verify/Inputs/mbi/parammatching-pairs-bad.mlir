// MBI class: Parameter matching (the source and destination a send and
// its receive name). np: 2. Erroneous.
// Member 0 sends to member 1 on channel 0, but member 1's receive names the
// pair [[1, 0]] (from 1 to 0): it expects nothing, and member 0's message
// is never received.
func.func @main() -> i32 {
  %me = distruntime.team_member team(0)
  %c0 = arith.constant 0 : index
  %is0 = arith.cmpi eq, %me, %c0 : index
  %x = memref.alloc() : memref<4xf32>
  scf.if %is0 {
    distruntime.send ins(%x : memref<4xf32>) {source_target_pairs = dense<[[0, 1]]> : tensor<1x2xi64>, channel_id = 0 : i64, is_host_transfer = false}
  } else {
    distruntime.recv outs(%x : memref<4xf32>) {source_target_pairs = dense<[[1, 0]]> : tensor<1x2xi64>, channel_id = 0 : i64, is_host_transfer = false}
  }
  %r = arith.constant 0 : i32
  return %r : i32
}
