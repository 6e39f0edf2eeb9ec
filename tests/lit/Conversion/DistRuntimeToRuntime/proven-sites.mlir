// An op that carries `distruntime.proven` (set by distruntime-verify-spmd,
// or written by hand as here: the conversion trusts it) gets
// DISTRT_SITE_PROVEN (2) in its site's flags, beside DISTRT_SITE_STATIC
// (1) for static shapes: 3 static and proven, 2 proven with a dynamic
// shape, 1 static only, 0 neither. update_halo has no site: the bit rides
// in its `async` argument (bit 0 async). No other op's call changes.
// RUN: %distruntime-opt %s --convert-distruntime-to-runtime | FileCheck %s
// Through the whole pipeline without the pass, the marks reach the LLVM
// globals as written.
// RUN: %distruntime-opt %s --distruntime-to-llvm=verify-spmd=0 | mlir-translate --mlir-to-llvmir | FileCheck %s --check-prefix=IR

// IR-DAG: @__distrt_site_all_reduce = internal global { i64, ptr, ptr } { i64 3, ptr null, ptr null }
// IR-DAG: @__distrt_site_all_reduce_1 = internal global { i64, ptr, ptr } { i64 1, ptr null, ptr null }
// IR-DAG: @__distrt_site_all_gather = internal global { i64, ptr, ptr } { i64 2, ptr null, ptr null }
// IR-DAG: @__distrt_site_all_gather_1 = internal global { i64, ptr, ptr } zeroinitializer
// IR-DAG: @__distrt_site_allreduce = internal global { i64, ptr, ptr } { i64 3, ptr null, ptr null }
// IR-DAG: @__distrt_site_send = internal global { i64, ptr, ptr } { i64 3, ptr null, ptr null }
// IR-DAG: @__distrt_site_recv = internal global { i64, ptr, ptr } { i64 3, ptr null, ptr null }
// IR-DAG: @__distrt_site_collective_permute = internal global { i64, ptr, ptr } { i64 1, ptr null, ptr null }

// CHECK-LABEL: llvm.mlir.global internal @__distrt_site_collective_permute()
// CHECK: llvm.mlir.constant(1 : i64) : i64
// CHECK-LABEL: llvm.mlir.global internal @__distrt_site_recv()
// CHECK: llvm.mlir.constant(3 : i64) : i64
// CHECK-LABEL: llvm.mlir.global internal @__distrt_site_send()
// CHECK: llvm.mlir.constant(3 : i64) : i64
// CHECK-LABEL: llvm.mlir.global internal @__distrt_site_allreduce()
// CHECK: llvm.mlir.constant(3 : i64) : i64
// CHECK-LABEL: llvm.mlir.global internal @__distrt_site_all_gather_1()
// CHECK: llvm.mlir.constant(0 : i64) : i64
// CHECK-LABEL: llvm.mlir.global internal @__distrt_site_all_gather()
// CHECK: llvm.mlir.constant(2 : i64) : i64
// CHECK-LABEL: llvm.mlir.global internal @__distrt_site_all_reduce_1()
// CHECK: llvm.mlir.constant(1 : i64) : i64
// CHECK-LABEL: llvm.mlir.global internal @__distrt_site_all_reduce()
// CHECK: llvm.mlir.constant(3 : i64) : i64

// CHECK-LABEL: func @collectives
// CHECK: %[[S0:.*]] = llvm.mlir.addressof @__distrt_site_all_reduce :
// CHECK: func.call @distrt_all_reduce({{.*}}, %[[S0]], %{{.*}})
// CHECK: %[[S1:.*]] = llvm.mlir.addressof @__distrt_site_all_reduce_1 :
// CHECK: func.call @distrt_all_reduce({{.*}}, %[[S1]], %{{.*}})
// CHECK: %[[S2:.*]] = llvm.mlir.addressof @__distrt_site_all_gather :
// CHECK: func.call @distrt_all_gather({{.*}}, %[[S2]], %{{.*}})
// CHECK: %[[S3:.*]] = llvm.mlir.addressof @__distrt_site_all_gather_1 :
// CHECK: func.call @distrt_all_gather({{.*}}, %[[S3]], %{{.*}})
// CHECK: %[[S4:.*]] = llvm.mlir.addressof @__distrt_site_allreduce :
// CHECK: func.call @distrt_all_reduce({{.*}}, %[[S4]], %{{.*}})
func.func @collectives(%a: memref<4xf32>, %d: memref<?xf32>, %e: memref<?xf32>) {
  distruntime.all_reduce ins(%a : memref<4xf32>) outs(%a : memref<4xf32>)
      {distruntime.proven, reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>}
  distruntime.all_reduce ins(%a : memref<4xf32>) outs(%a : memref<4xf32>)
      {reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>}
  distruntime.all_gather ins(%d : memref<?xf32>) outs(%e : memref<?xf32>)
      {all_gather_dim = 0 : i64, distruntime.proven, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}
  distruntime.all_gather ins(%d : memref<?xf32>) outs(%e : memref<?xf32>)
      {all_gather_dim = 0 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}
  distruntime.allreduce <sum> %a team(0) {distruntime.proven} : memref<4xf32>
  return
}

// CHECK-LABEL: func @point_to_point
// CHECK: llvm.mlir.addressof @__distrt_site_send :
// CHECK: llvm.mlir.addressof @__distrt_site_recv :
// CHECK: llvm.mlir.addressof @__distrt_site_collective_permute :
func.func @point_to_point(%x: memref<2xi64>, %y: memref<2xi64>) {
  distruntime.send ins(%x : memref<2xi64>) {channel_id = 0 : i64, distruntime.proven, source_target_pairs = dense<[[0, 1]]> : tensor<1x2xi64>}
  distruntime.recv outs(%y : memref<2xi64>) {channel_id = 0 : i64, distruntime.proven, source_target_pairs = dense<[[0, 1]]> : tensor<1x2xi64>}
  distruntime.collective_permute ins(%x : memref<2xi64>) outs(%y : memref<2xi64>)
      {source_target_pairs = dense<[[0, 1], [1, 0]]> : tensor<2x2xi64>}
  return
}

// update_halo's `async` argument: 2 proven sync, 3 proven async, 0 and 1
// unproven.
// CHECK-LABEL: func @halos
// CHECK: %[[M2:.*]] = arith.constant 2 : i32
// CHECK: call @distrt_update_halo({{.*}}, %[[M2]], %{{.*}}) : (i64, i64, i32, i64, !llvm.ptr, i64, !llvm.ptr, i32, !llvm.ptr) -> i64
// CHECK: %[[M3:.*]] = arith.constant 3 : i32
// CHECK: call @distrt_update_halo({{.*}}, %[[M3]], %{{.*}}) : (i64, i64, i32, i64, !llvm.ptr, i64, !llvm.ptr, i32, !llvm.ptr) -> i64
// CHECK: %[[M0:.*]] = arith.constant 0 : i32
// CHECK: call @distrt_update_halo({{.*}}, %[[M0]], %{{.*}}) : (i64, i64, i32, i64, !llvm.ptr, i64, !llvm.ptr, i32, !llvm.ptr) -> i64
// CHECK: %[[M1:.*]] = arith.constant 1 : i32
// CHECK: call @distrt_update_halo({{.*}}, %[[M1]], %{{.*}}) : (i64, i64, i32, i64, !llvm.ptr, i64, !llvm.ptr, i32, !llvm.ptr) -> i64
func.func @halos(%b: memref<10x8xf32>) {
  distruntime.update_halo %b grid [2] split_axes [[0]] halo_sizes [1, 1, 0, 0] {distruntime.proven} : memref<10x8xf32>
  %h = distruntime.update_halo %b grid [2] split_axes [[0]] halo_sizes [1, 1, 0, 0] async {distruntime.proven} : memref<10x8xf32>
  distruntime.wait %h
  distruntime.update_halo %b grid [2] split_axes [[0]] halo_sizes [1, 1, 0, 0] : memref<10x8xf32>
  %g = distruntime.update_halo %b grid [2] split_axes [[0]] halo_sizes [1, 1, 0, 0] async : memref<10x8xf32>
  distruntime.wait %g
  return
}
