// Each collective becomes one libdistrt call: (team, groups descriptor,
// op-specific scalars, n, inputs[], outputs[], async, site, location). The
// groups descriptor is a constant global {mode, num_replicas, num_partitions,
// num_groups, group_size, ids, flags = 0}; identical layouts share one. The site is a
// mutable global {flags, null, null} of the op's own, even when ops share a
// location; flags = 1 (DISTRT_SITE_STATIC) when every memref operand has a
// static shape, offset and strides in its type, else 0.
// RUN: %distruntime-opt %s --convert-distruntime-to-runtime | FileCheck %s
// RUN: %distruntime-opt %s --distruntime-to-llvm | mlir-translate --mlir-to-llvmir | FileCheck %s --check-prefix=IR

// IR-DAG: @__distrt_ids_{{.*}} = internal constant [2 x i64] [i64 1, i64 0]
// IR-DAG: = internal constant { i32, i64, i64, i64, i64, ptr, i64 } { i32 0, i64 2, i64 3, i64 1, i64 2, ptr @__distrt_ids_{{.*}}, i64 0 }
// cross_replica_and_partition (mode 2) for channel_id > 0:
// IR-DAG: = internal constant { i32, i64, i64, i64, i64, ptr, i64 } { i32 2, i64 2, i64 3, i64 1, i64 2, ptr @{{.*}}, i64 0 }
// flattened_ids (mode 3), 6 ids:
// IR-DAG: = internal constant { i32, i64, i64, i64, i64, ptr, i64 } { i32 3, i64 2, i64 3, i64 1, i64 6, ptr @{{.*}}, i64 0 }
// cross_partition (mode 1), pairs:
// IR-DAG: = internal constant { i32, i64, i64, i64, i64, ptr, i64 } { i32 1, i64 2, i64 3, i64 2, i64 2, ptr @{{.*}}, i64 0 }
// Empty groups: no table.
// IR-DAG: = internal constant { i32, i64, i64, i64, i64, ptr, i64 } { i32 0, i64 2, i64 3, i64 0, i64 0, ptr null, i64 0 }
// IR-DAG: declare i64 @distrt_all_gather(i64, ptr, i64, i64, ptr, ptr, i32, ptr, ptr)
// IR-DAG: declare i64 @distrt_send(i64, ptr, i64, i32, i64, ptr, i32, ptr, ptr)
// IR-DAG: @__distrt_site_all_gather = internal global { i64, ptr, ptr } { i64 1, ptr null, ptr null }
// IR-DAG: @__distrt_site_all_gather_1 = internal global { i64, ptr, ptr } zeroinitializer
// IR-DAG: @__distrt_site_all_gather_2 = internal global { i64, ptr, ptr } { i64 1, ptr null, ptr null }
// IR-DAG: @__distrt_site_all_gather_3 = internal global { i64, ptr, ptr } zeroinitializer
// IR-DAG: @__distrt_site_all_gather_4 = internal global { i64, ptr, ptr } { i64 1, ptr null, ptr null }
// IR-DAG: @__distrt_site_all_gather_5 = internal global { i64, ptr, ptr } { i64 1, ptr null, ptr null }
// IR-DAG: @__distrt_site_send = internal global { i64, ptr, ptr } { i64 1, ptr null, ptr null }
// IR-DAG: @__distrt_site_recv = internal global { i64, ptr, ptr } { i64 1, ptr null, ptr null }

// CHECK-DAG: func.func private @distrt_all_gather(i64, !llvm.ptr, i64, i64, !llvm.ptr, !llvm.ptr, i32, !llvm.ptr, !llvm.ptr) -> i64
// CHECK-DAG: func.func private @distrt_all_reduce(i64, !llvm.ptr, i32, i64, !llvm.ptr, !llvm.ptr, i32, !llvm.ptr, !llvm.ptr) -> i64
// CHECK-DAG: func.func private @distrt_all_to_all(i64, !llvm.ptr, i64, i64, i64, i64, !llvm.ptr, !llvm.ptr, i32, !llvm.ptr, !llvm.ptr) -> i64
// CHECK-DAG: func.func private @distrt_reduce_scatter(i64, !llvm.ptr, i32, i64, i64, !llvm.ptr, !llvm.ptr, i32, !llvm.ptr, !llvm.ptr) -> i64
// CHECK-DAG: func.func private @distrt_collective_broadcast(i64, !llvm.ptr, !llvm.ptr, i64, !llvm.ptr, !llvm.ptr, i32, !llvm.ptr, !llvm.ptr) -> i64
// CHECK-DAG: func.func private @distrt_collective_permute(i64, !llvm.ptr, i64, !llvm.ptr, !llvm.ptr, i32, !llvm.ptr, !llvm.ptr) -> i64
// CHECK-DAG: func.func private @distrt_send(i64, !llvm.ptr, i64, i32, i64, !llvm.ptr, i32, !llvm.ptr, !llvm.ptr) -> i64
// CHECK-DAG: func.func private @distrt_recv(i64, !llvm.ptr, i64, i32, i64, !llvm.ptr, i32, !llvm.ptr, !llvm.ptr) -> i64

module attributes {distruntime.num_replicas = 2 : i64, distruntime.num_partitions = 3 : i64} {
  // Two operands of different element types: one array of two
  // {rank, descriptor, dtype} entries per side (dtype 11 = f32, 2 = i16).
  // CHECK-LABEL: func @all_gather
  // CHECK: %[[G:.*]] = llvm.mlir.addressof @__distrt_groups_
  // CHECK: %[[SITE:.*]] = llvm.mlir.addressof @__distrt_site_all_gather :
  // CHECK: memref.alloca_scope
  // CHECK: %[[N:.*]] = llvm.mlir.constant(2 : i64) : i64
  // CHECK: %[[IN:.*]] = llvm.alloca %[[N]] x !llvm.struct<(i64, ptr, i64)>
  // CHECK: llvm.mlir.constant(11 : i64)
  // CHECK: llvm.store
  // CHECK: llvm.mlir.constant(2 : i64)
  // CHECK: llvm.store
  // CHECK: %[[OUT:.*]] = llvm.alloca
  // CHECK: func.call @distrt_all_gather(%{{.*}}, %[[G]], %{{.*}}, %{{.*}}, %[[IN]], %[[OUT]], %{{.*}}, %[[SITE]], %{{.*}})
  func.func @all_gather(%a: memref<4xf32>, %b: memref<2x3xi16>, %c: memref<8xf32>, %d: memref<4x3xi16>) {
    distruntime.all_gather ins(%a, %b : memref<4xf32>, memref<2x3xi16>) outs(%c, %d : memref<8xf32>, memref<4x3xi16>) {all_gather_dim = 0 : i64, replica_groups = dense<[[1, 0]]> : tensor<1x2xi64>}
    return
  }

  // The region's body decides the reduction: arith.maxsi -> 3 (max).
  // CHECK-LABEL: func @all_reduce_region
  // CHECK: %[[OP:.*]] = arith.constant 3 : i32
  // CHECK: func.call @distrt_all_reduce(%{{.*}}, %{{.*}}, %[[OP]],
  func.func @all_reduce_region(%a: memref<6xi32>) {
    distruntime.all_reduce ins(%a : memref<6xi32>) outs(%a : memref<6xi32>) {channel_id = 5 : i64, replica_groups = dense<[[1, 0]]> : tensor<1x2xi64>} computation {
    ^bb0(%l: i32, %r: i32):
      %m = arith.maxsi %l, %r : i32
      distruntime.yield %m : i32
    }
    return
  }

  // CHECK-LABEL: func @all_reduce_flattened
  // CHECK: func.call @distrt_all_reduce
  func.func @all_reduce_flattened(%a: memref<6xf64>) {
    distruntime.all_reduce ins(%a : memref<6xf64>) outs(%a : memref<6xf64>) {reduction = #distruntime.reduction<sum>, channel_id = 5 : i64, use_global_device_ids, replica_groups = dense<[[0, 1, 2, 3, 4, 5]]> : tensor<1x6xi64>}
    return
  }

  // Scalars split_dimension 1, concat_dimension 0, split_count 2; async.
  // CHECK-LABEL: func @all_to_all
  // CHECK: %[[H:.*]] = memref.alloca_scope -> (i64)
  // CHECK: %[[S:.*]] = arith.constant 1 : i64
  // CHECK: %[[C:.*]] = arith.constant 0 : i64
  // CHECK: %[[K:.*]] = arith.constant 2 : i64
  // CHECK: %[[ASYNC:.*]] = arith.constant 1 : i32
  // CHECK: func.call @distrt_all_to_all(%{{.*}}, %{{.*}}, %[[S]], %[[C]], %[[K]], %{{.*}}, %{{.*}}, %{{.*}}, %[[ASYNC]], %{{.*}}, %{{.*}})
  // CHECK: call @distrt_wait(%[[H]],
  func.func @all_to_all(%a: memref<2x4xf32>, %b: memref<4x2xf32>) {
    %h = distruntime.all_to_all ins(%a : memref<2x4xf32>) outs(%b : memref<4x2xf32>) async {split_dimension = 1 : i64, concat_dimension = 0 : i64, split_count = 2 : i64, replica_groups = dense<[[1, 0]]> : tensor<1x2xi64>}
    distruntime.wait %h
    return
  }

  // CHECK-LABEL: func @reduce_scatter
  // CHECK: %[[OP:.*]] = arith.constant 1 : i32
  // CHECK: %[[DIM:.*]] = arith.constant 1 : i64
  // CHECK: func.call @distrt_reduce_scatter(%{{.*}}, %{{.*}}, %[[OP]], %[[DIM]],
  func.func @reduce_scatter(%a: memref<2x4xf32>, %b: memref<2x2xf32>) {
    distruntime.reduce_scatter ins(%a : memref<2x4xf32>) outs(%b : memref<2x2xf32>) {reduction = #distruntime.reduction<prod>, scatter_dimension = 1 : i64, replica_groups = dense<[[1, 0]]> : tensor<1x2xi64>}
    return
  }

  // The reproducibility level travels in the reduction argument's bits
  // from 8 on (ordered prod: 1 | 2 << 8; exact sum: 3 << 8); without one,
  // 0 there (the environment decides at run time).
  // CHECK-LABEL: func @reproducibility
  // CHECK: %[[ORDERED:.*]] = arith.constant 513 : i32
  // CHECK: func.call @distrt_reduce_scatter(%{{.*}}, %{{.*}}, %[[ORDERED]],
  // CHECK: %[[EXACT:.*]] = arith.constant 768 : i32
  // CHECK: func.call @distrt_all_reduce(%{{.*}}, %{{.*}}, %[[EXACT]],
  func.func @reproducibility(%a: memref<2x4xf32>, %b: memref<2x2xf32>, %c: memref<3xf64>) {
    distruntime.reduce_scatter ins(%a : memref<2x4xf32>) outs(%b : memref<2x2xf32>) {reduction = #distruntime.reduction<prod>, reproducibility = #distruntime.reproducibility<ordered>, scatter_dimension = 1 : i64, replica_groups = dense<[[1, 0]]> : tensor<1x2xi64>}
    distruntime.allreduce <sum> %c team(0) {reproducibility = #distruntime.reproducibility<exact>} : memref<3xf64>
    return
  }

  // global_reduce is the all_reduce call on the whole team (no groups)
  // with the data as input and a one-element stack buffer as output, whose
  // element becomes the result.
  // CHECK-LABEL: func @global_reduce
  // CHECK: %[[NOGROUPS:.*]] = llvm.mlir.zero : !llvm.ptr
  // CHECK: memref.alloca_scope
  // CHECK: %[[OUT:.*]] = memref.alloca() : memref<1xf64>
  // CHECK: %[[EXACT:.*]] = arith.constant 768 : i32
  // CHECK: func.call @distrt_global_reduce(%{{.*}}, %[[NOGROUPS]], %[[EXACT]],
  // CHECK: %[[V:.*]] = memref.load %[[OUT]][%{{.*}}] : memref<1xf64>
  // CHECK: memref.alloca_scope.return %[[V]] : f64
  func.func @global_reduce(%a: memref<?x?xf64>) -> f64 {
    %s = distruntime.global_reduce <sum> %a team(0) {reproducibility = #distruntime.reproducibility<exact>} : memref<?x?xf64> -> f64
    return %s : f64
  }

  // collective_broadcast without roots passes a null roots table.
  // CHECK-LABEL: func @broadcast_and_permute
  // CHECK: %[[NOROOTS:.*]] = llvm.mlir.zero : !llvm.ptr
  // CHECK: func.call @distrt_collective_broadcast(%{{.*}}, %{{.*}}, %[[NOROOTS]], %{{.*}})
  // CHECK: func.call @distrt_collective_permute
  func.func @broadcast_and_permute(%a: memref<3xi8>, %b: memref<3xi8>) {
    distruntime.collective_broadcast ins(%a : memref<3xi8>) outs(%b : memref<3xi8>) {replica_groups = dense<> : tensor<0x0xi64>}
    distruntime.collective_permute ins(%a : memref<3xi8>) outs(%b : memref<3xi8>) {channel_id = 1 : i64, source_target_pairs = dense<[[0, 1], [1, 2]]> : tensor<2x2xi64>}
    return
  }

  // Sites: shapes or layouts known only at run time give flags 0; a static
  // strided layout is static. Two ops at one location get a site each.
  // CHECK-LABEL: func @sites
  // CHECK: llvm.mlir.addressof @__distrt_site_all_gather_1 :
  // CHECK: llvm.mlir.addressof @__distrt_site_all_gather_2 :
  // CHECK: llvm.mlir.addressof @__distrt_site_all_gather_3 :
  // CHECK: %[[L4:.*]] = llvm.mlir.addressof @__distrt_str_[[SAME:[0-9a-fx]+]] :
  // CHECK: %[[S4:.*]] = llvm.mlir.addressof @__distrt_site_all_gather_4 :
  // CHECK: func.call @distrt_all_gather({{.*}}, %[[S4]], %[[L4]])
  // CHECK: %[[L5:.*]] = llvm.mlir.addressof @__distrt_str_[[SAME]] :
  // CHECK: %[[S5:.*]] = llvm.mlir.addressof @__distrt_site_all_gather_5 :
  // CHECK: func.call @distrt_all_gather({{.*}}, %[[S5]], %[[L5]])
  func.func @sites(%a: memref<?xf32>, %b: memref<?xf32>, %c: memref<4xf32, strided<[2], offset: 1>>, %d: memref<4xf32, strided<[1], offset: ?>>, %e: memref<8xf32>) {
    distruntime.all_gather ins(%a : memref<?xf32>) outs(%b : memref<?xf32>) {all_gather_dim = 0 : i64, replica_groups = dense<[[1, 0]]> : tensor<1x2xi64>}
    distruntime.all_gather ins(%c : memref<4xf32, strided<[2], offset: 1>>) outs(%e : memref<8xf32>) {all_gather_dim = 0 : i64, replica_groups = dense<[[1, 0]]> : tensor<1x2xi64>}
    distruntime.all_gather ins(%d : memref<4xf32, strided<[1], offset: ?>>) outs(%e : memref<8xf32>) {all_gather_dim = 0 : i64, replica_groups = dense<[[1, 0]]> : tensor<1x2xi64>}
    distruntime.all_gather ins(%c : memref<4xf32, strided<[2], offset: 1>>) outs(%e : memref<8xf32>) {all_gather_dim = 0 : i64, replica_groups = dense<[[1, 0]]> : tensor<1x2xi64>} loc("same.mlir":1:1)
    distruntime.all_gather ins(%c : memref<4xf32, strided<[2], offset: 1>>) outs(%e : memref<8xf32>) {all_gather_dim = 0 : i64, replica_groups = dense<[[1, 0]]> : tensor<1x2xi64>} loc("same.mlir":1:1)
    return
  }

  // send: (channel 7, host_transfer 0, n 1, inputs); recv: outputs.
  // CHECK-LABEL: func @send_recv
  // CHECK: %[[CH:.*]] = arith.constant 7 : i64
  // CHECK: %[[HOST:.*]] = arith.constant 0 : i32
  // CHECK: %[[N:.*]] = arith.constant 1 : i64
  // CHECK: func.call @distrt_send(%{{.*}}, %{{.*}}, %[[CH]], %[[HOST]], %[[N]],
  // CHECK: arith.constant 1 : i32
  // CHECK: func.call @distrt_recv
  func.func @send_recv(%a: memref<3xi8>) {
    distruntime.send ins(%a : memref<3xi8>) {channel_id = 7 : i64, source_target_pairs = dense<[[0, 1], [1, 2]]> : tensor<2x2xi64>}
    distruntime.recv outs(%a : memref<3xi8>) {is_host_transfer = true, source_target_pairs = dense<[[0, 1]]> : tensor<1x2xi64>}
    return
  }
}
