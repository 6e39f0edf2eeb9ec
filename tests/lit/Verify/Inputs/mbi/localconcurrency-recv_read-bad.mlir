// MBI class: Local concurrency (LocalConcurrency). np: 2. Erroneous.
// Member 1 posts an async receive into y and reads y before the wait: it
// may read the old contents (MPI: a receive buffer accessed before
// MPI_Wait).
func.func @main() -> i32 {
  %me = distruntime.team_member team(0)
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %is0 = arith.cmpi eq, %me, %c0 : index
  %is1 = arith.cmpi eq, %me, %c1 : index
  %y = memref.alloc() : memref<4xf32>
  %s = memref.alloc() : memref<1xf32>
  scf.if %is0 {
    distruntime.send ins(%y : memref<4xf32>) {source_target_pairs = dense<[[0, 1]]> : tensor<1x2xi64>, channel_id = 0 : i64, is_host_transfer = false}
  }
  scf.if %is1 {
    %h = distruntime.recv outs(%y : memref<4xf32>) async {source_target_pairs = dense<[[0, 1]]> : tensor<1x2xi64>, channel_id = 0 : i64, is_host_transfer = false}
    %v = memref.load %y[%c0] : memref<4xf32>
    memref.store %v, %s[%c0] : memref<1xf32>
    distruntime.wait %h
  }
  %r = arith.constant 0 : i32
  return %r : i32
}
