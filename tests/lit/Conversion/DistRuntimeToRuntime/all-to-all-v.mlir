// all_to_all_v goes through the generic collective lowering: (team, groups,
// send table, recv table, n, inputs[], outputs[], async, site, location).
// Each count table is a constant global {size, values} named by content,
// as the groups are: equal tables share one.
// RUN: %distruntime-opt %s --convert-distruntime-to-runtime | FileCheck %s
// RUN: %distruntime-opt %s --distruntime-to-llvm | mlir-translate --mlir-to-llvmir | FileCheck %s --check-prefix=IR

// IR-DAG: @__distrt_table_values_0x{{[0-9a-f]+}} = internal constant [4 x i64] [i64 1, i64 2, i64 3, i64 0]
// IR-DAG: @__distrt_table_values_0x{{[0-9a-f]+}} = internal constant [4 x i64] [i64 1, i64 3, i64 2, i64 0]
// IR-DAG: @__distrt_table_0x{{[0-9a-f]+}} = internal constant { i64, ptr } { i64 4, ptr @__distrt_table_values_0x{{[0-9a-f]+}} }
// IR-DAG: @__distrt_table_0x{{[0-9a-f]+}} = internal constant { i64, ptr } { i64 4, ptr @__distrt_table_values_0x{{[0-9a-f]+}} }
// IR-DAG: declare i64 @distrt_all_to_all_v(i64, ptr, ptr, ptr, i64, ptr, ptr, i32, ptr, ptr)
// IR-DAG: @__distrt_site_all_to_all_v = internal global { i64, ptr, ptr } { i64 1, ptr null, ptr null }
// IR-DAG: @__distrt_site_all_to_all_v_1 = internal global { i64, ptr, ptr } zeroinitializer

// CHECK-DAG: func.func private @distrt_all_to_all_v(i64, !llvm.ptr, !llvm.ptr, !llvm.ptr, i64, !llvm.ptr, !llvm.ptr, i32, !llvm.ptr, !llvm.ptr) -> i64
// CHECK-DAG: llvm.mlir.global internal constant @__distrt_table_0x{{[0-9a-f]+}}() {{.*}} : !llvm.struct<(i64, ptr)>

// Sync, static shapes: a DISTRT_SITE_STATIC site.
// CHECK-LABEL: func @sync
// CHECK: %[[G:.*]] = llvm.mlir.addressof @__distrt_groups_
// CHECK: %[[SITE:.*]] = llvm.mlir.addressof @__distrt_site_all_to_all_v :
// CHECK: memref.alloca_scope
// CHECK: %[[S:.*]] = llvm.mlir.addressof @[[SEND:__distrt_table_0x[0-9a-f]+]] :
// CHECK: %[[R:.*]] = llvm.mlir.addressof @[[RECV:__distrt_table_0x[0-9a-f]+]] :
// CHECK: %[[N:.*]] = arith.constant 1 : i64
// CHECK: %[[ASYNC:.*]] = arith.constant 0 : i32
// CHECK: func.call @distrt_all_to_all_v(%{{.*}}, %[[G]], %[[S]], %[[R]], %[[N]], %{{.*}}, %{{.*}}, %[[ASYNC]], %[[SITE]], %{{.*}})
func.func @sync(%a: memref<3xi64>, %b: memref<4xi64>) {
  distruntime.all_to_all_v ins(%a : memref<3xi64>) outs(%b : memref<4xi64>) {send_counts = dense<[[1, 2], [3, 0]]> : tensor<2x2xi64>, recv_counts = dense<[[1, 3], [2, 0]]> : tensor<2x2xi64>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}
  return
}

// Async, dynamic shapes, two operands, the same tables: the same globals.
// CHECK-LABEL: func @async
// CHECK: memref.alloca_scope
// CHECK: %[[S2:.*]] = llvm.mlir.addressof @[[SEND]] :
// CHECK: %[[R2:.*]] = llvm.mlir.addressof @[[RECV]] :
// CHECK: %[[N2:.*]] = arith.constant 2 : i64
// CHECK: %[[ASYNC2:.*]] = arith.constant 1 : i32
// CHECK: %[[H:.*]] = func.call @distrt_all_to_all_v(%{{.*}}, %{{.*}}, %[[S2]], %[[R2]], %[[N2]], %{{.*}}, %{{.*}}, %[[ASYNC2]], %{{.*}}, %{{.*}})
// CHECK: call @distrt_wait(
func.func @async(%a: memref<?xf32>, %b: memref<?xf32>, %c: memref<3x2xi8>, %d: memref<5x2xi8>) {
  %h = distruntime.all_to_all_v ins(%a, %c : memref<?xf32>, memref<3x2xi8>) outs(%b, %d : memref<?xf32>, memref<5x2xi8>) async {send_counts = dense<[[1, 2], [3, 0]]> : tensor<2x2xi64>, recv_counts = dense<[[1, 3], [2, 0]]> : tensor<2x2xi64>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}
  distruntime.wait %h
  return
}
