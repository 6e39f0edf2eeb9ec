// Issue 33's wrong proofs and false alarms, one per case: the uniformity
// analysis is conservative where it cannot see (a buffer handed on by a
// yield or a return, a pointer taken from it, a helper that writes it under
// a branch that may differ, an affine loop whose bounds may differ), and
// flow-sensitive where correct programs need it (a buffer that an in-place
// all_reduce has overwritten whole reads uniform; a loop whose bounds move
// together runs as often on every member).
// RUN: %distruntime-opt %s -split-input-file -distruntime-verify-spmd=print-uniformity=1 -verify-diagnostics

// A buffer that leaves a region through scf.yield and is written through
// the result: the store of the member id reaches the load of the original.
func.func @yielded() {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1.0 : f64
  %me = distruntime.team_member team(0)
  %mef = arith.constant 2.0 : f64
  %a = memref.alloc() : memref<1xf64>
  memref.store %one, %a[%c0] : memref<1xf64>
  %t = arith.cmpi eq, %c0, %c0 : index
  %alias = scf.if %t -> memref<1xf64> {
    scf.yield %a : memref<1xf64>
  } else {
    scf.yield %a : memref<1xf64>
  }
  %mei = arith.index_cast %me : index to i64
  %v = arith.sitofp %mei : i64 to f64
  memref.store %v, %alias[%c0] : memref<1xf64>
  // expected-remark @below {{may differ (memory)}}
  %l = memref.load %a[%c0] {spmd.probe} : memref<1xf64>
  return
}

// -----

// Returned from a helper and written through the caller's alias.
func.func private @identity(%b: memref<1xindex>) -> memref<1xindex> {
  return %b : memref<1xindex>
}
func.func @returned() {
  %c0 = arith.constant 0 : index
  %me = distruntime.team_member team(0)
  %a = memref.alloc() : memref<1xindex>
  memref.store %c0, %a[%c0] : memref<1xindex>
  %alias = func.call @identity(%a) : (memref<1xindex>) -> memref<1xindex>
  memref.store %me, %alias[%c0] : memref<1xindex>
  // expected-remark @below {{may differ (memory)}}
  %l = memref.load %a[%c0] {spmd.probe} : memref<1xindex>
  return
}

// -----

// A write through a raw pointer taken from the buffer.
func.func @pointer() {
  %c0 = arith.constant 0 : index
  %me = distruntime.team_member team(0)
  %a = memref.alloc() : memref<1xi64>
  %z = arith.constant 0 : i64
  memref.store %z, %a[%c0] : memref<1xi64>
  %p = memref.extract_aligned_pointer_as_index %a : memref<1xi64> -> index
  %pi = arith.index_cast %p : index to i64
  %ptr = llvm.inttoptr %pi : i64 to !llvm.ptr
  %mei = arith.index_cast %me : index to i64
  llvm.store %mei, %ptr : i64, !llvm.ptr
  // expected-remark @below {{may differ (memory)}}
  %l = memref.load %a[%c0] {spmd.probe} : memref<1xi64>
  return
}

// -----

// A private helper stores a constant, but is called on member 0 only.
func.func private @fill(%b: memref<1xindex>) {
  %c0 = arith.constant 0 : index
  %c7 = arith.constant 7 : index
  memref.store %c7, %b[%c0] : memref<1xindex>
  return
}
func.func @helper() {
  %c0 = arith.constant 0 : index
  %me = distruntime.team_member team(0)
  %a = memref.alloc() : memref<1xindex>
  memref.store %c0, %a[%c0] : memref<1xindex>
  %is0 = arith.cmpi eq, %me, %c0 : index
  scf.if %is0 {
    func.call @fill(%a) : (memref<1xindex>) -> ()
  }
  // expected-remark @below {{may differ (member id)}}
  %l = memref.load %a[%c0] {spmd.probe} : memref<1xindex>
  return
}

// -----

// An affine loop whose upper bound is the member id runs a different number
// of times: what it carries out differs.
func.func @affine_bound() {
  %c0 = arith.constant 0 : index
  %me = distruntime.team_member team(0)
  // expected-remark @below {{may differ (member id)}}
  %s = affine.for %i = 0 to %me iter_args(%acc = %c0) -> index {
    %c1 = arith.constant 1 : index
    %n = arith.addi %acc, %c1 : index
    affine.yield %n : index
  } {spmd.probe}
  return
}

// -----

// In place: all_reduce overwrites the whole buffer, so the member id stored
// before does not reach the loads after; the RFC's allreduce the same.
func.func @in_place() {
  %c0 = arith.constant 0 : index
  %me = distruntime.team_member team(0)
  %mei = arith.index_cast %me : index to i64
  %b = memref.alloc() : memref<2xi64>
  memref.store %mei, %b[%c0] : memref<2xi64>
  distruntime.all_reduce ins(%b : memref<2xi64>) outs(%b : memref<2xi64>)
      {reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>}
  // expected-remark @below {{uniform}}
  %l = memref.load %b[%c0] {spmd.probe} : memref<2xi64>
  %r = memref.alloc() : memref<2xi64>
  memref.store %mei, %r[%c0] : memref<2xi64>
  distruntime.allreduce <sum> %r team(0) : memref<2xi64>
  // expected-remark @below {{uniform}}
  %m = memref.load %r[%c0] {spmd.probe} : memref<2xi64>
  // A store after the all_reduce still counts.
  memref.store %mei, %r[%c0] : memref<2xi64>
  // expected-remark @below {{may differ (member id)}}
  %n = memref.load %r[%c0] {spmd.probe} : memref<2xi64>
  return
}

// -----

// An all_reduce into a subview overwrites part of the buffer only.
func.func @in_place_part() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %me = distruntime.team_member team(0)
  %mei = arith.index_cast %me : index to i64
  %b = memref.alloc() : memref<2xi64>
  memref.store %mei, %b[%c1] : memref<2xi64>
  %v = memref.subview %b[0] [1] [1] : memref<2xi64> to memref<1xi64, strided<[1]>>
  distruntime.all_reduce ins(%v : memref<1xi64, strided<[1]>>) outs(%v : memref<1xi64, strided<[1]>>)
      {reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>}
  // expected-remark @below {{may differ (member id)}}
  %l = memref.load %b[%c1] {spmd.probe} : memref<2xi64>
  return
}

// -----

// In a loop, a store of the member id after the all_reduce reaches the
// next turn's load before it... unless the all_reduce comes between.
func.func @in_place_loop() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %me = distruntime.team_member team(0)
  %mei = arith.index_cast %me : index to i64
  %b = memref.alloc() : memref<1xi64>
  scf.for %i = %c0 to %c4 step %c1 {
    memref.store %mei, %b[%c0] : memref<1xi64>
    distruntime.allreduce <sum> %b team(0) : memref<1xi64>
    // expected-remark @below {{uniform}}
    %l = memref.load %b[%c0] {spmd.probe} : memref<1xi64>
  }
  %x = memref.alloc() : memref<1xi64>
  scf.for %i = %c0 to %c4 step %c1 {
    // expected-remark @below {{may differ (member id)}}
    %l = memref.load %x[%c0] {spmd.probe} : memref<1xi64>
    distruntime.allreduce <sum> %x team(0) : memref<1xi64>
    memref.store %mei, %x[%c0] : memref<1xi64>
  }
  return
}

// -----

// An async collective_permute into the buffer before the in-place
// all_reduce writes at its wait, after it: not overwritten (the verifier
// also reports the pending buffer).
func.func @async_writer(%x: memref<1xi64>) {
  %c0 = arith.constant 0 : index
  %b = memref.alloc() : memref<1xi64>
  // expected-note @below {{the async op is issued here}}
  %h = distruntime.collective_permute ins(%x : memref<1xi64>) outs(%b : memref<1xi64>) async {source_target_pairs = dense<[[0, 1], [1, 0]]> : tensor<2x2xi64>}
  // expected-error @below {{reads a buffer of the pending async 'distruntime.collective_permute' before its wait}}
  distruntime.allreduce <sum> %b team(0) : memref<1xi64>
  // expected-note @below {{and completed by the wait here}}
  distruntime.wait %h
  // expected-remark @below {{may differ (received)}}
  %l = memref.load %b[%c0] {spmd.probe} : memref<1xi64>
  return
}
