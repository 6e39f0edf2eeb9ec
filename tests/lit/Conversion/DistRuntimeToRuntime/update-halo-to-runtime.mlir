// update_halo becomes one distrt_update_halo call: (team, key or -1, dtype,
// block, spec, async, location). The spec is distrt.h's i64 array
// [g, grid..., then per dimension lo, hi, k, axes...]: a constant global
// when static, else stored on the stack.
// RUN: %distruntime-opt %s --convert-distruntime-to-runtime -split-input-file -verify-diagnostics | FileCheck %s

// CHECK-DAG: memref.global "private" constant @[[SPEC:__distrt_halo_spec_[0-9a-fx]+]] : memref<11xi64> = dense<[2, 2, 2, 1, 1, 1, 0, 2, 0, 1, 1]>
// CHECK-DAG: func.func private @distrt_update_halo(i64, i64, i32, i64, !llvm.ptr, i64, !llvm.ptr, i32, !llvm.ptr) -> i64

// CHECK-LABEL: func @static_sync
// CHECK-SAME: (%[[B:.*]]: memref<18x18xf32>)
// CHECK: %[[LOC:.*]] = llvm.mlir.addressof @__distrt_str_
// CHECK: %[[G:.*]] = memref.get_global @[[SPEC]] : memref<11xi64>
// CHECK: memref.alloca_scope
// CHECK-NOT: memref.store
// CHECK: %[[BU:.*]] = memref.cast %[[B]] : memref<18x18xf32> to memref<*xf32>
// CHECK: %[[BD:.*]] = builtin.unrealized_conversion_cast %[[BU]]
// CHECK: %[[BR:.*]] = llvm.extractvalue %[[BD]][0]
// CHECK: %[[BP:.*]] = llvm.extractvalue %[[BD]][1]
// CHECK: %[[SU:.*]] = memref.cast %[[G]] : memref<11xi64> to memref<*xi64>
// CHECK: %[[SD:.*]] = builtin.unrealized_conversion_cast %[[SU]]
// CHECK: %[[SR:.*]] = llvm.extractvalue %[[SD]][0]
// CHECK: %[[SP:.*]] = llvm.extractvalue %[[SD]][1]
// CHECK-DAG: %[[TEAM:.*]] = arith.constant 3 : i64
// CHECK-DAG: %[[KEY:.*]] = arith.constant -1 : i64
// CHECK-DAG: %[[F32:.*]] = arith.constant 11 : i32
// CHECK-DAG: %[[SYNC:.*]] = arith.constant 0 : i32
// CHECK: call @distrt_update_halo(%[[TEAM]], %[[KEY]], %[[F32]], %[[BR]], %[[BP]], %[[SR]], %[[SP]], %[[SYNC]], %[[LOC]])
// CHECK-NOT: distruntime.
func.func @static_sync(%b: memref<18x18xf32>) {
  distruntime.update_halo %b grid [2, 2] split_axes [[0], [1]] halo_sizes [1, 1, 2, 0] team(3) : memref<18x18xf32>
  return
}

// Identical specs share one global.
// CHECK-LABEL: func @shared_spec
// CHECK: memref.get_global @[[SPEC]]
// CHECK: memref.get_global @[[SPEC]]
func.func @shared_spec(%b: memref<18x18xf32>, %c: memref<10x?xi16>) {
  distruntime.update_halo %b grid [2, 2] split_axes [[0], [1]] halo_sizes [1, 1, 2, 0] : memref<18x18xf32>
  distruntime.update_halo %c grid [2, 2] split_axes [[0], [1]] halo_sizes [1, 1, 2, 0] : memref<10x?xi16>
  return
}

// -----

// Dynamic sizes: the spec is stored on the stack inside the alloca scope,
// index values cast to i64, i64 values as they are. Unsplit dimensions
// (no list, or an empty one) have k = 0; axes keep their listed order.
// CHECK-LABEL: func @dynamic_async
// CHECK-SAME: (%[[B:.*]]: memref<?x?x?xf64, strided<[?, ?, 1], offset: ?>>, %[[W:.*]]: index, %[[V:.*]]: i64)
// CHECK: %[[H:.*]] = memref.alloca_scope -> (i64)
// CHECK: %[[SPEC:.*]] = memref.alloca() : memref<15xi64>
// g = 3, grid 3, 1, 2
// CHECK: %[[G:.*]] = arith.constant 3 : i64
// CHECK: memref.store %[[G]], %[[SPEC]][%{{.*}}]
// CHECK: %[[S0:.*]] = arith.constant 3 : i64
// CHECK: memref.store %[[S0]], %[[SPEC]][%{{.*}}]
// CHECK: %[[S1:.*]] = arith.constant 1 : i64
// CHECK: memref.store %[[S1]], %[[SPEC]][%{{.*}}]
// CHECK: %[[S2:.*]] = arith.constant 2 : i64
// CHECK: memref.store %[[S2]], %[[SPEC]][%{{.*}}]
// lo0 = %w, hi0 = 1, k0 = 2, axes 2, 0
// CHECK: %[[WI:.*]] = arith.index_cast %[[W]] : index to i64
// CHECK: memref.store %[[WI]], %[[SPEC]][%{{.*}}]
// CHECK: %[[ONE:.*]] = arith.constant 1 : i64
// CHECK: memref.store %[[ONE]], %[[SPEC]][%{{.*}}]
// CHECK: %[[K0:.*]] = arith.constant 2 : i64
// CHECK: memref.store %[[K0]], %[[SPEC]][%{{.*}}]
// CHECK: %[[A0:.*]] = arith.constant 2 : i64
// CHECK: memref.store %[[A0]], %[[SPEC]][%{{.*}}]
// CHECK: %[[A1:.*]] = arith.constant 0 : i64
// CHECK: memref.store %[[A1]], %[[SPEC]][%{{.*}}]
// lo1 = 0, hi1 = %v, k1 = 0
// CHECK: memref.store %{{.*}}, %[[SPEC]][%{{.*}}]
// CHECK: memref.store %[[V]], %[[SPEC]][%{{.*}}]
// CHECK: memref.store %{{.*}}, %[[SPEC]][%{{.*}}]
// lo2 = 0, hi2 = 0, k2 = 0
// CHECK-COUNT-3: memref.store
// CHECK-NOT: memref.store
// CHECK: memref.cast %[[SPEC]] : memref<15xi64> to memref<*xi64>
// CHECK-DAG: %[[KEY:.*]] = arith.constant 7 : i64
// CHECK-DAG: %[[F64:.*]] = arith.constant 12 : i32
// CHECK-DAG: %[[ASYNC:.*]] = arith.constant 1 : i32
// CHECK: %[[CALL:.*]] = func.call @distrt_update_halo(%{{.*}}, %[[KEY]], %[[F64]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[ASYNC]], %{{.*}})
// CHECK: memref.alloca_scope.return %[[CALL]] : i64
// CHECK: call @distrt_wait(%[[H]], %{{.*}})
func.func @dynamic_async(%b: memref<?x?x?xf64, strided<[?, ?, 1], offset: ?>>, %w: index, %v: i64) {
  %h = distruntime.update_halo %b grid [3, 1, 2] split_axes [[2, 0], []] halo_sizes [%w : index, 1, 0, %v : i64, 0, 0] key(7) async : memref<?x?x?xf64, strided<[?, ?, 1], offset: ?>>
  distruntime.wait %h
  return
}

// -----

func.func @unbufferized(%t: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+2 {{on tensors must be bufferized before convert-distruntime-to-runtime}}
  // expected-error @+1 {{failed to legalize operation 'distruntime.update_halo'}}
  %r = distruntime.update_halo %t grid [2] split_axes [[0]] halo_sizes [1, 1] : tensor<8xf32>
  return %r : tensor<8xf32>
}

// -----

// A grid of values: dims_create becomes one distrt_dims_create query per
// axis (team, axes, axis, location), and the spec stores the values where
// the grid's sizes go.
// CHECK-DAG: func.func private @distrt_dims_create(i64, i64, i64, !llvm.ptr) -> i64
// CHECK-LABEL: func @grid_values
// CHECK-SAME: (%[[B:.*]]: memref<?x?xf64>)
// CHECK-DAG: %[[TEAM:.*]] = arith.constant 2 : i64
// CHECK-DAG: %[[AXES:.*]] = arith.constant 2 : i64
// CHECK-DAG: %[[AXIS0:.*]] = arith.constant 0 : i64
// CHECK: %[[D0:.*]] = call @distrt_dims_create(%[[TEAM]], %[[AXES]], %[[AXIS0]], %{{.*}})
// CHECK: %[[G0:.*]] = arith.index_cast %[[D0]] : i64 to index
// CHECK: %[[D1:.*]] = call @distrt_dims_create(
// CHECK: %[[G1:.*]] = arith.index_cast %[[D1]] : i64 to index
// CHECK: memref.alloca_scope
// CHECK: %[[SPEC:.*]] = memref.alloca() : memref<11xi64>
// CHECK: memref.store %{{.*}}, %[[SPEC]][%{{.*}}]
// CHECK: %[[I0:.*]] = arith.index_cast %[[G0]] : index to i64
// CHECK: memref.store %[[I0]], %[[SPEC]][%{{.*}}]
// CHECK: %[[I1:.*]] = arith.index_cast %[[G1]] : index to i64
// CHECK: memref.store %[[I1]], %[[SPEC]][%{{.*}}]
// CHECK: call @distrt_update_halo(
// CHECK-NOT: distruntime.
func.func @grid_values(%b: memref<?x?xf64>) {
  %g:2 = distruntime.dims_create team(2) : index, index
  distruntime.update_halo %b grid [%g#0 : index, %g#1 : index] split_axes [[0], [1]] halo_sizes [1, 1, 1, 1] team(2) : memref<?x?xf64>
  return
}
