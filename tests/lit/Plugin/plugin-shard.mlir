// Stock mlir-opt-22 runs the shard back end through the plugin: the
// conversion alone, and the whole shard-to-llvm pipeline from an annotated
// program (partitioned by upstream's passes) to LLVM calling libdistrt.
// RUN: %mlir-opt --load-dialect-plugin=%plugin --load-pass-plugin=%plugin %s --pass-pipeline="builtin.module(partition-sharded-functions,convert-shard-to-distruntime)" | FileCheck %s --check-prefix=SHARD
// RUN: %mlir-opt --load-dialect-plugin=%plugin --load-pass-plugin=%plugin %s --pass-pipeline="builtin.module(shard-to-llvm)" | FileCheck %s --check-prefix=LLVM

// SHARD-NOT: {{^ *(%[^ ]+ = )?shard\.}}
// SHARD: distruntime.team_member team(0)
// SHARD: distruntime.all_reduce ins(%{{.*}} : tensor<8x8xf32>) {{.*}}replica_groups = dense<{{\[\[}}0, 1, 2, 3]]> : tensor<1x4xi64>} -> tensor<8x8xf32>
// LLVM-DAG: llvm.func @distrt_team_size(i64, !llvm.ptr) -> i64
// LLVM-DAG: llvm.func @distrt_all_reduce(
// LLVM: llvm.call @distrt_all_reduce(
// LLVM-NOT: {{^ *(%[^ ]+ = )?shard\.}}
// LLVM-NOT: distruntime.

shard.grid @grid(shape = 4)
func.func @mm(%a: tensor<8x16xf32>, %b: tensor<16x8xf32>, %c: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %s_k1 = shard.sharding @grid split_axes = [[], [0]] : !shard.sharding
  %s_k0 = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %s_r = shard.sharding @grid split_axes = [[]] : !shard.sharding
  %a1 = shard.shard %a to %s_k1 annotate_for_users : tensor<8x16xf32>
  %b1 = shard.shard %b to %s_k0 annotate_for_users : tensor<16x8xf32>
  %r = linalg.matmul ins(%a1, %b1 : tensor<8x16xf32>, tensor<16x8xf32>) outs(%c : tensor<8x8xf32>) -> tensor<8x8xf32>
  %r1 = shard.shard %r to %s_r : tensor<8x8xf32>
  return %r1 : tensor<8x8xf32>
}
