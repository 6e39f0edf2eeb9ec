// Communicating ops survive canonicalize/cse even when their results are
// unused (a rank that skipped one would hang the others); the pure queries
// are merged and dropped like any pure op.
// RUN: %distruntime-opt %s -canonicalize -cse | FileCheck %s

// CHECK-LABEL: func @keep_communication
func.func @keep_communication(%buf: memref<4xf64>, %l: memref<?xf64>, %i: index) -> index {
  // CHECK-COUNT-1: distruntime.team_size
  %a = distruntime.team_size team(0)
  %b = distruntime.team_size team(0)
  // CHECK-NOT: distruntime.team_member
  %unused = distruntime.team_member team(0)
  // CHECK-COUNT-2: distruntime.allreduce <sum>
  distruntime.allreduce <sum> %buf team(0) : memref<4xf64>
  distruntime.allreduce <sum> %buf team(0) : memref<4xf64>
  // CHECK: distruntime.get_halo
  %h, %x, %y = distruntime.get_halo %l gshape [%i] loffsets [%i] bboffsets [%i] bbsizes [%i] team(0) : memref<?xf64> -> memref<?xf64>, memref<?xf64>
  // CHECK: distruntime.wait
  distruntime.wait %h
  %s = arith.addi %a, %b : index
  return %s : index
}

// Loads of reduced data stay after the wait.
// CHECK-LABEL: func @no_hoist_over_wait
func.func @no_hoist_over_wait(%buf: memref<4xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  // CHECK: distruntime.allreduce
  // CHECK-NEXT: distruntime.wait
  // CHECK-NEXT: memref.load
  %h = distruntime.allreduce <sum> %buf team(0) : memref<4xf64> -> !distruntime.async_handle
  distruntime.wait %h
  %v = memref.load %buf[%c0] : memref<4xf64>
  return %v : f64
}

// A run-time check has no result but ends the job when it fails: kept, and
// the loads it guards stay after it.
// CHECK-LABEL: func @keep_check
func.func @keep_check(%buf: memref<?xf64>, %n: index) -> f64 {
  %c0 = arith.constant 0 : index
  %d = memref.dim %buf, %c0 : memref<?xf64>
  // CHECK: distruntime.check sle
  // CHECK-NEXT: memref.load
  distruntime.check sle %n, %d, "gather", "size against buffer"
  %v = memref.load %buf[%c0] : memref<?xf64>
  return %v : f64
}
