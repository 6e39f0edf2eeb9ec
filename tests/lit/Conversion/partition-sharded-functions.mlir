// partition-sharded-functions partitions only annotated functions (a
// declaration and an unannotated caller stay as written), and a call to a
// function whose boundary shard-partition split is an error at the call.
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
