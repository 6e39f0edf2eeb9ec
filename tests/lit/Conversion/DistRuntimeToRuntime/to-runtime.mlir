// RUN: %distruntime-opt %s --convert-distruntime-to-runtime | FileCheck %s

// Declarations mirror distrt.h; every call carries the op's location.
// CHECK-DAG: llvm.mlir.global internal constant @[[LOC_SIZE:__distrt_str_[0-9a-fx]+]]("{{.*}}to-runtime.mlir:19:8\00")
// CHECK-DAG: func.func private @distrt_team_size(i64, !llvm.ptr) -> i64
// CHECK-DAG: func.func private @distrt_team_member(i64, !llvm.ptr) -> i64
// CHECK-DAG: func.func private @distrt_all_reduce(i64, !llvm.ptr, i32, i64, !llvm.ptr, !llvm.ptr, i32, !llvm.ptr, !llvm.ptr) -> i64
// CHECK-DAG: func.func private @distrt_get_halo(i64, i64, i32, i64, !llvm.ptr, i64, !llvm.ptr, i64, !llvm.ptr, i64, !llvm.ptr, !llvm.ptr) -> i64
// CHECK-DAG: func.func private @distrt_wait(i64, !llvm.ptr)

// CHECK-LABEL: func @queries
// CHECK: %[[LOC:.*]] = llvm.mlir.addressof @[[LOC_SIZE]]
// CHECK: %[[TEAM:.*]] = arith.constant 5 : i64
// CHECK: %[[N:.*]] = call @distrt_team_size(%[[TEAM]], %[[LOC]])
// CHECK: arith.index_cast %[[N]] : i64 to index
// CHECK: call @distrt_team_member
// CHECK-NOT: distruntime.
func.func @queries() -> (index, index) {
  %n = distruntime.team_size team(5)
  %m = distruntime.team_member team(0)
  return %n, %m : index, index
}

// Sync allreduce: distrt_all_reduce with no groups descriptor (one group,
// the team), reduction 3 (max), n = 1 and one operand array {rank,
// descriptor, dtype 11 (f32)} as both inputs and outputs (in place), async 0.
// The strided memref travels as an unranked descriptor built inside an
// alloca scope.
// CHECK-LABEL: func @allreduce_sync
// CHECK: %[[SITE:.*]] = llvm.mlir.addressof @__distrt_site_allreduce :
// CHECK: %[[G:.*]] = llvm.mlir.zero : !llvm.ptr
// CHECK: memref.alloca_scope
// CHECK:   %[[T:.*]] = arith.constant 2 : i64
// CHECK:   %[[OP:.*]] = arith.constant 3 : i32
// CHECK:   %[[N:.*]] = arith.constant 1 : i64
// CHECK:   %[[ARR:.*]] = llvm.alloca %{{.*}} x !llvm.struct<(i64, ptr, i64)>
// CHECK:   %[[U:.*]] = memref.cast %{{.*}} : memref<4x?xf32, strided<[?, 2], offset: ?>> to memref<*xf32>
// CHECK:   %[[D:.*]] = builtin.unrealized_conversion_cast %[[U]] : memref<*xf32> to !llvm.struct<(i64, ptr)>
// CHECK:   %[[R:.*]] = llvm.extractvalue %[[D]][0]
// CHECK:   %[[P:.*]] = llvm.extractvalue %[[D]][1]
// CHECK:   %[[DT:.*]] = llvm.mlir.constant(11 : i64) : i64
// CHECK:   %[[E0:.*]] = llvm.insertvalue %[[R]], %{{.*}}[0]
// CHECK:   %[[E1:.*]] = llvm.insertvalue %[[P]], %[[E0]][1]
// CHECK:   %[[E2:.*]] = llvm.insertvalue %[[DT]], %[[E1]][2]
// CHECK:   %[[SLOT:.*]] = llvm.getelementptr %[[ARR]][0]
// CHECK:   llvm.store %[[E2]], %[[SLOT]]
// CHECK-NOT: llvm.alloca
// CHECK:   %[[A:.*]] = arith.constant 0 : i32
// CHECK:   func.call @distrt_all_reduce(%[[T]], %[[G]], %[[OP]], %[[N]], %[[ARR]], %[[ARR]], %[[A]], %[[SITE]], %{{.*}})
func.func @allreduce_sync(%buf: memref<4x?xf32, strided<[?, 2], offset: ?>>) {
  distruntime.allreduce <max> %buf team(2) : memref<4x?xf32, strided<[?, 2], offset: ?>>
  return
}

// Async: the handle is the call's i64 result and flows to distrt_wait, here
// through an scf.for iteration argument.
// CHECK-LABEL: func @allreduce_async
// CHECK: %[[H:.*]] = memref.alloca_scope -> (i64)
// CHECK:   arith.constant 6 : i32
// CHECK:   llvm.mlir.constant(0 : i64) : i64
// CHECK:   arith.constant 1 : i32
// CHECK:   func.call @distrt_all_reduce
// CHECK: %[[L:.*]] = scf.for {{.*}} iter_args(%[[IT:.*]] = %[[H]]) -> (i64)
// CHECK: call @distrt_wait(%[[L]], %{{.*}}) : (i64, !llvm.ptr) -> ()
func.func @allreduce_async(%buf: memref<8xi1>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %h = distruntime.allreduce <xor> %buf team(0) : memref<8xi1> -> !distruntime.async_handle
  %g = scf.for %i = %c0 to %n step %c1 iter_args(%it = %h) -> !distruntime.async_handle {
    scf.yield %it : !distruntime.async_handle
  }
  distruntime.wait %g
  return
}

// get_halo: halo rows computed in IR (left = max(0, min(bbEnd, lOff) - bbOff),
// right = max(0, bbEnd - max(bbOff, lOff + dim0))), halos allocated, geometry
// packed into 4 x rank i64 values, key 9, dtype 12 (f64).
// CHECK-LABEL: func @get_halo
// CHECK-SAME: (%[[LOCAL:.*]]: memref<?x6xf64>, %[[G:.*]]: index, %[[OFF:.*]]: index, %[[BB:.*]]: index, %[[LEN:.*]]: index)
// CHECK: %[[END:.*]] = arith.addi %[[BB]], %[[LEN]]
// CHECK: %[[DIM:.*]] = memref.dim %[[LOCAL]], %{{.*}}
// CHECK: %[[LEND:.*]] = arith.addi %[[OFF]], %[[DIM]]
// CHECK: %[[MIN:.*]] = arith.minsi %[[END]], %[[OFF]]
// CHECK: %[[LR:.*]] = arith.subi %[[MIN]], %[[BB]]
// CHECK: %[[LROWS:.*]] = arith.maxsi %[[LR]], %{{.*}}
// CHECK: %[[MAX:.*]] = arith.maxsi %[[BB]], %[[LEND]]
// CHECK: %[[RR:.*]] = arith.subi %[[END]], %[[MAX]]
// CHECK: %[[RROWS:.*]] = arith.maxsi %[[RR]], %{{.*}}
// CHECK: %[[LEFT:.*]] = memref.alloc(%[[LROWS]]) : memref<?x6xf64>
// CHECK: %[[RIGHT:.*]] = memref.alloc(%[[RROWS]]) : memref<?x6xf64>
// CHECK: %[[H:.*]] = memref.alloca_scope -> (i64)
// CHECK:   memref.alloca() : memref<8xi64>
// CHECK-COUNT-8: memref.store
// CHECK:   arith.constant 9 : i64
// CHECK:   arith.constant 12 : i32
// CHECK:   func.call @distrt_get_halo
// CHECK: call @distrt_wait(%[[H]]
// CHECK: return %[[LEFT]], %[[RIGHT]]
func.func @get_halo(%local: memref<?x6xf64>, %g: index, %off: index, %bb: index, %len: index)
    -> (memref<?x6xf64>, memref<?x6xf64>) {
  %c0 = arith.constant 0 : index
  %c6 = arith.constant 6 : index
  %h, %l, %r = distruntime.get_halo %local gshape [%g, %c6] loffsets [%off, %c0]
      bboffsets [%bb, %c0] bbsizes [%len, %c6] team(0) key(9)
      : memref<?x6xf64> -> memref<?x6xf64>, memref<?x6xf64>
  distruntime.wait %h
  return %l, %r : memref<?x6xf64>, memref<?x6xf64>
}

// Without a key the runtime gets -1 (no caching).
// CHECK-LABEL: func @get_halo_no_key
// CHECK: arith.constant -1 : i64
// CHECK: func.call @distrt_get_halo
func.func @get_halo_no_key(%local: memref<?xi16>, %i: index) {
  %h, %l, %r = distruntime.get_halo %local gshape [%i] loffsets [%i] bboffsets [%i] bbsizes [%i] team(0)
      : memref<?xi16> -> memref<?xi16>, memref<?xi16>
  distruntime.wait %h
  return
}
