// ragged_all_to_all: its four sizes are tables read when the op runs,
// passed after the groups: (team, groups, input_offsets, send_sizes,
// output_offsets, recv_sizes, n, inputs[], outputs[], async, site, loc).
// A table of static length is loaded onto the stack; one of run-time
// length points at its buffer when that is a dense i64 one, else at an i64
// copy made before the call (a loop) and freed after it.
// RUN: %distruntime-opt %s --convert-distruntime-to-runtime | FileCheck %s
// RUN: %distruntime-opt %s --distruntime-to-llvm | mlir-translate --mlir-to-llvmir | FileCheck %s --check-prefix=IR

// IR-DAG: declare i64 @distrt_ragged_all_to_all(i64, ptr, ptr, ptr, ptr, ptr, i64, ptr, ptr, i32, ptr, ptr)

// CHECK-LABEL: func @dense
// CHECK-NOT: memref.alloc
// CHECK: memref.alloca_scope
// CHECK-COUNT-4: memref.extract_aligned_pointer_as_index
// CHECK: call @distrt_ragged_all_to_all
func.func @dense(%x: memref<?xf32>, %y: memref<?xf32>, %s: memref<?xi64>) {
  distruntime.ragged_all_to_all ins(%x : memref<?xf32>) outs(%y : memref<?xf32>) input_offsets(%s : memref<?xi64>) send_sizes(%s : memref<?xi64>) output_offsets(%s : memref<?xi64>) recv_sizes(%s : memref<?xi64>) {replica_groups = dense<> : tensor<0x0xi64>}
  return
}

// CHECK-LABEL: func @narrow
// Each i32 table is copied into a dense i64 one first.
// CHECK: %[[COPY:.*]] = memref.alloc(%{{.*}}) : memref<?xi64>
// CHECK: scf.for
// CHECK: arith.extsi
// CHECK: memref.store {{.*}}, %[[COPY]]
// CHECK: memref.alloca_scope
// CHECK: call @distrt_ragged_all_to_all
// CHECK: memref.dealloc %[[COPY]]
func.func @narrow(%x: memref<?xf32>, %y: memref<?xf32>, %t: memref<?xi32>) {
  %h = distruntime.ragged_all_to_all ins(%x : memref<?xf32>) outs(%y : memref<?xf32>) input_offsets(%t : memref<?xi32>) send_sizes(%t : memref<?xi32>) output_offsets(%t : memref<?xi32>) recv_sizes(%t : memref<?xi32>) async {replica_groups = dense<> : tensor<0x0xi64>}
  distruntime.wait %h
  return
}
