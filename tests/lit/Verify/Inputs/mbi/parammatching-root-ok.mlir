// MBI class: Parameter matching (RootMatching). np: 2. Correct.
// The twin of parammatching-root-bad: every member broadcasts from member 1
// (group [[1, 0]]), whatever its own id; member 1 fills the data first.
func.func @main() -> i32 {
  %me = distruntime.team_member team(0)
  %c1 = arith.constant 1 : index
  %is1 = arith.cmpi eq, %me, %c1 : index
  %b = memref.alloc() : memref<4xi64>
  %z = arith.constant 0 : i64
  linalg.fill ins(%z : i64) outs(%b : memref<4xi64>)
  scf.if %is1 {
    %v = arith.constant 7 : i64
    linalg.fill ins(%v : i64) outs(%b : memref<4xi64>)
  }
  distruntime.collective_broadcast ins(%b : memref<4xi64>) outs(%b : memref<4xi64>) {replica_groups = dense<[[1, 0]]> : tensor<1x2xi64>}
  %r = arith.constant 0 : i32
  return %r : i32
}
