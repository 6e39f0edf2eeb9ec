// Rank 0 returns 3 from main, the others 0.
func.func @main() -> i32 {
  %me = distruntime.team_member team(0)
  %c0 = arith.constant 0 : index
  %three = arith.constant 3 : i32
  %zero = arith.constant 0 : i32
  %first = arith.cmpi eq, %me, %c0 : index
  %r = arith.select %first, %three, %zero : i32
  return %r : i32
}
