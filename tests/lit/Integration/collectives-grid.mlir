// StableHLO-style collectives with several operands, on a replica x
// partition grid, and in tensor form, compiled and run. Expected values are
// closed forms of StableHLO's definitions (derived in the comments). The
// flattened id of (replica r, partition p) is r * num_partitions + p, the
// MPI rank.
// RUN: split-file %s %t
// RUN: %compile %t/multi.mlir -o %t/multi
// RUN: %mpirun 3 %t/multi | sort | FileCheck %s --check-prefix=MULTI
// RUN: %compile %t/grid.mlir -o %t/grid
// RUN: %mpirun 4 %t/grid | sort | FileCheck %s --check-prefix=GRID
// RUN: %compile %t/tensors2.mlir -o %t/tensors2
// RUN: %mpirun 2 %t/tensors2 | sort | FileCheck %s --check-prefix=T2
// RUN: %compile %t/tensors3.mlir -o %t/tensors3
// RUN: %mpirun 3 %t/tensors3 | sort | FileCheck %s --check-prefix=T3

// multi.mlir, 3 replicas (odd count), one group of all three in a permuted
// order.
// all_gather of two operands in one op, all_gather_dim 1, group [2, 0, 1]:
// results are the operands of processes 2, 0, 1 concatenated in that order.
//   c@p = [[100 p], [100 p + 1]] : 2x1xi16 -> [[200, 0, 100], [201, 1, 101]]
//   d@p = [[p + 0.5, 10 p]] : 1x2xf32 -> [[2.5, 20, 0.5, 0, 1.5, 10]]
// all_reduce of two operands in one op, a@p[k] = 10 p + k (3xi32) and
// b@p[i][j] = (p + 1) (2 i + j + 1) / 4 (2x2xf64), row-major below:
//   sum: a -> 30 + 3 k; b -> (1 + 2 + 3) (m + 1) / 4 = 1.5 (m + 1), m = 2 i + j
//   max: a -> 20 + k;   b -> 3 (m + 1) / 4
// MULTI: all_gather rank 0: 200 0 100 201 1 101 | 2.5 20 0.5 0 1.5 10
// MULTI-NEXT: all_gather rank 1: 200 0 100 201 1 101 | 2.5 20 0.5 0 1.5 10
// MULTI-NEXT: all_gather rank 2: 200 0 100 201 1 101 | 2.5 20 0.5 0 1.5 10
// MULTI-NEXT: all_reduce max rank 0: 20 21 22 | 0.75 1.5 2.25 3
// MULTI-NEXT: all_reduce max rank 1: 20 21 22 | 0.75 1.5 2.25 3
// MULTI-NEXT: all_reduce max rank 2: 20 21 22 | 0.75 1.5 2.25 3
// MULTI-NEXT: all_reduce sum rank 0: 30 33 36 | 1.5 3 4.5 6
// MULTI-NEXT: all_reduce sum rank 1: 30 33 36 | 1.5 3 4.5 6
// MULTI-NEXT: all_reduce sum rank 2: 30 33 36 | 1.5 3 4.5 6

// grid.mlir, num_replicas = 2, num_partitions = 2: rank q = 2 r + p, so
// ranks 0, 1, 2, 3 are (0, 0), (0, 1), (1, 0), (1, 1).
//
// all_gather of x@q = [10 q, 10 q + 1]:
// ag1: channel_id 1, replica_groups [[1, 0]]: cross_replica_and_partition
//   makes one group, partition-major: for p in [0, 1], for r in [1, 0]:
//   (1, 0), (0, 0), (1, 1), (0, 1) = ranks 2, 0, 3, 1.
// ag2: channel_id 1, [[0], [1]]: groups {(0, 0), (0, 1)} = ranks 0, 1 and
//   {(1, 0), (1, 1)} = ranks 2, 3.
// ag3: channel_id 1, use_global_device_ids, [[3, 0], [1, 2]]: flattened ids
//   are ranks: groups 3, 0 and 1, 2.
// GRID: a2a rank 0: 11 1
// GRID-NEXT: a2a rank 1: 10 0
// GRID-NEXT: a2a rank 2: 31 21
// GRID-NEXT: a2a rank 3: 30 20
// GRID-NEXT: ag1 rank 0: 20 21 0 1 30 31 10 11
// GRID-NEXT: ag1 rank 1: 20 21 0 1 30 31 10 11
// GRID-NEXT: ag1 rank 2: 20 21 0 1 30 31 10 11
// GRID-NEXT: ag1 rank 3: 20 21 0 1 30 31 10 11
// GRID-NEXT: ag2 rank 0: 0 1 10 11
// GRID-NEXT: ag2 rank 1: 0 1 10 11
// GRID-NEXT: ag2 rank 2: 20 21 30 31
// GRID-NEXT: ag2 rank 3: 20 21 30 31
// GRID-NEXT: ag3 rank 0: 30 31 0 1
// GRID-NEXT: ag3 rank 1: 10 11 20 21
// GRID-NEXT: ag3 rank 2: 10 11 20 21
// GRID-NEXT: ag3 rank 3: 30 31 0 1
//
// a2a (above): all_to_all of x, channel_id 1, replica_groups [[1, 0]]:
//   cross_partition makes per replica r the group [(r, 1), (r, 0)] =
//   ranks [2 r + 1, 2 r]. The member at position i gets element i of each
//   member's x, in group order: rank 2 r + 1 gets [x@(2 r + 1)[0], x@(2 r)[0]],
//   rank 2 r gets [x@(2 r + 1)[1], x@(2 r)[1]].
//
// all_reduce (sum) of y@q = [10^q, q^2]:
// ar1: channel_id 1, use_global_device_ids, [[0, 3], [2, 1]]: groups {0, 3}
//   -> [1001, 9] and {1, 2} -> [110, 5].
// ar2: channel_id 1, [[1], [0]]: cross_replica_and_partition, groups
//   {(1, 0), (1, 1)} = {2, 3} -> [1100, 13] and {0, 1} -> [11, 1].
// ar3: channel_id 0, [[0, 1]]: cross_replica, one group per partition p:
//   {(0, p), (1, p)} = {p, 2 + p}: {0, 2} -> [101, 4], {1, 3} -> [1010, 10].
// GRID-NEXT: ar1 rank 0: 1001 9
// GRID-NEXT: ar1 rank 1: 110 5
// GRID-NEXT: ar1 rank 2: 110 5
// GRID-NEXT: ar1 rank 3: 1001 9
// GRID-NEXT: ar2 rank 0: 11 1
// GRID-NEXT: ar2 rank 1: 11 1
// GRID-NEXT: ar2 rank 2: 1100 13
// GRID-NEXT: ar2 rank 3: 1100 13
// GRID-NEXT: ar3 rank 0: 101 4
// GRID-NEXT: ar3 rank 1: 1010 10
// GRID-NEXT: ar3 rank 2: 101 4
// GRID-NEXT: ar3 rank 3: 1010 10
//
// collective_broadcast of z@q = [[100 q + 1, 100 q + 2]], channel_id 1
// (cross_partition, groups per replica r over partitions):
// cb1: [[1, 0]]: groups [(r, 1), (r, 0)]; the source is the first, (r, 1) =
//   rank 2 r + 1.
// cb2: [[1]]: groups [(r, 1)]; partition 0 is in no group and gets zeros.
// GRID-NEXT: cb1 rank 0: 101 102
// GRID-NEXT: cb1 rank 1: 101 102
// GRID-NEXT: cb1 rank 2: 301 302
// GRID-NEXT: cb1 rank 3: 301 302
// GRID-NEXT: cb2 rank 0: 0 0
// GRID-NEXT: cb2 rank 1: 101 102
// GRID-NEXT: cb2 rank 2: 0 0
// GRID-NEXT: cb2 rank 3: 301 302
//
// collective_permute of w@q = [q + 0.5, 2 q], channel_id 1 (pairs of
// partitions within each replica):
// cp1: [[1, 0]]: (r, 1) -> (r, 0); partition 1 is nobody's target: zeros.
// cp2: [[0, 1], [1, 0]]: partitions swap within each replica.
// GRID-NEXT: cp1 rank 0: 1.5 2
// GRID-NEXT: cp1 rank 1: 0 0
// GRID-NEXT: cp1 rank 2: 3.5 6
// GRID-NEXT: cp1 rank 3: 0 0
// GRID-NEXT: cp2 rank 0: 1.5 2
// GRID-NEXT: cp2 rank 1: 0.5 0
// GRID-NEXT: cp2 rank 2: 3.5 6
// GRID-NEXT: cp2 rank 3: 2.5 4
//
// rs: reduce_scatter (sum) of y, scatter_dimension 0, channel_id 1,
//   use_global_device_ids, [[3, 1], [0, 2]]: group {3, 1} sums to
//   [1010, 10], rank 3 (position 0) keeps 1010, rank 1 keeps 10; group
//   {0, 2} sums to [101, 4], rank 0 keeps 101, rank 2 keeps 4.
// GRID-NEXT: rs rank 0: 101
// GRID-NEXT: rs rank 1: 10
// GRID-NEXT: rs rank 2: 4
// GRID-NEXT: rs rank 3: 1010

// tensors2.mlir and tensors3.mlir: the same program at P = 2 and P = 3
// processes, tensor form.
// all_reduce, computation maxsi, of y@p = [10 p - 7, 7 - p^2]:
//   [10 (P - 1) - 7, 7] = [3, 7] (P = 2), [13, 7] (P = 3).
// reduce_scatter, sum, scatter_dimension 1, of x@p[i][j] = 100 i + 10 p + j
// (2x6): the sum is P (100 i + j) + 5 P (P - 1); the member at position m
// keeps columns [6 m / P, 6 (m + 1) / P).
//   P = 2, group [1, 0]: rows 200 i + 2 j + 10; rank 1 columns 0-2,
//   rank 0 columns 3-5.
//   P = 3, group [2, 0, 1]: rows 300 i + 3 j + 30; rank 2 columns 0-1,
//   rank 0 columns 2-3, rank 1 columns 4-5.
// reduce_scatter, computation minimumf, scatter_dimension 0, of
// v@p[k] = (k - p) / 2 (6xf32): the min is (k - P + 1) / 2, split as above.
//   P = 2: [-0.5, 0, 0.5 | 1, 1.5, 2]; P = 3: [-1, -0.5 | 0, 0.5 | 1, 1.5].
// T2: all_reduce rank 0: 3 7
// T2-NEXT: all_reduce rank 1: 3 7
// T2-NEXT: reduce_scatter rank 0: 16 18 20 216 218 220 | min 1 1.5 2
// T2-NEXT: reduce_scatter rank 1: 10 12 14 210 212 214 | min -0.5 0 0.5
// T3: all_reduce rank 0: 13 7
// T3-NEXT: all_reduce rank 1: 13 7
// T3-NEXT: all_reduce rank 2: 13 7
// T3-NEXT: reduce_scatter rank 0: 36 39 336 339 | min 0 0.5
// T3-NEXT: reduce_scatter rank 1: 42 45 342 345 | min 1 1.5
// T3-NEXT: reduce_scatter rank 2: 30 33 330 333 | min -1 -0.5

//--- multi.mlir
module attributes {distruntime.num_replicas = 3 : i64} {
  func.func @main() -> i32 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %me = distruntime.team_member team(0)
    %q = arith.index_cast %me : index to i64
    %qi = arith.index_cast %me : index to i32
    %qf = arith.sitofp %qi : i32 to f64
    // a@p[k] = 10 p + k.
    %ten = arith.constant 10 : i32
    %one = arith.constant 1 : i32
    %two = arith.constant 2 : i32
    %a0 = arith.muli %qi, %ten : i32
    %a1 = arith.addi %a0, %one : i32
    %a2 = arith.addi %a0, %two : i32
    %a = tensor.from_elements %a0, %a1, %a2 : tensor<3xi32>
    // b@p[i][j] = (p + 1) / 4 * (2 i + j + 1).
    %fone = arith.constant 1.0 : f64
    %quarter = arith.constant 0.25 : f64
    %p1 = arith.addf %qf, %fone : f64
    %s = arith.mulf %p1, %quarter : f64
    %f2 = arith.constant 2.0 : f64
    %f3 = arith.constant 3.0 : f64
    %f4 = arith.constant 4.0 : f64
    %b1 = arith.mulf %s, %f2 : f64
    %b2 = arith.mulf %s, %f3 : f64
    %b3 = arith.mulf %s, %f4 : f64
    %b = tensor.from_elements %s, %b1, %b2, %b3 : tensor<2x2xf64>
    %rs:2 = distruntime.all_reduce ins(%a, %b : tensor<3xi32>, tensor<2x2xf64>) {reduction = #distruntime.reduction<sum>, replica_groups = dense<[[1, 2, 0]]> : tensor<1x3xi64>} -> tensor<3xi32>, tensor<2x2xf64>
    %rm:2 = distruntime.all_reduce ins(%a, %b : tensor<3xi32>, tensor<2x2xf64>) {reduction = #distruntime.reduction<max>, replica_groups = dense<[[1, 2, 0]]> : tensor<1x3xi64>} -> tensor<3xi32>, tensor<2x2xf64>

    // c@p = [[100 p], [100 p + 1]] (i16), d@p = [[p + 0.5, 10 p]] (f32).
    %qs = arith.index_cast %me : index to i16
    %h = arith.constant 100 : i16
    %hs = arith.constant 1 : i16
    %c00 = arith.muli %qs, %h : i16
    %c10 = arith.addi %c00, %hs : i16
    %c = tensor.from_elements %c00, %c10 : tensor<2x1xi16>
    %qf32 = arith.sitofp %qi : i32 to f32
    %half = arith.constant 0.5 : f32
    %ften = arith.constant 10.0 : f32
    %d0 = arith.addf %qf32, %half : f32
    %d1 = arith.mulf %qf32, %ften : f32
    %d = tensor.from_elements %d0, %d1 : tensor<1x2xf32>
    %g:2 = distruntime.all_gather ins(%c, %d : tensor<2x1xi16>, tensor<1x2xf32>) {all_gather_dim = 1 : i64, replica_groups = dense<[[2, 0, 1]]> : tensor<1x3xi64>} -> tensor<2x3xi16>, tensor<1x6xf32>

    %rs1 = tensor.collapse_shape %rs#1 [[0, 1]] : tensor<2x2xf64> into tensor<4xf64>
    %rm1 = tensor.collapse_shape %rm#1 [[0, 1]] : tensor<2x2xf64> into tensor<4xf64>
    %g0 = tensor.collapse_shape %g#0 [[0, 1]] : tensor<2x3xi16> into tensor<6xi16>
    %g1 = tensor.collapse_shape %g#1 [[0, 1]] : tensor<1x6xf32> into tensor<6xf32>
    %x0 = tensor.cast %rs#0 : tensor<3xi32> to tensor<?xi32>
    %x1 = tensor.cast %rs1 : tensor<4xf64> to tensor<?xf64>
    %y0 = tensor.cast %rm#0 : tensor<3xi32> to tensor<?xi32>
    %y1 = tensor.cast %rm1 : tensor<4xf64> to tensor<?xf64>
    %z0 = tensor.cast %g0 : tensor<6xi16> to tensor<?xi16>
    %z1 = tensor.cast %g1 : tensor<6xf32> to tensor<?xf32>

    vector.print str "all_gather rank "
    vector.print %q : i64 punctuation <no_punctuation>
    vector.print str ":"
    call @print_i16(%z0) : (tensor<?xi16>) -> ()
    vector.print str " |"
    call @print_f32(%z1) : (tensor<?xf32>) -> ()
    vector.print punctuation <newline>
    vector.print str "all_reduce max rank "
    vector.print %q : i64 punctuation <no_punctuation>
    vector.print str ":"
    call @print_i32(%y0) : (tensor<?xi32>) -> ()
    vector.print str " |"
    call @print_f64(%y1) : (tensor<?xf64>) -> ()
    vector.print punctuation <newline>
    vector.print str "all_reduce sum rank "
    vector.print %q : i64 punctuation <no_punctuation>
    vector.print str ":"
    call @print_i32(%x0) : (tensor<?xi32>) -> ()
    vector.print str " |"
    call @print_f64(%x1) : (tensor<?xf64>) -> ()
    vector.print punctuation <newline>
    %ok = arith.constant 0 : i32
    return %ok : i32
  }

  func.func @print_i16(%t: tensor<?xi16>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %n = tensor.dim %t, %c0 : tensor<?xi16>
    scf.for %k = %c0 to %n step %c1 {
      %v = tensor.extract %t[%k] : tensor<?xi16>
      %w = arith.extsi %v : i16 to i64
      vector.print str " "
      vector.print %w : i64 punctuation <no_punctuation>
    }
    return
  }

  func.func @print_i32(%t: tensor<?xi32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %n = tensor.dim %t, %c0 : tensor<?xi32>
    scf.for %k = %c0 to %n step %c1 {
      %v = tensor.extract %t[%k] : tensor<?xi32>
      vector.print str " "
      vector.print %v : i32 punctuation <no_punctuation>
    }
    return
  }

  func.func @print_f32(%t: tensor<?xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %n = tensor.dim %t, %c0 : tensor<?xf32>
    scf.for %k = %c0 to %n step %c1 {
      %v = tensor.extract %t[%k] : tensor<?xf32>
      vector.print str " "
      vector.print %v : f32 punctuation <no_punctuation>
    }
    return
  }

  func.func @print_f64(%t: tensor<?xf64>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %n = tensor.dim %t, %c0 : tensor<?xf64>
    scf.for %k = %c0 to %n step %c1 {
      %v = tensor.extract %t[%k] : tensor<?xf64>
      vector.print str " "
      vector.print %v : f64 punctuation <no_punctuation>
    }
    return
  }
}

//--- grid.mlir
module attributes {distruntime.num_replicas = 2 : i64, distruntime.num_partitions = 2 : i64} {
  func.func @main() -> i32 {
    %c0 = arith.constant 0 : index
    %me = distruntime.team_member team(0)
    %q = arith.index_cast %me : index to i64

    // x@q = [10 q, 10 q + 1].
    %ten = arith.constant 10 : i64
    %one = arith.constant 1 : i64
    %x0 = arith.muli %q, %ten : i64
    %x1 = arith.addi %x0, %one : i64
    %x = tensor.from_elements %x0, %x1 : tensor<2xi64>
    %ag1 = distruntime.all_gather ins(%x : tensor<2xi64>) {all_gather_dim = 0 : i64, channel_id = 1 : i64, replica_groups = dense<[[1, 0]]> : tensor<1x2xi64>} -> tensor<8xi64>
    %ag2 = distruntime.all_gather ins(%x : tensor<2xi64>) {all_gather_dim = 0 : i64, channel_id = 1 : i64, replica_groups = dense<[[0], [1]]> : tensor<2x1xi64>} -> tensor<4xi64>
    %ag3 = distruntime.all_gather ins(%x : tensor<2xi64>) {all_gather_dim = 0 : i64, channel_id = 1 : i64, use_global_device_ids, replica_groups = dense<[[3, 0], [1, 2]]> : tensor<2x2xi64>} -> tensor<4xi64>
    %a2a = distruntime.all_to_all ins(%x : tensor<2xi64>) {split_dimension = 0 : i64, concat_dimension = 0 : i64, split_count = 2 : i64, channel_id = 1 : i64, replica_groups = dense<[[1, 0]]> : tensor<1x2xi64>} -> tensor<2xi64>

    // y@q = [10^q, q^2].
    %pow = arith.constant dense<[1, 10, 100, 1000]> : tensor<4xi32>
    %y0 = tensor.extract %pow[%me] : tensor<4xi32>
    %qi = arith.index_cast %me : index to i32
    %y1 = arith.muli %qi, %qi : i32
    %y = tensor.from_elements %y0, %y1 : tensor<2xi32>
    %ar1 = distruntime.all_reduce ins(%y : tensor<2xi32>) {reduction = #distruntime.reduction<sum>, channel_id = 1 : i64, use_global_device_ids, replica_groups = dense<[[0, 3], [2, 1]]> : tensor<2x2xi64>} -> tensor<2xi32>
    %ar2 = distruntime.all_reduce ins(%y : tensor<2xi32>) {reduction = #distruntime.reduction<sum>, channel_id = 1 : i64, replica_groups = dense<[[1], [0]]> : tensor<2x1xi64>} -> tensor<2xi32>
    %ar3 = distruntime.all_reduce ins(%y : tensor<2xi32>) {reduction = #distruntime.reduction<sum>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} -> tensor<2xi32>
    %rs = distruntime.reduce_scatter ins(%y : tensor<2xi32>) {reduction = #distruntime.reduction<sum>, scatter_dimension = 0 : i64, channel_id = 1 : i64, use_global_device_ids, replica_groups = dense<[[3, 1], [0, 2]]> : tensor<2x2xi64>} -> tensor<1xi32>

    // z@q = [[100 q + 1, 100 q + 2]].
    %hundred = arith.constant 100 : i64
    %two = arith.constant 2 : i64
    %zb = arith.muli %q, %hundred : i64
    %z0 = arith.addi %zb, %one : i64
    %z1 = arith.addi %zb, %two : i64
    %z = tensor.from_elements %z0, %z1 : tensor<1x2xi64>
    %cb1 = distruntime.collective_broadcast ins(%z : tensor<1x2xi64>) {channel_id = 1 : i64, replica_groups = dense<[[1, 0]]> : tensor<1x2xi64>} -> tensor<1x2xi64>
    %cb2 = distruntime.collective_broadcast ins(%z : tensor<1x2xi64>) {channel_id = 1 : i64, replica_groups = dense<[[1]]> : tensor<1x1xi64>} -> tensor<1x2xi64>

    // w@q = [q + 0.5, 2 q].
    %qf = arith.sitofp %qi : i32 to f32
    %half = arith.constant 0.5 : f32
    %ftwo = arith.constant 2.0 : f32
    %w0 = arith.addf %qf, %half : f32
    %w1 = arith.mulf %qf, %ftwo : f32
    %w = tensor.from_elements %w0, %w1 : tensor<2xf32>
    %cp1 = distruntime.collective_permute ins(%w : tensor<2xf32>) {channel_id = 1 : i64, source_target_pairs = dense<[[1, 0]]> : tensor<1x2xi64>} -> tensor<2xf32>
    %cp2 = distruntime.collective_permute ins(%w : tensor<2xf32>) {channel_id = 1 : i64, source_target_pairs = dense<[[0, 1], [1, 0]]> : tensor<2x2xi64>} -> tensor<2xf32>

    %pag1 = tensor.cast %ag1 : tensor<8xi64> to tensor<?xi64>
    vector.print str "ag1 rank "
    vector.print %q : i64 punctuation <no_punctuation>
    vector.print str ":"
    call @print_i64(%pag1) : (tensor<?xi64>) -> ()
    vector.print punctuation <newline>
    %pag2 = tensor.cast %ag2 : tensor<4xi64> to tensor<?xi64>
    vector.print str "ag2 rank "
    vector.print %q : i64 punctuation <no_punctuation>
    vector.print str ":"
    call @print_i64(%pag2) : (tensor<?xi64>) -> ()
    vector.print punctuation <newline>
    %pag3 = tensor.cast %ag3 : tensor<4xi64> to tensor<?xi64>
    vector.print str "ag3 rank "
    vector.print %q : i64 punctuation <no_punctuation>
    vector.print str ":"
    call @print_i64(%pag3) : (tensor<?xi64>) -> ()
    vector.print punctuation <newline>
    %pa2a = tensor.cast %a2a : tensor<2xi64> to tensor<?xi64>
    vector.print str "a2a rank "
    vector.print %q : i64 punctuation <no_punctuation>
    vector.print str ":"
    call @print_i64(%pa2a) : (tensor<?xi64>) -> ()
    vector.print punctuation <newline>
    %par1 = tensor.cast %ar1 : tensor<2xi32> to tensor<?xi32>
    vector.print str "ar1 rank "
    vector.print %q : i64 punctuation <no_punctuation>
    vector.print str ":"
    call @print_i32(%par1) : (tensor<?xi32>) -> ()
    vector.print punctuation <newline>
    %par2 = tensor.cast %ar2 : tensor<2xi32> to tensor<?xi32>
    vector.print str "ar2 rank "
    vector.print %q : i64 punctuation <no_punctuation>
    vector.print str ":"
    call @print_i32(%par2) : (tensor<?xi32>) -> ()
    vector.print punctuation <newline>
    %par3 = tensor.cast %ar3 : tensor<2xi32> to tensor<?xi32>
    vector.print str "ar3 rank "
    vector.print %q : i64 punctuation <no_punctuation>
    vector.print str ":"
    call @print_i32(%par3) : (tensor<?xi32>) -> ()
    vector.print punctuation <newline>
    %prs = tensor.cast %rs : tensor<1xi32> to tensor<?xi32>
    vector.print str "rs rank "
    vector.print %q : i64 punctuation <no_punctuation>
    vector.print str ":"
    call @print_i32(%prs) : (tensor<?xi32>) -> ()
    vector.print punctuation <newline>
    %fcb1 = tensor.collapse_shape %cb1 [[0, 1]] : tensor<1x2xi64> into tensor<2xi64>
    %pcb1 = tensor.cast %fcb1 : tensor<2xi64> to tensor<?xi64>
    vector.print str "cb1 rank "
    vector.print %q : i64 punctuation <no_punctuation>
    vector.print str ":"
    call @print_i64(%pcb1) : (tensor<?xi64>) -> ()
    vector.print punctuation <newline>
    %fcb2 = tensor.collapse_shape %cb2 [[0, 1]] : tensor<1x2xi64> into tensor<2xi64>
    %pcb2 = tensor.cast %fcb2 : tensor<2xi64> to tensor<?xi64>
    vector.print str "cb2 rank "
    vector.print %q : i64 punctuation <no_punctuation>
    vector.print str ":"
    call @print_i64(%pcb2) : (tensor<?xi64>) -> ()
    vector.print punctuation <newline>
    %pcp1 = tensor.cast %cp1 : tensor<2xf32> to tensor<?xf32>
    vector.print str "cp1 rank "
    vector.print %q : i64 punctuation <no_punctuation>
    vector.print str ":"
    call @print_f32(%pcp1) : (tensor<?xf32>) -> ()
    vector.print punctuation <newline>
    %pcp2 = tensor.cast %cp2 : tensor<2xf32> to tensor<?xf32>
    vector.print str "cp2 rank "
    vector.print %q : i64 punctuation <no_punctuation>
    vector.print str ":"
    call @print_f32(%pcp2) : (tensor<?xf32>) -> ()
    vector.print punctuation <newline>
    %ok = arith.constant 0 : i32
    return %ok : i32
  }

  func.func @print_i64(%t: tensor<?xi64>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %n = tensor.dim %t, %c0 : tensor<?xi64>
    scf.for %k = %c0 to %n step %c1 {
      %v = tensor.extract %t[%k] : tensor<?xi64>
      vector.print str " "
      vector.print %v : i64 punctuation <no_punctuation>
    }
    return
  }

  func.func @print_i32(%t: tensor<?xi32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %n = tensor.dim %t, %c0 : tensor<?xi32>
    scf.for %k = %c0 to %n step %c1 {
      %v = tensor.extract %t[%k] : tensor<?xi32>
      vector.print str " "
      vector.print %v : i32 punctuation <no_punctuation>
    }
    return
  }

  func.func @print_f32(%t: tensor<?xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %n = tensor.dim %t, %c0 : tensor<?xf32>
    scf.for %k = %c0 to %n step %c1 {
      %v = tensor.extract %t[%k] : tensor<?xf32>
      vector.print str " "
      vector.print %v : f32 punctuation <no_punctuation>
    }
    return
  }
}

//--- tensors2.mlir
module attributes {distruntime.num_replicas = 2 : i64} {
  func.func @main() -> i32 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c6 = arith.constant 6 : index
    %me = distruntime.team_member team(0)
    %q = arith.index_cast %me : index to i64
    %qi = arith.index_cast %me : index to i32

    // y@p = [10 p - 7, 7 - p^2].
    %ten = arith.constant 10 : i64
    %seven = arith.constant 7 : i64
    %t = arith.muli %q, %ten : i64
    %y0 = arith.subi %t, %seven : i64
    %sq = arith.muli %q, %q : i64
    %y1 = arith.subi %seven, %sq : i64
    %y = tensor.from_elements %y0, %y1 : tensor<2xi64>
    %ar = distruntime.all_reduce ins(%y : tensor<2xi64>) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} computation {
    ^bb0(%l: i64, %r: i64):
      %m = arith.maxsi %l, %r : i64
      distruntime.yield %m : i64
    } -> tensor<2xi64>

    // x@p[i][j] = 100 i + 10 p + j, 2x6.
    %e = tensor.empty() : tensor<2x6xi32>
    %x = scf.for %i = %c0 to %c2 step %c1 iter_args(%acc = %e) -> tensor<2x6xi32> {
      %row = scf.for %j = %c0 to %c6 step %c1 iter_args(%a = %acc) -> tensor<2x6xi32> {
        %h = arith.constant 100 : index
        %c10 = arith.constant 10 : index
        %hi = arith.muli %i, %h : index
        %tp = arith.muli %me, %c10 : index
        %s0 = arith.addi %hi, %tp : index
        %s1 = arith.addi %s0, %j : index
        %v = arith.index_cast %s1 : index to i32
        %n = tensor.insert %v into %a[%i, %j] : tensor<2x6xi32>
        scf.yield %n : tensor<2x6xi32>
      }
      scf.yield %row : tensor<2x6xi32>
    }
    %rs = distruntime.reduce_scatter ins(%x : tensor<2x6xi32>) {reduction = #distruntime.reduction<sum>, scatter_dimension = 1 : i64, replica_groups = dense<[[1, 0]]> : tensor<1x2xi64>} -> tensor<2x3xi32>

    // v@p[k] = (k - p) / 2, 6xf32.
    %ev = tensor.empty() : tensor<6xf32>
    %v = scf.for %k = %c0 to %c6 step %c1 iter_args(%a = %ev) -> tensor<6xf32> {
      %d = arith.subi %k, %me : index
      %di = arith.index_cast %d : index to i32
      %df = arith.sitofp %di : i32 to f32
      %half = arith.constant 0.5 : f32
      %w = arith.mulf %df, %half : f32
      %n = tensor.insert %w into %a[%k] : tensor<6xf32>
      scf.yield %n : tensor<6xf32>
    }
    %rm = distruntime.reduce_scatter ins(%v : tensor<6xf32>) {scatter_dimension = 0 : i64, replica_groups = dense<[[1, 0]]> : tensor<1x2xi64>} computation {
    ^bb0(%l: f32, %r: f32):
      %m = arith.minimumf %l, %r : f32
      distruntime.yield %m : f32
    } -> tensor<3xf32>

    vector.print str "all_reduce rank "
    vector.print %q : i64 punctuation <no_punctuation>
    vector.print str ":"
    %ar0 = tensor.extract %ar[%c0] : tensor<2xi64>
    %ar1 = tensor.extract %ar[%c1] : tensor<2xi64>
    vector.print str " "
    vector.print %ar0 : i64 punctuation <no_punctuation>
    vector.print str " "
    vector.print %ar1 : i64

    %cols = arith.constant 3 : index
    vector.print str "reduce_scatter rank "
    vector.print %q : i64 punctuation <no_punctuation>
    vector.print str ":"
    scf.for %i = %c0 to %c2 step %c1 {
      scf.for %j = %c0 to %cols step %c1 {
        %s = tensor.extract %rs[%i, %j] : tensor<2x3xi32>
        vector.print str " "
        vector.print %s : i32 punctuation <no_punctuation>
      }
    }
    vector.print str " | min"
    scf.for %k = %c0 to %cols step %c1 {
      %s = tensor.extract %rm[%k] : tensor<3xf32>
      vector.print str " "
      vector.print %s : f32 punctuation <no_punctuation>
    }
    vector.print punctuation <newline>
    %ok = arith.constant 0 : i32
    return %ok : i32
  }
}

//--- tensors3.mlir
module attributes {distruntime.num_replicas = 3 : i64} {
  func.func @main() -> i32 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c6 = arith.constant 6 : index
    %me = distruntime.team_member team(0)
    %q = arith.index_cast %me : index to i64
    %qi = arith.index_cast %me : index to i32

    // y@p = [10 p - 7, 7 - p^2].
    %ten = arith.constant 10 : i64
    %seven = arith.constant 7 : i64
    %t = arith.muli %q, %ten : i64
    %y0 = arith.subi %t, %seven : i64
    %sq = arith.muli %q, %q : i64
    %y1 = arith.subi %seven, %sq : i64
    %y = tensor.from_elements %y0, %y1 : tensor<2xi64>
    %ar = distruntime.all_reduce ins(%y : tensor<2xi64>) {replica_groups = dense<[[0, 1, 2]]> : tensor<1x3xi64>} computation {
    ^bb0(%l: i64, %r: i64):
      %m = arith.maxsi %l, %r : i64
      distruntime.yield %m : i64
    } -> tensor<2xi64>

    // x@p[i][j] = 100 i + 10 p + j, 2x6.
    %e = tensor.empty() : tensor<2x6xi32>
    %x = scf.for %i = %c0 to %c2 step %c1 iter_args(%acc = %e) -> tensor<2x6xi32> {
      %row = scf.for %j = %c0 to %c6 step %c1 iter_args(%a = %acc) -> tensor<2x6xi32> {
        %h = arith.constant 100 : index
        %c10 = arith.constant 10 : index
        %hi = arith.muli %i, %h : index
        %tp = arith.muli %me, %c10 : index
        %s0 = arith.addi %hi, %tp : index
        %s1 = arith.addi %s0, %j : index
        %v = arith.index_cast %s1 : index to i32
        %n = tensor.insert %v into %a[%i, %j] : tensor<2x6xi32>
        scf.yield %n : tensor<2x6xi32>
      }
      scf.yield %row : tensor<2x6xi32>
    }
    %rs = distruntime.reduce_scatter ins(%x : tensor<2x6xi32>) {reduction = #distruntime.reduction<sum>, scatter_dimension = 1 : i64, replica_groups = dense<[[2, 0, 1]]> : tensor<1x3xi64>} -> tensor<2x2xi32>

    // v@p[k] = (k - p) / 2, 6xf32.
    %ev = tensor.empty() : tensor<6xf32>
    %v = scf.for %k = %c0 to %c6 step %c1 iter_args(%a = %ev) -> tensor<6xf32> {
      %d = arith.subi %k, %me : index
      %di = arith.index_cast %d : index to i32
      %df = arith.sitofp %di : i32 to f32
      %half = arith.constant 0.5 : f32
      %w = arith.mulf %df, %half : f32
      %n = tensor.insert %w into %a[%k] : tensor<6xf32>
      scf.yield %n : tensor<6xf32>
    }
    %rm = distruntime.reduce_scatter ins(%v : tensor<6xf32>) {scatter_dimension = 0 : i64, replica_groups = dense<[[2, 0, 1]]> : tensor<1x3xi64>} computation {
    ^bb0(%l: f32, %r: f32):
      %m = arith.minimumf %l, %r : f32
      distruntime.yield %m : f32
    } -> tensor<2xf32>

    vector.print str "all_reduce rank "
    vector.print %q : i64 punctuation <no_punctuation>
    vector.print str ":"
    %ar0 = tensor.extract %ar[%c0] : tensor<2xi64>
    %ar1 = tensor.extract %ar[%c1] : tensor<2xi64>
    vector.print str " "
    vector.print %ar0 : i64 punctuation <no_punctuation>
    vector.print str " "
    vector.print %ar1 : i64

    %cols = arith.constant 2 : index
    vector.print str "reduce_scatter rank "
    vector.print %q : i64 punctuation <no_punctuation>
    vector.print str ":"
    scf.for %i = %c0 to %c2 step %c1 {
      scf.for %j = %c0 to %cols step %c1 {
        %s = tensor.extract %rs[%i, %j] : tensor<2x2xi32>
        vector.print str " "
        vector.print %s : i32 punctuation <no_punctuation>
      }
    }
    vector.print str " | min"
    scf.for %k = %c0 to %cols step %c1 {
      %s = tensor.extract %rm[%k] : tensor<2xf32>
      vector.print str " "
      vector.print %s : f32 punctuation <no_punctuation>
    }
    vector.print punctuation <newline>
    %ok = arith.constant 0 : i32
    return %ok : i32
  }
}
