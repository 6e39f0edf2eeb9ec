// Compiled with the installed distruntime-compile and run at np 2: every
// member contributes [r + 1, 10 * r]; member 0 prints the sums.
func.func @main() -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %me = distruntime.team_member team(0)
  %n = distruntime.team_size team(0)
  %buf = memref.alloc() : memref<2xi64>
  %r = arith.index_cast %me : index to i64
  %one = arith.constant 1 : i64
  %ten = arith.constant 10 : i64
  %a = arith.addi %r, %one : i64
  %b = arith.muli %r, %ten : i64
  memref.store %a, %buf[%c0] : memref<2xi64>
  memref.store %b, %buf[%c1] : memref<2xi64>
  distruntime.allreduce <sum> %buf team(0) : memref<2xi64>
  %root = arith.cmpi eq, %me, %c0 : index
  scf.if %root {
    %x = memref.load %buf[%c0] : memref<2xi64>
    %y = memref.load %buf[%c1] : memref<2xi64>
    %ni = arith.index_cast %n : index to i64
    vector.print str "prog: size "
    vector.print %ni : i64 punctuation <no_punctuation>
    vector.print str " sums "
    vector.print %x : i64 punctuation <no_punctuation>
    vector.print str " "
    vector.print %y : i64
  }
  memref.dealloc %buf : memref<2xi64>
  %z = arith.constant 0 : i32
  return %z : i32
}
