// convert-shard-to-distruntime=team=2: every collective it makes names team
// 2, with channel_id 0 and no use_global_device_ids (the shard ops' groups
// are replica_groups of the team's ranks), and its groups as an attribute.
// RUN: %distruntime-opt %s --convert-shard-to-distruntime=team=2 | FileCheck %s
// RUN: %distruntime-opt %s --convert-shard-to-distruntime=team=2 | FileCheck %s --check-prefix=NOT

// NOT-NOT: use_global_device_ids
// NOT-NOT: team = 0
// NOT-NOT: channel_id = 2
// NOT-NOT: replica_groups(
// NOT-NOT: source_target_pairs(

shard.grid @g(shape = 2x3)

// CHECK-LABEL: func @collectives
// CHECK: distruntime.all_reduce {{.*}}team = 2 : i64
// CHECK: distruntime.all_gather {{.*}}team = 2 : i64
// CHECK: distruntime.all_to_all {{.*}}team = 2 : i64
// CHECK: distruntime.reduce_scatter {{.*}}team = 2 : i64
// CHECK: distruntime.collective_broadcast {{.*}}team = 2 : i64
// CHECK: distruntime.send {{.*}}team = 2 : i64
// CHECK: distruntime.recv {{.*}}team = 2 : i64
// CHECK: distruntime.collective_permute {{.*}}team = 2 : i64
func.func @collectives(%t: tensor<6x2xf32>, %v: tensor<3xf32>) -> (tensor<6x2xf32>, tensor<6x6xf32>, tensor<2x6xf32>, tensor<2x2xf32>, tensor<6x2xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) {
  %a = shard.all_reduce %t on @g grid_axes = [1] : tensor<6x2xf32> -> tensor<6x2xf32>
  %b = shard.all_gather %t on @g grid_axes = [1] gather_axis = 1 : tensor<6x2xf32> -> tensor<6x6xf32>
  %c = shard.all_to_all %t on @g grid_axes = [1] split_axis = 0 concat_axis = 1 : tensor<6x2xf32> -> tensor<2x6xf32>
  %d = shard.reduce_scatter %t on @g grid_axes = [1] scatter_axis = 0 : tensor<6x2xf32> -> tensor<2x2xf32>
  %e = shard.broadcast %t on @g grid_axes = [1] root = [2] : (tensor<6x2xf32>) -> tensor<6x2xf32>
  %s = shard.send %v on @g grid_axes = [0] destination = [1] : (tensor<3xf32>) -> tensor<3xf32>
  %r = shard.recv %v on @g grid_axes = [0] source = [1] : (tensor<3xf32>) -> tensor<3xf32>
  %p = shard.shift %v on @g grid_axes = [1] shift_axis = 1 offset = 1 rotate : tensor<3xf32> -> tensor<3xf32>
  return %a, %b, %c, %d, %e, %s, %r, %p : tensor<6x2xf32>, tensor<6x6xf32>, tensor<2x6xf32>, tensor<2x2xf32>, tensor<6x2xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>
}
