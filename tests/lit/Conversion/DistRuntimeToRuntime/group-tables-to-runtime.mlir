// Groups read at run time: the groups descriptor is built on the stack,
// inside the call's alloca scope, {mode, num_replicas, num_partitions, rows,
// columns, ids, flags = 1 (DISTRT_GROUPS_RUNTIME)}, its ids the table's
// aligned pointer. A strided table is first copied into a dense one, freed
// after the call.
// RUN: %distruntime-opt %s --convert-distruntime-to-runtime | FileCheck %s

// CHECK-LABEL: func.func @f(
// CHECK-SAME: %[[X:[^:]*]]: memref<8xf64>, %[[G:[^:]*]]: memref<?x?xi64>, %[[S:[^:]*]]: memref<?x?xi64, strided<[?, ?], offset: ?>>
// CHECK: memref.alloca_scope
// CHECK: memref.extract_aligned_pointer_as_index %[[G]] : memref<?x?xi64>
// CHECK: %[[ROWS:.*]] = memref.dim %[[G]], %{{.*}} : memref<?x?xi64>
// CHECK: %[[COLS:.*]] = memref.dim %[[G]], %{{.*}} : memref<?x?xi64>
// CHECK: %[[FLAG:.*]] = llvm.mlir.constant(1 : i64) : i64
// CHECK: llvm.insertvalue %[[FLAG]], %{{.*}}[6] : !llvm.struct<(i32, i64, i64, i64, i64, ptr, i64)>
// CHECK: %[[DESC:.*]] = llvm.alloca %{{.*}} x !llvm.struct<(i32, i64, i64, i64, i64, ptr, i64)>
// CHECK: call @distrt_all_reduce(%{{.*}}, %[[DESC]],
// The strided pairs: copied into a dense buffer before the scope.
// CHECK: %[[COPY:.*]] = memref.alloc(%{{.*}}, %{{.*}}) : memref<?x?xi64>
// CHECK: scf.for
// CHECK: scf.for
// CHECK: memref.load %[[S]]
// CHECK: memref.store %{{.*}}, %[[COPY]]
// CHECK: memref.alloca_scope
// CHECK: memref.extract_aligned_pointer_as_index %[[COPY]]
// CHECK: call @distrt_collective_permute(
// CHECK: memref.dealloc %[[COPY]] : memref<?x?xi64>
func.func @f(%x: memref<8xf64>, %g: memref<?x?xi64>, %s: memref<?x?xi64, strided<[?, ?], offset: ?>>) {
  distruntime.all_reduce ins(%x : memref<8xf64>) outs(%x : memref<8xf64>) replica_groups(%g : memref<?x?xi64>) {reduction = #distruntime.reduction<sum>}
  distruntime.collective_permute ins(%x : memref<8xf64>) outs(%x : memref<8xf64>) source_target_pairs(%s : memref<?x?xi64, strided<[?, ?], offset: ?>>)
  return
}
