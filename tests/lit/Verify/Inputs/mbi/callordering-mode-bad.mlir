// MBI class: Call ordering (CallMatching). np: 2. Erroneous.
// Member 0 calls the all_reduce blocking, the others nonblocking (async,
// then wait): MPI never matches a blocking collective with a nonblocking one.
func.func @main() -> i32 {
  %me = distruntime.team_member team(0)
  %c0 = arith.constant 0 : index
  %is0 = arith.cmpi eq, %me, %c0 : index
  %a = memref.alloc() : memref<4xf32>
  scf.if %is0 {
    distruntime.all_reduce ins(%a : memref<4xf32>) outs(%a : memref<4xf32>) {reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>}
  } else {
    %h = distruntime.all_reduce ins(%a : memref<4xf32>) outs(%a : memref<4xf32>) async {reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>}
    distruntime.wait %h
  }
  %r = arith.constant 0 : i32
  return %r : i32
}
