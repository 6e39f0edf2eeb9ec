// The buffer deallocation pipeline (pipeline option buffer-deallocation=1)
// accepts all_reduce and reduce_scatter, whose `computation` region is never
// entered as control flow, and frees their buffers after the wait.
// RUN: %distruntime-opt %s --pass-pipeline='builtin.module(one-shot-bufferize{bufferize-function-boundaries},buffer-deallocation-pipeline)' | FileCheck %s

// CHECK-LABEL: func @all_reduce_region
// CHECK: %[[COPY:.*]] = memref.alloc() {{.*}}: memref<4xf32>
// CHECK: %[[OUT:.*]] = memref.alloc() : memref<4xf32>
// CHECK: %[[H:.*]] = distruntime.all_reduce ins(%[[COPY]] : memref<4xf32>) outs(%[[OUT]] : memref<4xf32>) async
// CHECK: arith.maximumf
// CHECK: distruntime.wait %[[H]]
// CHECK: memref.dealloc %[[COPY]]
func.func @all_reduce_region(%x: tensor<4xf32>) -> f32 {
  %r, %h = distruntime.all_reduce ins(%x : tensor<4xf32>) async {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} computation {
  ^bb0(%a: f32, %b: f32):
    %m = arith.maximumf %a, %b : f32
    distruntime.yield %m : f32
  } -> tensor<4xf32>
  distruntime.wait %h
  %c0 = arith.constant 0 : index
  %v = tensor.extract %r[%c0] : tensor<4xf32>
  return %v : f32
}

// CHECK-LABEL: func @reduce_scatter_sync
// CHECK: %[[OUT:.*]] = memref.alloc() : memref<2xi32>
// CHECK: distruntime.reduce_scatter ins(%{{.*}} : memref<4xi32{{.*}}>) outs(%[[OUT]] : memref<2xi32>)
// CHECK: memref.dealloc %[[OUT]]
func.func @reduce_scatter_sync(%x: tensor<4xi32>) -> i32 {
  %r = distruntime.reduce_scatter ins(%x : tensor<4xi32>) {reduction = #distruntime.reduction<sum>, scatter_dimension = 0 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} -> tensor<2xi32>
  %c0 = arith.constant 0 : index
  %v = tensor.extract %r[%c0] : tensor<2xi32>
  return %v : i32
}
