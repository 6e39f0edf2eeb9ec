// MBI class: Request lifecycle (MissingWait). np: 2. Correct.
// The twin of reqlifecycle-one_path-bad: both sides of the branch on the
// member id wait for the handle (member 0 after some local work).
func.func @main() -> i32 {
  %me = distruntime.team_member team(0)
  %c0 = arith.constant 0 : index
  %is0 = arith.cmpi eq, %me, %c0 : index
  %two = arith.constant 2.0 : f32
  %a = memref.alloc() : memref<4xf32>
  %b = memref.alloc() : memref<4xf32>
  %h = distruntime.all_reduce ins(%a : memref<4xf32>) outs(%a : memref<4xf32>) async {reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>}
  scf.if %is0 {
    linalg.fill ins(%two : f32) outs(%b : memref<4xf32>)
    distruntime.wait %h
  } else {
    distruntime.wait %h
  }
  %r = arith.constant 0 : i32
  return %r : i32
}
