// MBI class: Local concurrency (LocalConcurrency). np: 2. Erroneous.
// Member 0 starts an async send of x and overwrites x before the send's
// wait: the message may carry the old or the new values (MPI: a send buffer
// modified before MPI_Wait).
func.func @main() -> i32 {
  %me = distruntime.team_member team(0)
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %is0 = arith.cmpi eq, %me, %c0 : index
  %is1 = arith.cmpi eq, %me, %c1 : index
  %x = memref.alloc() : memref<4xf32>
  scf.if %is0 {
    %h = distruntime.send ins(%x : memref<4xf32>) async {source_target_pairs = dense<[[0, 1]]> : tensor<1x2xi64>, channel_id = 0 : i64, is_host_transfer = false}
    %v = arith.constant 3.0 : f32
    memref.store %v, %x[%c0] : memref<4xf32>
    distruntime.wait %h
  }
  scf.if %is1 {
    distruntime.recv outs(%x : memref<4xf32>) {source_target_pairs = dense<[[0, 1]]> : tensor<1x2xi64>, channel_id = 0 : i64, is_host_transfer = false}
  }
  %r = arith.constant 0 : i32
  return %r : i32
}
