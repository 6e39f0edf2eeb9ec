// Round trip of ragged_all_to_all in tensor and memref form, sync and
// async, custom and generic syntax, and its bufferization.
// RUN: %distruntime-opt %s | %distruntime-opt | FileCheck %s
// RUN: %distruntime-opt %s --mlir-print-op-generic | %distruntime-opt | FileCheck %s

// CHECK-LABEL: func @tensor_form
func.func @tensor_form(%x: tensor<3x2xf32>, %out: tensor<4x2xf32>, %io: tensor<2xi64>, %ss: tensor<2xi64>, %oo: tensor<2xi64>, %rs: tensor<2xi64>) -> tensor<4x2xf32> {
  // CHECK: distruntime.ragged_all_to_all ins(%{{.*}}, %{{.*}} : tensor<3x2xf32>, tensor<4x2xf32>) input_offsets(%{{.*}} : tensor<2xi64>) send_sizes(%{{.*}} : tensor<2xi64>) output_offsets(%{{.*}} : tensor<2xi64>) recv_sizes(%{{.*}} : tensor<2xi64>) {replica_groups = dense<{{\[\[}}0, 1]]> : tensor<1x2xi64>} -> tensor<4x2xf32>
  %r = distruntime.ragged_all_to_all ins(%x, %out : tensor<3x2xf32>, tensor<4x2xf32>) input_offsets(%io : tensor<2xi64>) send_sizes(%ss : tensor<2xi64>) output_offsets(%oo : tensor<2xi64>) recv_sizes(%rs : tensor<2xi64>) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} -> tensor<4x2xf32>
  return %r : tensor<4x2xf32>
}

// CHECK-LABEL: func @memref_forms
func.func @memref_forms(%a: memref<?xi32>, %b: memref<?xi32>, %s: memref<?xi32>) {
  // CHECK: distruntime.ragged_all_to_all ins(%{{.*}} : memref<?xi32>) outs(%{{.*}} : memref<?xi32>) input_offsets(%{{.*}} : memref<?xi32>) send_sizes(%{{.*}} : memref<?xi32>) output_offsets(%{{.*}} : memref<?xi32>) recv_sizes(%{{.*}} : memref<?xi32>) {channel_id = 1 : i64, replica_groups = dense<> : tensor<0x0xi64>, team = 2 : i64}
  distruntime.ragged_all_to_all ins(%a : memref<?xi32>) outs(%b : memref<?xi32>) input_offsets(%s : memref<?xi32>) send_sizes(%s : memref<?xi32>) output_offsets(%s : memref<?xi32>) recv_sizes(%s : memref<?xi32>) {replica_groups = dense<> : tensor<0x0xi64>, channel_id = 1 : i64, team = 2 : i64}
  // CHECK: %[[H:.*]] = distruntime.ragged_all_to_all ins(%{{.*}} : memref<?xi32>) outs(%{{.*}} : memref<?xi32>) input_offsets({{.*}}) send_sizes({{.*}}) output_offsets({{.*}}) recv_sizes({{.*}}) async {replica_groups = dense<> : tensor<0x0xi64>}
  // CHECK: distruntime.wait %[[H]]
  %h = distruntime.ragged_all_to_all ins(%a : memref<?xi32>) outs(%b : memref<?xi32>) input_offsets(%s : memref<?xi32>) send_sizes(%s : memref<?xi32>) output_offsets(%s : memref<?xi32>) recv_sizes(%s : memref<?xi32>) async {replica_groups = dense<> : tensor<0x0xi64>}
  distruntime.wait %h
  return
}

// The tensor form bufferizes into the memref form updating a copy of its
// second input; the sizes are read from their buffers.
// RUN: %distruntime-opt %s --one-shot-bufferize="bufferize-function-boundaries" | FileCheck %s --check-prefix=BUF
// BUF-LABEL: func @tensor_form
// BUF-SAME: (%[[X:arg[0-9]+]]: memref<3x2xf32{{[^%]*}}, %[[OUT:arg[0-9]+]]: memref<4x2xf32{{[^%]*}}, %[[IO:arg[0-9]+]]:
// BUF: %[[NEW:.*]] = memref.alloc() {{.*}}: memref<4x2xf32>
// BUF: memref.copy %[[OUT]], %[[NEW]]
// BUF: distruntime.ragged_all_to_all ins(%[[X]] : memref<3x2xf32{{.*}}>) outs(%[[NEW]] : memref<4x2xf32>) input_offsets(%[[IO]] : memref<2xi64{{.*}}>)
// BUF: return %[[NEW]]
