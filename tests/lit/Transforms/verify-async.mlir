// distruntime-verify-spmd, pending async ops: accesses to a pending async
// op's buffers before its wait are compile-time errors naming the access,
// the op and its wait; accesses the op allows (reading an input), after the
// wait, or to other buffers are not.
// RUN: %distruntime-opt %s -split-input-file -distruntime-verify-spmd -verify-diagnostics
// The default pipeline runs it, and verify-spmd=0 turns it off.
// RUN: not %distruntime-opt %s -split-input-file --distruntime-to-llvm 2>&1 | FileCheck %s --check-prefix=PIPELINE
// RUN: %distruntime-opt %s -split-input-file --pass-pipeline='builtin.module(distruntime-to-llvm{verify-spmd=0})' -o /dev/null
// PIPELINE: error: reads a buffer of the pending async 'distruntime.all_reduce' before its wait

func.func @read_output(%a: memref<4xf32>, %b: memref<4xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  // expected-note @below {{the async op is issued here}}
  %h = distruntime.all_reduce ins(%a : memref<4xf32>) outs(%b : memref<4xf32>) async
      {reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>}
  // expected-error @below {{reads a buffer of the pending async 'distruntime.all_reduce' before its wait; fix: move the access after the wait, or the wait before the access}}
  %x = memref.load %b[%c0] : memref<4xf32>
  // expected-note @below {{and completed by the wait here}}
  distruntime.wait %h
  return %x : f32
}

// -----

func.func @write_input(%a: memref<4xf32>, %b: memref<4xf32>, %v: f32) {
  %c0 = arith.constant 0 : index
  // expected-note @below {{the async op is issued here}}
  %h = distruntime.all_reduce ins(%a : memref<4xf32>) outs(%b : memref<4xf32>) async
      {reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>}
  // expected-error @below {{writes a buffer of the pending async 'distruntime.all_reduce' before its wait}}
  memref.store %v, %a[%c0] : memref<4xf32>
  // expected-note @below {{and completed by the wait here}}
  distruntime.wait %h
  return
}

// -----

func.func @dealloc_input(%b: memref<4xf32>) {
  %a = memref.alloc() : memref<4xf32>
  // expected-note @below {{the async op is issued here}}
  %h = distruntime.all_reduce ins(%a : memref<4xf32>) outs(%b : memref<4xf32>) async
      {reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>}
  // expected-error @below {{deallocates a buffer of the pending async 'distruntime.all_reduce' before its wait}}
  memref.dealloc %a : memref<4xf32>
  // expected-note @below {{and completed by the wait here}}
  distruntime.wait %h
  return
}

// -----

// Through memref.cast, inside a loop, and in the RFC's in-place allreduce.
func.func @nested(%a: memref<4xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %v = arith.constant 1.0 : f32
  %d = memref.cast %a : memref<4xf32> to memref<?xf32>
  // expected-note @below {{the async op is issued here}}
  %h = distruntime.allreduce <sum> %d team(0) : memref<?xf32> -> !distruntime.async_handle
  scf.for %i = %c0 to %n step %c1 {
    // expected-error @below {{writes a buffer of the pending async 'distruntime.allreduce' before its wait}}
    memref.store %v, %a[%i] : memref<4xf32>
  }
  // expected-note @below {{and completed by the wait here}}
  distruntime.wait %h
  return
}

// -----

// A halo is written by get_halo until its wait.
func.func @read_halo(%local: memref<?x4xf64>, %g: index, %o: index, %bo: index, %bs: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  // expected-note @below {{the async op is issued here}}
  %h, %left, %right = distruntime.get_halo %local gshape [%g, %c4] loffsets [%o, %c0]
      bboffsets [%bo, %c0] bbsizes [%bs, %c4] team(0) : memref<?x4xf64> -> memref<?x4xf64>, memref<?x4xf64>
  // expected-error @below {{reads a buffer of the pending async 'distruntime.get_halo' before its wait; fix: move the access after the wait, or the wait before the access (or write the step sync, the get_halo and its wait before the loop: distruntime-overlap-halo then overlaps the exchange with the interior rows)}}
  %x = memref.load %left[%c0, %c0] : memref<?x4xf64>
  // expected-note @below {{and completed by the wait here}}
  distruntime.wait %h
  return %x : f64
}

// -----

// Two async ops writing one buffer: the second writes what the first writes.
func.func @two_writers(%a: memref<4xf32>, %b: memref<4xf32>) {
  // expected-note @below {{the async op is issued here}}
  %h0 = distruntime.all_reduce ins(%a : memref<4xf32>) outs(%b : memref<4xf32>) async
      {reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>}
  // expected-error @below {{writes a buffer of the pending async 'distruntime.all_reduce' before its wait}}
  %h1 = distruntime.all_reduce ins(%a : memref<4xf32>) outs(%b : memref<4xf32>) async
      {reduction = #distruntime.reduction<max>, replica_groups = dense<> : tensor<0x0xi64>}
  // expected-note @below {{and completed by the wait here}}
  distruntime.wait %h0
  distruntime.wait %h1
  return
}

// -----

// Not waited in its block: every later access there is reported.
func.func @escaping(%a: memref<4xf32>, %b: memref<4xf32>) -> !distruntime.async_handle {
  %c0 = arith.constant 0 : index
  // expected-note @below {{the async op is issued here}}
  %h = distruntime.all_reduce ins(%a : memref<4xf32>) outs(%b : memref<4xf32>) async
      {reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>}
  // expected-error @below {{reads a buffer of the pending async 'distruntime.all_reduce' before its wait}}
  // expected-note @below {{and not waited in the same block}}
  %x = memref.load %b[%c0] : memref<4xf32>
  return %h : !distruntime.async_handle
}

// -----

// Correct: reading an input while the op runs, using the output after the
// wait, writing another buffer, and a wait inside a region.
func.func @correct(%a: memref<4xf32>, %b: memref<4xf32>, %c: memref<4xf32>, %p: i1) -> f32 {
  %c0 = arith.constant 0 : index
  %v = arith.constant 2.0 : f32
  %h = distruntime.all_reduce ins(%a : memref<4xf32>) outs(%b : memref<4xf32>) async
      {reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>}
  %x = memref.load %a[%c0] : memref<4xf32>
  memref.store %v, %c[%c0] : memref<4xf32>
  distruntime.wait %h
  %y = memref.load %b[%c0] : memref<4xf32>
  memref.store %v, %a[%c0] : memref<4xf32>
  %h2 = distruntime.all_reduce ins(%a : memref<4xf32>) outs(%b : memref<4xf32>) async
      {reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>}
  scf.execute_region {
    distruntime.wait %h2
    scf.yield
  }
  %z = memref.load %b[%c0] : memref<4xf32>
  %s = arith.addf %x, %y : f32
  %t = arith.addf %s, %z : f32
  return %t : f32
}
