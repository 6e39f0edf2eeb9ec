// get_halo under the buffer deallocation pipeline when one halo is only
// deallocated: bufferization.dealloc's canonicalization erases an allocating
// op whose result has no other use if allocation is its only effect on that
// result. get_halo also writes its halos, so it survives, with its handle and
// other halo still defined (the op was erased under its users: a crash;
// found by fuzzing, scripts/fuzz.sh).
// RUN: %distruntime-opt %s --pass-pipeline='builtin.module(one-shot-bufferize{bufferize-function-boundaries},buffer-deallocation-pipeline)' | FileCheck %s
// RUN: %distruntime-opt %s --pass-pipeline='builtin.module(distruntime-to-llvm{buffer-deallocation=1})' | FileCheck %s --check-prefix=LLVM

// CHECK-LABEL: func @right_halo_unused
// CHECK: %[[H:.*]], %[[L:.*]], %{{.*}} = distruntime.get_halo
// CHECK: distruntime.wait %[[H]]
// CHECK: return %{{.*}}
// LLVM-LABEL: llvm.func @right_halo_unused
// LLVM: llvm.call @distrt_get_halo
func.func @right_halo_unused(%l: memref<?x8xf64>, %off: index) -> memref<?x?xf64> {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %c4 = arith.constant 4 : index
  %h, %a, %b = distruntime.get_halo %l gshape [%c8, %c8] loffsets [%off, %c0]
      bboffsets [%c0, %c0] bbsizes [%c8, %c4] team(0)
      : memref<?x8xf64> -> memref<?x?xf64>, memref<?x?xf64>
  distruntime.wait %h
  return %a : memref<?x?xf64>
}

// CHECK-LABEL: func @both_halos_unused
// CHECK: %[[H:.*]], %{{.*}}, %{{.*}} = distruntime.get_halo
// CHECK: distruntime.wait %[[H]]
// LLVM-LABEL: llvm.func @both_halos_unused
// LLVM: llvm.call @distrt_get_halo
func.func @both_halos_unused(%l: memref<?x8xf64>, %off: index) {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %h, %a, %b = distruntime.get_halo %l gshape [%c8, %c8] loffsets [%off, %c0]
      bboffsets [%c0, %c0] bbsizes [%c8, %c8] team(0)
      : memref<?x8xf64> -> memref<?x?xf64>, memref<?x?xf64>
  distruntime.wait %h
  return
}
