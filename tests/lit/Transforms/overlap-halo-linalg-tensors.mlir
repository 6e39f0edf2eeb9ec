// A linalg stencil written on tensors reaches distruntime-overlap-halo as
// the pipeline runs it: after one-shot bufferization (update_halo in place
// on the block's buffer, extract_slice as subviews, the result in a fresh
// buffer that aliases nothing older) and buffer deallocation. The 8 x 8
// output reads rows i and i + 2 of the block's 10 rows, whose frame is
// rows 0 and 9: the interior is rows [1, 7), the slabs rows 0 and 7.
// RUN: %distruntime-opt %s --pass-pipeline='builtin.module(one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map},buffer-deallocation-pipeline,distruntime-overlap-halo,distruntime-async-collectives)' | FileCheck %s

// CHECK-LABEL: func.func @step(
// CHECK-SAME: %[[U:[^:]*]]: memref<10x8xf64>
// CHECK: %[[H:.*]] = distruntime.update_halo %[[U]] {{.*}} async
// CHECK: %[[OUT:.*]] = memref.alloc() {{.*}} : memref<8x8xf64>
// CHECK: memref.subview %[[OUT]][1, 0] [6, 8] [1, 1]
// CHECK-NEXT: linalg.generic
// async-collectives moves the wait down past the slab's subviews (which
// access no memory) to the first op that reads the block.
// CHECK: memref.subview %[[OUT]][0, 0] [1, 8] [1, 1]
// CHECK-NEXT: distruntime.wait %[[H]]
// CHECK-NEXT: linalg.generic
// CHECK: memref.subview %[[OUT]][7, 0] [1, 8] [1, 1]
// CHECK-NEXT: linalg.generic
// CHECK-NOT: linalg.generic
// CHECK: return
func.func @step(%u: tensor<10x8xf64>) -> tensor<8x8xf64> {
  %t = distruntime.update_halo %u grid [2] split_axes [[0]] halo_sizes [1, 1, 0, 0] : tensor<10x8xf64>
  %n = tensor.extract_slice %t[0, 0] [8, 8] [1, 1] : tensor<10x8xf64> to tensor<8x8xf64>
  %s = tensor.extract_slice %t[2, 0] [8, 8] [1, 1] : tensor<10x8xf64> to tensor<8x8xf64>
  %init = tensor.empty() : tensor<8x8xf64>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%n, %s : tensor<8x8xf64>, tensor<8x8xf64>) outs(%init : tensor<8x8xf64>) {
  ^bb0(%a: f64, %b: f64, %out: f64):
    %x = arith.addf %a, %b : f64
    linalg.yield %x : f64
  } -> tensor<8x8xf64>
  return %r : tensor<8x8xf64>
}
