// partition-sharded-functions partitions only annotated functions (a
// declaration and an unannotated caller stay as written), a call to a
// function whose boundary shard-partition split is an error at the call, and
// a split dimension its shards do not divide is an error at its annotation.
// RUN: %distruntime-opt %s -split-input-file -verify-diagnostics --partition-sharded-functions | FileCheck %s
// RUN: not %distruntime-opt %s -split-input-file --convert-shard-to-distruntime=team=-1 2>&1 | FileCheck %s --check-prefix=TEAM

// TEAM: error: convert-shard-to-distruntime: team -1 is not a team id (a non-negative integer)

// CHECK-LABEL: func.func private @print(tensor<8xf32>)
// CHECK-LABEL: func.func @scale
// CHECK: shard.all_slice %arg0 on @g grid_axes = [0] slice_axis = 0 : tensor<8xf32> -> tensor<4xf32>
// CHECK: shard.all_gather {{.*}} : tensor<4xf32> -> tensor<8xf32>
// CHECK-LABEL: func.func @main
// CHECK: call @scale(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
// CHECK: call @print
shard.grid @g(shape = 2)
func.func private @print(tensor<8xf32>)
func.func @scale(%a: tensor<8xf32>) -> tensor<8xf32> {
  %r = shard.sharding @g split_axes = [[]] : !shard.sharding
  %s = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %a0 = shard.shard %a to %r : tensor<8xf32>
  %a1 = shard.shard %a0 to %s annotate_for_users : tensor<8xf32>
  %e = tensor.empty() : tensor<8xf32>
  %y = linalg.add ins(%a1, %a1 : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %y0 = shard.shard %y to %s : tensor<8xf32>
  %y1 = shard.shard %y0 to %r annotate_for_users : tensor<8xf32>
  return %y1 : tensor<8xf32>
}
func.func @main(%a: tensor<8xf32>) {
  %y = func.call @scale(%a) : (tensor<8xf32>) -> tensor<8xf32>
  func.call @print(%y) : (tensor<8xf32>) -> ()
  return
}

// -----

shard.grid @g(shape = 2)
func.func @split_boundary(%a: tensor<8xf32>) -> tensor<8xf32> {
  %s = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %0 = shard.shard %a to %s : tensor<8xf32>
  %1 = shard.shard %0 to %s annotate_for_users : tensor<8xf32>
  %2 = tosa.abs %1 : (tensor<8xf32>) -> tensor<8xf32>
  return %2 : tensor<8xf32>
}
func.func @caller(%a: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{calls @split_boundary, whose arguments or results shard-partition split at the function boundary: its type became '(tensor<4xf32>) -> tensor<4xf32>' (was '(tensor<8xf32>) -> tensor<8xf32>'); annotate them replicated and split inside the function}}
  %0 = func.call @split_boundary(%a) : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// An uneven split is refused before shard-partition, which would give each
// shard floor(18 / 4) elements and fail on a tensor.cast it made.
shard.grid @grid(shape = 4)
func.func @uneven(%x: tensor<18xf64>) -> tensor<18xf64> {
  %replicated = shard.sharding @grid split_axes = [[]] : !shard.sharding
  // expected-note @+1 {{split by this sharding}}
  %split = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %x0 = shard.shard %x to %replicated : tensor<18xf64>
  // expected-error @+1 {{'shard.shard' op dimension 0 of size 18 does not divide evenly over grid axis 0 of @grid (4 processes); uneven splits need SPMD form with shard_shape (see examples/shard/jacobi.mlir)}}
  %x1 = shard.shard %x0 to %split annotate_for_users : tensor<18xf64>
  %e = tensor.empty() : tensor<18xf64>
  %z = linalg.add ins(%x1, %x1 : tensor<18xf64>, tensor<18xf64>) outs(%e : tensor<18xf64>) -> tensor<18xf64>
  %z0 = shard.shard %z to %split : tensor<18xf64>
  %z1 = shard.shard %z0 to %replicated annotate_for_users : tensor<18xf64>
  return %z1 : tensor<18xf64>
}

// -----

// Several grid axes split one dimension: 8 over 2 x 3 processes.
shard.grid @g2(shape = 2x3)
func.func @uneven_axes(%x: tensor<8x3xf32>) -> tensor<8x3xf32> {
  %r = shard.sharding @g2 split_axes = [[]] : !shard.sharding
  // expected-note @+1 {{split by this sharding}}
  %s = shard.sharding @g2 split_axes = [[0, 1]] : !shard.sharding
  %0 = shard.shard %x to %r : tensor<8x3xf32>
  // expected-error @+1 {{dimension 0 of size 8 does not divide evenly over grid axes [0, 1] of @g2 (6 processes)}}
  %1 = shard.shard %0 to %s annotate_for_users : tensor<8x3xf32>
  %2 = tosa.abs %1 : (tensor<8x3xf32>) -> tensor<8x3xf32>
  %3 = shard.shard %2 to %s : tensor<8x3xf32>
  %4 = shard.shard %3 to %r annotate_for_users : tensor<8x3xf32>
  return %4 : tensor<8x3xf32>
}
