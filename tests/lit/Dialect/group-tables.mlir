// Process groups and pairs read at run time: `replica_groups(%t : ...)` and
// `source_target_pairs(%t : ...)` operands in place of the attributes. Round
// trip in tensor and memref form, sync and async, custom and generic
// syntax; bufferization turns a tensor table into a memref one.
// RUN: %distruntime-opt %s -split-input-file | %distruntime-opt -split-input-file | FileCheck %s
// RUN: %distruntime-opt %s -split-input-file --mlir-print-op-generic | %distruntime-opt -split-input-file | FileCheck %s
// RUN: %distruntime-opt %s -split-input-file --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: %distruntime-opt %s -split-input-file --one-shot-bufferize="bufferize-function-boundaries" | FileCheck %s --check-prefix=BUF

// CHECK-LABEL: func @broadcast_rows
// CHECK: distruntime.collective_broadcast ins(%{{.*}} : memref<4x4xf64>) roots(%{{.*}} : memref<1xi32>) outs(%{{.*}} : memref<4x4xf64>) replica_groups(%{{.*}} : memref<?x?xi64>) async {channel_id = 1 : i64}
// GENERIC-LABEL: sym_name = "broadcast_rows"
// GENERIC: operandSegmentSizes = array<i32: 1, 1, 1, 1>
// GENERIC-NOT: replica_groups =
func.func @broadcast_rows(%a: memref<4x4xf64>, %b: memref<4x4xf64>, %root: memref<1xi32>, %g: memref<?x?xi64>) {
  %h = distruntime.collective_broadcast ins(%a : memref<4x4xf64>) roots(%root : memref<1xi32>) outs(%b : memref<4x4xf64>) replica_groups(%g : memref<?x?xi64>) async {channel_id = 1 : i64}
  distruntime.wait %h
  return
}

// -----

// CHECK-LABEL: func @all_reduce_tensor
// CHECK: distruntime.all_reduce ins(%{{.*}} : tensor<8xf32>) replica_groups(%{{.*}} : tensor<?x?xi64>) {reduction = #distruntime.reduction<sum>} -> tensor<8xf32>
// BUF-LABEL: func @all_reduce_tensor
// BUF-SAME: %[[T:[^:]*]]: memref<?x?xi64
// BUF: distruntime.all_reduce ins(%{{.*}} : memref<8xf32{{.*}}>) outs(%{{.*}} : memref<8xf32>) replica_groups(%[[T]] : memref<?x?xi64{{.*}}>)
func.func @all_reduce_tensor(%x: tensor<8xf32>, %g: tensor<?x?xi64>) -> tensor<8xf32> {
  %r = distruntime.all_reduce ins(%x : tensor<8xf32>) replica_groups(%g : tensor<?x?xi64>) {reduction = #distruntime.reduction<sum>} -> tensor<8xf32>
  return %r : tensor<8xf32>
}

// -----

// The group size is known at run time, so all_gather's output may have any
// size in the gathered dimension (the runtime checks it).
// CHECK-LABEL: func @all_gather_dynamic
// CHECK: distruntime.all_gather ins(%{{.*}} : memref<2xi64>) outs(%{{.*}} : memref<?xi64>) replica_groups(%{{.*}} : memref<?x?xi64>) {all_gather_dim = 0 : i64}
func.func @all_gather_dynamic(%x: memref<2xi64>, %y: memref<?xi64>, %g: memref<?x?xi64>) {
  distruntime.all_gather ins(%x : memref<2xi64>) outs(%y : memref<?xi64>) replica_groups(%g : memref<?x?xi64>) {all_gather_dim = 0 : i64}
  return
}

// -----

// CHECK-LABEL: func @ring
// CHECK: distruntime.recv outs(%{{.*}} : memref<8xf64>) source_target_pairs(%[[P:.*]] : memref<?x2xi64>) async {channel_id = 3 : i64}
// CHECK: distruntime.send ins(%{{.*}} : memref<8xf64>) source_target_pairs(%[[P]] : memref<?x2xi64>) async {channel_id = 3 : i64}
// CHECK: distruntime.collective_permute ins(%{{.*}} : memref<8xf64>) outs(%{{.*}} : memref<8xf64>) source_target_pairs(%[[P]] : memref<?x2xi64>)
// GENERIC-LABEL: sym_name = "ring"
// GENERIC: "distruntime.recv"(%{{.*}}, %{{.*}}) <{channel_id = 3 : i64, is_host_transfer = false, operandSegmentSizes = array<i32: 0, 1, 1>
func.func @ring(%x: memref<8xf64>, %y: memref<8xf64>, %p: memref<?x2xi64>) {
  %hr = distruntime.recv outs(%y : memref<8xf64>) source_target_pairs(%p : memref<?x2xi64>) async {channel_id = 3 : i64}
  %hs = distruntime.send ins(%x : memref<8xf64>) source_target_pairs(%p : memref<?x2xi64>) async {channel_id = 3 : i64}
  distruntime.wait %hr
  distruntime.wait %hs
  distruntime.collective_permute ins(%x : memref<8xf64>) outs(%y : memref<8xf64>) source_target_pairs(%p : memref<?x2xi64>)
  return
}

// -----

// Counts and groups both at run time.
// CHECK-LABEL: func @all_to_all_v_rows
// CHECK: distruntime.all_to_all_v ins(%{{.*}} : memref<?xi64>) outs(%{{.*}} : memref<?xi64>) replica_groups(%{{.*}} : memref<?x?xi64>) send_counts(%{{.*}} : memref<?xi64>) recv_counts(%{{.*}} : memref<?xi64>)
func.func @all_to_all_v_rows(%x: memref<?xi64>, %y: memref<?xi64>, %s: memref<?xi64>, %r: memref<?xi64>, %g: memref<?x?xi64>) {
  distruntime.all_to_all_v ins(%x : memref<?xi64>) outs(%y : memref<?xi64>) replica_groups(%g : memref<?x?xi64>) send_counts(%s : memref<?xi64>) recv_counts(%r : memref<?xi64>)
  return
}
