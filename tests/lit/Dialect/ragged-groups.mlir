// Ragged replica_groups: all_reduce's groups may have different sizes,
// padded with -1 ("no process"), anywhere in a group and in whole groups, as
// StableHLO's verifier and interpreter read them. Round-trips unchanged.
// RUN: %distruntime-opt %s | %distruntime-opt | FileCheck %s
// RUN: %distruntime-opt %s --mlir-print-op-generic | %distruntime-opt | FileCheck %s

// CHECK-LABEL: func @cross_replica
// CHECK: replica_groups = dense<{{\[\[}}0, 1, 2], [3, -1, -1]]> : tensor<2x3xi64>
// CHECK: replica_groups = dense<{{\[\[}}2, -1, 0], [-1, 1, 3]]> : tensor<2x3xi64>
// CHECK: replica_groups = dense<{{\[\[}}0, 1], [-1, -1], [2, 3]]> : tensor<3x2xi64>
module attributes {distruntime.num_replicas = 4 : i64} {
  func.func @cross_replica(%x: tensor<2xf32>, %m: memref<3xi32>) -> (tensor<2xf32>, tensor<2xf32>) {
    %a = distruntime.all_reduce ins(%x : tensor<2xf32>) {reduction = #distruntime.reduction<sum>, replica_groups = dense<[[0, 1, 2], [3, -1, -1]]> : tensor<2x3xi64>} -> tensor<2xf32>
    // -1 before an id, and a group of only -1, as the interpreter skips them.
    %b = distruntime.all_reduce ins(%x : tensor<2xf32>) {reduction = #distruntime.reduction<max>, replica_groups = dense<[[2, -1, 0], [-1, 1, 3]]> : tensor<2x3xi64>} -> tensor<2xf32>
    %h = distruntime.all_reduce ins(%m : memref<3xi32>) outs(%m : memref<3xi32>) async {reduction = #distruntime.reduction<sum>, replica_groups = dense<[[0, 1], [-1, -1], [2, 3]]> : tensor<3x2xi64>}
    distruntime.wait %h
    return %a, %b : tensor<2xf32>, tensor<2xf32>
  }
}

// CHECK-LABEL: func @grid
// CHECK: replica_groups = dense<{{\[\[}}3, 0, 1], [2, -1, -1], [4, 5, -1]]> : tensor<3x3xi64>, use_global_device_ids
// CHECK: replica_groups = dense<{{\[\[}}1, -1], [0, 2]]> : tensor<2x2xi64>
// CHECK: computation
module attributes {distruntime.num_replicas = 3 : i64, distruntime.num_partitions = 2 : i64} {
  func.func @grid(%x: tensor<4xi64>) -> (tensor<4xi64>, tensor<4xi64>) {
    // flattened_ids: {3, 0, 1}, {2} and {4, 5}.
    %a = distruntime.all_reduce ins(%x : tensor<4xi64>) {reduction = #distruntime.reduction<sum>, channel_id = 1 : i64, use_global_device_ids, replica_groups = dense<[[3, 0, 1], [2, -1, -1], [4, 5, -1]]> : tensor<3x3xi64>} -> tensor<4xi64>
    // cross_replica_and_partition: replica 1's processes, replicas 0 and 2's.
    %b = distruntime.all_reduce ins(%x : tensor<4xi64>) {channel_id = 1 : i64, replica_groups = dense<[[1, -1], [0, 2]]> : tensor<2x2xi64>} computation {
    ^bb0(%l: i64, %r: i64):
      %s = arith.addi %l, %r : i64
      distruntime.yield %s : i64
    } -> tensor<4xi64>
    return %a, %b : tensor<4xi64>, tensor<4xi64>
  }
}

// No grid in the module: the ids, not the padding, bound the ids (3 here).
// CHECK-LABEL: func @no_grid
// CHECK: replica_groups = dense<{{\[\[}}0, -1, -1], [2, 1, -1]]> : tensor<2x3xi64>
func.func @no_grid(%x: tensor<2xf32>) -> tensor<2xf32> {
  %a = distruntime.all_reduce ins(%x : tensor<2xf32>) {reduction = #distruntime.reduction<sum>, replica_groups = dense<[[0, -1, -1], [2, 1, -1]]> : tensor<2x3xi64>} -> tensor<2xf32>
  return %a : tensor<2xf32>
}
