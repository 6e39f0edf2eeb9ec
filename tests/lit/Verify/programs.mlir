// distruntime-verify-spmd on every example and integration program: no
// error, no warning (the deliberately wrong ones are the misuse programs,
// misuse.mlir). Programs with shard annotations are checked after
// partitioning, as shard-to-llvm checks them.
// RUN: %S/Inputs/verify-programs.sh %distruntime-opt %t %examples/*.mlir %examples/shard/*.mlir %S/../Integration/*.mlir | FileCheck %s --implicit-check-not=error: --implicit-check-not=warning: --implicit-check-not=remark:
// CHECK-DAG: heat2d: clean
// CHECK-DAG: pipeline: clean
// CHECK-DAG: stencil: clean
// CHECK-DAG: summa: clean
// CHECK-DAG: jacobi: clean
// CHECK-DAG: matmul: clean
// CHECK-DAG: elementwise: clean
// CHECK-DAG: update-halo-3d: clean
