// Every shard op on a 2x3 grid (ranks row-major: (0,0)=0 ... (1,2)=5), and
// groups on a 2x1x2 grid, all worked out by hand below.
// RUN: %distruntime-opt %s --convert-shard-to-distruntime | FileCheck %s
// RUN: %distruntime-opt %s --convert-shard-to-distruntime | FileCheck %s --check-prefix=GONE
// RUN: %distruntime-opt %s --convert-shard-to-distruntime --canonicalize --cse | FileCheck %s --check-prefix=FOLD

shard.grid @g(shape = 2x3)
shard.grid @g3(shape = 2x1x2)

// No shard op is left (the grids are dropped); each function first checks
// the team has 6 processes.
// GONE-NOT: {{^ *(%[^ ]+ = )?shard\.}}
// CHECK-DAG: llvm.mlir.global internal constant @[[GRID:__distrt_str_0x[0-9a-f]+]]("shard.grid @g (shape 2x3)\00")
// CHECK-DAG: llvm.mlir.global internal constant @[[WHAT:__distrt_str_0x[0-9a-f]+]]("processes in team 0\00")

// CHECK-LABEL: func.func @index_ops
// CHECK: %[[SIZE:.+]] = distruntime.team_size team(0)
// CHECK: %[[BAD:.+]] = arith.cmpi ne, %[[SIZE]], %c6
// CHECK: scf.if %[[BAD]]
// CHECK: func.call @distrt_check_failed
// CHECK: %[[LIN:.+]] = distruntime.team_member team(0)
// CHECK: return %[[LIN]]
// FOLD-LABEL: func.func @index_ops
// FOLD: %[[R:.+]] = distruntime.team_member team(0)
// FOLD: %[[Q:.+]] = arith.divui %[[R]], %c3
// FOLD: %[[I0:.+]] = arith.remui %[[Q]], %c2
// FOLD: %[[I1:.+]] = arith.remui %[[R]], %c3
// FOLD: return %[[R]], %[[I0]], %[[I1]], %c3, %c3
func.func @index_ops() -> (index, index, index, index, index) {
  %lin = shard.process_linear_index on @g : index
  %i:2 = shard.process_multi_index on @g : index, index
  %s = shard.grid_shape @g axes = [1] : index
  return %lin, %i#0, %i#1, %s, %s : index, index, index, index, index
}

// Axis 1 groups {0,1,2},{3,4,5}; axis 0 {0,3},{1,4},{2,5}; axes [1, 0] list
// axis 1 slowest; no grid_axes: groups of one process (upstream's
// canonicalizer folds such collectives away).
// CHECK-LABEL: func.func @all_reduce_axes
// CHECK: distruntime.all_reduce ins(%arg0 : tensor<4xf32>) {{.*}}reduction = #distruntime.reduction<sum>, replica_groups = dense<{{\[\[}}0, 1, 2], [3, 4, 5]]> : tensor<2x3xi64>} -> tensor<4xf32>
// CHECK: distruntime.all_reduce {{.*}}reduction = #distruntime.reduction<max>, replica_groups = dense<{{\[\[}}0, 3], [1, 4], [2, 5]]> : tensor<3x2xi64>}
// CHECK: distruntime.all_reduce {{.*}}reduction = #distruntime.reduction<min>, replica_groups = dense<{{\[\[}}0, 3, 1, 4, 2, 5]]> : tensor<1x6xi64>}
// CHECK: distruntime.all_reduce {{.*}}reduction = #distruntime.reduction<prod>, replica_groups = dense<{{\[\[}}0], [1], [2], [3], [4], [5]]> : tensor<6x1xi64>}
func.func @all_reduce_axes(%t: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %a = shard.all_reduce %t on @g grid_axes = [1] : tensor<4xf32> -> tensor<4xf32>
  %b = shard.all_reduce %t on @g grid_axes = [0] reduction = max : tensor<4xf32> -> tensor<4xf32>
  %c = shard.all_reduce %t on @g grid_axes = [1, 0] reduction = min : tensor<4xf32> -> tensor<4xf32>
  %d = shard.all_reduce %t on @g reduction = product : tensor<4xf32> -> tensor<4xf32>
  return %a, %b, %c, %d : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// Bitwise reductions; a wider result converts first; average divides by 3.
// CHECK-LABEL: func.func @all_reduce_kinds
// CHECK: distruntime.all_reduce {{.*}}reduction = #distruntime.reduction<and>
// CHECK: distruntime.all_reduce {{.*}}reduction = #distruntime.reduction<or>
// CHECK: distruntime.all_reduce {{.*}}reduction = #distruntime.reduction<xor>
// CHECK: %[[WIDE:.+]] = linalg.generic {{.*}} ins(%arg0 : tensor<4xi32>) outs(%{{.+}} : tensor<4xi64>)
// CHECK: arith.extsi %{{.+}} : i32 to i64
// CHECK: distruntime.all_reduce ins(%[[WIDE]] : tensor<4xi64>) {{.*}}reduction = #distruntime.reduction<sum>{{.*}} -> tensor<4xi64>
// CHECK: %[[SUM:.+]] = distruntime.all_reduce ins(%arg0 : tensor<4xi32>) {{.*}}reduction = #distruntime.reduction<sum>
// CHECK: linalg.generic {{.*}} ins(%[[SUM]] : tensor<4xi32>)
// CHECK: arith.divsi %{{.+}}, %c3_i32 : i32
func.func @all_reduce_kinds(%t: tensor<4xi32>) -> (tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi64>, tensor<4xi32>) {
  %a = shard.all_reduce %t on @g grid_axes = [1] reduction = bitwise_and : tensor<4xi32> -> tensor<4xi32>
  %b = shard.all_reduce %t on @g grid_axes = [1] reduction = bitwise_or : tensor<4xi32> -> tensor<4xi32>
  %c = shard.all_reduce %t on @g grid_axes = [1] reduction = bitwise_xor : tensor<4xi32> -> tensor<4xi32>
  %d = shard.all_reduce %t on @g grid_axes = [1] : tensor<4xi32> -> tensor<4xi64>
  %e = shard.all_reduce %t on @g grid_axes = [1] reduction = average : tensor<4xi32> -> tensor<4xi32>
  return %a, %b, %c, %d, %e : tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi64>, tensor<4xi32>
}

// The memref form reduces into a new buffer of the result type, after
// widening f32 to f64 in a temporary it frees.
// CHECK-LABEL: func.func @all_reduce_memref
// CHECK: %[[WIDE:.+]] = memref.alloc() : memref<4xf64>
// CHECK: linalg.generic {{.*}} ins(%arg0 : memref<4xf32>) outs(%[[WIDE]] : memref<4xf64>)
// CHECK: %[[N:.+]] = memref.dim %[[WIDE]], %c0
// CHECK: %[[OUT:.+]] = memref.alloc(%[[N]]) : memref<?xf64>
// CHECK: distruntime.all_reduce ins(%[[WIDE]] : memref<4xf64>) outs(%[[OUT]] : memref<?xf64>) {{.*}}replica_groups = dense<{{\[\[}}0, 3], [1, 4], [2, 5]]>
// CHECK: memref.dealloc %[[WIDE]]
// CHECK: return %[[OUT]]
func.func @all_reduce_memref(%m: memref<4xf32>) -> memref<?xf64> {
  %r = shard.all_reduce %m on @g grid_axes = [0] : memref<4xf32> -> memref<?xf64>
  return %r : memref<?xf64>
}

// i1 widens as unsigned (true counts 1); min and max of unsigned integers
// compare unsigned.
// CHECK-LABEL: func.func @element_kinds
// CHECK: arith.extui %{{.+}} : i1 to i32
// CHECK: distruntime.all_reduce {{.*}}reduction = #distruntime.reduction<sum>
// CHECK: distruntime.all_reduce ins(%arg1 : tensor<4xui16>) {{.*}}reduction = #distruntime.reduction<umin>
// CHECK: distruntime.all_reduce ins(%arg1 : tensor<4xui16>) {{.*}}reduction = #distruntime.reduction<umax>
func.func @element_kinds(%b: tensor<4xi1>, %u: tensor<4xui16>) -> (tensor<4xi32>, tensor<4xui16>, tensor<4xui16>) {
  %n = shard.all_reduce %b on @g grid_axes = [1] : tensor<4xi1> -> tensor<4xi32>
  %lo = shard.all_reduce %u on @g grid_axes = [1] reduction = min : tensor<4xui16> -> tensor<4xui16>
  %hi = shard.all_reduce %u on @g grid_axes = [1] reduction = max : tensor<4xui16> -> tensor<4xui16>
  return %n, %lo, %hi : tensor<4xi32>, tensor<4xui16>, tensor<4xui16>
}

// all_slice cuts block (in-group index = row of the grid) of 2 columns;
// gather is an all_gather.
// CHECK-LABEL: func.func @gather_slice
// CHECK: distruntime.all_gather ins(%arg0 : tensor<2x4xf32>) {{.*}}all_gather_dim = 1 : i64, replica_groups = dense<{{\[\[}}0, 1, 2], [3, 4, 5]]> : tensor<2x3xi64>} -> tensor<2x12xf32>
// CHECK: tensor.extract_slice %arg0[0, %{{.+}}] [2, 2] [1, 1] : tensor<2x4xf32> to tensor<2x2xf32>
// CHECK: distruntime.all_gather ins(%arg0 : tensor<2x4xf32>) {{.*}}all_gather_dim = 0 : i64, replica_groups = dense<{{\[\[}}0, 3], [1, 4], [2, 5]]> : tensor<3x2xi64>} -> tensor<4x4xf32>
// FOLD-LABEL: func.func @gather_slice
// FOLD: %[[R:.+]] = distruntime.team_member team(0)
// FOLD: %[[Q:.+]] = arith.divui %[[R]], %c3
// FOLD: %[[ROW:.+]] = arith.remui %[[Q]], %c2
// FOLD: %[[AT:.+]] = arith.muli %[[ROW]], %c2
// FOLD: tensor.extract_slice %arg0[0, %[[AT]]] [2, 2] [1, 1]
func.func @gather_slice(%t: tensor<2x4xf32>) -> (tensor<2x12xf32>, tensor<2x2xf32>, tensor<4x4xf32>) {
  %g = shard.all_gather %t on @g grid_axes = [1] gather_axis = 1 : tensor<2x4xf32> -> tensor<2x12xf32>
  %s = shard.all_slice %t on @g grid_axes = [0] slice_axis = 1 : tensor<2x4xf32> -> tensor<2x2xf32>
  %r = shard.gather %t on @g grid_axes = [0] gather_axis = 0 root = [1] : (tensor<2x4xf32>) -> tensor<4x4xf32>
  return %g, %s, %r : tensor<2x12xf32>, tensor<2x2xf32>, tensor<4x4xf32>
}

// CHECK-LABEL: func.func @exchange
// CHECK: distruntime.all_to_all ins(%arg0 : tensor<6x2xf32>) {{.*}}concat_dimension = 1 : i64, replica_groups = dense<{{\[\[}}0, 1, 2], [3, 4, 5]]> : tensor<2x3xi64>, split_count = 3 : i64, split_dimension = 0 : i64} -> tensor<2x6xf32>
// CHECK: distruntime.reduce_scatter ins(%arg0 : tensor<6x2xf32>) {{.*}}reduction = #distruntime.reduction<sum>, replica_groups = dense<{{\[\[}}0, 1, 2], [3, 4, 5]]> : tensor<2x3xi64>, scatter_dimension = 0 : i64} -> tensor<2x2xf32>
func.func @exchange(%t: tensor<6x2xf32>) -> (tensor<2x6xf32>, tensor<2x2xf32>) {
  %a = shard.all_to_all %t on @g grid_axes = [1] split_axis = 0 concat_axis = 1 : tensor<6x2xf32> -> tensor<2x6xf32>
  %r = shard.reduce_scatter %t on @g grid_axes = [1] scatter_axis = 0 : tensor<6x2xf32> -> tensor<2x2xf32>
  return %a, %r : tensor<2x6xf32>, tensor<2x2xf32>
}

// Broadcast groups list the root first: root [2] of {0,1,2} is rank 2.
// Scatter broadcasts from root [1], then keeps block (column index).
// CHECK-LABEL: func.func @rooted
// CHECK: distruntime.collective_broadcast ins(%arg0 : tensor<6x2xf32>) {{.*}}replica_groups = dense<{{\[\[}}2, 0, 1], [5, 3, 4]]>
// CHECK: %[[ALL:.+]] = distruntime.collective_broadcast ins(%arg0 : tensor<6x2xf32>) {{.*}}replica_groups = dense<{{\[\[}}1, 2, 0], [4, 5, 3]]>
// CHECK: tensor.extract_slice %[[ALL]][%{{.+}}, 0] [2, 2] [1, 1] : tensor<6x2xf32> to tensor<2x2xf32>
// CHECK: distruntime.all_reduce ins(%arg0 : tensor<6x2xf32>) {{.*}}reduction = #distruntime.reduction<max>, replica_groups = dense<{{\[\[}}0, 3], [1, 4], [2, 5]]>
// FOLD-LABEL: func.func @rooted
// FOLD: %[[R:.+]] = distruntime.team_member team(0)
// FOLD: %[[COL:.+]] = arith.remui %[[R]], %c3
// FOLD: %[[AT:.+]] = arith.muli %[[COL]], %c2
// FOLD: tensor.extract_slice %{{.+}}[%[[AT]], 0] [2, 2] [1, 1]
func.func @rooted(%t: tensor<6x2xf32>) -> (tensor<6x2xf32>, tensor<2x2xf32>, tensor<6x2xf32>) {
  %b = shard.broadcast %t on @g grid_axes = [1] root = [2] : (tensor<6x2xf32>) -> tensor<6x2xf32>
  %s = shard.scatter %t on @g grid_axes = [1] scatter_axis = 0 root = [1] : (tensor<6x2xf32>) -> tensor<2x2xf32>
  %r = shard.reduce %t on @g grid_axes = [0] reduction = max root = [0] : (tensor<6x2xf32>) -> tensor<6x2xf32>
  return %b, %s, %r : tensor<6x2xf32>, tensor<2x2xf32>, tensor<6x2xf32>
}

// send/recv pair the two rows of each column; shift moves along the row.
// CHECK-LABEL: func.func @point_to_point
// CHECK: distruntime.send ins(%arg0 : tensor<3xf32>) {{.*}}source_target_pairs = dense<{{\[\[}}0, 3], [1, 4], [2, 5]]> : tensor<3x2xi64>}
// CHECK: %[[RECV:.+]] = distruntime.recv {{.*}}source_target_pairs = dense<{{\[\[}}3, 0], [4, 1], [5, 2]]> : tensor<3x2xi64>} -> tensor<3xf32>
// CHECK: %[[ROT:.+]] = distruntime.collective_permute ins(%arg0 : tensor<3xf32>) {{.*}}source_target_pairs = dense<{{\[\[}}0, 1], [1, 2], [2, 0], [3, 4], [4, 5], [5, 3]]> : tensor<6x2xi64>}
// CHECK: %[[DOWN:.+]] = distruntime.collective_permute ins(%arg0 : tensor<3xf32>) {{.*}}source_target_pairs = dense<{{\[\[}}1, 0], [2, 1], [4, 3], [5, 4]]> : tensor<4x2xi64>}
// CHECK: return %arg0, %[[RECV]], %[[ROT]], %[[DOWN]]
func.func @point_to_point(%t: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) {
  %s = shard.send %t on @g grid_axes = [0] destination = [1] : (tensor<3xf32>) -> tensor<3xf32>
  %r = shard.recv %t on @g grid_axes = [0] source = [1] : (tensor<3xf32>) -> tensor<3xf32>
  %a = shard.shift %t on @g grid_axes = [1] shift_axis = 1 offset = 1 rotate : tensor<3xf32> -> tensor<3xf32>
  %b = shard.shift %t on @g grid_axes = [1] shift_axis = 1 offset = -1 : tensor<3xf32> -> tensor<3xf32>
  return %s, %r, %a, %b : tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>
}

// In a group of one (no grid_axes) send and recv keep the input.
// CHECK-LABEL: func.func @point_to_point_alone
// CHECK-NOT: distruntime.send
// CHECK-NOT: distruntime.recv
// CHECK: return %arg0, %arg0
func.func @point_to_point_alone(%t: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %s = shard.send %t on @g destination = [] : (tensor<3xf32>) -> tensor<3xf32>
  %r = shard.recv %t on @g source = [] : (tensor<3xf32>) -> tensor<3xf32>
  return %s, %r : tensor<3xf32>, tensor<3xf32>
}

// Along axis 1 from (1, 0): no process before, (1, 1) = 4 after; from
// (0, 1) along axis 0: none before, (1, 1) = 4 after.
// FOLD-LABEL: func.func @neighbors
// FOLD-DAG: %[[NONE:.+]] = arith.constant -1 : index
// FOLD-DAG: %[[FOUR:.+]] = arith.constant 4 : index
// FOLD: return %[[NONE]], %[[FOUR]], %[[NONE]], %[[FOUR]]
func.func @neighbors() -> (index, index, index, index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %d, %u = shard.neighbors_linear_indices on @g[%c1, %c0] split_axes = [1] : index, index
  %d0, %u0 = shard.neighbors_linear_indices on @g[%c0, %c1] split_axes = [0] : index, index
  return %d, %u, %d0, %u0 : index, index, index, index
}

// 7 rows over 3 shards: 2, 2, 3 (the remainder on the last); explicit
// offsets [0, 1, 4, 7] give 1, 3, 3. Columns are not split.
// FOLD-LABEL: func.func @shard_shape
// FOLD-DAG: %[[C1:.+]] = arith.constant 1 : index
// FOLD-DAG: %[[C2:.+]] = arith.constant 2 : index
// FOLD-DAG: %[[C3:.+]] = arith.constant 3 : index
// FOLD-DAG: %[[C5:.+]] = arith.constant 5 : index
// FOLD: return %[[C3]], %[[C5]], %[[C2]], %[[C1]], %[[C3]]
func.func @shard_shape(%i: index) -> (index, index, index, index, index) {
  %c0 = arith.constant 0 : index
  %s = shard.sharding @g split_axes = [[1]] : !shard.sharding
  %r:2 = shard.shard_shape dims = [7, 5] sharding = %s device = [%i, 2] : index, index
  %a:2 = shard.shard_shape dims = [7, 5] sharding = %s device = [%i, 1] : index, index
  %o = shard.sharding @g split_axes = [[1]] sharded_dims_offsets = [0, 1, 4, 7] : !shard.sharding
  %b:2 = shard.shard_shape dims = [7, 5] sharding = %o device = [%i, 0] : index, index
  %c:2 = shard.shard_shape dims = [7, 5] sharding = %o device = [%i, 1] : index, index
  return %r#0, %r#1, %a#0, %b#0, %c#0 : index, index, index, index, index
}

// update_halo: halo sizes of the split dimension only; each op its own key.
// CHECK-LABEL: func.func @update_halo
// CHECK: %[[T:.+]] = distruntime.update_halo %arg0 grid [2, 3] split_axes {{\[\[}}1], []] halo_sizes [2, 1, 0, 0] key(4294967296) : tensor<10x8xf32>
// CHECK: distruntime.update_halo %arg1 grid [2, 3] split_axes {{\[\[}}], [0, 1]] halo_sizes [0, 0, 1, %arg2 : i64] key(4294967297) : memref<6x?xf64>
// CHECK: return %[[T]], %arg1
func.func @update_halo(%t: tensor<10x8xf32>, %m: memref<6x?xf64>, %w: i64) -> (tensor<10x8xf32>, memref<6x?xf64>) {
  %a = shard.update_halo %t on @g split_axes = [[1]] halo_sizes = [2, 1] : tensor<10x8xf32>
  %b = shard.update_halo %m on @g split_axes = [[], [0, 1]] halo_sizes = [1, %w] : memref<6x?xf64>
  return %a, %b : tensor<10x8xf32>, memref<6x?xf64>
}

// A 2x1x2 grid: process (a, b, c) is rank 2a + c. Axes [2, 0] list axis 2
// slowest: (c, a) = (0, 0), (0, 1), (1, 0), (1, 1) are ranks 0, 2, 1, 3;
// axis 0 pairs the ranks with equal c; the size-1 axis 1 gives groups of
// one; axis 2 pairs the ranks with equal a.
// CHECK-LABEL: func.func @grid_3d
// CHECK: distruntime.all_gather {{.*}}replica_groups = dense<{{\[\[}}0, 2, 1, 3]]> : tensor<1x4xi64>}
// CHECK: distruntime.all_reduce {{.*}}replica_groups = dense<{{\[\[}}0, 2], [1, 3]]> : tensor<2x2xi64>}
// CHECK: distruntime.all_reduce {{.*}}replica_groups = dense<{{\[\[}}0], [1], [2], [3]]> : tensor<4x1xi64>}
// CHECK: distruntime.all_reduce {{.*}}replica_groups = dense<{{\[\[}}0, 1], [2, 3]]> : tensor<2x2xi64>}
func.func @grid_3d(%t: tensor<2xf32>) -> (tensor<8xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) {
  %a = shard.all_gather %t on @g3 grid_axes = [2, 0] gather_axis = 0 : tensor<2xf32> -> tensor<8xf32>
  %b = shard.all_reduce %t on @g3 grid_axes = [0] : tensor<2xf32> -> tensor<2xf32>
  %c = shard.all_reduce %t on @g3 grid_axes = [1] : tensor<2xf32> -> tensor<2xf32>
  %d = shard.all_reduce %t on @g3 grid_axes = [2] : tensor<2xf32> -> tensor<2xf32>
  return %a, %b, %c, %d : tensor<8xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>
}
