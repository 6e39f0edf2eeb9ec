// MBI class: Parameter matching (DatatypeMatching). np: 2. Erroneous.
// Member 0 sends four f32, member 1 receives four i32 on the same channel:
// the bytes match, the datatypes do not.
func.func @main() -> i32 {
  %me = distruntime.team_member team(0)
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %is0 = arith.cmpi eq, %me, %c0 : index
  %is1 = arith.cmpi eq, %me, %c1 : index
  scf.if %is0 {
    %x = memref.alloc() : memref<4xf32>
    distruntime.send ins(%x : memref<4xf32>) {source_target_pairs = dense<[[0, 1]]> : tensor<1x2xi64>, channel_id = 0 : i64, is_host_transfer = false}
  }
  scf.if %is1 {
    %y = memref.alloc() : memref<4xi32>
    distruntime.recv outs(%y : memref<4xi32>) {source_target_pairs = dense<[[0, 1]]> : tensor<1x2xi64>, channel_id = 0 : i64, is_host_transfer = false}
  }
  %r = arith.constant 0 : i32
  return %r : i32
}
