// MBI class: Parameter matching (DatatypeMatching). np: 2. Erroneous.
// all_gather of two i32 on member 0 and of two f32 on the others: the same
// bytes under another datatype (MPI: type signatures do not match).
func.func @main() -> i32 {
  %me = distruntime.team_member team(0)
  %c0 = arith.constant 0 : index
  %is0 = arith.cmpi eq, %me, %c0 : index
  scf.if %is0 {
    %g = memref.alloc() : memref<2xi32>
    %o = memref.alloc() : memref<4xi32>
    distruntime.all_gather ins(%g : memref<2xi32>) outs(%o : memref<4xi32>) {all_gather_dim = 0 : i64, replica_groups = dense<> : tensor<0x0xi64>}
  } else {
    %g = memref.alloc() : memref<2xf32>
    %o = memref.alloc() : memref<4xf32>
    distruntime.all_gather ins(%g : memref<2xf32>) outs(%o : memref<4xf32>) {all_gather_dim = 0 : i64, replica_groups = dense<> : tensor<0x0xi64>}
  }
  %r = arith.constant 0 : i32
  return %r : i32
}
