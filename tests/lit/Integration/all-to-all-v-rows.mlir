// all_to_all_v with this member's counts as operands (the rows form, as
// MPI_Alltoallv takes them), one source for every np (1-4): member i sends
// member j s(i, j) = (i + 2 j + 1) % 3 rows, consecutive from row 0 in
// group order, x[r] = 100 i + r; received blocks fill the output's leading
// rows in group order, the rows past them become 0. Sync with i64 counts
// (tag 0), async with i32 counts (tag 1). Expected values from that closed
// form. Checked mode checks what each member receives against what its
// peer sends: rank 1 expecting one row more from rank 0 is named.
// RUN: split-file %s %t
// RUN: %compile %t/rows.mlir -o %t/rows
// RUN: %mpirun 1 %t/rows | FileCheck %s --check-prefix=N1
// RUN: %mpirun 2 %t/rows | FileCheck %s --check-prefix=N2
// RUN: %mpirun 3 %t/rows | FileCheck %s --check-prefix=N3
// RUN: %mpirun 4 %t/rows | FileCheck %s --check-prefix=N4
// RUN: env DISTRT_CHECK=1 %mpirun 3 %t/rows | FileCheck %s --check-prefix=N3
// RUN: %compile %t/bad.mlir -o %t/bad
// RUN: env DISTRT_CHECK=1 %S/Inputs/fails-within.sh 60 %mpirun 2 %t/bad 2>&1 | FileCheck %s --check-prefix=BAD

// N1-DAG: rank 0 0: 0 0 0{{$}}
// N1-DAG: rank 0 1: 0 0 0{{$}}
// N2-DAG: rank 0 0: 0 100 101 0 0{{$}}
// N2-DAG: rank 0 1: 0 100 101 0 0{{$}}
// N2-DAG: rank 1 0: 102 0 0 0 0{{$}}
// N2-DAG: rank 1 1: 102 0 0 0 0{{$}}
// N3-DAG: rank 0 0: 0 100 101 0 0 0 0{{$}}
// N3-DAG: rank 0 1: 0 100 101 0 0 0 0{{$}}
// N3-DAG: rank 1 0: 102 200 201 0 0 0 0{{$}}
// N3-DAG: rank 1 1: 102 200 201 0 0 0 0{{$}}
// N3-DAG: rank 2 0: 1 2 202 0 0 0 0{{$}}
// N3-DAG: rank 2 1: 1 2 202 0 0 0 0{{$}}
// N4-DAG: rank 0 0: 0 100 101 300 0 0 0 0 0{{$}}
// N4-DAG: rank 0 1: 0 100 101 300 0 0 0 0 0{{$}}
// N4-DAG: rank 1 0: 102 200 201 0 0 0 0 0 0{{$}}
// N4-DAG: rank 1 1: 102 200 201 0 0 0 0 0 0{{$}}
// N4-DAG: rank 2 0: 1 2 202 301 302 0 0 0 0{{$}}
// N4-DAG: rank 2 1: 1 2 202 301 302 0 0 0 0{{$}}
// N4-DAG: rank 3 0: 3 103 104 303 0 0 0 0 0{{$}}
// N4-DAG: rank 3 1: 3 103 104 303 0 0 0 0 0{{$}}

// BAD: distrt: error: all_to_all_v at {{.*}}bad.mlir:{{[0-9]+}}:3: team 0, rank 1: member 0 (team rank 0) sends this member 0 rows (its send_counts) but this member's recv_counts at 0 is 1

//--- rows.mlir
func.func @rows(%p: index, %j: index) -> index {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %jj = arith.muli %j, %c2 : index
  %a = arith.addi %p, %jj : index
  %b = arith.addi %a, %c1 : index
  %r = arith.remui %b, %c3 : index
  return %r : index
}
func.func @print(%tag: i64, %p: i64, %y: memref<?xi64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %y, %c0 : memref<?xi64>
  vector.print str "rank "
  vector.print %p : i64 punctuation <no_punctuation>
  vector.print str " "
  vector.print %tag : i64 punctuation <no_punctuation>
  vector.print str ":"
  scf.for %r = %c0 to %n step %c1 {
    %v = memref.load %y[%r] : memref<?xi64>
    vector.print str " "
    vector.print %v : i64 punctuation <no_punctuation>
  }
  vector.print punctuation <newline>
  return
}
func.func @main() -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %me = distruntime.team_member team(0)
  %np = distruntime.team_size team(0)
  %p = arith.index_cast %me : index to i64
  %nin = arith.muli %np, %c2 : index
  %nout = arith.addi %nin, %c1 : index
  %x = memref.alloc(%nin) : memref<?xi64>
  %c100 = arith.constant 100 : i64
  %base = arith.muli %p, %c100 : i64
  scf.for %r = %c0 to %nin step %c1 {
    %ri = arith.index_cast %r : index to i64
    %v = arith.addi %base, %ri : i64
    memref.store %v, %x[%r] : memref<?xi64>
  }
  %sc = memref.alloc(%np) : memref<?xi64>
  %rc = memref.alloc(%np) : memref<?xi64>
  %sc32 = memref.alloc(%np) : memref<?xi32>
  %rc32 = memref.alloc(%np) : memref<?xi32>
  scf.for %j = %c0 to %np step %c1 {
    %s = func.call @rows(%me, %j) : (index, index) -> index
    %r = func.call @rows(%j, %me) : (index, index) -> index
    %s64 = arith.index_cast %s : index to i64
    %r64 = arith.index_cast %r : index to i64
    %s32 = arith.index_cast %s : index to i32
    %r32 = arith.index_cast %r : index to i32
    memref.store %s64, %sc[%j] : memref<?xi64>
    memref.store %r64, %rc[%j] : memref<?xi64>
    memref.store %s32, %sc32[%j] : memref<?xi32>
    memref.store %r32, %rc32[%j] : memref<?xi32>
  }
  %minus1 = arith.constant -1 : i64
  %y = memref.alloc(%nout) : memref<?xi64>
  linalg.fill ins(%minus1 : i64) outs(%y : memref<?xi64>)
  distruntime.all_to_all_v ins(%x : memref<?xi64>) outs(%y : memref<?xi64>) send_counts(%sc : memref<?xi64>) recv_counts(%rc : memref<?xi64>) {replica_groups = dense<> : tensor<0x0xi64>}
  %t0 = arith.constant 0 : i64
  func.call @print(%t0, %p, %y) : (i64, i64, memref<?xi64>) -> ()
  %z = memref.alloc(%nout) : memref<?xi64>
  linalg.fill ins(%minus1 : i64) outs(%z : memref<?xi64>)
  %h = distruntime.all_to_all_v ins(%x : memref<?xi64>) outs(%z : memref<?xi64>) send_counts(%sc32 : memref<?xi32>) recv_counts(%rc32 : memref<?xi32>) async {replica_groups = dense<> : tensor<0x0xi64>}
  distruntime.wait %h
  %t1 = arith.constant 1 : i64
  func.call @print(%t1, %p, %z) : (i64, i64, memref<?xi64>) -> ()
  %ok = arith.constant 0 : i32
  return %ok : i32
}

//--- bad.mlir
func.func @rows(%p: index, %j: index) -> index {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %jj = arith.muli %j, %c2 : index
  %a = arith.addi %p, %jj : index
  %b = arith.addi %a, %c1 : index
  %r = arith.remui %b, %c3 : index
  return %r : index
}
func.func @print(%tag: i64, %p: i64, %y: memref<?xi64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %y, %c0 : memref<?xi64>
  vector.print str "rank "
  vector.print %p : i64 punctuation <no_punctuation>
  vector.print str " "
  vector.print %tag : i64 punctuation <no_punctuation>
  vector.print str ":"
  scf.for %r = %c0 to %n step %c1 {
    %v = memref.load %y[%r] : memref<?xi64>
    vector.print str " "
    vector.print %v : i64 punctuation <no_punctuation>
  }
  vector.print punctuation <newline>
  return
}
func.func @main() -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %me = distruntime.team_member team(0)
  %np = distruntime.team_size team(0)
  %p = arith.index_cast %me : index to i64
  %nin = arith.muli %np, %c2 : index
  %nout = arith.addi %nin, %c1 : index
  %x = memref.alloc(%nin) : memref<?xi64>
  %c100 = arith.constant 100 : i64
  %base = arith.muli %p, %c100 : i64
  scf.for %r = %c0 to %nin step %c1 {
    %ri = arith.index_cast %r : index to i64
    %v = arith.addi %base, %ri : i64
    memref.store %v, %x[%r] : memref<?xi64>
  }
  %sc = memref.alloc(%np) : memref<?xi64>
  %rc = memref.alloc(%np) : memref<?xi64>
  %sc32 = memref.alloc(%np) : memref<?xi32>
  %rc32 = memref.alloc(%np) : memref<?xi32>
  scf.for %j = %c0 to %np step %c1 {
    %s = func.call @rows(%me, %j) : (index, index) -> index
    %r0 = func.call @rows(%j, %me) : (index, index) -> index
    %is1 = arith.cmpi eq, %me, %c1 : index
    %isj0 = arith.cmpi eq, %j, %c0 : index
    %both = arith.andi %is1, %isj0 : i1
    %one = arith.select %both, %c1, %c0 : index
    %r = arith.addi %r0, %one : index
    %s64 = arith.index_cast %s : index to i64
    %r64 = arith.index_cast %r : index to i64
    %s32 = arith.index_cast %s : index to i32
    %r32 = arith.index_cast %r : index to i32
    memref.store %s64, %sc[%j] : memref<?xi64>
    memref.store %r64, %rc[%j] : memref<?xi64>
    memref.store %s32, %sc32[%j] : memref<?xi32>
    memref.store %r32, %rc32[%j] : memref<?xi32>
  }
  %minus1 = arith.constant -1 : i64
  %y = memref.alloc(%nout) : memref<?xi64>
  linalg.fill ins(%minus1 : i64) outs(%y : memref<?xi64>)
  distruntime.all_to_all_v ins(%x : memref<?xi64>) outs(%y : memref<?xi64>) send_counts(%sc : memref<?xi64>) recv_counts(%rc : memref<?xi64>) {replica_groups = dense<> : tensor<0x0xi64>}
  %t0 = arith.constant 0 : i64
  func.call @print(%t0, %p, %y) : (i64, i64, memref<?xi64>) -> ()
  %z = memref.alloc(%nout) : memref<?xi64>
  linalg.fill ins(%minus1 : i64) outs(%z : memref<?xi64>)
  %h = distruntime.all_to_all_v ins(%x : memref<?xi64>) outs(%z : memref<?xi64>) send_counts(%sc32 : memref<?xi32>) recv_counts(%rc32 : memref<?xi32>) async {replica_groups = dense<> : tensor<0x0xi64>}
  distruntime.wait %h
  %t1 = arith.constant 1 : i64
  func.call @print(%t1, %p, %z) : (i64, i64, memref<?xi64>) -> ()
  %ok = arith.constant 0 : i32
  return %ok : i32
}
