// MBI class: Request lifecycle (MissingWait). np: 2. Erroneous.
// Member 1 posts an async receive and never waits for it; member 0's send
// is blocking. The receive request is left pending at exit.
func.func @main() -> i32 {
  %me = distruntime.team_member team(0)
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %is0 = arith.cmpi eq, %me, %c0 : index
  %is1 = arith.cmpi eq, %me, %c1 : index
  %x = memref.alloc() : memref<4xf32>
  scf.if %is0 {
    distruntime.send ins(%x : memref<4xf32>) {source_target_pairs = dense<[[0, 1]]> : tensor<1x2xi64>, channel_id = 0 : i64, is_host_transfer = false}
  }
  scf.if %is1 {
    %h = distruntime.recv outs(%x : memref<4xf32>) async {source_target_pairs = dense<[[0, 1]]> : tensor<1x2xi64>, channel_id = 0 : i64, is_host_transfer = false}
  }
  %r = arith.constant 0 : i32
  return %r : i32
}
