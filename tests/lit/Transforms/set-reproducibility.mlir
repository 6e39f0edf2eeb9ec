// distruntime-set-reproducibility gives the program's level to every
// reduction without one and leaves an op's own level alone; an unknown
// level is an error. The pipelines add it for their `reproducibility`
// option, before combining.
// RUN: %distruntime-opt %s -split-input-file -distruntime-set-reproducibility=level=ordered | FileCheck %s
// RUN: not %distruntime-opt %s -split-input-file -distruntime-set-reproducibility=level=fast 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: %distruntime-opt %s -split-input-file -distruntime-to-llvm=reproducibility=exact | FileCheck %s --check-prefix=LLVM

// CHECK-LABEL: func.func @set
// CHECK: distruntime.all_reduce {{.*}}reproducibility = #distruntime.reproducibility<ordered>
// CHECK: distruntime.all_reduce {{.*}}reproducibility = #distruntime.reproducibility<mpi>
// CHECK: distruntime.allreduce <sum> %{{.*}} team(0) {reproducibility = #distruntime.reproducibility<ordered>}
// CHECK: distruntime.all_gather
// CHECK-NOT: reproducibility
// BAD: unknown level 'fast'; expected one of mpi, ordered, exact
// The program's level (exact: 3 << 8) on the op without one, the op's own
// (mpi: 1 << 8) on the other; sum is 0.
// LLVM-DAG: %[[MPI:.*]] = llvm.mlir.constant(256 : i32)
// LLVM-DAG: %[[EXACT:.*]] = llvm.mlir.constant(768 : i32)
// LLVM: llvm.call @distrt_all_reduce(%{{.*}}, %{{.*}}, %[[EXACT]],
// LLVM: llvm.call @distrt_all_reduce(%{{.*}}, %{{.*}}, %[[MPI]],
// LLVM: llvm.call @distrt_all_reduce(%{{.*}}, %{{.*}}, %[[EXACT]],
func.func @set(%a: memref<4xf32>, %b: memref<4xf32>, %c: memref<4xf64>, %d: memref<8xf32>) {
  distruntime.all_reduce ins(%a : memref<4xf32>) outs(%a : memref<4xf32>) {reduction = #distruntime.reduction<sum>, replica_groups = dense<[[0]]> : tensor<1x1xi64>}
  distruntime.all_reduce ins(%b : memref<4xf32>) outs(%b : memref<4xf32>) {reduction = #distruntime.reduction<sum>, reproducibility = #distruntime.reproducibility<mpi>, replica_groups = dense<[[0]]> : tensor<1x1xi64>}
  distruntime.allreduce <sum> %c team(0) : memref<4xf64>
  distruntime.all_gather ins(%a : memref<4xf32>) outs(%d : memref<8xf32>) {all_gather_dim = 0 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}
  return
}
