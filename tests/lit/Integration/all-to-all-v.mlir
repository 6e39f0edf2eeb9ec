// all_to_all_v compiled and run at np 1-4, values from the closed form:
// member i of a group of G sends member j (i + 2 j + s) % 3 rows (zero,
// odd and uneven counts), from row 0 in group order; it receives them in
// group order into its output's leading rows; rows past them are 0 and rows
// of the input past its row's sum are not sent. Sync memref form (s = 1)
// over the whole team, x[r] = 100 p + r; async tensor form (s = 0) in groups
// whose order is not the ranks' (np 4: two groups), t[r][c] = 100 p + 10 r + c.
// RUN: split-file %s %t
// RUN: %compile %t/np1.mlir -o %t/np1
// RUN: %mpirun 1 %t/np1 | FileCheck %s --check-prefix=N1
// RUN: %compile %t/np2.mlir -o %t/np2
// RUN: %mpirun 2 %t/np2 | FileCheck %s --check-prefix=N2
// RUN: %compile %t/np3.mlir -o %t/np3
// RUN: %mpirun 3 %t/np3 | FileCheck %s --check-prefix=N3
// RUN: %compile %t/np4.mlir -o %t/np4
// RUN: %mpirun 4 %t/np4 | FileCheck %s --check-prefix=N4

// np 1: sync send_counts [[1]]; async groups [[0]], send_counts [[0]].
// N1-DAG: rank 0 sync: 0 0{{$}}
// N1-DAG: rank 0 async: 0 0{{$}}

// np 2: sync send_counts [[1, 0], [2, 1]]; async groups [[1, 0]], send_counts [[0, 2], [1, 0]].
// N2-DAG: rank 0 sync: 0 100 101 0{{$}}
// N2-DAG: rank 0 async: 100 101 110 111 0 0{{$}}
// N2-DAG: rank 1 sync: 102 0 0 0{{$}}
// N2-DAG: rank 1 async: 0 1 0 0 0 0{{$}}

// np 3: sync send_counts [[1, 0, 2], [2, 1, 0], [0, 2, 1]]; async groups [[2, 0, 1]], send_counts [[0, 2, 1], [1, 0, 2], [2, 1, 0]].
// N3-DAG: rank 0 sync: 0 100 101 0{{$}}
// N3-DAG: rank 0 async: 200 201 210 211 120 121 0 0{{$}}
// N3-DAG: rank 1 sync: 102 200 201 0{{$}}
// N3-DAG: rank 1 async: 220 221 10 11 20 21 0 0{{$}}
// N3-DAG: rank 2 sync: 1 2 202 0{{$}}
// N3-DAG: rank 2 async: 0 1 100 101 110 111 0 0{{$}}

// np 4: sync send_counts [[1, 0, 2, 1], [2, 1, 0, 2], [0, 2, 1, 0], [1, 0, 2, 1]]; async groups [[0, 2], [3, 1]], send_counts [[0, 2], [1, 0]].
// N4-DAG: rank 0 sync: 0 100 101 300 0 0{{$}}
// N4-DAG: rank 0 async: 200 201 0 0 0 0{{$}}
// N4-DAG: rank 1 sync: 102 200 201 0 0 0{{$}}
// N4-DAG: rank 1 async: 300 301 310 311 0 0{{$}}
// N4-DAG: rank 2 sync: 1 2 202 301 302 0{{$}}
// N4-DAG: rank 2 async: 0 1 10 11 0 0{{$}}
// N4-DAG: rank 3 sync: 3 103 104 303 0 0{{$}}
// N4-DAG: rank 3 async: 100 101 0 0 0 0{{$}}

//--- np1.mlir
module attributes {distruntime.num_replicas = 1 : i64} {
  func.func @main() -> i32 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %me = distruntime.team_member team(0)
    %p = arith.index_cast %me : index to i64
    %c100 = arith.constant 100 : i64
    %base = arith.muli %p, %c100 : i64
    // Sync, memref form: x[r] = 100 p + r.
    %nin = arith.constant 2 : index
    %nout = arith.constant 2 : index
    %x = memref.alloc() : memref<2xi64>
    %y = memref.alloc() : memref<2xi64>
    %minus1 = arith.constant -1 : i64
    scf.for %r = %c0 to %nin step %c1 {
      %ri = arith.index_cast %r : index to i64
      %v = arith.addi %base, %ri : i64
      memref.store %v, %x[%r] : memref<2xi64>
    }
    linalg.fill ins(%minus1 : i64) outs(%y : memref<2xi64>)
    distruntime.all_to_all_v ins(%x : memref<2xi64>) outs(%y : memref<2xi64>) {send_counts = dense<[[1]]> : tensor<1x1xi64>, recv_counts = dense<[[1]]> : tensor<1x1xi64>, replica_groups = dense<[[0]]> : tensor<1x1xi64>}
    vector.print str "rank "
    vector.print %p : i64 punctuation <no_punctuation>
    vector.print str " sync:"
    scf.for %r = %c0 to %nout step %c1 {
      %v = memref.load %y[%r] : memref<2xi64>
      vector.print str " "
      vector.print %v : i64 punctuation <no_punctuation>
    }
    vector.print punctuation <newline>
    // Async, tensor form, groups [[0]]: t[r][c] = 100 p + 10 r + c.
    %t = tensor.generate {
    ^bb0(%r: index, %c: index):
      %ri = arith.index_cast %r : index to i64
      %ci = arith.index_cast %c : index to i64
      %c10 = arith.constant 10 : i64
      %r10 = arith.muli %ri, %c10 : i64
      %a = arith.addi %base, %r10 : i64
      %v = arith.addi %a, %ci : i64
      tensor.yield %v : i64
    } : tensor<1x2xi64>
    %u, %h = distruntime.all_to_all_v ins(%t : tensor<1x2xi64>) async {send_counts = dense<[[0]]> : tensor<1x1xi64>, recv_counts = dense<[[0]]> : tensor<1x1xi64>, replica_groups = dense<[[0]]> : tensor<1x1xi64>} -> tensor<1x2xi64>
    distruntime.wait %h
    vector.print str "rank "
    vector.print %p : i64 punctuation <no_punctuation>
    vector.print str " async:"
    %n2 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    scf.for %r = %c0 to %n2 step %c1 {
      scf.for %c = %c0 to %c2 step %c1 {
        %v = tensor.extract %u[%r, %c] : tensor<1x2xi64>
        vector.print str " "
        vector.print %v : i64 punctuation <no_punctuation>
      }
    }
    vector.print punctuation <newline>
    %ok = arith.constant 0 : i32
    return %ok : i32
  }
}

//--- np2.mlir
module attributes {distruntime.num_replicas = 2 : i64} {
  func.func @main() -> i32 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %me = distruntime.team_member team(0)
    %p = arith.index_cast %me : index to i64
    %c100 = arith.constant 100 : i64
    %base = arith.muli %p, %c100 : i64
    // Sync, memref form: x[r] = 100 p + r.
    %nin = arith.constant 4 : index
    %nout = arith.constant 4 : index
    %x = memref.alloc() : memref<4xi64>
    %y = memref.alloc() : memref<4xi64>
    %minus1 = arith.constant -1 : i64
    scf.for %r = %c0 to %nin step %c1 {
      %ri = arith.index_cast %r : index to i64
      %v = arith.addi %base, %ri : i64
      memref.store %v, %x[%r] : memref<4xi64>
    }
    linalg.fill ins(%minus1 : i64) outs(%y : memref<4xi64>)
    distruntime.all_to_all_v ins(%x : memref<4xi64>) outs(%y : memref<4xi64>) {send_counts = dense<[[1, 0], [2, 1]]> : tensor<2x2xi64>, recv_counts = dense<[[1, 2], [0, 1]]> : tensor<2x2xi64>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}
    vector.print str "rank "
    vector.print %p : i64 punctuation <no_punctuation>
    vector.print str " sync:"
    scf.for %r = %c0 to %nout step %c1 {
      %v = memref.load %y[%r] : memref<4xi64>
      vector.print str " "
      vector.print %v : i64 punctuation <no_punctuation>
    }
    vector.print punctuation <newline>
    // Async, tensor form, groups [[1, 0]]: t[r][c] = 100 p + 10 r + c.
    %t = tensor.generate {
    ^bb0(%r: index, %c: index):
      %ri = arith.index_cast %r : index to i64
      %ci = arith.index_cast %c : index to i64
      %c10 = arith.constant 10 : i64
      %r10 = arith.muli %ri, %c10 : i64
      %a = arith.addi %base, %r10 : i64
      %v = arith.addi %a, %ci : i64
      tensor.yield %v : i64
    } : tensor<2x2xi64>
    %u, %h = distruntime.all_to_all_v ins(%t : tensor<2x2xi64>) async {send_counts = dense<[[0, 2], [1, 0]]> : tensor<2x2xi64>, recv_counts = dense<[[0, 1], [2, 0]]> : tensor<2x2xi64>, replica_groups = dense<[[1, 0]]> : tensor<1x2xi64>} -> tensor<3x2xi64>
    distruntime.wait %h
    vector.print str "rank "
    vector.print %p : i64 punctuation <no_punctuation>
    vector.print str " async:"
    %n2 = arith.constant 3 : index
    %c2 = arith.constant 2 : index
    scf.for %r = %c0 to %n2 step %c1 {
      scf.for %c = %c0 to %c2 step %c1 {
        %v = tensor.extract %u[%r, %c] : tensor<3x2xi64>
        vector.print str " "
        vector.print %v : i64 punctuation <no_punctuation>
      }
    }
    vector.print punctuation <newline>
    %ok = arith.constant 0 : i32
    return %ok : i32
  }
}

//--- np3.mlir
module attributes {distruntime.num_replicas = 3 : i64} {
  func.func @main() -> i32 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %me = distruntime.team_member team(0)
    %p = arith.index_cast %me : index to i64
    %c100 = arith.constant 100 : i64
    %base = arith.muli %p, %c100 : i64
    // Sync, memref form: x[r] = 100 p + r.
    %nin = arith.constant 4 : index
    %nout = arith.constant 4 : index
    %x = memref.alloc() : memref<4xi64>
    %y = memref.alloc() : memref<4xi64>
    %minus1 = arith.constant -1 : i64
    scf.for %r = %c0 to %nin step %c1 {
      %ri = arith.index_cast %r : index to i64
      %v = arith.addi %base, %ri : i64
      memref.store %v, %x[%r] : memref<4xi64>
    }
    linalg.fill ins(%minus1 : i64) outs(%y : memref<4xi64>)
    distruntime.all_to_all_v ins(%x : memref<4xi64>) outs(%y : memref<4xi64>) {send_counts = dense<[[1, 0, 2], [2, 1, 0], [0, 2, 1]]> : tensor<3x3xi64>, recv_counts = dense<[[1, 2, 0], [0, 1, 2], [2, 0, 1]]> : tensor<3x3xi64>, replica_groups = dense<[[0, 1, 2]]> : tensor<1x3xi64>}
    vector.print str "rank "
    vector.print %p : i64 punctuation <no_punctuation>
    vector.print str " sync:"
    scf.for %r = %c0 to %nout step %c1 {
      %v = memref.load %y[%r] : memref<4xi64>
      vector.print str " "
      vector.print %v : i64 punctuation <no_punctuation>
    }
    vector.print punctuation <newline>
    // Async, tensor form, groups [[2, 0, 1]]: t[r][c] = 100 p + 10 r + c.
    %t = tensor.generate {
    ^bb0(%r: index, %c: index):
      %ri = arith.index_cast %r : index to i64
      %ci = arith.index_cast %c : index to i64
      %c10 = arith.constant 10 : i64
      %r10 = arith.muli %ri, %c10 : i64
      %a = arith.addi %base, %r10 : i64
      %v = arith.addi %a, %ci : i64
      tensor.yield %v : i64
    } : tensor<3x2xi64>
    %u, %h = distruntime.all_to_all_v ins(%t : tensor<3x2xi64>) async {send_counts = dense<[[0, 2, 1], [1, 0, 2], [2, 1, 0]]> : tensor<3x3xi64>, recv_counts = dense<[[0, 1, 2], [2, 0, 1], [1, 2, 0]]> : tensor<3x3xi64>, replica_groups = dense<[[2, 0, 1]]> : tensor<1x3xi64>} -> tensor<4x2xi64>
    distruntime.wait %h
    vector.print str "rank "
    vector.print %p : i64 punctuation <no_punctuation>
    vector.print str " async:"
    %n2 = arith.constant 4 : index
    %c2 = arith.constant 2 : index
    scf.for %r = %c0 to %n2 step %c1 {
      scf.for %c = %c0 to %c2 step %c1 {
        %v = tensor.extract %u[%r, %c] : tensor<4x2xi64>
        vector.print str " "
        vector.print %v : i64 punctuation <no_punctuation>
      }
    }
    vector.print punctuation <newline>
    %ok = arith.constant 0 : i32
    return %ok : i32
  }
}

//--- np4.mlir
module attributes {distruntime.num_replicas = 4 : i64} {
  func.func @main() -> i32 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %me = distruntime.team_member team(0)
    %p = arith.index_cast %me : index to i64
    %c100 = arith.constant 100 : i64
    %base = arith.muli %p, %c100 : i64
    // Sync, memref form: x[r] = 100 p + r.
    %nin = arith.constant 6 : index
    %nout = arith.constant 6 : index
    %x = memref.alloc() : memref<6xi64>
    %y = memref.alloc() : memref<6xi64>
    %minus1 = arith.constant -1 : i64
    scf.for %r = %c0 to %nin step %c1 {
      %ri = arith.index_cast %r : index to i64
      %v = arith.addi %base, %ri : i64
      memref.store %v, %x[%r] : memref<6xi64>
    }
    linalg.fill ins(%minus1 : i64) outs(%y : memref<6xi64>)
    distruntime.all_to_all_v ins(%x : memref<6xi64>) outs(%y : memref<6xi64>) {send_counts = dense<[[1, 0, 2, 1], [2, 1, 0, 2], [0, 2, 1, 0], [1, 0, 2, 1]]> : tensor<4x4xi64>, recv_counts = dense<[[1, 2, 0, 1], [0, 1, 2, 0], [2, 0, 1, 2], [1, 2, 0, 1]]> : tensor<4x4xi64>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>}
    vector.print str "rank "
    vector.print %p : i64 punctuation <no_punctuation>
    vector.print str " sync:"
    scf.for %r = %c0 to %nout step %c1 {
      %v = memref.load %y[%r] : memref<6xi64>
      vector.print str " "
      vector.print %v : i64 punctuation <no_punctuation>
    }
    vector.print punctuation <newline>
    // Async, tensor form, groups [[0, 2], [3, 1]]: t[r][c] = 100 p + 10 r + c.
    %t = tensor.generate {
    ^bb0(%r: index, %c: index):
      %ri = arith.index_cast %r : index to i64
      %ci = arith.index_cast %c : index to i64
      %c10 = arith.constant 10 : i64
      %r10 = arith.muli %ri, %c10 : i64
      %a = arith.addi %base, %r10 : i64
      %v = arith.addi %a, %ci : i64
      tensor.yield %v : i64
    } : tensor<2x2xi64>
    %u, %h = distruntime.all_to_all_v ins(%t : tensor<2x2xi64>) async {send_counts = dense<[[0, 2], [1, 0]]> : tensor<2x2xi64>, recv_counts = dense<[[0, 1], [2, 0]]> : tensor<2x2xi64>, replica_groups = dense<[[0, 2], [3, 1]]> : tensor<2x2xi64>} -> tensor<3x2xi64>
    distruntime.wait %h
    vector.print str "rank "
    vector.print %p : i64 punctuation <no_punctuation>
    vector.print str " async:"
    %n2 = arith.constant 3 : index
    %c2 = arith.constant 2 : index
    scf.for %r = %c0 to %n2 step %c1 {
      scf.for %c = %c0 to %c2 step %c1 {
        %v = tensor.extract %u[%r, %c] : tensor<3x2xi64>
        vector.print str " "
        vector.print %v : i64 punctuation <no_punctuation>
      }
    }
    vector.print punctuation <newline>
    %ok = arith.constant 0 : i32
    return %ok : i32
  }
}
