// Round trip of update_halo in all its forms, custom and generic.
// RUN: %distruntime-opt %s | %distruntime-opt | FileCheck %s
// RUN: %distruntime-opt %s --mlir-print-op-generic | %distruntime-opt | FileCheck %s
// It communicates: canonicalize and CSE neither erase nor merge it.
// RUN: %distruntime-opt %s --canonicalize --cse | FileCheck %s

// CHECK-LABEL: func @memref_forms
// CHECK-SAME: (%[[B:.*]]: memref<18x?xf32>, %[[C:.*]]: memref<18x18xf64>, %[[W:.*]]: index, %[[V:.*]]: i64)
func.func @memref_forms(%b: memref<18x?xf32>, %c: memref<18x18xf64>, %w: index, %v: i64) {
  // The default team is not printed.
  // CHECK: distruntime.update_halo %[[B]] grid [2, 2] split_axes {{\[}}[0], [1]] halo_sizes [1, 1, %[[W]] : index, 0] key(3) : memref<18x?xf32>
  distruntime.update_halo %b grid [2, 2] split_axes [[0], [1]] halo_sizes [1, 1, %w : index, 0] team(0) key(3) : memref<18x?xf32>
  // CHECK: distruntime.update_halo %[[B]] grid [3, 1, 2] split_axes {{\[}}[2, 0], [1]] halo_sizes [%[[V]] : i64, %[[V]] : i64, 2, 2] team(4) : memref<18x?xf32>
  distruntime.update_halo %b grid [3, 1, 2] split_axes [[2, 0], [1]] halo_sizes [%v : i64, %v : i64, 2, 2] team(4) : memref<18x?xf32>
  // CHECK: %[[H:.*]] = distruntime.update_halo %[[C]] grid [2, 2] split_axes {{\[}}[0], []] halo_sizes [1, 1, 0, 0] key(4) async : memref<18x18xf64>
  // CHECK: distruntime.wait %[[H]]
  %h = distruntime.update_halo %c grid [2, 2] split_axes [[0], []] halo_sizes [1, 1, 0, 0] key(4) async : memref<18x18xf64>
  distruntime.wait %h
  // Fewer split_axes lists than dimensions, and none at all.
  // CHECK: distruntime.update_halo %[[C]] grid [4] split_axes {{\[}}[0]] halo_sizes [1, 1, 0, 0] : memref<18x18xf64>
  distruntime.update_halo %c grid [4] split_axes [[0]] halo_sizes [1, 1, 0, 0] : memref<18x18xf64>
  // CHECK: distruntime.update_halo %[[C]] grid [1] split_axes [] halo_sizes [0, 0, 0, 0] : memref<18x18xf64>
  distruntime.update_halo %c grid [1] split_axes [] halo_sizes [0, 0, 0, 0] : memref<18x18xf64>
  return
}

// A grid of values, dims_create's for the team's size or any index or i64,
// beside constants.
// CHECK-LABEL: func @grid_values
// CHECK-SAME: (%[[B:.*]]: memref<?x?xf64>, %[[P:.*]]: i64)
func.func @grid_values(%b: memref<?x?xf64>, %p: i64) {
  // CHECK: %[[G:.*]]:2 = distruntime.dims_create team(0) : index, index
  %g:2 = distruntime.dims_create team(0) : index, index
  // CHECK: distruntime.update_halo %[[B]] grid [%[[G]]#0 : index, %[[G]]#1 : index] split_axes {{\[}}[0], [1]] halo_sizes [1, 1, 1, 1] key(5) : memref<?x?xf64>
  distruntime.update_halo %b grid [%g#0 : index, %g#1 : index] split_axes [[0], [1]] halo_sizes [1, 1, 1, 1] key(5) : memref<?x?xf64>
  // CHECK: distruntime.update_halo %[[B]] grid [%[[P]] : i64, 1] split_axes {{\[}}[0]] halo_sizes [1, 1, 0, 0] team(2) : memref<?x?xf64>
  distruntime.update_halo %b grid [%p : i64, 1] split_axes [[0]] halo_sizes [1, 1, 0, 0] team(2) : memref<?x?xf64>
  return
}

// CHECK-LABEL: func @dims_3d
// CHECK: distruntime.dims_create team(3) : index, index, index
func.func @dims_3d() -> (index, index, index) {
  %h:3 = distruntime.dims_create team(3) : index, index, index
  return %h#0, %h#1, %h#2 : index, index, index
}

// CHECK-LABEL: func @tensor_forms
// CHECK-SAME: (%[[T:.*]]: tensor<10x8xf32>)
func.func @tensor_forms(%t: tensor<10x8xf32>) -> tensor<10x8xf32> {
  // CHECK: %[[R:.*]] = distruntime.update_halo %[[T]] grid [4] split_axes {{\[}}[0]] halo_sizes [2, 1, 0, 0] : tensor<10x8xf32>
  %r = distruntime.update_halo %t grid [4] split_axes [[0]] halo_sizes [2, 1, 0, 0] : tensor<10x8xf32>
  // CHECK: %[[R2:.*]], %[[H:.*]] = distruntime.update_halo %[[R]] grid [2, 2] split_axes {{\[}}[1], [0]] halo_sizes [1, 1, 1, 1] key(0) async : tensor<10x8xf32>
  // CHECK: distruntime.wait %[[H]]
  // CHECK: return %[[R2]]
  %r2, %h = distruntime.update_halo %r grid [2, 2] split_axes [[1], [0]] halo_sizes [1, 1, 1, 1] key(0) async : tensor<10x8xf32>
  distruntime.wait %h
  return %r2 : tensor<10x8xf32>
}

// CHECK-LABEL: func @unused_results
// CHECK-COUNT-2: distruntime.update_halo
func.func @unused_results(%t: tensor<8xf32>) {
  %r1 = distruntime.update_halo %t grid [2] split_axes [[0]] halo_sizes [1, 1] : tensor<8xf32>
  %r2 = distruntime.update_halo %t grid [2] split_axes [[0]] halo_sizes [1, 1] : tensor<8xf32>
  return
}
