// collective_broadcast with StableHLO's has_dynamic_root: the root index of
// each input is the `roots` operand. Round trip in tensor and memref form,
// sync and async, custom and generic syntax; the verifier's valid cases of
// StableHLO's ops_stablehlo.mlir (collective_broadcast_c4, _c4_variadic).
// RUN: %distruntime-opt %s -split-input-file | %distruntime-opt -split-input-file | FileCheck %s
// RUN: %distruntime-opt %s -split-input-file --mlir-print-op-generic | %distruntime-opt -split-input-file | FileCheck %s
// RUN: %distruntime-opt %s -split-input-file --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

// CHECK-LABEL: func @collective_broadcast_c4
// CHECK: distruntime.collective_broadcast ins(%{{.*}} : tensor<4xf32>) roots(%{{.*}} : tensor<1xi32>) {replica_groups = dense<{{\[\[}}0, 1]]> : tensor<1x2xi64>} -> tensor<4xf32>
// GENERIC-LABEL: sym_name = "collective_broadcast_c4"
// GENERIC: "distruntime.collective_broadcast"(%{{.*}}, %{{.*}}) <{channel_id = 0 : i64, operandSegmentSizes = array<i32: 1, 0, 1, 0>, replica_groups = {{.*}}, resultSegmentSizes = array<i32: 1, 0>, team = 0 : i64}> : (tensor<4xf32>, tensor<1xi32>) -> tensor<4xf32>
func.func @collective_broadcast_c4(%operand: tensor<4xf32>, %root: tensor<1xi32>) -> tensor<4xf32> {
  %0 = distruntime.collective_broadcast ins(%operand : tensor<4xf32>) roots(%root : tensor<1xi32>) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// CHECK-LABEL: func @collective_broadcast_c4_variadic
// CHECK: distruntime.collective_broadcast ins(%{{.*}}, %{{.*}} : tensor<4xf32>, tensor<2x3xi16>) roots(%{{.*}} : tensor<2xi32>) {replica_groups = dense<{{\[\[}}0, 1]]> : tensor<1x2xi64>} -> tensor<4xf32>, tensor<2x3xi16>
func.func @collective_broadcast_c4_variadic(%operand0: tensor<4xf32>, %operand1: tensor<2x3xi16>, %root: tensor<2xi32>) -> (tensor<4xf32>, tensor<2x3xi16>) {
  %0:2 = distruntime.collective_broadcast ins(%operand0, %operand1 : tensor<4xf32>, tensor<2x3xi16>) roots(%root : tensor<2xi32>) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} -> tensor<4xf32>, tensor<2x3xi16>
  return %0#0, %0#1 : tensor<4xf32>, tensor<2x3xi16>
}

// -----

// Async, constant roots in range, cross_partition (channel_id > 0), team 3.
module attributes {distruntime.num_replicas = 2 : i64, distruntime.num_partitions = 3 : i64} {
  // CHECK-LABEL: func @async_constant
  // CHECK: %[[R:.*]] = arith.constant dense<[2, 0]> : tensor<2xi32>
  // CHECK: distruntime.collective_broadcast ins(%{{.*}}, %{{.*}} : tensor<4xi64>, tensor<4xi64>) roots(%[[R]] : tensor<2xi32>) async {channel_id = 1 : i64, replica_groups = dense<{{\[\[}}0, 1, 2]]> : tensor<1x3xi64>, team = 3 : i64} -> tensor<4xi64>, tensor<4xi64>
  func.func @async_constant(%a: tensor<4xi64>, %b: tensor<4xi64>) -> (tensor<4xi64>, tensor<4xi64>) {
    %roots = arith.constant dense<[2, 0]> : tensor<2xi32>
    %r:2, %h = distruntime.collective_broadcast ins(%a, %b : tensor<4xi64>, tensor<4xi64>) roots(%roots : tensor<2xi32>) async {replica_groups = dense<[[0, 1, 2]]> : tensor<1x3xi64>, channel_id = 1 : i64, team = 3 : i64} -> tensor<4xi64>, tensor<4xi64>
    distruntime.wait %h
    return %r#0, %r#1 : tensor<4xi64>, tensor<4xi64>
  }
}

// -----

// The memref form, sync and async; the roots may have any layout.
// CHECK-LABEL: func @memref_forms
// CHECK: distruntime.collective_broadcast ins(%{{.*}}, %{{.*}} : memref<2x2xf64>, memref<3xbf16>) roots(%{{.*}} : memref<2xi32, strided<[2], offset: ?>>) outs(%{{.*}}, %{{.*}} : memref<2x2xf64>, memref<3xbf16>) {replica_groups = dense<> : tensor<0x0xi64>}{{$}}
// CHECK: %[[H:.*]] = distruntime.collective_broadcast ins(%{{.*}} : memref<2x2xf64>) roots(%{{.*}} : memref<1xi32>) outs(%{{.*}} : memref<2x2xf64>) async {replica_groups = dense<{{\[\[}}1, 0], [2, 3]]> : tensor<2x2xi64>}{{$}}
// CHECK: distruntime.wait %[[H]]
// GENERIC-LABEL: sym_name = "memref_forms"
// GENERIC: operandSegmentSizes = array<i32: 2, 2, 1, 0>
// GENERIC: operandSegmentSizes = array<i32: 1, 1, 1, 0>
func.func @memref_forms(%x: memref<2x2xf64>, %y: memref<3xbf16>, %ox: memref<2x2xf64>, %oy: memref<3xbf16>, %r2: memref<2xi32, strided<[2], offset: ?>>, %r1: memref<1xi32>) {
  distruntime.collective_broadcast ins(%x, %y : memref<2x2xf64>, memref<3xbf16>) roots(%r2 : memref<2xi32, strided<[2], offset: ?>>) outs(%ox, %oy : memref<2x2xf64>, memref<3xbf16>) {replica_groups = dense<> : tensor<0x0xi64>}
  %h = distruntime.collective_broadcast ins(%x : memref<2x2xf64>) roots(%r1 : memref<1xi32>) outs(%ox : memref<2x2xf64>) async {replica_groups = dense<[[1, 0], [2, 3]]> : tensor<2x2xi64>}
  distruntime.wait %h
  return
}

// -----

// Without roots the op prints as before (has_dynamic_root = false).
// CHECK-LABEL: func @static_root
// CHECK: distruntime.collective_broadcast ins(%{{.*}} : tensor<4xf32>) {replica_groups = dense<{{\[\[}}0, 1]]> : tensor<1x2xi64>} -> tensor<4xf32>
// GENERIC-LABEL: sym_name = "static_root"
// GENERIC: operandSegmentSizes = array<i32: 1, 0, 0, 0>
func.func @static_root(%operand: tensor<4xf32>) -> tensor<4xf32> {
  %0 = distruntime.collective_broadcast ins(%operand : tensor<4xf32>) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
