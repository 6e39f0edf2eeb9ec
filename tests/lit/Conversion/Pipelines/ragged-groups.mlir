// Ragged replica_groups of all_reduce reach the runtime in distrt.h's table
// form: each group's ids first, then -1 to the longest group's size; groups
// of only -1 are dropped. Tables equal after that share one descriptor.
// RUN: %distruntime-opt %s --distruntime-to-llvm | mlir-translate --mlir-to-llvmir | FileCheck %s
// RUN: %distruntime-opt %s --distruntime-to-llvm | mlir-translate --mlir-to-llvmir | grep -c "^@__distrt_groups_" | FileCheck %s --check-prefix=COUNT

// [[0, 1, 2], [3, -1, -1]] as written:
// CHECK-DAG: @[[IDS1:__distrt_ids_0x[0-9a-f]+]] = internal constant [6 x i64] [i64 0, i64 1, i64 2, i64 3, i64 -1, i64 -1]
// CHECK-DAG: = internal constant { i32, i64, i64, i64, i64, ptr, i64 } { i32 0, i64 4, i64 1, i64 2, i64 3, ptr @[[IDS1]], i64 0 }
// [[-1, 2, -1, 0], [-1, -1, -1, -1], [1, -1, 3, -1]] -> [[2, 0], [1, 3]]:
// no padding left, two groups of two.
// CHECK-DAG: @[[IDS2:__distrt_ids_0x[0-9a-f]+]] = internal constant [4 x i64] [i64 2, i64 0, i64 1, i64 3]
// CHECK-DAG: = internal constant { i32, i64, i64, i64, i64, ptr, i64 } { i32 0, i64 4, i64 1, i64 2, i64 2, ptr @[[IDS2]], i64 0 }
// flattened_ids [[-1, 3], [0, 1], [2, -1]] -> [[3, -1], [0, 1], [2, -1]]:
// CHECK-DAG: @[[IDS3:__distrt_ids_0x[0-9a-f]+]] = internal constant [6 x i64] [i64 3, i64 -1, i64 0, i64 1, i64 2, i64 -1]
// CHECK-DAG: = internal constant { i32, i64, i64, i64, i64, ptr, i64 } { i32 3, i64 4, i64 1, i64 3, i64 2, ptr @[[IDS3]], i64 0 }
// The same groups as the first op, written with a group of only -1: one
// descriptor serves both.
// COUNT: {{^3$}}

module attributes {distruntime.num_replicas = 4 : i64} {
  func.func @ragged(%m: memref<2xf32>) {
    distruntime.all_reduce ins(%m : memref<2xf32>) outs(%m : memref<2xf32>) {reduction = #distruntime.reduction<sum>, replica_groups = dense<[[0, 1, 2], [3, -1, -1]]> : tensor<2x3xi64>}
    distruntime.all_reduce ins(%m : memref<2xf32>) outs(%m : memref<2xf32>) {reduction = #distruntime.reduction<sum>, replica_groups = dense<[[-1, 2, -1, 0], [-1, -1, -1, -1], [1, -1, 3, -1]]> : tensor<3x4xi64>}
    distruntime.all_reduce ins(%m : memref<2xf32>) outs(%m : memref<2xf32>) {reduction = #distruntime.reduction<sum>, channel_id = 1 : i64, use_global_device_ids, replica_groups = dense<[[-1, 3], [0, 1], [2, -1]]> : tensor<3x2xi64>}
    distruntime.all_reduce ins(%m : memref<2xf32>) outs(%m : memref<2xf32>) {reduction = #distruntime.reduction<sum>, replica_groups = dense<[[0, 1, 2, -1], [-1, -1, -1, -1], [3, -1, -1, -1]]> : tensor<3x4xi64>}
    return
  }
}
