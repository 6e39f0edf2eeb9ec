// The distruntime-to-llvm pipeline leaves only the LLVM dialect, from memref
// and from tensor (bufferized) forms alike.
// RUN: %distruntime-opt %s --distruntime-to-llvm | FileCheck %s
// RUN: %distruntime-opt %s --distruntime-to-llvm | mlir-translate --mlir-to-llvmir | FileCheck %s --check-prefix=IR

// CHECK-NOT: distruntime.
// CHECK-NOT: memref.
// CHECK-NOT: func.func
// CHECK-NOT: unrealized_conversion_cast
// CHECK-DAG: llvm.func @distrt_get_halo(i64, i64, i32, i64, !llvm.ptr, i64, !llvm.ptr, i64, !llvm.ptr, i64, !llvm.ptr, !llvm.ptr) -> i64
// CHECK-DAG: llvm.func @distrt_all_reduce(i64, !llvm.ptr, i32, i64, !llvm.ptr, !llvm.ptr, i32, !llvm.ptr, !llvm.ptr) -> i64
// IR-DAG: declare i64 @distrt_all_reduce(i64, ptr, i32, i64, ptr, ptr, i32, ptr, ptr)
// allreduce: team 0, no groups, sum, n = 1, one operand array for inputs and
// outputs, sync.
// IR-DAG: %[[ARR:.*]] = alloca { i64, ptr, i64 }, i64 1
// IR-DAG: call i64 @distrt_all_reduce(i64 0, ptr null, i32 0, i64 1, ptr %[[ARR]], ptr %[[ARR]], i32 0, ptr @__distrt_site_allreduce, ptr @__distrt_str_{{.*}})
// IR-DAG: call ptr @llvm.stacksave

func.func @memref_form(%buf: memref<4x4xf64>, %local: memref<?xf32>, %i: index) -> index {
  distruntime.allreduce <sum> %buf team(0) : memref<4x4xf64>
  %h, %l, %r = distruntime.get_halo %local gshape [%i] loffsets [%i] bboffsets [%i] bbsizes [%i] team(0) key(0)
      : memref<?xf32> -> memref<?xf32>, memref<?xf32>
  distruntime.wait %h
  memref.dealloc %l : memref<?xf32>
  memref.dealloc %r : memref<?xf32>
  %n = distruntime.team_size team(0)
  return %n : index
}

func.func @tensor_form(%local: tensor<?x3xi64>, %i: index) -> (tensor<?x3xi64>, tensor<?x3xi64>) {
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %h, %l, %r = distruntime.get_halo %local gshape [%i, %c3] loffsets [%i, %c0] bboffsets [%i, %c0] bbsizes [%i, %c3] team(0)
      : tensor<?x3xi64> -> tensor<?x3xi64>, tensor<?x3xi64>
  distruntime.wait %h
  return %l, %r : tensor<?x3xi64>, tensor<?x3xi64>
}
