// MBI class: Call ordering (CallMatching). np: 2. Correct.
// Rank-dependent work between two collectives: member 0 scales its data
// before the all_reduce, the others do not. Every member runs the same two
// collectives in the same order; only local computation differs.
func.func @main() -> i32 {
  %me = distruntime.team_member team(0)
  %c0 = arith.constant 0 : index
  %is0 = arith.cmpi eq, %me, %c0 : index
  %two = arith.constant 2.0 : f32
  %a = memref.alloc() : memref<4xf32>
  linalg.fill ins(%two : f32) outs(%a : memref<4xf32>)
  distruntime.all_reduce ins(%a : memref<4xf32>) outs(%a : memref<4xf32>) {reduction = #distruntime.reduction<max>, replica_groups = dense<> : tensor<0x0xi64>}
  scf.if %is0 {
    %x = memref.load %a[%c0] : memref<4xf32>
    %y = arith.mulf %x, %two : f32
    memref.store %y, %a[%c0] : memref<4xf32>
  }
  distruntime.all_reduce ins(%a : memref<4xf32>) outs(%a : memref<4xf32>) {reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>}
  %r = arith.constant 0 : i32
  return %r : i32
}
