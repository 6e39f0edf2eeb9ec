// ragged_all_to_all compiled and run. One source for every np (1-4):
// sizes computed at run time, member p sends peer j s(p, j) = (p + j) % 3
// rows, consecutive from row 0 in peer order, x[r] = 100 p + r; block
// p -> j lands on j after the blocks of senders q < p (sync, memref form,
// i64 sizes), or q > p (async, on strided column views: staged, i32 sizes,
// 1000 + 100 p + r; the other column must stay -1). Output rows nothing
// lands in keep -1. Expected values from that closed form. Then StableHLO's
// cases (JAX's ragged_all_to_all tests): two processes, two groups of two,
// and singleton groups; and mismatched sizes, an error on the receiver.
// RUN: split-file %s %t
// RUN: %compile %t/any.mlir -o %t/any
// RUN: %mpirun 1 %t/any | FileCheck %s --check-prefix=N1
// RUN: %mpirun 2 %t/any | FileCheck %s --check-prefix=N2
// RUN: %mpirun 3 %t/any | FileCheck %s --check-prefix=N3
// RUN: %mpirun 4 %t/any | FileCheck %s --check-prefix=N4
// Checked mode agrees on the sizes' lengths only: each member's are its own.
// RUN: env DISTRT_CHECK=1 %mpirun 3 %t/any | FileCheck %s --check-prefix=N3
// RUN: %compile %t/pair.mlir -o %t/pair
// RUN: %mpirun 2 %t/pair | FileCheck %s --check-prefix=PAIR
// RUN: %compile %t/groups.mlir -o %t/groups
// RUN: %mpirun 4 %t/groups | FileCheck %s --check-prefix=GROUPS
// RUN: %compile %t/degenerate.mlir -o %t/degenerate
// RUN: %mpirun 2 %t/degenerate | FileCheck %s --check-prefix=DEGENERATE
// RUN: %compile %t/mismatch.mlir -o %t/mismatch
// RUN: %S/Inputs/fails-within.sh 60 %mpirun 2 %t/mismatch 2>&1 | FileCheck %s --check-prefix=MISMATCH
// RUN: %compile %t/overlap.mlir -o %t/overlap
// RUN: %S/Inputs/fails-within.sh 60 %mpirun 2 %t/overlap 2>&1 | FileCheck %s --check-prefix=OVERLAP

// N1-DAG: rank 0 sync: -1 -1 -1{{$}}
// N1-DAG: rank 0 async: -1 -1 -1{{$}}
// N2-DAG: rank 0 sync: 100 -1 -1 -1 -1{{$}}
// N2-DAG: rank 0 async: 1100 -1 -1 -1 -1{{$}}
// N2-DAG: rank 1 sync: 0 101 102 -1 -1{{$}}
// N2-DAG: rank 1 async: 1101 1102 1000 -1 -1{{$}}
// N3-DAG: rank 0 sync: 100 200 201 -1 -1 -1 -1{{$}}
// N3-DAG: rank 0 async: 1200 1201 1100 -1 -1 -1 -1{{$}}
// N3-DAG: rank 1 sync: 0 101 102 -1 -1 -1 -1{{$}}
// N3-DAG: rank 1 async: 1101 1102 1000 -1 -1 -1 -1{{$}}
// N3-DAG: rank 2 sync: 1 2 202 -1 -1 -1 -1{{$}}
// N3-DAG: rank 2 async: 1202 1001 1002 -1 -1 -1 -1{{$}}
// N4-DAG: rank 0 sync: 100 200 201 -1 -1 -1 -1 -1 -1{{$}}
// N4-DAG: rank 0 async: 1200 1201 1100 -1 -1 -1 -1 -1 -1{{$}}
// N4-DAG: rank 1 sync: 0 101 102 300 -1 -1 -1 -1 -1{{$}}
// N4-DAG: rank 1 async: 1300 1101 1102 1000 -1 -1 -1 -1 -1{{$}}
// N4-DAG: rank 2 sync: 1 2 202 301 302 -1 -1 -1 -1{{$}}
// N4-DAG: rank 2 async: 1301 1302 1202 1001 1002 -1 -1 -1 -1{{$}}
// N4-DAG: rank 3 sync: 103 203 204 -1 -1 -1 -1 -1 -1{{$}}
// N4-DAG: rank 3 async: 1203 1204 1103 -1 -1 -1 -1 -1 -1{{$}}

// PAIR-DAG: rank 0: 1 3 0 0{{$}}
// PAIR-DAG: rank 1: 2 2 4 0{{$}}
// GROUPS-DAG: rank 0: 1 3 0 0{{$}}
// GROUPS-DAG: rank 1: 2 2 4 0{{$}}
// GROUPS-DAG: rank 2: 10 30 0 0{{$}}
// GROUPS-DAG: rank 3: 20 20 40 0{{$}}
// DEGENERATE-DAG: rank 0: 0 0 1 0{{$}}
// DEGENERATE-DAG: rank 1: 0 2 3 4{{$}}
// MISMATCH: distrt: error: ragged_all_to_all at {{.*}}mismatch.mlir:19:8: team 0, rank 1: member 0 (team rank 0) sends this member 2 rows (its send_sizes) but this member's recv_sizes at 0 is 1
// Both senders write row 0 of rank 0.
// OVERLAP: distrt: error: ragged_all_to_all at {{.*}}overlap.mlir:19:8: team 0, rank 0: members 0 and 1 (team ranks 0 and 1) both write row 0 of this member's output (their output_offsets)

//--- any.mlir
func.func @fill(%m: memref<?xi64>, %v: i64) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %m, %c0 : memref<?xi64>
  scf.for %i = %c0 to %n step %c1 {
    memref.store %v, %m[%i] : memref<?xi64>
  }
  return
}
// s(p, j) = (p + j) % 3 rows.
func.func @rows(%p: index, %j: index) -> index {
  %c3 = arith.constant 3 : index
  %a = arith.addi %p, %j : index
  %r = arith.remui %a, %c3 : index
  return %r : index
}
func.func @main() -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %me = distruntime.team_member team(0)
  %np = distruntime.team_size team(0)
  %p = arith.index_cast %me : index to i64
  // Rows: the input holds 2 P (at most 2 per peer), the output 2 P + 1.
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
  %io = memref.alloc(%np) : memref<?xi64>
  %ss = memref.alloc(%np) : memref<?xi64>
  %oo = memref.alloc(%np) : memref<?xi64>
  %rs = memref.alloc(%np) : memref<?xi64>
  // Consecutive blocks in peer order; block p -> j lands after the blocks
  // of senders q < p on j.
  %end = scf.for %j = %c0 to %np step %c1 iter_args(%at = %c0) -> (index) {
    %s = func.call @rows(%me, %j) : (index, index) -> index
    %r = func.call @rows(%j, %me) : (index, index) -> index
    %o = scf.for %q = %c0 to %me step %c1 iter_args(%sum = %c0) -> (index) {
      %t = func.call @rows(%q, %j) : (index, index) -> index
      %n = arith.addi %sum, %t : index
      scf.yield %n : index
    }
    %at64 = arith.index_cast %at : index to i64
    %s64 = arith.index_cast %s : index to i64
    %o64 = arith.index_cast %o : index to i64
    %r64 = arith.index_cast %r : index to i64
    memref.store %at64, %io[%j] : memref<?xi64>
    memref.store %s64, %ss[%j] : memref<?xi64>
    memref.store %o64, %oo[%j] : memref<?xi64>
    memref.store %r64, %rs[%j] : memref<?xi64>
    %next = arith.addi %at, %s : index
    scf.yield %next : index
  }
  %y = memref.alloc(%nout) : memref<?xi64>
  %minus1 = arith.constant -1 : i64
  func.call @fill(%y, %minus1) : (memref<?xi64>, i64) -> ()
  distruntime.ragged_all_to_all ins(%x : memref<?xi64>) outs(%y : memref<?xi64>) input_offsets(%io : memref<?xi64>) send_sizes(%ss : memref<?xi64>) output_offsets(%oo : memref<?xi64>) recv_sizes(%rs : memref<?xi64>) {replica_groups = dense<> : tensor<0x0xi64>}
  vector.print str "rank "
  vector.print %p : i64 punctuation <no_punctuation>
  vector.print str " sync:"
  scf.for %r = %c0 to %nout step %c1 {
    %v = memref.load %y[%r] : memref<?xi64>
    vector.print str " "
    vector.print %v : i64 punctuation <no_punctuation>
  }
  vector.print punctuation <newline>
  // Async, on column 1 of n x 2 buffers (strided: staged), i32 sizes,
  // x2[r] = 1000 + 100 p + r; block p -> j lands after the blocks of
  // senders q > p (peer order reversed).
  %x2 = memref.alloc(%nin) : memref<?x2xi64>
  %c1000 = arith.constant 1000 : i64
  %base2 = arith.addi %base, %c1000 : i64
  scf.for %r = %c0 to %nin step %c1 {
    %ri = arith.index_cast %r : index to i64
    %v = arith.addi %base2, %ri : i64
    memref.store %v, %x2[%r, %c1] : memref<?x2xi64>
    memref.store %minus1, %x2[%r, %c0] : memref<?x2xi64>
  }
  %y2 = memref.alloc(%nout) : memref<?x2xi64>
  scf.for %r = %c0 to %nout step %c1 {
    memref.store %minus1, %y2[%r, %c0] : memref<?x2xi64>
    memref.store %minus1, %y2[%r, %c1] : memref<?x2xi64>
  }
  %xs = memref.subview %x2[0, 1] [%nin, 1] [1, 1] : memref<?x2xi64> to memref<?x1xi64, strided<[2, 1], offset: 1>>
  %ys = memref.subview %y2[0, 1] [%nout, 1] [1, 1] : memref<?x2xi64> to memref<?x1xi64, strided<[2, 1], offset: 1>>
  %io2 = memref.alloc(%np) : memref<?xi32>
  %ss2 = memref.alloc(%np) : memref<?xi32>
  %oo2 = memref.alloc(%np) : memref<?xi32>
  %rs2 = memref.alloc(%np) : memref<?xi32>
  %me1 = arith.addi %me, %c1 : index
  scf.for %j = %c0 to %np step %c1 {
    %at = memref.load %io[%j] : memref<?xi64>
    %s = memref.load %ss[%j] : memref<?xi64>
    %r = memref.load %rs[%j] : memref<?xi64>
    %o = scf.for %q = %me1 to %np step %c1 iter_args(%sum = %c0) -> (index) {
      %t = func.call @rows(%q, %j) : (index, index) -> index
      %n = arith.addi %sum, %t : index
      scf.yield %n : index
    }
    %at32 = arith.trunci %at : i64 to i32
    %s32 = arith.trunci %s : i64 to i32
    %o32 = arith.index_cast %o : index to i32
    %r32 = arith.trunci %r : i64 to i32
    memref.store %at32, %io2[%j] : memref<?xi32>
    memref.store %s32, %ss2[%j] : memref<?xi32>
    memref.store %o32, %oo2[%j] : memref<?xi32>
    memref.store %r32, %rs2[%j] : memref<?xi32>
  }
  %h = distruntime.ragged_all_to_all ins(%xs : memref<?x1xi64, strided<[2, 1], offset: 1>>) outs(%ys : memref<?x1xi64, strided<[2, 1], offset: 1>>) input_offsets(%io2 : memref<?xi32>) send_sizes(%ss2 : memref<?xi32>) output_offsets(%oo2 : memref<?xi32>) recv_sizes(%rs2 : memref<?xi32>) async {replica_groups = dense<> : tensor<0x0xi64>}
  distruntime.wait %h
  vector.print str "rank "
  vector.print %p : i64 punctuation <no_punctuation>
  vector.print str " async:"
  scf.for %r = %c0 to %nout step %c1 {
    %v = memref.load %y2[%r, %c1] : memref<?x2xi64>
    %w = memref.load %y2[%r, %c0] : memref<?x2xi64>
    %vw = arith.addi %v, %w : i64
    %one = arith.constant 1 : i64
    %v2 = arith.addi %vw, %one : i64
    vector.print str " "
    vector.print %v2 : i64 punctuation <no_punctuation>
  }
  vector.print punctuation <newline>
  %ok = arith.constant 0 : i32
  return %ok : i32
}

//--- pair.mlir
module attributes {distruntime.num_replicas = 2 : i64} {
func.func @main() -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %cn = arith.constant 4 : index
  %me = distruntime.team_member team(0)
  %p = arith.index_cast %me : index to i64
  %all = arith.constant dense<[[1, 2, 2], [3, 4, 0]]> : tensor<2x3xi32>
  %ios = arith.constant dense<[[0, 1], [0, 1]]> : tensor<2x2xi64>
  %sss = arith.constant dense<[[1, 2], [1, 1]]> : tensor<2x2xi64>
  %oos = arith.constant dense<[[0, 0], [1, 2]]> : tensor<2x2xi64>
  %rss = arith.constant dense<[[1, 1], [2, 1]]> : tensor<2x2xi64>
  %x = tensor.extract_slice %all[%me, 0] [1, 3] [1, 1] : tensor<2x3xi32> to tensor<3xi32>
  %io = tensor.extract_slice %ios[%me, 0] [1, 2] [1, 1] : tensor<2x2xi64> to tensor<2xi64>
  %ss = tensor.extract_slice %sss[%me, 0] [1, 2] [1, 1] : tensor<2x2xi64> to tensor<2xi64>
  %oo = tensor.extract_slice %oos[%me, 0] [1, 2] [1, 1] : tensor<2x2xi64> to tensor<2xi64>
  %rs = tensor.extract_slice %rss[%me, 0] [1, 2] [1, 1] : tensor<2x2xi64> to tensor<2xi64>
  %z = arith.constant dense<0> : tensor<4xi32>
  %r = distruntime.ragged_all_to_all ins(%x, %z : tensor<3xi32>, tensor<4xi32>) input_offsets(%io : tensor<2xi64>) send_sizes(%ss : tensor<2xi64>) output_offsets(%oo : tensor<2xi64>) recv_sizes(%rs : tensor<2xi64>) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} -> tensor<4xi32>
  vector.print str "rank "
  vector.print %p : i64 punctuation <no_punctuation>
  vector.print str ":"
  scf.for %i = %c0 to %cn step %c1 {
    %v = tensor.extract %r[%i] : tensor<4xi32>
    vector.print str " "
    vector.print %v : i32 punctuation <no_punctuation>
  }
  vector.print punctuation <newline>
  %ok = arith.constant 0 : i32
  return %ok : i32
}
}

//--- groups.mlir
module attributes {distruntime.num_replicas = 4 : i64} {
func.func @main() -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %cn = arith.constant 4 : index
  %me = distruntime.team_member team(0)
  %p = arith.index_cast %me : index to i64
  %all = arith.constant dense<[[1, 2, 2], [3, 4, 0], [10, 20, 20], [30, 40, 0]]> : tensor<4x3xi32>
  %ios = arith.constant dense<[[0, 1], [0, 1], [0, 1], [0, 1]]> : tensor<4x2xi64>
  %sss = arith.constant dense<[[1, 2], [1, 1], [1, 2], [1, 1]]> : tensor<4x2xi64>
  %oos = arith.constant dense<[[0, 0], [1, 2], [0, 0], [1, 2]]> : tensor<4x2xi64>
  %rss = arith.constant dense<[[1, 1], [2, 1], [1, 1], [2, 1]]> : tensor<4x2xi64>
  %x = tensor.extract_slice %all[%me, 0] [1, 3] [1, 1] : tensor<4x3xi32> to tensor<3xi32>
  %io = tensor.extract_slice %ios[%me, 0] [1, 2] [1, 1] : tensor<4x2xi64> to tensor<2xi64>
  %ss = tensor.extract_slice %sss[%me, 0] [1, 2] [1, 1] : tensor<4x2xi64> to tensor<2xi64>
  %oo = tensor.extract_slice %oos[%me, 0] [1, 2] [1, 1] : tensor<4x2xi64> to tensor<2xi64>
  %rs = tensor.extract_slice %rss[%me, 0] [1, 2] [1, 1] : tensor<4x2xi64> to tensor<2xi64>
  %z = arith.constant dense<0> : tensor<4xi32>
  %r = distruntime.ragged_all_to_all ins(%x, %z : tensor<3xi32>, tensor<4xi32>) input_offsets(%io : tensor<2xi64>) send_sizes(%ss : tensor<2xi64>) output_offsets(%oo : tensor<2xi64>) recv_sizes(%rs : tensor<2xi64>) {replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>} -> tensor<4xi32>
  vector.print str "rank "
  vector.print %p : i64 punctuation <no_punctuation>
  vector.print str ":"
  scf.for %i = %c0 to %cn step %c1 {
    %v = tensor.extract %r[%i] : tensor<4xi32>
    vector.print str " "
    vector.print %v : i32 punctuation <no_punctuation>
  }
  vector.print punctuation <newline>
  %ok = arith.constant 0 : i32
  return %ok : i32
}
}

//--- degenerate.mlir
module attributes {distruntime.num_replicas = 2 : i64} {
func.func @main() -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %cn = arith.constant 4 : index
  %me = distruntime.team_member team(0)
  %p = arith.index_cast %me : index to i64
  %all = arith.constant dense<[[1, 0, 0, 0], [2, 3, 4, 0]]> : tensor<2x4xi32>
  %ios = arith.constant dense<[[0], [0]]> : tensor<2x1xi64>
  %sss = arith.constant dense<[[1], [3]]> : tensor<2x1xi64>
  %oos = arith.constant dense<[[2], [1]]> : tensor<2x1xi64>
  %rss = arith.constant dense<[[1], [3]]> : tensor<2x1xi64>
  %x = tensor.extract_slice %all[%me, 0] [1, 4] [1, 1] : tensor<2x4xi32> to tensor<4xi32>
  %io = tensor.extract_slice %ios[%me, 0] [1, 1] [1, 1] : tensor<2x1xi64> to tensor<1xi64>
  %ss = tensor.extract_slice %sss[%me, 0] [1, 1] [1, 1] : tensor<2x1xi64> to tensor<1xi64>
  %oo = tensor.extract_slice %oos[%me, 0] [1, 1] [1, 1] : tensor<2x1xi64> to tensor<1xi64>
  %rs = tensor.extract_slice %rss[%me, 0] [1, 1] [1, 1] : tensor<2x1xi64> to tensor<1xi64>
  %z = arith.constant dense<0> : tensor<4xi32>
  %r = distruntime.ragged_all_to_all ins(%x, %z : tensor<4xi32>, tensor<4xi32>) input_offsets(%io : tensor<1xi64>) send_sizes(%ss : tensor<1xi64>) output_offsets(%oo : tensor<1xi64>) recv_sizes(%rs : tensor<1xi64>) {replica_groups = dense<[[0], [1]]> : tensor<2x1xi64>} -> tensor<4xi32>
  vector.print str "rank "
  vector.print %p : i64 punctuation <no_punctuation>
  vector.print str ":"
  scf.for %i = %c0 to %cn step %c1 {
    %v = tensor.extract %r[%i] : tensor<4xi32>
    vector.print str " "
    vector.print %v : i32 punctuation <no_punctuation>
  }
  vector.print punctuation <newline>
  %ok = arith.constant 0 : i32
  return %ok : i32
}
}

//--- mismatch.mlir
module attributes {distruntime.num_replicas = 2 : i64} {
func.func @main() -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %cn = arith.constant 4 : index
  %me = distruntime.team_member team(0)
  %p = arith.index_cast %me : index to i64
  %all = arith.constant dense<[[1, 2, 2], [3, 4, 0]]> : tensor<2x3xi32>
  %ios = arith.constant dense<[[0, 1], [0, 1]]> : tensor<2x2xi64>
  %sss = arith.constant dense<[[1, 2], [1, 1]]> : tensor<2x2xi64>
  %oos = arith.constant dense<[[0, 0], [1, 2]]> : tensor<2x2xi64>
  %rss = arith.constant dense<[[1, 1], [1, 1]]> : tensor<2x2xi64>
  %x = tensor.extract_slice %all[%me, 0] [1, 3] [1, 1] : tensor<2x3xi32> to tensor<3xi32>
  %io = tensor.extract_slice %ios[%me, 0] [1, 2] [1, 1] : tensor<2x2xi64> to tensor<2xi64>
  %ss = tensor.extract_slice %sss[%me, 0] [1, 2] [1, 1] : tensor<2x2xi64> to tensor<2xi64>
  %oo = tensor.extract_slice %oos[%me, 0] [1, 2] [1, 1] : tensor<2x2xi64> to tensor<2xi64>
  %rs = tensor.extract_slice %rss[%me, 0] [1, 2] [1, 1] : tensor<2x2xi64> to tensor<2xi64>
  %z = arith.constant dense<0> : tensor<4xi32>
  %r = distruntime.ragged_all_to_all ins(%x, %z : tensor<3xi32>, tensor<4xi32>) input_offsets(%io : tensor<2xi64>) send_sizes(%ss : tensor<2xi64>) output_offsets(%oo : tensor<2xi64>) recv_sizes(%rs : tensor<2xi64>) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} -> tensor<4xi32>
  vector.print str "rank "
  vector.print %p : i64 punctuation <no_punctuation>
  vector.print str ":"
  scf.for %i = %c0 to %cn step %c1 {
    %v = tensor.extract %r[%i] : tensor<4xi32>
    vector.print str " "
    vector.print %v : i32 punctuation <no_punctuation>
  }
  vector.print punctuation <newline>
  %ok = arith.constant 0 : i32
  return %ok : i32
}
}

//--- overlap.mlir
module attributes {distruntime.num_replicas = 2 : i64} {
func.func @main() -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %cn = arith.constant 4 : index
  %me = distruntime.team_member team(0)
  %p = arith.index_cast %me : index to i64
  %all = arith.constant dense<[[1, 2, 2], [3, 4, 0]]> : tensor<2x3xi32>
  %ios = arith.constant dense<[[0, 1], [0, 1]]> : tensor<2x2xi64>
  %sss = arith.constant dense<[[1, 2], [1, 1]]> : tensor<2x2xi64>
  %oos = arith.constant dense<[[0, 0], [0, 1]]> : tensor<2x2xi64>
  %rss = arith.constant dense<[[1, 1], [2, 1]]> : tensor<2x2xi64>
  %x = tensor.extract_slice %all[%me, 0] [1, 3] [1, 1] : tensor<2x3xi32> to tensor<3xi32>
  %io = tensor.extract_slice %ios[%me, 0] [1, 2] [1, 1] : tensor<2x2xi64> to tensor<2xi64>
  %ss = tensor.extract_slice %sss[%me, 0] [1, 2] [1, 1] : tensor<2x2xi64> to tensor<2xi64>
  %oo = tensor.extract_slice %oos[%me, 0] [1, 2] [1, 1] : tensor<2x2xi64> to tensor<2xi64>
  %rs = tensor.extract_slice %rss[%me, 0] [1, 2] [1, 1] : tensor<2x2xi64> to tensor<2xi64>
  %z = arith.constant dense<0> : tensor<4xi32>
  %r = distruntime.ragged_all_to_all ins(%x, %z : tensor<3xi32>, tensor<4xi32>) input_offsets(%io : tensor<2xi64>) send_sizes(%ss : tensor<2xi64>) output_offsets(%oo : tensor<2xi64>) recv_sizes(%rs : tensor<2xi64>) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} -> tensor<4xi32>
  vector.print str "rank "
  vector.print %p : i64 punctuation <no_punctuation>
  vector.print str ":"
  scf.for %i = %c0 to %cn step %c1 {
    %v = tensor.extract %r[%i] : tensor<4xi32>
    vector.print str " "
    vector.print %v : i32 punctuation <no_punctuation>
  }
  vector.print punctuation <newline>
  %ok = arith.constant 0 : i32
  return %ok : i32
}
}
