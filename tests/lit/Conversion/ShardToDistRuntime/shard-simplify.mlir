// distruntime-shard-simplify: shard.all_slice(shard.all_reduce(x)) over the
// same grid and axes, the all_reduce used by the slice alone, becomes
// shard.reduce_scatter(x) along the slice axis into the slice's type, where
// MPI's order of combining values cannot change a bit (integers; groups of
// at most two for floating-point sum, average and product), and with
// reassociate=1 for floating-point reductions over larger groups too.
// Negative cases: other axes, another use, other grid, floating-point min or
// max, larger float groups, a memref all_reduce.
// RUN: %distruntime-opt %s --distruntime-shard-simplify | FileCheck %s
// RUN: %distruntime-opt %s --distruntime-shard-simplify=reassociate=1 | FileCheck %s --check-prefix=REASSOC
// The rewritten program lowers to one distruntime.reduce_scatter.
// RUN: %distruntime-opt %s --distruntime-shard-simplify --convert-shard-to-distruntime | FileCheck %s --check-prefix=LOWER

shard.grid @pair(shape = 2)
shard.grid @g(shape = 2x4)

// The K-split matmul's pattern on a grid of two: f64 sum.
// CHECK-LABEL: func.func @pair_sum(
// CHECK-SAME: %[[X:[^:]*]]: tensor<6x6xf64>)
// CHECK-NEXT: %[[R:.*]] = shard.reduce_scatter %[[X]] on @pair grid_axes = [0] scatter_axis = 0 : tensor<6x6xf64> -> tensor<3x6xf64>
// CHECK-NEXT: return %[[R]]
// LOWER-LABEL: func.func @pair_sum(
// LOWER: distruntime.reduce_scatter ins(%{{.*}} : tensor<6x6xf64>) {reduction = #distruntime.reduction<sum>, replica_groups = dense<{{\[\[}}0, 1]]> : tensor<1x2xi64>, scatter_dimension = 0 : i64} -> tensor<3x6xf64>
// LOWER-NOT: distruntime.all_reduce
// LOWER-NOT: tensor.extract_slice
// LOWER: return
func.func @pair_sum(%x: tensor<6x6xf64>) -> tensor<3x6xf64> {
  %r = shard.all_reduce %x on @pair grid_axes = [0] : tensor<6x6xf64> -> tensor<6x6xf64>
  %s = shard.all_slice %r on @pair grid_axes = [0] slice_axis = 0 : tensor<6x6xf64> -> tensor<3x6xf64>
  return %s : tensor<3x6xf64>
}

// Average and product on a pair, sliced along dimension 1.
// CHECK-LABEL: func.func @pair_average_product(
// CHECK: shard.reduce_scatter %{{.*}} on @pair grid_axes = [0] reduction = average scatter_axis = 1 : tensor<2x4xf32> -> tensor<2x2xf32>
// CHECK: shard.reduce_scatter %{{.*}} on @pair grid_axes = [0] reduction = product scatter_axis = 1 : tensor<2x4xf32> -> tensor<2x2xf32>
func.func @pair_average_product(%x: tensor<2x4xf32>) -> (tensor<2x2xf32>, tensor<2x2xf32>) {
  %r = shard.all_reduce %x on @pair grid_axes = [0] reduction = average : tensor<2x4xf32> -> tensor<2x4xf32>
  %s = shard.all_slice %r on @pair grid_axes = [0] slice_axis = 1 : tensor<2x4xf32> -> tensor<2x2xf32>
  %p = shard.all_reduce %x on @pair grid_axes = [0] reduction = product : tensor<2x4xf32> -> tensor<2x4xf32>
  %q = shard.all_slice %p on @pair grid_axes = [0] slice_axis = 1 : tensor<2x4xf32> -> tensor<2x2xf32>
  return %s, %q : tensor<2x2xf32>, tensor<2x2xf32>
}

// Integers in groups of four (axis 1 of 2x4) and of eight (both axes), any
// reduction, with a wider result (i8 summed as i32).
// CHECK-LABEL: func.func @integers(
// CHECK: shard.reduce_scatter %{{.*}} on @g grid_axes = [1] reduction = max scatter_axis = 0 : tensor<8x3xi32> -> tensor<2x3xi32>
// CHECK: shard.reduce_scatter %{{.*}} on @g grid_axes = [0, 1] scatter_axis = 1 : tensor<2x16xi8> -> tensor<2x2xi32>
// CHECK-NOT: shard.all_slice
func.func @integers(%x: tensor<8x3xi32>, %y: tensor<2x16xi8>) -> (tensor<2x3xi32>, tensor<2x2xi32>) {
  %r = shard.all_reduce %x on @g grid_axes = [1] reduction = max : tensor<8x3xi32> -> tensor<8x3xi32>
  %s = shard.all_slice %r on @g grid_axes = [1] slice_axis = 0 : tensor<8x3xi32> -> tensor<2x3xi32>
  %p = shard.all_reduce %y on @g grid_axes = [0, 1] : tensor<2x16xi8> -> tensor<2x16xi32>
  %q = shard.all_slice %p on @g grid_axes = [0, 1] slice_axis = 1 : tensor<2x16xi32> -> tensor<2x2xi32>
  return %s, %q : tensor<2x3xi32>, tensor<2x2xi32>
}

// A float sum over four: MPI may add in another order, so only with
// reassociate=1.
// CHECK-LABEL: func.func @float_four(
// CHECK: shard.all_reduce
// CHECK: shard.all_slice
// REASSOC-LABEL: func.func @float_four(
// REASSOC-NEXT: shard.reduce_scatter %{{.*}} on @g grid_axes = [1] scatter_axis = 0 : tensor<8x2xf32> -> tensor<2x2xf32>
func.func @float_four(%x: tensor<8x2xf32>) -> tensor<2x2xf32> {
  %r = shard.all_reduce %x on @g grid_axes = [1] : tensor<8x2xf32> -> tensor<8x2xf32>
  %s = shard.all_slice %r on @g grid_axes = [1] slice_axis = 0 : tensor<8x2xf32> -> tensor<2x2xf32>
  return %s : tensor<2x2xf32>
}

// Floating-point max on a pair: MPI_MAX picks an operand by position for -0
// and +0, so only with reassociate=1.
// CHECK-LABEL: func.func @float_max(
// CHECK: shard.all_reduce
// REASSOC-LABEL: func.func @float_max(
// REASSOC-NEXT: shard.reduce_scatter
func.func @float_max(%x: tensor<4xf64>) -> tensor<2xf64> {
  %r = shard.all_reduce %x on @pair grid_axes = [0] reduction = max : tensor<4xf64> -> tensor<4xf64>
  %s = shard.all_slice %r on @pair grid_axes = [0] slice_axis = 0 : tensor<4xf64> -> tensor<2xf64>
  return %s : tensor<2xf64>
}

// Left alone: the slice over other axes, the all_reduce used again, a
// memref all_reduce.
// CHECK-LABEL: func.func @unchanged(
// CHECK-COUNT-3: shard.all_reduce
// CHECK-NOT: shard.reduce_scatter
// REASSOC-LABEL: func.func @unchanged(
// REASSOC-NOT: shard.reduce_scatter
// REASSOC: return
func.func @unchanged(%x: tensor<8x4xi32>, %m: memref<4xi32>)
    -> (tensor<2x4xi32>, tensor<8x4xi32>, tensor<4x4xi32>, memref<4xi32>) {
  %r = shard.all_reduce %x on @g grid_axes = [1] : tensor<8x4xi32> -> tensor<8x4xi32>
  %s = shard.all_slice %r on @g grid_axes = [0, 1] slice_axis = 0 : tensor<8x4xi32> -> tensor<1x4xi32>
  %t = shard.all_slice %r on @g grid_axes = [1] slice_axis = 0 : tensor<8x4xi32> -> tensor<2x4xi32>
  %u = shard.all_reduce %x on @g grid_axes = [0] : tensor<8x4xi32> -> tensor<8x4xi32>
  %v = shard.all_slice %u on @g grid_axes = [0] slice_axis = 0 : tensor<8x4xi32> -> tensor<4x4xi32>
  %o = shard.all_reduce %m on @pair grid_axes = [0] : memref<4xi32> -> memref<4xi32>
  return %t, %u, %v, %o : tensor<2x4xi32>, tensor<8x4xi32>, tensor<4x4xi32>, memref<4xi32>
}
