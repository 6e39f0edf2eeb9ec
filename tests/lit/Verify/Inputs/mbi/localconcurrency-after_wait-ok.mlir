// MBI class: Local concurrency (LocalConcurrency). np: 2. Correct.
// The twin of localconcurrency-send_write-bad and -recv_read-bad: member 0
// overwrites its send buffer only after the send's wait, member 1 reads its
// receive buffer only after the receive's wait.
func.func @main() -> i32 {
  %me = distruntime.team_member team(0)
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %is0 = arith.cmpi eq, %me, %c0 : index
  %is1 = arith.cmpi eq, %me, %c1 : index
  %x = memref.alloc() : memref<4xf32>
  %s = memref.alloc() : memref<1xf32>
  scf.if %is0 {
    %h = distruntime.send ins(%x : memref<4xf32>) async {source_target_pairs = dense<[[0, 1]]> : tensor<1x2xi64>, channel_id = 0 : i64, is_host_transfer = false}
    distruntime.wait %h
    %v = arith.constant 3.0 : f32
    memref.store %v, %x[%c0] : memref<4xf32>
  }
  scf.if %is1 {
    %h = distruntime.recv outs(%x : memref<4xf32>) async {source_target_pairs = dense<[[0, 1]]> : tensor<1x2xi64>, channel_id = 0 : i64, is_host_transfer = false}
    distruntime.wait %h
    %v = memref.load %x[%c0] : memref<4xf32>
    memref.store %v, %s[%c0] : memref<1xf32>
  }
  %r = arith.constant 0 : i32
  return %r : i32
}
