// distruntime-async-collectives: sync communication on memrefs becomes a
// start and a wait, the start above independent work, the wait below it, up
// to the first op that touches the op's buffers. Negative cases: a region
// op, a write through a view, an external call and a print stop the moves;
// a start never passes other communication; arguments without llvm.noalias
// may alias; the byte threshold.
// RUN: %distruntime-opt %s -split-input-file -distruntime-async-collectives | FileCheck %s
// RUN: %distruntime-opt %s -split-input-file -distruntime-async-collectives=min-bytes=64 | FileCheck %s --check-prefix=LIMIT
// The result passes distruntime-verify-spmd (waits on every path, no access
// to a pending op's buffers).
// RUN: %distruntime-opt %s -split-input-file -distruntime-async-collectives -distruntime-verify-spmd -o /dev/null

// CHECK-LABEL: func.func @past_loop(
// CHECK: %[[H:.*]] = distruntime.allreduce <sum> %{{.*}} team(0) : memref<1024xf64> -> !distruntime.async_handle
// CHECK-NEXT: scf.for
// CHECK: }
// CHECK-NEXT: distruntime.wait %[[H]]
// CHECK-NEXT: memref.load
// The wait of an in-place allreduce moves past a loop on another buffer, to
// the first read of the reduced data. (Buffers passed in are distinct only
// with llvm.noalias; see @may_alias.)
func.func @past_loop(%a: memref<1024xf64> {llvm.noalias}, %b: memref<1024xf64> {llvm.noalias}, %n: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1.0 : f64
  distruntime.allreduce <sum> %a team(0) : memref<1024xf64>
  scf.for %i = %c0 to %n step %c1 {
    %x = memref.load %b[%i] : memref<1024xf64>
    %y = arith.addf %x, %one : f64
    memref.store %y, %b[%i] : memref<1024xf64>
  }
  %r = memref.load %a[%c0] : memref<1024xf64>
  return %r : f64
}

// -----

// CHECK-LABEL: func.func @start_early(
// CHECK-SAME: %[[A:[^:]*]]: memref<256xf32> {llvm.noalias}, %[[B:[^:]*]]: memref<256xf32> {llvm.noalias}, %[[C:[^:]*]]: memref<256xf32>
// CHECK: memref.store %{{.*}}, %[[A]]
// CHECK-NEXT: %[[H:.*]] = distruntime.all_reduce ins(%[[A]] : memref<256xf32>) outs(%[[B]] : memref<256xf32>) async
// CHECK-NEXT: memref.store %{{.*}}, %[[C]]
// CHECK-NEXT: memref.store %{{.*}}, %[[C]]
// CHECK-NEXT: distruntime.wait %[[H]]
// CHECK-NEXT: memref.load %[[B]]
// The start moves above independent work (a store to another buffer), not
// above the write of its input nor above the op defining an operand.
func.func @start_early(%a: memref<256xf32> {llvm.noalias}, %b: memref<256xf32> {llvm.noalias}, %c: memref<256xf32> {llvm.noalias}, %v: f32) {
  %c0 = arith.constant 0 : index
  memref.store %v, %a[%c0] : memref<256xf32>
  memref.store %v, %c[%c0] : memref<256xf32>
  distruntime.all_reduce ins(%a : memref<256xf32>) outs(%b : memref<256xf32>)
      {reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>}
  memref.store %v, %c[%c0] : memref<256xf32>
  %x = memref.load %b[%c0] : memref<256xf32>
  return
}

// -----

// CHECK-LABEL: func.func @region_reads_output(
// CHECK-NOT: async
// CHECK-NOT: distruntime.wait
// A loop reading the output right after the op: nothing to overlap, the op
// stays sync.
func.func @region_reads_output(%a: memref<256xf32> {llvm.noalias}, %b: memref<256xf32> {llvm.noalias}, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  distruntime.all_reduce ins(%a : memref<256xf32>) outs(%b : memref<256xf32>)
      {reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>}
  scf.for %i = %c0 to %n step %c1 {
    %x = memref.load %b[%i] : memref<256xf32>
    memref.store %x, %a[%i] : memref<256xf32>
  }
  return
}

// -----

// CHECK-LABEL: func.func @views_and_calls(
// CHECK: %[[H:.*]] = distruntime.all_reduce {{.*}} async
// CHECK-NEXT: %[[S:.*]] = memref.subview
// CHECK-NEXT: memref.store
// CHECK-NEXT: distruntime.wait %[[H]]
// CHECK-NEXT: memref.store %{{.*}}, %[[S]]
// CHECK-NEXT: call @opaque
// CHECK-NEXT: distruntime.all_reduce ins(%{{.*}} : memref<256xf32>) outs(%{{.*}} : memref<256xf32>) {
// CHECK-NEXT: memref.store
// A write to the input through a view (subview) stops the wait; a call of
// an external function stops both moves.
func.func private @opaque(memref<256xf32>)
func.func @views_and_calls(%a: memref<256xf32> {llvm.noalias}, %b: memref<256xf32> {llvm.noalias}, %c: memref<256xf32> {llvm.noalias}, %v: f32) {
  %c0 = arith.constant 0 : index
  %s = memref.subview %a[8] [4] [1] : memref<256xf32> to memref<4xf32, strided<[1], offset: 8>>
  distruntime.all_reduce ins(%a : memref<256xf32>) outs(%b : memref<256xf32>)
      {reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>}
  memref.store %v, %c[%c0] : memref<256xf32>
  memref.store %v, %s[%c0] : memref<4xf32, strided<[1], offset: 8>>
  func.call @opaque(%c) : (memref<256xf32>) -> ()
  distruntime.all_reduce ins(%c : memref<256xf32>) outs(%b : memref<256xf32>)
      {reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>}
  memref.store %v, %c[%c0] : memref<256xf32>
  return
}

// -----

// CHECK-LABEL: func.func @through_calls(
// CHECK-SAME: %[[A:[^:]*]]: memref<256xf32> {llvm.noalias}, %[[B:[^:]*]]: memref<256xf32> {llvm.noalias}, %[[C:[^:]*]]: memref<256xf32>
// CHECK-NEXT: %[[H:.*]] = distruntime.all_reduce {{.*}} async
// CHECK-NEXT: call @scale(%[[C]]
// CHECK-NEXT: distruntime.wait %[[H]]
// CHECK-NEXT: call @scale(%[[B]]
// A call of a function with a body counts by what it does to its
// arguments: scaling %c lets the wait pass; reading %b stops it.
func.func private @scale(%x: memref<256xf32>, %k: f32) {
  %c0 = arith.constant 0 : index
  %y = memref.load %x[%c0] : memref<256xf32>
  %z = arith.mulf %y, %k : f32
  memref.store %z, %x[%c0] : memref<256xf32>
  return
}
func.func @through_calls(%a: memref<256xf32> {llvm.noalias}, %b: memref<256xf32> {llvm.noalias}, %c: memref<256xf32> {llvm.noalias}, %k: f32) {
  distruntime.all_reduce ins(%a : memref<256xf32>) outs(%b : memref<256xf32>)
      {reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>}
  func.call @scale(%c, %k) : (memref<256xf32>, f32) -> ()
  func.call @scale(%b, %k) : (memref<256xf32>, f32) -> ()
  return
}

// -----

// CHECK-LABEL: func.func @halo(
// CHECK: %[[H:.*]], %[[L:.*]], %{{.*}} = distruntime.get_halo
// CHECK-NEXT: scf.for
// CHECK: }
// CHECK-NEXT: distruntime.wait %[[H]]
// CHECK-NEXT: memref.load %[[L]]
// get_halo's wait moves past the interior (a loop that reads the local block
// and writes another buffer), to the first read of a halo; a dealloc of a
// halo stops it too.
func.func @halo(%u: memref<?x8xf64> {llvm.noalias}, %v: memref<?x8xf64> {llvm.noalias}, %g: index, %o: index, %bo: index, %bs: index, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %h, %left, %right = distruntime.get_halo %u gshape [%g, %c8] loffsets [%o, %c0]
      bboffsets [%bo, %c0] bbsizes [%bs, %c8] team(0) : memref<?x8xf64> -> memref<?x8xf64>, memref<?x8xf64>
  distruntime.wait %h
  scf.for %i = %c1 to %n step %c1 {
    %x = memref.load %u[%i, %c0] : memref<?x8xf64>
    memref.store %x, %v[%i, %c0] : memref<?x8xf64>
  }
  %l = memref.load %left[%c0, %c0] : memref<?x8xf64>
  memref.store %l, %v[%c0, %c0] : memref<?x8xf64>
  memref.dealloc %left : memref<?x8xf64>
  memref.dealloc %right : memref<?x8xf64>
  return
}

// -----

// CHECK-LABEL: func.func @order(
// CHECK: %[[H1:.*]] = distruntime.all_reduce {{.*}} async
// CHECK-NEXT: %[[H2:.*]] = distruntime.all_reduce {{.*}} async
// CHECK-NEXT: distruntime.wait %[[H1]]
// CHECK-NEXT: memref.load
// CHECK-NEXT: distruntime.wait %[[H2]]
// CHECK-NEXT: memref.load
// A start never moves above other communication, so the members issue it
// in the written order; a wait may pass it.
func.func @order(%a: memref<256xf32> {llvm.noalias}, %b: memref<256xf32> {llvm.noalias}, %c: memref<256xf32> {llvm.noalias}, %d: memref<256xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  distruntime.all_reduce ins(%a : memref<256xf32>) outs(%b : memref<256xf32>)
      {reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>}
  distruntime.all_reduce ins(%c : memref<256xf32>) outs(%d : memref<256xf32>)
      {reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>}
  %x = memref.load %b[%c0] : memref<256xf32>
  %y = memref.load %d[%c0] : memref<256xf32>
  return
}

// -----

// CHECK-LABEL: func.func @halo_send_recv(
// CHECK: %[[HU:.*]] = distruntime.update_halo {{.*}} async
// CHECK-NEXT: %[[HS:.*]] = distruntime.send {{.*}} async
// CHECK-NEXT: %[[HR:.*]] = distruntime.recv {{.*}} async
// CHECK-NEXT: memref.store
// CHECK-NEXT: memref.store
// CHECK-NEXT: distruntime.wait %[[HU]]
// CHECK-NEXT: memref.load
// CHECK-NEXT: distruntime.wait %[[HS]]
// CHECK-NEXT: memref.store
// CHECK-NEXT: distruntime.wait %[[HR]]
// CHECK-NEXT: return
// LIMIT-LABEL: func.func @halo_send_recv(
// LIMIT: %[[HU:.*]] = distruntime.update_halo {{.*}} async
// LIMIT-NEXT: distruntime.send ins(%{{.*}} : memref<4xf32>) {
// LIMIT-NEXT: memref.store
// LIMIT-NEXT: distruntime.recv outs(%{{.*}} : memref<4xf32>) {
// LIMIT-NEXT: memref.store
// LIMIT-NEXT: distruntime.wait %[[HU]]
// LIMIT-NEXT: memref.load
// update_halo, send and recv on memrefs; with min-bytes=64 the 16-byte
// send and recv stay sync.
module attributes {distruntime.num_replicas = 1 : i64, distruntime.num_partitions = 2 : i64} {
  func.func @halo_send_recv(%blk: memref<10x8xf32> {llvm.noalias}, %x: memref<4xf32> {llvm.noalias}, %y: memref<4xf32> {llvm.noalias}, %z: memref<4xf32> {llvm.noalias}, %v: f32) {
    %c0 = arith.constant 0 : index
    distruntime.update_halo %blk grid [2] split_axes [[0]] halo_sizes [1, 1, 0, 0] key(7) : memref<10x8xf32>
    distruntime.send ins(%x : memref<4xf32>) {source_target_pairs = dense<[[0, 1]]> : tensor<1x2xi64>, channel_id = 1 : i64}
    memref.store %v, %z[%c0] : memref<4xf32>
    distruntime.recv outs(%y : memref<4xf32>) {source_target_pairs = dense<[[0, 1]]> : tensor<1x2xi64>, channel_id = 1 : i64}
    memref.store %v, %z[%c0] : memref<4xf32>
    %r = memref.load %blk[%c0, %c0] : memref<10x8xf32>
    memref.store %r, %x[%c0] : memref<4xf32>
    return
  }
}

// -----

// CHECK-LABEL: func.func @may_alias(
// CHECK-NOT: async_handle
// Arguments without llvm.noalias may be one buffer: nothing moves.
func.func @may_alias(%a: memref<1024xf64>, %b: memref<1024xf64>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1.0 : f64
  distruntime.allreduce <sum> %a team(0) : memref<1024xf64>
  scf.for %i = %c0 to %n step %c1 {
    memref.store %one, %b[%i] : memref<1024xf64>
  }
  return
}

// -----

// CHECK-LABEL: func.func @local(
// CHECK: %[[A:.*]] = memref.alloc()
// CHECK-NEXT: %[[H:.*]] = distruntime.allreduce <sum> %[[A]]
// CHECK-NEXT: memref.alloc()
// CHECK-NEXT: scf.for
// CHECK: }
// CHECK-NEXT: distruntime.wait %[[H]]
// CHECK-NEXT: vector.print
// Local allocations are distinct; a print (memory it cannot name) stops the
// wait.
func.func @local(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1.0 : f64
  %a = memref.alloc() : memref<1024xf64>
  %b = memref.alloc() : memref<1024xf64>
  distruntime.allreduce <sum> %a team(0) : memref<1024xf64>
  scf.for %i = %c0 to %n step %c1 {
    memref.store %one, %b[%i] : memref<1024xf64>
  }
  vector.print %one : f64
  memref.dealloc %a : memref<1024xf64>
  memref.dealloc %b : memref<1024xf64>
  return
}

// -----

// global_reduce has no async form; ordered and exact reductions stay sync
// (their async form gathers every member's values); mpi ones move.
// CHECK-LABEL: func.func @stay_sync
// CHECK: distruntime.global_reduce
// CHECK: distruntime.allreduce <sum> %{{.*}} team(0) {reproducibility = #distruntime.reproducibility<exact>} : memref<1024xf64>{{$}}
// CHECK: distruntime.all_reduce {{.*}}reproducibility = #distruntime.reproducibility<ordered>{{.*}}}{{$}}
// CHECK: %[[H:.*]] = distruntime.allreduce <sum> %{{.*}} team(0) {reproducibility = #distruntime.reproducibility<mpi>} : memref<1024xf64> -> !distruntime.async_handle
// CHECK: scf.for
// CHECK: distruntime.wait %[[H]]
func.func @stay_sync(%a: memref<1024xf64>, %b: memref<1024xf64>, %c: memref<1024xf64>, %n: index) -> f64 {
  %d = memref.alloc() : memref<1024xf64>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %x = arith.constant 1.0 : f64
  %s = distruntime.global_reduce <sum> %a team(0) : memref<1024xf64> -> f64
  distruntime.allreduce <sum> %b team(0) {reproducibility = #distruntime.reproducibility<exact>} : memref<1024xf64>
  distruntime.all_reduce ins(%c : memref<1024xf64>) outs(%c : memref<1024xf64>) {reduction = #distruntime.reduction<sum>, reproducibility = #distruntime.reproducibility<ordered>, replica_groups = dense<> : tensor<0x0xi64>}
  distruntime.allreduce <sum> %d team(0) {reproducibility = #distruntime.reproducibility<mpi>} : memref<1024xf64>
  scf.for %i = %c0 to %n step %c1 {
    memref.store %x, %a[%i] : memref<1024xf64>
  }
  %v = memref.load %d[%c0] : memref<1024xf64>
  %r = arith.addf %s, %v : f64
  return %r : f64
}
