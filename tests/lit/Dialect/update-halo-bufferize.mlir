// The tensor form of update_halo bufferizes in place (destination style):
// the memref form on the block's own buffer, which is the result.
// RUN: %distruntime-opt %s --one-shot-bufferize="bufferize-function-boundaries" -split-input-file -verify-diagnostics | FileCheck %s

// CHECK-LABEL: func @in_place
// CHECK-SAME: (%[[B:.*]]: memref<10x8xf32{{.*}}>, %[[W:.*]]: index)
// CHECK-NOT: memref.alloc
// CHECK-NOT: memref.copy
// CHECK: distruntime.update_halo %[[B]] grid [4] split_axes {{\[}}[0]] halo_sizes [2, %[[W]] : index, 0, 0] key(2) : memref<10x8xf32{{.*}}>
// CHECK-NEXT: return %[[B]]
func.func @in_place(%t: tensor<10x8xf32>, %w: index) -> tensor<10x8xf32> {
  %r = distruntime.update_halo %t grid [4] split_axes [[0]] halo_sizes [2, %w : index, 0, 0] key(2) : tensor<10x8xf32>
  return %r : tensor<10x8xf32>
}

// -----

// The original tensor is still read after the update: the op works on a
// copy.
// CHECK-LABEL: func @original_still_read
// CHECK-SAME: (%[[B:.*]]: memref<8xf32{{.*}}>)
// CHECK: %[[COPY:.*]] = memref.alloc() {{.*}}: memref<8xf32>
// CHECK: memref.copy %[[B]], %[[COPY]]
// CHECK: distruntime.update_halo %[[COPY]] grid [2] split_axes {{\[}}[0]] halo_sizes [1, 1] : memref<8xf32>
// CHECK: memref.load %[[B]]
// CHECK: return %[[COPY]]
func.func @original_still_read(%t: tensor<8xf32>) -> (tensor<8xf32>, f32) {
  %r = distruntime.update_halo %t grid [2] split_axes [[0]] halo_sizes [1, 1] : tensor<8xf32>
  %c0 = arith.constant 0 : index
  %x = tensor.extract %t[%c0] : tensor<8xf32>
  return %r, %x : tensor<8xf32>, f32
}

// -----

// Async: the handle carries over; the block is used after the wait.
// CHECK-LABEL: func @async
// CHECK-SAME: (%[[B:.*]]: memref<4x4xi32{{.*}}>)
// CHECK: %[[H:.*]] = distruntime.update_halo %[[B]] grid [2, 2] split_axes {{\[}}[0], [1]] halo_sizes [1, 1, 1, 1] async : memref<4x4xi32{{.*}}>
// CHECK: distruntime.wait %[[H]]
// CHECK: return %[[B]]
func.func @async(%t: tensor<4x4xi32>) -> tensor<4x4xi32> {
  %r, %h = distruntime.update_halo %t grid [2, 2] split_axes [[0], [1]] halo_sizes [1, 1, 1, 1] async : tensor<4x4xi32>
  distruntime.wait %h
  return %r : tensor<4x4xi32>
}

// -----

func.func @async_waited_elsewhere(%t: tensor<4xf32>, %c: i1) -> tensor<4xf32> {
  // expected-error @+2 {{is async on tensors, so it must be waited in its own block}}
  // expected-error @+1 {{failed to bufferize op}}
  %r, %h = distruntime.update_halo %t grid [2] split_axes [[0]] halo_sizes [1, 1] async : tensor<4xf32>
  scf.if %c {
    distruntime.wait %h
  }
  return %r : tensor<4xf32>
}
