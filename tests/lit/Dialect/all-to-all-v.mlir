// Round trip of all_to_all_v in tensor and memref form, sync and async,
// custom and generic syntax.
// RUN: %distruntime-opt %s | %distruntime-opt | FileCheck %s
// RUN: %distruntime-opt %s --mlir-print-op-generic | %distruntime-opt | FileCheck %s

// CHECK-LABEL: func @tensor_form
func.func @tensor_form(%x: tensor<3xi64>, %y: tensor<4x2xf32>) -> (tensor<4xi64>, tensor<4x2xf32>) {
  // CHECK: distruntime.all_to_all_v ins(%{{.*}}, %{{.*}} : tensor<3xi64>, tensor<4x2xf32>) {recv_counts = dense<{{\[\[}}1, 3], [2, 0]]> : tensor<2x2xi64>, replica_groups = dense<{{\[\[}}0, 1]]> : tensor<1x2xi64>, send_counts = dense<{{\[\[}}1, 2], [3, 0]]> : tensor<2x2xi64>} -> tensor<4xi64>, tensor<4x2xf32>
  %r:2 = distruntime.all_to_all_v ins(%x, %y : tensor<3xi64>, tensor<4x2xf32>) {send_counts = dense<[[1, 2], [3, 0]]> : tensor<2x2xi64>, recv_counts = dense<[[1, 3], [2, 0]]> : tensor<2x2xi64>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} -> tensor<4xi64>, tensor<4x2xf32>
  return %r#0, %r#1 : tensor<4xi64>, tensor<4x2xf32>
}

// CHECK-LABEL: func @memref_forms
func.func @memref_forms(%a: memref<5x3xf64>, %b: memref<?x3xf64>) {
  // CHECK: distruntime.all_to_all_v ins(%{{.*}} : memref<5x3xf64>) outs(%{{.*}} : memref<?x3xf64>) {recv_counts = {{.*}}, replica_groups = dense<{{\[\[}}1, 0]]> : tensor<1x2xi64>, send_counts = {{.*}}, team = 3 : i64}
  distruntime.all_to_all_v ins(%a : memref<5x3xf64>) outs(%b : memref<?x3xf64>) {send_counts = dense<[[0, 5], [1, 1]]> : tensor<2x2xi64>, recv_counts = dense<[[0, 1], [5, 1]]> : tensor<2x2xi64>, replica_groups = dense<[[1, 0]]> : tensor<1x2xi64>, team = 3 : i64}
  // CHECK: %[[H:.*]] = distruntime.all_to_all_v ins(%{{.*}} : memref<5x3xf64>) outs(%{{.*}} : memref<5x3xf64>) async {recv_counts = dense<2> : tensor<1x1xi64>, replica_groups = dense<> : tensor<0x0xi64>, send_counts = dense<2> : tensor<1x1xi64>}
  // CHECK: distruntime.wait %[[H]]
  %h = distruntime.all_to_all_v ins(%a : memref<5x3xf64>) outs(%a : memref<5x3xf64>) async {send_counts = dense<[[2]]> : tensor<1x1xi64>, recv_counts = dense<[[2]]> : tensor<1x1xi64>, replica_groups = dense<> : tensor<0x0xi64>}
  distruntime.wait %h
  return
}

// The tensor form bufferizes into the memref form with a fresh output
// (RUN line below), the counts carried over.
// RUN: %distruntime-opt %s --one-shot-bufferize="bufferize-function-boundaries" | FileCheck %s --check-prefix=BUF
// BUF-LABEL: func @tensor_form
// BUF: %[[OUT0:.*]] = memref.alloc() {{.*}}: memref<4xi64>
// BUF: %[[OUT1:.*]] = memref.alloc() {{.*}}: memref<4x2xf32>
// BUF: distruntime.all_to_all_v ins(%{{.*}}, %{{.*}} : memref<3xi64{{.*}}>, memref<4x2xf32{{.*}}>) outs(%[[OUT0]], %[[OUT1]] : memref<4xi64>, memref<4x2xf32>) {recv_counts = dense<{{\[\[}}1, 3], [2, 0]]> : tensor<2x2xi64>, replica_groups = {{.*}}, send_counts = dense<{{\[\[}}1, 2], [3, 0]]> : tensor<2x2xi64>}
// BUF: return %[[OUT0]], %[[OUT1]]

// The rows form: this member's counts as operands, any length at run time.
// CHECK-LABEL: func @rows_form
func.func @rows_form(%a: memref<?xf32>, %b: memref<?xf32>, %s: memref<?xi64>, %r: memref<?xi64>) {
  // CHECK: distruntime.all_to_all_v ins(%{{.*}} : memref<?xf32>) outs(%{{.*}} : memref<?xf32>) send_counts(%{{.*}} : memref<?xi64>) recv_counts(%{{.*}} : memref<?xi64>) {replica_groups = dense<> : tensor<0x0xi64>}
  distruntime.all_to_all_v ins(%a : memref<?xf32>) outs(%b : memref<?xf32>) send_counts(%s : memref<?xi64>) recv_counts(%r : memref<?xi64>) {replica_groups = dense<> : tensor<0x0xi64>}
  // CHECK: %[[H:.*]] = distruntime.all_to_all_v ins({{.*}}) outs({{.*}}) send_counts({{.*}}) recv_counts({{.*}}) async {replica_groups = dense<> : tensor<0x0xi64>}
  %h = distruntime.all_to_all_v ins(%a : memref<?xf32>) outs(%b : memref<?xf32>) send_counts(%s : memref<?xi64>) recv_counts(%r : memref<?xi64>) async {replica_groups = dense<> : tensor<0x0xi64>}
  distruntime.wait %h
  return
}
