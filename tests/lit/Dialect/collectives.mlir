// Round trip of every StableHLO-style collective in tensor and memref form,
// sync and async, custom and generic syntax.
// RUN: %distruntime-opt %s | %distruntime-opt | FileCheck %s
// RUN: %distruntime-opt %s --mlir-print-op-generic | %distruntime-opt | FileCheck %s

module attributes {distruntime.num_replicas = 2 : i64, distruntime.num_partitions = 2 : i64} {
  // CHECK-LABEL: func @tensor_forms
  func.func @tensor_forms(%x: tensor<2x2xi64>, %y: tensor<3xbf16>, %z: tensor<8xf64>) {
    // CHECK: distruntime.all_gather ins(%{{.*}}, %{{.*}} : tensor<2x2xi64>, tensor<3xbf16>) {all_gather_dim = 0 : i64, replica_groups = dense<{{\[\[}}1, 0]]> : tensor<1x2xi64>} -> tensor<4x2xi64>, tensor<6xbf16>
    %g:2 = distruntime.all_gather ins(%x, %y : tensor<2x2xi64>, tensor<3xbf16>) {all_gather_dim = 0 : i64, replica_groups = dense<[[1, 0]]> : tensor<1x2xi64>} -> tensor<4x2xi64>, tensor<6xbf16>
    // CHECK: distruntime.all_reduce ins(%{{.*}} : tensor<8xf64>) {channel_id = 1 : i64, reduction = #distruntime.reduction<max>, replica_groups = {{.*}}, use_global_device_ids} -> tensor<8xf64>
    %r = distruntime.all_reduce ins(%z : tensor<8xf64>) {reduction = #distruntime.reduction<max>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, channel_id = 1 : i64, use_global_device_ids} -> tensor<8xf64>
    // CHECK: distruntime.all_reduce {{.*}} computation {
    // CHECK: arith.muli
    // CHECK: distruntime.yield
    %p = distruntime.all_reduce ins(%x : tensor<2x2xi64>) {replica_groups = dense<[[0], [1]]> : tensor<2x1xi64>} computation {
    ^bb0(%a: i64, %b: i64):
      %m = arith.muli %a, %b : i64
      distruntime.yield %m : i64
    } -> tensor<2x2xi64>
    // Promotion (is_promotable): bf16 inputs reduced, and returned, as f32.
    // CHECK: distruntime.all_reduce ins(%{{.*}} : tensor<3xbf16>) {{.*}} computation {
    // CHECK: arith.maximumf {{.*}} : f32
    // CHECK: } -> tensor<3xf32>
    %pm = distruntime.all_reduce ins(%y : tensor<3xbf16>) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} computation {
    ^bb0(%a: f32, %b: f32):
      %m = arith.maximumf %a, %b : f32
      distruntime.yield %m : f32
    } -> tensor<3xf32>
    // CHECK: distruntime.all_to_all {{.*}} -> tensor<4x1xi64>
    %t = distruntime.all_to_all ins(%x : tensor<2x2xi64>) {split_dimension = 1 : i64, concat_dimension = 0 : i64, split_count = 2 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} -> tensor<4x1xi64>
    // CHECK: distruntime.reduce_scatter {{.*}} -> tensor<2x1xi64>
    %s = distruntime.reduce_scatter ins(%x : tensor<2x2xi64>) {reduction = #distruntime.reduction<sum>, scatter_dimension = 1 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} -> tensor<2x1xi64>
    // CHECK: distruntime.collective_broadcast {{.*}} -> tensor<2x2xi64>
    %c = distruntime.collective_broadcast ins(%x : tensor<2x2xi64>) {replica_groups = dense<[[1, 0]]> : tensor<1x2xi64>} -> tensor<2x2xi64>
    // CHECK: distruntime.collective_permute {{.*}} -> tensor<2x2xi64>
    %q = distruntime.collective_permute ins(%x : tensor<2x2xi64>) {source_target_pairs = dense<[[0, 1], [1, 0]]> : tensor<2x2xi64>} -> tensor<2x2xi64>
    // CHECK: distruntime.send ins(%{{.*}} : tensor<2x2xi64>) {channel_id = 1 : i64, channel_type = #distruntime.channel_type<device_to_device>, source_target_pairs
    distruntime.send ins(%x : tensor<2x2xi64>) {source_target_pairs = dense<[[0, 1]]> : tensor<1x2xi64>, channel_id = 1 : i64, channel_type = #distruntime.channel_type<device_to_device>}
    // CHECK: distruntime.recv {channel_id = 1 : i64, source_target_pairs = {{.*}}} -> tensor<2x2xi64>
    %v = distruntime.recv {source_target_pairs = dense<[[0, 1]]> : tensor<1x2xi64>, channel_id = 1 : i64} -> tensor<2x2xi64>
    return
  }

  // CHECK-LABEL: func @memref_forms
  func.func @memref_forms(%a: memref<4xf32>, %b: memref<8xf32>, %s: memref<2x4xi16, strided<[8, 1]>>) {
    // CHECK: %[[H:.*]] = distruntime.all_gather ins(%{{.*}} : memref<4xf32>) outs(%{{.*}} : memref<8xf32>) async {all_gather_dim = 0 : i64
    %h = distruntime.all_gather ins(%a : memref<4xf32>) outs(%b : memref<8xf32>) async {all_gather_dim = 0 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}
    // CHECK: distruntime.wait %[[H]]
    distruntime.wait %h
    // CHECK: distruntime.all_reduce ins(%{{.*}} : memref<2x4xi16, strided<[8, 1]>>) outs(%{{.*}} : memref<2x4xi16, strided<[8, 1]>>)
    distruntime.all_reduce ins(%s : memref<2x4xi16, strided<[8, 1]>>) outs(%s : memref<2x4xi16, strided<[8, 1]>>) {reduction = #distruntime.reduction<xor>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}
    // CHECK: distruntime.send ins(%{{.*}} : memref<4xf32>) async {is_host_transfer = true
    %hs = distruntime.send ins(%a : memref<4xf32>) async {is_host_transfer = true, source_target_pairs = dense<[[0, 0]]> : tensor<1x2xi64>}
    distruntime.wait %hs
    // CHECK: distruntime.recv outs(%{{.*}} : memref<4xf32>) async {channel_type = #distruntime.channel_type<host_to_device>, is_host_transfer = true
    %hr = distruntime.recv outs(%a : memref<4xf32>) async {is_host_transfer = true, channel_type = #distruntime.channel_type<host_to_device>, source_target_pairs = dense<[[0, 0]]> : tensor<1x2xi64>}
    distruntime.wait %hr
    return
  }
}

// all_to_all without split_count: the group's size, at run time.
// CHECK-LABEL: func @all_to_all_any_size
func.func @all_to_all_any_size(%x: memref<?x2xf32>, %y: memref<?x2xf32>, %t: tensor<4x2xf32>) -> tensor<?x2xf32> {
  // CHECK: distruntime.all_to_all ins(%{{.*}} : memref<?x2xf32>) outs(%{{.*}} : memref<?x2xf32>) {concat_dimension = 0 : i64, replica_groups = dense<> : tensor<0x0xi64>, split_dimension = 0 : i64}
  distruntime.all_to_all ins(%x : memref<?x2xf32>) outs(%y : memref<?x2xf32>) {split_dimension = 0 : i64, concat_dimension = 0 : i64, replica_groups = dense<> : tensor<0x0xi64>}
  // CHECK: distruntime.all_to_all {{.*}} -> tensor<?x2xf32>
  %r = distruntime.all_to_all ins(%t : tensor<4x2xf32>) {split_dimension = 0 : i64, concat_dimension = 0 : i64, replica_groups = dense<> : tensor<0x0xi64>} -> tensor<?x2xf32>
  return %r : tensor<?x2xf32>
}
