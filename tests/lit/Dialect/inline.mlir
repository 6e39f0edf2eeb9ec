// distruntime ops may be inlined (DistRuntimeInlinerInterface): a step
// function's exchange, wait and all_reduce end up in the caller.
// RUN: %distruntime-opt %s --inline | FileCheck %s

// CHECK-LABEL: func.func @caller(
// CHECK-NOT: func.call
// CHECK: %[[H:.*]] = distruntime.update_halo %{{.*}} async
// CHECK: distruntime.wait %[[H]]
// CHECK: distruntime.all_reduce
// CHECK: return
func.func private @step(%u: memref<10x8xf64>, %x: memref<4xf32>) {
  %h = distruntime.update_halo %u grid [2] split_axes [[0]] halo_sizes [1, 1, 0, 0] async : memref<10x8xf64>
  distruntime.wait %h
  distruntime.all_reduce ins(%x : memref<4xf32>) outs(%x : memref<4xf32>) {reduction = #distruntime.reduction<sum>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}
  return
}

func.func @caller(%u: memref<10x8xf64>, %x: memref<4xf32>) {
  func.call @step(%u, %x) : (memref<10x8xf64>, memref<4xf32>) -> ()
  return
}
