// all_reduce with ragged replica_groups (StableHLO's groups of different
// sizes, padded with -1 = no process, anywhere in a group), compiled and run.
// x@q = [10 q, 10 q + 1] on every process q (q = the flattened id = the MPI
// rank); over a group G, sum = [10 S, 10 S + |G|] with S the sum of G's
// processes, max = [10 m, 10 m + 1] with m the largest.
// RUN: split-file %s %t
// RUN: %compile %t/np3.mlir -o %t/np3
// RUN: %mpirun 3 %t/np3 | sort | FileCheck %s --check-prefix=NP3
// RUN: %compile %t/grid.mlir -o %t/grid
// RUN: %mpirun 4 %t/grid | sort | FileCheck %s --check-prefix=GRID
// RUN: %compile %t/np4.mlir -o %t/np4
// RUN: %mpirun 4 %t/np4 | sort | FileCheck %s --check-prefix=NP4
// RUN: %compile %t/uncovered.mlir -o %t/uncovered
// RUN: not %mpirun 4 %t/uncovered 2>&1 | FileCheck %s --check-prefix=UNCOVERED

// np3.mlir, 3 replicas (from the team size: no grid in the module).
// ar1: sum, [[2, -1, 0], [-1, 1, -1]]: groups {2, 0} (S = 2, |G| = 2) and {1}.
// ar2: max, [[1, 2], [0, -1]]: groups {1, 2} (m = 2) and {0}.
// ar3: sum on a memref, async, [[0, -1, -1], [-1, -1, -1], [1, 2, -1]]:
//   groups {0} and {1, 2} (S = 3, |G| = 2); the group of only -1 is none.
// NP3: ar1 rank 0: 20 22
// NP3-NEXT: ar1 rank 1: 10 11
// NP3-NEXT: ar1 rank 2: 20 22
// NP3-NEXT: ar2 rank 0: 0 1
// NP3-NEXT: ar2 rank 1: 20 21
// NP3-NEXT: ar2 rank 2: 20 21
// NP3-NEXT: ar3 rank 0: 0 1
// NP3-NEXT: ar3 rank 1: 30 32
// NP3-NEXT: ar3 rank 2: 30 32

// grid.mlir, num_replicas = 2 x num_partitions = 2: q = 2 r + p.
// ar1: sum, channel_id 1, use_global_device_ids (flattened_ids),
//   [[3, 0, 1], [2, -1, -1]]: groups {3, 0, 1} (S = 4, |G| = 3) and {2}.
// ar2: sum, channel_id 1 (cross_replica_and_partition), [[-1, 1], [0, -1]]:
//   replica 1's processes {2, 3} (S = 5) and replica 0's {0, 1} (S = 1).
// ar3: sum, channel_id 0 (cross_replica), [[1, -1], [-1, -1], [0, -1]]:
//   groups of one replica in each partition: every process alone.
// ar4: max on a memref, async, flattened_ids, [[0, -1, -1], [3, 2, 1]]:
//   groups {0} and {3, 2, 1} (m = 3).
// GRID: ar1 rank 0: 40 43
// GRID-NEXT: ar1 rank 1: 40 43
// GRID-NEXT: ar1 rank 2: 20 21
// GRID-NEXT: ar1 rank 3: 40 43
// GRID-NEXT: ar2 rank 0: 10 12
// GRID-NEXT: ar2 rank 1: 10 12
// GRID-NEXT: ar2 rank 2: 50 52
// GRID-NEXT: ar2 rank 3: 50 52
// GRID-NEXT: ar3 rank 0: 0 1
// GRID-NEXT: ar3 rank 1: 10 11
// GRID-NEXT: ar3 rank 2: 20 21
// GRID-NEXT: ar3 rank 3: 30 31
// GRID-NEXT: ar4 rank 0: 0 1
// GRID-NEXT: ar4 rank 1: 30 31
// GRID-NEXT: ar4 rank 2: 30 31
// GRID-NEXT: ar4 rank 3: 30 31

// np4.mlir, num_replicas = 4.
// ar1: sum, [[0, 1, 2], [3, -1, -1]] (the issue's example): groups
//   {0, 1, 2} (S = 3, |G| = 3) and {3}.
// ar2: max on a memref, async, [[3, -1, -1], [-1, 1, 0], [2, -1, -1]]:
//   groups {3}, {1, 0} (m = 1) and {2}.
// NP4: ar1 rank 0: 30 33
// NP4-NEXT: ar1 rank 1: 30 33
// NP4-NEXT: ar1 rank 2: 30 33
// NP4-NEXT: ar1 rank 3: 30 31
// NP4-NEXT: ar2 rank 0: 10 11
// NP4-NEXT: ar2 rank 1: 10 11
// NP4-NEXT: ar2 rank 2: 20 21
// NP4-NEXT: ar2 rank 3: 30 31

// uncovered.mlir at np 4, no grid: [[1, -1, 0], [-1, 2, -1]] names replicas
// 0 to 2 (the verifier cannot know the team has 4); process 3 is in no group,
// which all_reduce does not allow, as with groups that leave a process out.
// The runtime's table is the compacted one: [[1, 0], [2, -1]].
// UNCOVERED: distrt: error: all_reduce at {{.*}}uncovered.mlir:{{[0-9]+}}:8: team 0, rank {{[0-3]}}: process 3 (replica 3, partition 0) is in no group of replica_groups {{\[\[}}1, 0], [2, -1]] (cross_replica, 4 replicas x 1 partitions)

//--- np3.mlir
module {
  func.func @main() -> i32 {
    %me = distruntime.team_member team(0)
    %q = arith.index_cast %me : index to i64
    // x@q = [10 q, 10 q + 1].
    %ten = arith.constant 10 : i64
    %one = arith.constant 1 : i64
    %x0 = arith.muli %q, %ten : i64
    %x1 = arith.addi %x0, %one : i64
    %x = tensor.from_elements %x0, %x1 : tensor<2xi64>
    %r1 = distruntime.all_reduce ins(%x : tensor<2xi64>) {reduction = #distruntime.reduction<sum>, replica_groups = dense<[[2, -1, 0], [-1, 1, -1]]> : tensor<2x3xi64>} -> tensor<2xi64>
    %t1 = arith.constant 1 : i64
    call @show(%t1, %q, %r1) : (i64, i64, tensor<2xi64>) -> ()
    %r2 = distruntime.all_reduce ins(%x : tensor<2xi64>) {reduction = #distruntime.reduction<max>, replica_groups = dense<[[1, 2], [0, -1]]> : tensor<2x2xi64>} -> tensor<2xi64>
    %t2 = arith.constant 2 : i64
    call @show(%t2, %q, %r2) : (i64, i64, tensor<2xi64>) -> ()
    %m3 = bufferization.to_buffer %x : tensor<2xi64> to memref<2xi64>
    %b3 = memref.alloc() : memref<2xi64>
    memref.copy %m3, %b3 : memref<2xi64> to memref<2xi64>
    %h3 = distruntime.all_reduce ins(%b3 : memref<2xi64>) outs(%b3 : memref<2xi64>) async {reduction = #distruntime.reduction<sum>, replica_groups = dense<[[0, -1, -1], [-1, -1, -1], [1, 2, -1]]> : tensor<3x3xi64>}
    distruntime.wait %h3
    %r3 = bufferization.to_tensor %b3 restrict : memref<2xi64> to tensor<2xi64>
    %t3 = arith.constant 3 : i64
    call @show(%t3, %q, %r3) : (i64, i64, tensor<2xi64>) -> ()
    %ok = arith.constant 0 : i32
    return %ok : i32
  }

  // Prints "ar<tag> rank <q>: <r[0]> <r[1]>".
  func.func @show(%tag: i64, %q: i64, %r: tensor<2xi64>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %a = tensor.extract %r[%c0] : tensor<2xi64>
    %b = tensor.extract %r[%c1] : tensor<2xi64>
    vector.print str "ar"
    vector.print %tag : i64 punctuation <no_punctuation>
    vector.print str " rank "
    vector.print %q : i64 punctuation <no_punctuation>
    vector.print str ": "
    vector.print %a : i64 punctuation <no_punctuation>
    vector.print str " "
    vector.print %b : i64
    return
  }
}

//--- grid.mlir
module attributes {distruntime.num_replicas = 2 : i64, distruntime.num_partitions = 2 : i64} {
  func.func @main() -> i32 {
    %me = distruntime.team_member team(0)
    %q = arith.index_cast %me : index to i64
    // x@q = [10 q, 10 q + 1].
    %ten = arith.constant 10 : i64
    %one = arith.constant 1 : i64
    %x0 = arith.muli %q, %ten : i64
    %x1 = arith.addi %x0, %one : i64
    %x = tensor.from_elements %x0, %x1 : tensor<2xi64>
    %r1 = distruntime.all_reduce ins(%x : tensor<2xi64>) {reduction = #distruntime.reduction<sum>, channel_id = 1 : i64, use_global_device_ids, replica_groups = dense<[[3, 0, 1], [2, -1, -1]]> : tensor<2x3xi64>} -> tensor<2xi64>
    %t1 = arith.constant 1 : i64
    call @show(%t1, %q, %r1) : (i64, i64, tensor<2xi64>) -> ()
    %r2 = distruntime.all_reduce ins(%x : tensor<2xi64>) {reduction = #distruntime.reduction<sum>, channel_id = 1 : i64, replica_groups = dense<[[-1, 1], [0, -1]]> : tensor<2x2xi64>} -> tensor<2xi64>
    %t2 = arith.constant 2 : i64
    call @show(%t2, %q, %r2) : (i64, i64, tensor<2xi64>) -> ()
    %r3 = distruntime.all_reduce ins(%x : tensor<2xi64>) {reduction = #distruntime.reduction<sum>, replica_groups = dense<[[1, -1], [-1, -1], [0, -1]]> : tensor<3x2xi64>} -> tensor<2xi64>
    %t3 = arith.constant 3 : i64
    call @show(%t3, %q, %r3) : (i64, i64, tensor<2xi64>) -> ()
    %m4 = bufferization.to_buffer %x : tensor<2xi64> to memref<2xi64>
    %b4 = memref.alloc() : memref<2xi64>
    memref.copy %m4, %b4 : memref<2xi64> to memref<2xi64>
    %h4 = distruntime.all_reduce ins(%b4 : memref<2xi64>) outs(%b4 : memref<2xi64>) async {reduction = #distruntime.reduction<max>, channel_id = 1 : i64, use_global_device_ids, replica_groups = dense<[[0, -1, -1], [3, 2, 1]]> : tensor<2x3xi64>}
    distruntime.wait %h4
    %r4 = bufferization.to_tensor %b4 restrict : memref<2xi64> to tensor<2xi64>
    %t4 = arith.constant 4 : i64
    call @show(%t4, %q, %r4) : (i64, i64, tensor<2xi64>) -> ()
    %ok = arith.constant 0 : i32
    return %ok : i32
  }

  // Prints "ar<tag> rank <q>: <r[0]> <r[1]>".
  func.func @show(%tag: i64, %q: i64, %r: tensor<2xi64>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %a = tensor.extract %r[%c0] : tensor<2xi64>
    %b = tensor.extract %r[%c1] : tensor<2xi64>
    vector.print str "ar"
    vector.print %tag : i64 punctuation <no_punctuation>
    vector.print str " rank "
    vector.print %q : i64 punctuation <no_punctuation>
    vector.print str ": "
    vector.print %a : i64 punctuation <no_punctuation>
    vector.print str " "
    vector.print %b : i64
    return
  }
}

//--- np4.mlir
module attributes {distruntime.num_replicas = 4 : i64} {
  func.func @main() -> i32 {
    %me = distruntime.team_member team(0)
    %q = arith.index_cast %me : index to i64
    // x@q = [10 q, 10 q + 1].
    %ten = arith.constant 10 : i64
    %one = arith.constant 1 : i64
    %x0 = arith.muli %q, %ten : i64
    %x1 = arith.addi %x0, %one : i64
    %x = tensor.from_elements %x0, %x1 : tensor<2xi64>
    %r1 = distruntime.all_reduce ins(%x : tensor<2xi64>) {reduction = #distruntime.reduction<sum>, replica_groups = dense<[[0, 1, 2], [3, -1, -1]]> : tensor<2x3xi64>} -> tensor<2xi64>
    %t1 = arith.constant 1 : i64
    call @show(%t1, %q, %r1) : (i64, i64, tensor<2xi64>) -> ()
    %m2 = bufferization.to_buffer %x : tensor<2xi64> to memref<2xi64>
    %b2 = memref.alloc() : memref<2xi64>
    memref.copy %m2, %b2 : memref<2xi64> to memref<2xi64>
    %h2 = distruntime.all_reduce ins(%b2 : memref<2xi64>) outs(%b2 : memref<2xi64>) async {reduction = #distruntime.reduction<max>, replica_groups = dense<[[3, -1, -1], [-1, 1, 0], [2, -1, -1]]> : tensor<3x3xi64>}
    distruntime.wait %h2
    %r2 = bufferization.to_tensor %b2 restrict : memref<2xi64> to tensor<2xi64>
    %t2 = arith.constant 2 : i64
    call @show(%t2, %q, %r2) : (i64, i64, tensor<2xi64>) -> ()
    %ok = arith.constant 0 : i32
    return %ok : i32
  }

  // Prints "ar<tag> rank <q>: <r[0]> <r[1]>".
  func.func @show(%tag: i64, %q: i64, %r: tensor<2xi64>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %a = tensor.extract %r[%c0] : tensor<2xi64>
    %b = tensor.extract %r[%c1] : tensor<2xi64>
    vector.print str "ar"
    vector.print %tag : i64 punctuation <no_punctuation>
    vector.print str " rank "
    vector.print %q : i64 punctuation <no_punctuation>
    vector.print str ": "
    vector.print %a : i64 punctuation <no_punctuation>
    vector.print str " "
    vector.print %b : i64
    return
  }
}

//--- uncovered.mlir
func.func @main() -> i32 {
  %c0 = arith.constant 0 : i32
  %x = arith.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %r = distruntime.all_reduce ins(%x : tensor<2xf32>) {reduction = #distruntime.reduction<sum>, replica_groups = dense<[[1, -1, 0], [-1, 2, -1]]> : tensor<2x3xi64>} -> tensor<2xf32>
  return %c0 : i32
}
