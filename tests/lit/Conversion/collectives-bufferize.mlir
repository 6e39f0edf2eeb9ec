// Tensor-form collectives bufferize into the memref form: inputs are read
// in place, each result gets a fresh buffer (dynamic sizes from the input
// where the op keeps the dimension), attributes and regions carry over.
// RUN: %distruntime-opt %s --one-shot-bufferize="bufferize-function-boundaries" -split-input-file -verify-diagnostics | FileCheck %s

// CHECK-LABEL: func @gather
// CHECK-SAME: (%[[X:.*]]: memref<?x2xf32{{.*}}>)
// CHECK: %[[C0:.*]] = arith.constant 0 : index
// CHECK: %[[D:.*]] = memref.dim %[[X]], %[[C0]]
// CHECK: %[[OUT:.*]] = memref.alloc(%[[D]]) : memref<?x4xf32>
// CHECK: %[[H:.*]] = distruntime.all_gather ins(%[[X]] : {{.*}}) outs(%[[OUT]] : memref<?x4xf32>) async {all_gather_dim = 1 : i64
// CHECK: distruntime.wait %[[H]]
// CHECK: return %[[OUT]]
func.func @gather(%x: tensor<?x2xf32>) -> tensor<?x4xf32> {
  %r, %h = distruntime.all_gather ins(%x : tensor<?x2xf32>) async {all_gather_dim = 1 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} -> tensor<?x4xf32>
  distruntime.wait %h
  return %r : tensor<?x4xf32>
}

// -----

// CHECK-LABEL: func @reduce_region
// CHECK: %[[OUT:.*]] = memref.alloc() : memref<4xi32>
// CHECK: distruntime.all_reduce ins(%{{.*}}) outs(%[[OUT]] : memref<4xi32>) {replica_groups
// CHECK: arith.addi
func.func @reduce_region(%x: tensor<4xi32>) -> tensor<4xi32> {
  %r = distruntime.all_reduce ins(%x : tensor<4xi32>) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} computation {
  ^bb0(%a: i32, %b: i32):
    %s = arith.addi %a, %b : i32
    distruntime.yield %s : i32
  } -> tensor<4xi32>
  return %r : tensor<4xi32>
}

// -----

// The gathered dimension cannot be sized from the input when dynamic.
func.func @dynamic_gathered_dim(%x: tensor<?xf32>) -> tensor<?xf32> {
  // expected-error @+2 {{result #0 needs a static size in dimension 0 to be bufferized}}
  // expected-error @+1 {{failed to bufferize op}}
  %r = distruntime.all_gather ins(%x : tensor<?xf32>) {all_gather_dim = 0 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} -> tensor<?xf32>
  return %r : tensor<?xf32>
}
