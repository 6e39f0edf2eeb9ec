// MBI class: Parameter matching (RootMatching). np: 2. Erroneous.
// collective_broadcast whose root (the first id of the group) is 0 on
// member 0 and 1 on member 1: each member believes it is the root.
func.func @main() -> i32 {
  %me = distruntime.team_member team(0)
  %c0 = arith.constant 0 : index
  %is0 = arith.cmpi eq, %me, %c0 : index
  %b = memref.alloc() : memref<4xi64>
  scf.if %is0 {
    distruntime.collective_broadcast ins(%b : memref<4xi64>) outs(%b : memref<4xi64>) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}
  } else {
    distruntime.collective_broadcast ins(%b : memref<4xi64>) outs(%b : memref<4xi64>) {replica_groups = dense<[[1, 0]]> : tensor<1x2xi64>}
  }
  %r = arith.constant 0 : i32
  return %r : i32
}
