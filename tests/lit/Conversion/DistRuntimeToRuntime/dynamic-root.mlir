// collective_broadcast with dynamic roots (has_dynamic_root): the roots
// memref is read when the op runs, each i32 sign-extended into a
// distrt_table_t {size, values} on the stack, passed after the groups:
// (team, groups, roots, n, inputs[], outputs[], async, site, location). The
// table changes from call to call, so the site is never DISTRT_SITE_STATIC.
// Roots that are a constant global (a bufferized tensor constant) are a
// constant table like all_to_all_v's counts, and the site may be static.
// RUN: %distruntime-opt %s --convert-distruntime-to-runtime | FileCheck %s
// RUN: %distruntime-opt %s --distruntime-to-llvm | mlir-translate --mlir-to-llvmir | FileCheck %s --check-prefix=IR

// IR-DAG: declare i64 @distrt_collective_broadcast(i64, ptr, ptr, i64, ptr, ptr, i32, ptr, ptr)
// IR-DAG: @__distrt_site_collective_broadcast = internal global { i64, ptr, ptr } zeroinitializer
// IR-DAG: @__distrt_site_collective_broadcast_1 = internal global { i64, ptr, ptr } zeroinitializer
// IR-DAG: @__distrt_site_collective_broadcast_2 = internal global { i64, ptr, ptr } { i64 1, ptr null, ptr null }
// IR-DAG: @__distrt_table_values_0x{{[0-9a-f]+}} = internal constant [2 x i64] [i64 1, i64 0]
// IR-DAG: @__distrt_table_0x{{[0-9a-f]+}} = internal constant { i64, ptr } { i64 2, ptr @__distrt_table_values_0x{{[0-9a-f]+}} }

// Two inputs, two roots: a stack array of 2 i64 and a table {2, array}.
// CHECK-LABEL: func @sync
// CHECK-SAME: (%[[A:.*]]: memref<4xf32>, %[[B:.*]]: memref<2xi16>, %{{.*}}: memref<4xf32>, %{{.*}}: memref<2xi16>, %[[ROOTS:.*]]: memref<2xi32>)
// CHECK: %[[G:.*]] = llvm.mlir.addressof @__distrt_groups_
// CHECK: %[[SITE:.*]] = llvm.mlir.addressof @__distrt_site_collective_broadcast :
// CHECK: memref.alloca_scope
// CHECK: %[[VALUES:.*]] = llvm.alloca %{{.*}} x i64
// CHECK: %[[R0:.*]] = memref.load %[[ROOTS]][%{{.*}}] : memref<2xi32>
// CHECK: %[[E0:.*]] = arith.extsi %[[R0]] : i32 to i64
// CHECK: llvm.store %[[E0]], %{{.*}} : i64, !llvm.ptr
// CHECK: %[[R1:.*]] = memref.load %[[ROOTS]][%{{.*}}] : memref<2xi32>
// CHECK: %[[E1:.*]] = arith.extsi %[[R1]] : i32 to i64
// CHECK: llvm.store %[[E1]], %{{.*}} : i64, !llvm.ptr
// CHECK: %[[SIZE:.*]] = llvm.mlir.constant(2 : i64) : i64
// CHECK: llvm.insertvalue %[[SIZE]]
// CHECK: llvm.insertvalue %[[VALUES]]
// CHECK: %[[TABLE:.*]] = llvm.alloca %{{.*}} x !llvm.struct<(i64, ptr)>
// CHECK: llvm.store %{{.*}}, %[[TABLE]]
// CHECK: %[[N:.*]] = arith.constant 2 : i64
// CHECK: %[[ASYNC:.*]] = arith.constant 0 : i32
// CHECK: func.call @distrt_collective_broadcast(%{{.*}}, %[[G]], %[[TABLE]], %[[N]], %{{.*}}, %{{.*}}, %[[ASYNC]], %[[SITE]], %{{.*}})
func.func @sync(%a: memref<4xf32>, %b: memref<2xi16>, %oa: memref<4xf32>, %ob: memref<2xi16>, %roots: memref<2xi32>) {
  distruntime.collective_broadcast ins(%a, %b : memref<4xf32>, memref<2xi16>) roots(%roots : memref<2xi32>) outs(%oa, %ob : memref<4xf32>, memref<2xi16>) {replica_groups = dense<[[1, 0]]> : tensor<1x2xi64>}
  return
}

// Async, strided roots: loaded through their layout; the handle is the
// call's result.
// CHECK-LABEL: func @async
// CHECK: memref.alloca_scope
// CHECK: memref.load %{{.*}}[%{{.*}}] : memref<1xi32, strided<[3], offset: ?>>
// CHECK: %[[ASYNC:.*]] = arith.constant 1 : i32
// CHECK: %[[H:.*]] = func.call @distrt_collective_broadcast({{.*}}, %[[ASYNC]], %{{.*}}, %{{.*}})
// CHECK: call @distrt_wait
func.func @async(%a: memref<4xf32>, %oa: memref<4xf32>, %roots: memref<1xi32, strided<[3], offset: ?>>) {
  %h = distruntime.collective_broadcast ins(%a : memref<4xf32>) roots(%roots : memref<1xi32, strided<[3], offset: ?>>) outs(%oa : memref<4xf32>) async {replica_groups = dense<[[1, 0]]> : tensor<1x2xi64>}
  distruntime.wait %h
  return
}

// Constant roots: a constant table global, a static site.
memref.global "private" constant @roots : memref<2xi32> = dense<[1, 0]>
// CHECK-LABEL: func @constant
// CHECK: %[[SITE:.*]] = llvm.mlir.addressof @__distrt_site_collective_broadcast_2 :
// CHECK: memref.alloca_scope
// CHECK-NOT: memref.load
// CHECK: %[[TABLE:.*]] = llvm.mlir.addressof @__distrt_table_0x{{[0-9a-f]+}} :
// CHECK: func.call @distrt_collective_broadcast(%{{.*}}, %{{.*}}, %[[TABLE]], {{.*}}, %[[SITE]], %{{.*}})
func.func @constant(%a: memref<4xf32>, %b: memref<2xi16>, %oa: memref<4xf32>, %ob: memref<2xi16>) {
  %roots = memref.get_global @roots : memref<2xi32>
  distruntime.collective_broadcast ins(%a, %b : memref<4xf32>, memref<2xi16>) roots(%roots : memref<2xi32>) outs(%oa, %ob : memref<4xf32>, memref<2xi16>) {replica_groups = dense<[[1, 0]]> : tensor<1x2xi64>}
  return
}
