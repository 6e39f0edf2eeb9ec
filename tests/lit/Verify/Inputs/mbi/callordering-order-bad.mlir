// MBI class: Call ordering (CallMatching). np: 2. Erroneous.
// Member 0 runs all_reduce then all_gather, the others all_gather then
// all_reduce: the first collective of each member meets a different one.
func.func @main() -> i32 {
  %me = distruntime.team_member team(0)
  %c0 = arith.constant 0 : index
  %is0 = arith.cmpi eq, %me, %c0 : index
  %a = memref.alloc() : memref<4xf32>
  %g = memref.alloc() : memref<2xi32>
  %o = memref.alloc() : memref<4xi32>
  scf.if %is0 {
    distruntime.all_reduce ins(%a : memref<4xf32>) outs(%a : memref<4xf32>) {reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>}
    distruntime.all_gather ins(%g : memref<2xi32>) outs(%o : memref<4xi32>) {all_gather_dim = 0 : i64, replica_groups = dense<> : tensor<0x0xi64>}
  } else {
    distruntime.all_gather ins(%g : memref<2xi32>) outs(%o : memref<4xi32>) {all_gather_dim = 0 : i64, replica_groups = dense<> : tensor<0x0xi64>}
    distruntime.all_reduce ins(%a : memref<4xf32>) outs(%a : memref<4xf32>) {reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>}
  }
  %r = arith.constant 0 : i32
  return %r : i32
}
