// all_to_all without split_count: the count is the group's size, known at
// run time, so one source runs at every np (1-4). x[r][c] = 100 p + 10 r
// + c; sync along rows (member p receives row p of every member, in group
// order), async along columns of the transposed layout. Expected values
// from that closed form.
// RUN: %compile %s -o %t
// RUN: %mpirun 1 %t | FileCheck %s --check-prefix=N1
// RUN: %mpirun 2 %t | FileCheck %s --check-prefix=N2
// RUN: %mpirun 3 %t | FileCheck %s --check-prefix=N3
// RUN: %mpirun 4 %t | FileCheck %s --check-prefix=N4

// N1-DAG: rank 0 sync: 0 1{{$}}
// N1-DAG: rank 0 async: 0 1 10 11{{$}}
// N2-DAG: rank 0 sync: 0 1 100 101{{$}}
// N2-DAG: rank 0 async: 0 1 100 101 10 11 110 111{{$}}
// N2-DAG: rank 1 sync: 10 11 110 111{{$}}
// N2-DAG: rank 1 async: 2 3 102 103 12 13 112 113{{$}}
// N3-DAG: rank 0 sync: 0 1 100 101 200 201{{$}}
// N3-DAG: rank 0 async: 0 1 100 101 200 201 10 11 110 111 210 211{{$}}
// N3-DAG: rank 1 sync: 10 11 110 111 210 211{{$}}
// N3-DAG: rank 1 async: 2 3 102 103 202 203 12 13 112 113 212 213{{$}}
// N3-DAG: rank 2 sync: 20 21 120 121 220 221{{$}}
// N3-DAG: rank 2 async: 4 5 104 105 204 205 14 15 114 115 214 215{{$}}
// N4-DAG: rank 0 sync: 0 1 100 101 200 201 300 301{{$}}
// N4-DAG: rank 0 async: 0 1 100 101 200 201 300 301 10 11 110 111 210 211 310 311{{$}}
// N4-DAG: rank 1 sync: 10 11 110 111 210 211 310 311{{$}}
// N4-DAG: rank 1 async: 2 3 102 103 202 203 302 303 12 13 112 113 212 213 312 313{{$}}
// N4-DAG: rank 2 sync: 20 21 120 121 220 221 320 321{{$}}
// N4-DAG: rank 2 async: 4 5 104 105 204 205 304 305 14 15 114 115 214 215 314 315{{$}}
// N4-DAG: rank 3 sync: 30 31 130 131 230 231 330 331{{$}}
// N4-DAG: rank 3 async: 6 7 106 107 206 207 306 307 16 17 116 117 216 217 316 317{{$}}

func.func @main() -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %me = distruntime.team_member team(0)
  %np = distruntime.team_size team(0)
  %p = arith.index_cast %me : index to i64
  // x[r][c] = 100 p + 10 r + c: row j goes to member j.
  %x = memref.alloc(%np) : memref<?x2xi64>
  %c100 = arith.constant 100 : i64
  %c10 = arith.constant 10 : i64
  %base = arith.muli %p, %c100 : i64
  scf.for %r = %c0 to %np step %c1 {
    scf.for %c = %c0 to %c2 step %c1 {
      %ri = arith.index_cast %r : index to i64
      %ci = arith.index_cast %c : index to i64
      %r10 = arith.muli %ri, %c10 : i64
      %a = arith.addi %base, %r10 : i64
      %v = arith.addi %a, %ci : i64
      memref.store %v, %x[%r, %c] : memref<?x2xi64>
    }
  }
  %y = memref.alloc(%np) : memref<?x2xi64>
  distruntime.all_to_all ins(%x : memref<?x2xi64>) outs(%y : memref<?x2xi64>) {split_dimension = 0 : i64, concat_dimension = 0 : i64, replica_groups = dense<> : tensor<0x0xi64>}
  // Split along the columns' twin: the transposed layout, async.
  %n2 = arith.muli %np, %c2 : index
  %z = memref.alloc(%n2) : memref<2x?xi64>
  %xt = memref.alloc(%n2) : memref<2x?xi64>
  scf.for %r = %c0 to %c2 step %c1 {
    scf.for %c = %c0 to %n2 step %c1 {
      %ri = arith.index_cast %r : index to i64
      %ci = arith.index_cast %c : index to i64
      %r10 = arith.muli %ri, %c10 : i64
      %a = arith.addi %base, %r10 : i64
      %v = arith.addi %a, %ci : i64
      memref.store %v, %xt[%r, %c] : memref<2x?xi64>
    }
  }
  %h = distruntime.all_to_all ins(%xt : memref<2x?xi64>) outs(%z : memref<2x?xi64>) async {split_dimension = 1 : i64, concat_dimension = 1 : i64, replica_groups = dense<> : tensor<0x0xi64>}
  distruntime.wait %h
  vector.print str "rank "
  vector.print %p : i64 punctuation <no_punctuation>
  vector.print str " sync:"
  scf.for %r = %c0 to %np step %c1 {
    scf.for %c = %c0 to %c2 step %c1 {
      %v = memref.load %y[%r, %c] : memref<?x2xi64>
      vector.print str " "
      vector.print %v : i64 punctuation <no_punctuation>
    }
  }
  vector.print punctuation <newline>
  vector.print str "rank "
  vector.print %p : i64 punctuation <no_punctuation>
  vector.print str " async:"
  scf.for %r = %c0 to %c2 step %c1 {
    scf.for %c = %c0 to %n2 step %c1 {
      %v = memref.load %z[%r, %c] : memref<2x?xi64>
      vector.print str " "
      vector.print %v : i64 punctuation <no_punctuation>
    }
  }
  vector.print punctuation <newline>
  %ok = arith.constant 0 : i32
  return %ok : i32
}
