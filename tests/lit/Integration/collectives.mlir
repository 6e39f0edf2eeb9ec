// StableHLO-style collectives compiled and run, values from closed forms.
// Process p holds x[k] = 10 p + k.
// RUN: split-file %s %t
// RUN: %compile %t/reduce.mlir -o %t/reduce
// RUN: %mpirun 1 %t/reduce | FileCheck %s --check-prefix=R1
// RUN: %mpirun 2 %t/reduce | FileCheck %s --check-prefix=R2
// RUN: %mpirun 3 %t/reduce | FileCheck %s --check-prefix=R3
// RUN: %mpirun 4 %t/reduce | FileCheck %s --check-prefix=R4
// RUN: %compile %t/alltoall.mlir -o %t/alltoall
// RUN: %mpirun 3 %t/alltoall | sort | FileCheck %s --check-prefix=A2A
// RUN: %compile %t/scatter.mlir -o %t/scatter
// RUN: %mpirun 2 %t/scatter | sort | FileCheck %s --check-prefix=RS
// RUN: %compile %t/permute.mlir -o %t/permute
// RUN: %mpirun 4 %t/permute | sort | FileCheck %s --check-prefix=PERM

// Multi-operand all_reduce over one group of all processes (empty
// replica_groups): sum of f32 x[k] = sum_p (10 p + k) = 5 P (P - 1) + P k;
// max of i16 -x[k] = -k.
// R1: sum 0 1 2 max 0 -1 -2
// R2: sum 10 12 14 max 0 -1 -2
// R3: sum 30 33 36 max 0 -1 -2
// R4: sum 60 64 68 max 0 -1 -2

// all_to_all on 3 processes, split_dimension 1, concat_dimension 0:
// process p holds a 1x3 row [10p, 10p+1, 10p+2]; block j = column j goes to
// process j, which stacks the blocks of processes 0, 1, 2 as rows.
// A2A: rank 0: 0 10 20
// A2A: rank 1: 1 11 21
// A2A: rank 2: 2 12 22

// reduce_scatter on 2 processes, groups [[1, 0]] (reordered), region max,
// scatter_dimension 1 of a 1x4 row: the member at position i keeps block i,
// so process 1 (position 0) keeps columns 0-1 and process 0 columns 2-3.
// max over p of 10p + k = 10 + k.
// RS: rank 0: 12 13
// RS: rank 1: 10 11

// collective_permute on 4 processes, partial chain [[0, 1], [1, 2], [3, 3]]:
// 1 and 2 get their source's values, 3 keeps its own, 0 is nobody's target.
// PERM: rank 0: 0 0
// PERM: rank 1: 0 1
// PERM: rank 2: 10 11
// PERM: rank 3: 30 31

//--- reduce.mlir
func.func @main() -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %me = distruntime.team_member team(0)
  %f = memref.alloc() : memref<3xf32>
  %g = memref.alloc() : memref<3xi16>
  scf.for %k = %c0 to %c3 step %c1 {
    %c10 = arith.constant 10 : index
    %p10 = arith.muli %me, %c10 : index
    %v = arith.addi %p10, %k : index
    %vi = arith.index_cast %v : index to i32
    %vf = arith.sitofp %vi : i32 to f32
    memref.store %vf, %f[%k] : memref<3xf32>
    %ki = arith.index_cast %k : index to i16
    %zero = arith.constant 0 : i16
    %pi = arith.index_cast %me : index to i16
    %ten = arith.constant 10 : i16
    %tp = arith.muli %pi, %ten : i16
    %xs = arith.addi %tp, %ki : i16
    %neg = arith.subi %zero, %xs : i16
    memref.store %neg, %g[%k] : memref<3xi16>
  }
  // Two operands of different element types, one op; outputs alias inputs.
  distruntime.all_reduce ins(%f : memref<3xf32>) outs(%f : memref<3xf32>) {reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>}
  distruntime.all_reduce ins(%g : memref<3xi16>) outs(%g : memref<3xi16>) {replica_groups = dense<> : tensor<0x0xi64>} computation {
  ^bb0(%a: i16, %b: i16):
    %m = arith.maxsi %a, %b : i16
    distruntime.yield %m : i16
  }
  %root = arith.cmpi eq, %me, %c0 : index
  scf.if %root {
    vector.print str "sum"
    scf.for %k = %c0 to %c3 step %c1 {
      %v = memref.load %f[%k] : memref<3xf32>
      vector.print str " "
      vector.print %v : f32 punctuation <no_punctuation>
    }
    vector.print str " max"
    scf.for %k = %c0 to %c3 step %c1 {
      %v = memref.load %g[%k] : memref<3xi16>
      %w = arith.extsi %v : i16 to i32
      vector.print str " "
      vector.print %w : i32 punctuation <no_punctuation>
    }
    vector.print punctuation <newline>
  }
  %ok = arith.constant 0 : i32
  return %ok : i32
}

//--- alltoall.mlir
module attributes {distruntime.num_replicas = 3 : i64} {
  func.func @main() -> i32 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %me = distruntime.team_member team(0)
    %p = arith.index_cast %me : index to i64
    %ten = arith.constant 10 : i64
    %b = arith.muli %p, %ten : i64
    %one = arith.constant 1 : i64
    %two = arith.constant 2 : i64
    %b1 = arith.addi %b, %one : i64
    %b2 = arith.addi %b, %two : i64
    %x = tensor.from_elements %b, %b1, %b2 : tensor<1x3xi64>
    %r = distruntime.all_to_all ins(%x : tensor<1x3xi64>) {split_dimension = 1 : i64, concat_dimension = 0 : i64, split_count = 3 : i64, replica_groups = dense<[[0, 1, 2]]> : tensor<1x3xi64>} -> tensor<3x1xi64>
    vector.print str "rank "
    vector.print %p : i64 punctuation <no_punctuation>
    vector.print str ":"
    scf.for %i = %c0 to %c3 step %c1 {
      %v = tensor.extract %r[%i, %c0] : tensor<3x1xi64>
      vector.print str " "
      vector.print %v : i64 punctuation <no_punctuation>
    }
    vector.print punctuation <newline>
    %ok = arith.constant 0 : i32
    return %ok : i32
  }
}

//--- scatter.mlir
module attributes {distruntime.num_replicas = 2 : i64} {
  func.func @main() -> i32 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %me = distruntime.team_member team(0)
    %p = arith.index_cast %me : index to i32
    %ten = arith.constant 10 : i32
    %b = arith.muli %p, %ten : i32
    %x = memref.alloc() : memref<1x4xi32>
    scf.for %k = %c0 to %c4 step %c1 {
      %ki = arith.index_cast %k : index to i32
      %v = arith.addi %b, %ki : i32
      memref.store %v, %x[%c0, %k] : memref<1x4xi32>
    }
    %y = memref.alloc() : memref<1x2xi32>
    %h = distruntime.reduce_scatter ins(%x : memref<1x4xi32>) outs(%y : memref<1x2xi32>) async {scatter_dimension = 1 : i64, replica_groups = dense<[[1, 0]]> : tensor<1x2xi64>} computation {
    ^bb0(%a: i32, %c: i32):
      %m = arith.maxsi %a, %c : i32
      distruntime.yield %m : i32
    }
    distruntime.wait %h
    vector.print str "rank "
    vector.print %p : i32 punctuation <no_punctuation>
    vector.print str ":"
    scf.for %k = %c0 to %c2 step %c1 {
      %v = memref.load %y[%c0, %k] : memref<1x2xi32>
      vector.print str " "
      vector.print %v : i32 punctuation <no_punctuation>
    }
    vector.print punctuation <newline>
    %ok = arith.constant 0 : i32
    return %ok : i32
  }
}

//--- permute.mlir
module attributes {distruntime.num_replicas = 4 : i64} {
  func.func @main() -> i32 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %me = distruntime.team_member team(0)
    %p = arith.index_cast %me : index to i64
    %ten = arith.constant 10 : i64
    %b = arith.muli %p, %ten : i64
    %one = arith.constant 1 : i64
    %b1 = arith.addi %b, %one : i64
    %x = tensor.from_elements %b, %b1 : tensor<2xi64>
    %r = distruntime.collective_permute ins(%x : tensor<2xi64>) {source_target_pairs = dense<[[0, 1], [1, 2], [3, 3]]> : tensor<3x2xi64>} -> tensor<2xi64>
    vector.print str "rank "
    vector.print %p : i64 punctuation <no_punctuation>
    vector.print str ":"
    scf.for %k = %c0 to %c2 step %c1 {
      %v = tensor.extract %r[%k] : tensor<2xi64>
      vector.print str " "
      vector.print %v : i64 punctuation <no_punctuation>
    }
    vector.print punctuation <newline>
    %ok = arith.constant 0 : i32
    return %ok : i32
  }
}
