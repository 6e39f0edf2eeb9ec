// distruntime-overlap-halo: a loop over the rows after get_halo's wait whose
// first and last iterations read the halos is split into an interior loop,
// run first, and one loop over the first and last rows;
// distruntime-async-collectives then moves the wait past the interior.
// Negative cases: a halo read by every row, dependent iterations (a float
// sum carried across rows, a store not indexed by the row, a row reading the
// written buffer) and buffers that may alias. A maximum carried across rows
// (heat2d's residual) is split: the interior and the boundary loop chain it.
// RUN: %distruntime-opt %s -split-input-file -distruntime-overlap-halo -distruntime-async-collectives | FileCheck %s
// The result passes distruntime-verify-spmd.
// RUN: %distruntime-opt %s -split-input-file -distruntime-overlap-halo -distruntime-async-collectives -distruntime-verify-spmd -o /dev/null

// The interior [1, n - 1) reads only u; the wait follows it; then one loop
// of two trips runs the first row [0, min(1, n)) and the last
// [max(n - 1, 1), n), its body a copy of the loop with these bounds (one
// copy for both: no third copy of the body).
// CHECK-LABEL: func.func @step(
// CHECK-SAME: %[[U:[^:]*]]: memref<?x8xf64> {llvm.noalias}, %[[V:[^:]*]]: memref<?x8xf64> {llvm.noalias}
// CHECK: %[[C0:.*]] = arith.constant 0 : index
// CHECK: %[[H:.*]], %[[L:.*]], %[[R:.*]] = distruntime.get_halo %[[U]]
// CHECK: %[[N:.*]] = memref.dim %[[U]], %[[C0]]
// CHECK: %[[LB:.*]] = arith.addi %[[C0]], %[[ONE:.*]] : index
// CHECK: %[[UB:.*]] = arith.subi %[[N]], %[[ONE]] : index
// CHECK: scf.for %{{.*}} = %[[LB]] to %[[UB]] step
// CHECK-NOT: scf.if
// CHECK-NOT: %[[L]]
// CHECK-NOT: %[[R]]
// CHECK: memref.store %{{.*}}, %[[V]]
// CHECK: %[[FIRST_UB:.*]] = arith.minsi %[[LB]], %[[N]]
// CHECK-NEXT: %[[LAST_LB:.*]] = arith.maxsi %[[UB]], %[[LB]]
// CHECK-NEXT: %[[ZERO:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[TWO:.*]] = arith.constant 2 : index
// CHECK-NEXT: distruntime.wait %[[H]]
// CHECK-NEXT: scf.for %[[SLAB:.*]] = %[[ZERO]] to %[[TWO]] step
// CHECK-NEXT: %[[IS_FIRST:.*]] = arith.cmpi eq, %[[SLAB]], %[[ZERO]]
// CHECK-NEXT: %[[SLAB_LB:.*]] = arith.select %[[IS_FIRST]], %[[C0]], %[[LAST_LB]]
// CHECK-NEXT: %[[SLAB_UB:.*]] = arith.select %[[IS_FIRST]], %[[FIRST_UB]], %[[N]]
// CHECK-NEXT: scf.for %{{.*}} = %[[SLAB_LB]] to %[[SLAB_UB]] step
// CHECK: scf.yield %[[L]], %[[C0]]
// CHECK: scf.yield %[[R]], %[[C0]]
// CHECK-NOT: %[[L]]
// CHECK: memref.dealloc %[[L]]
// The sync-written stencil step: one loop over the rows after get_halo's
// wait, the first and last rows reading the halos.
func.func @step(%u: memref<?x8xf64> {llvm.noalias}, %v: memref<?x8xf64> {llvm.noalias}, %g: index, %o: index, %bo: index, %bs: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %n = memref.dim %u, %c0 : memref<?x8xf64>
  %h, %left, %right = distruntime.get_halo %u gshape [%g, %c8] loffsets [%o, %c0]
      bboffsets [%bo, %c0] bbsizes [%bs, %c8] team(0) : memref<?x8xf64> -> memref<?x8xf64>, memref<?x8xf64>
  distruntime.wait %h
  scf.for %i = %c0 to %n step %c1 {
    %is_first = arith.cmpi eq, %i, %c0 : index
    %up_buf, %up_row = scf.if %is_first -> (memref<?x8xf64>, index) {
      scf.yield %left, %c0 : memref<?x8xf64>, index
    } else {
      %p = arith.subi %i, %c1 : index
      scf.yield %u, %p : memref<?x8xf64>, index
    }
    %ip = arith.addi %i, %c1 : index
    %is_last = arith.cmpi eq, %ip, %n : index
    %dn_buf, %dn_row = scf.if %is_last -> (memref<?x8xf64>, index) {
      scf.yield %right, %c0 : memref<?x8xf64>, index
    } else {
      scf.yield %u, %ip : memref<?x8xf64>, index
    }
    scf.for %j = %c0 to %c8 step %c1 {
      %a = memref.load %up_buf[%up_row, %j] : memref<?x8xf64>
      %b = memref.load %dn_buf[%dn_row, %j] : memref<?x8xf64>
      %s = arith.addf %a, %b : f64
      memref.store %s, %v[%i, %j] : memref<?x8xf64>
    }
  }
  memref.dealloc %left : memref<?x8xf64>
  memref.dealloc %right : memref<?x8xf64>
  return
}

// -----

// CHECK-LABEL: func.func @every_row(
// CHECK: distruntime.wait
// CHECK-NEXT: scf.for
// CHECK-NOT: scf.for
// Every row reads the left halo: no interior.
func.func @every_row(%u: memref<?x8xf64> {llvm.noalias}, %v: memref<?x8xf64> {llvm.noalias}, %g: index, %o: index, %bo: index, %bs: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %n = memref.dim %u, %c0 : memref<?x8xf64>
  %h, %left, %right = distruntime.get_halo %u gshape [%g, %c8] loffsets [%o, %c0]
      bboffsets [%bo, %c0] bbsizes [%bs, %c8] team(0) : memref<?x8xf64> -> memref<?x8xf64>, memref<?x8xf64>
  distruntime.wait %h
  scf.for %i = %c0 to %n step %c1 {
    %a = memref.load %left[%c0, %c0] : memref<?x8xf64>
    memref.store %a, %v[%i, %c0] : memref<?x8xf64>
  }
  memref.dealloc %left : memref<?x8xf64>
  memref.dealloc %right : memref<?x8xf64>
  return
}

// -----

// The three loops stay whole, each after the wait.
// CHECK-LABEL: func.func @dependent(
// CHECK: distruntime.wait
// CHECK-NEXT: scf.for
// CHECK-NOT: arith.minsi
// Iterations that are not independent: a float sum carried across rows
// (its bits depend on the order), a store not indexed by the row, a row
// that reads what another row wrote.
func.func @dependent(%u: memref<?x8xf64> {llvm.noalias}, %v: memref<?x8xf64> {llvm.noalias}, %g: index, %o: index, %bo: index, %bs: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %zero = arith.constant 0.0 : f64
  %n = memref.dim %u, %c0 : memref<?x8xf64>
  %h, %left, %right = distruntime.get_halo %u gshape [%g, %c8] loffsets [%o, %c0]
      bboffsets [%bo, %c0] bbsizes [%bs, %c8] team(0) : memref<?x8xf64> -> memref<?x8xf64>, memref<?x8xf64>
  distruntime.wait %h
  %sum = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> f64 {
    %is_first = arith.cmpi eq, %i, %c0 : index
    %buf = arith.select %is_first, %left, %u : memref<?x8xf64>
    %a = memref.load %buf[%c0, %c0] : memref<?x8xf64>
    %s = arith.addf %acc, %a : f64
    scf.yield %s : f64
  }
  scf.for %i = %c0 to %n step %c1 {
    %is_first = arith.cmpi eq, %i, %c0 : index
    %buf = arith.select %is_first, %left, %u : memref<?x8xf64>
    %a = memref.load %buf[%c0, %c0] : memref<?x8xf64>
    memref.store %a, %v[%c0, %c0] : memref<?x8xf64>
  }
  scf.for %i = %c0 to %n step %c1 {
    %is_first = arith.cmpi eq, %i, %c0 : index
    %buf = arith.select %is_first, %left, %v : memref<?x8xf64>
    %a = memref.load %buf[%c0, %c0] : memref<?x8xf64>
    memref.store %a, %v[%i, %c0] : memref<?x8xf64>
  }
  memref.dealloc %left : memref<?x8xf64>
  memref.dealloc %right : memref<?x8xf64>
  return %sum : f64
}

// -----

// CHECK-LABEL: func.func @may_alias(
// CHECK: distruntime.wait
// CHECK-NEXT: scf.for
// CHECK-NOT: arith.minsi
// Without llvm.noalias, u and v may be one buffer: a row could read what
// another wrote, so the loop is left alone.
func.func @may_alias(%u: memref<?x8xf64>, %v: memref<?x8xf64>, %g: index, %o: index, %bo: index, %bs: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %n = memref.dim %u, %c0 : memref<?x8xf64>
  %h, %left, %right = distruntime.get_halo %u gshape [%g, %c8] loffsets [%o, %c0]
      bboffsets [%bo, %c0] bbsizes [%bs, %c8] team(0) : memref<?x8xf64> -> memref<?x8xf64>, memref<?x8xf64>
  distruntime.wait %h
  scf.for %i = %c0 to %n step %c1 {
    %is_first = arith.cmpi eq, %i, %c0 : index
    %buf = arith.select %is_first, %left, %u : memref<?x8xf64>
    %a = memref.load %buf[%c0, %c0] : memref<?x8xf64>
    memref.store %a, %v[%i, %c0] : memref<?x8xf64>
  }
  memref.dealloc %left : memref<?x8xf64>
  memref.dealloc %right : memref<?x8xf64>
  return
}

// -----

// CHECK-LABEL: func.func @max_residual(
// CHECK: %[[H:.*]], %{{.*}}, %{{.*}} = distruntime.get_halo
// CHECK: %[[IN:.*]] = scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}) -> (f64)
// CHECK: distruntime.wait %[[H]]
// CHECK-NEXT: %[[EDGES:.*]] = scf.for {{.*}} iter_args(%[[ACC:.*]] = %[[IN]]) -> (f64)
// CHECK: %[[ROWS:.*]] = scf.for {{.*}} iter_args(%{{.*}} = %[[ACC]]) -> (f64)
// CHECK: scf.yield %[[ROWS]] : f64
// CHECK: return %[[EDGES]]
func.func @max_residual(%u: memref<?x8xf64> {llvm.noalias}, %v: memref<?x8xf64> {llvm.noalias}, %g: index, %o: index, %bo: index, %bs: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %zero = arith.constant 0.0 : f64
  %n = memref.dim %u, %c0 : memref<?x8xf64>
  %h, %left, %right = distruntime.get_halo %u gshape [%g, %c8] loffsets [%o, %c0]
      bboffsets [%bo, %c0] bbsizes [%bs, %c8] team(0) : memref<?x8xf64> -> memref<?x8xf64>, memref<?x8xf64>
  distruntime.wait %h
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> f64 {
    %is_first = arith.cmpi eq, %i, %c0 : index
    %buf = arith.select %is_first, %left, %u : memref<?x8xf64>
    %row = arith.select %is_first, %c0, %i : index
    %a = memref.load %buf[%row, %c0] : memref<?x8xf64>
    memref.store %a, %v[%i, %c0] : memref<?x8xf64>
    %m = scf.if %is_first -> f64 {
      scf.yield %acc : f64
    } else {
      %x = arith.maximumf %acc, %a : f64
      scf.yield %x : f64
    }
    scf.yield %m : f64
  }
  memref.dealloc %left : memref<?x8xf64>
  memref.dealloc %right : memref<?x8xf64>
  return %r : f64
}

// -----

// Issue 33: the rows are stored through a view whose rows overlap (stride 4
// for rows of 8): two iterations write one element, so their order decides
// what stays. Not split. The same view with rows 16 apart is split.
// CHECK-LABEL: func.func @overlapping_rows(
// CHECK: distruntime.wait
// CHECK-NEXT: scf.for %{{.*}} = %c0 to %c4 step
// CHECK: scf.for %{{.*}} = %c0 to %c8 step
// CHECK-NOT: scf.for
// CHECK-LABEL: func.func @apart_rows(
// CHECK: scf.for
// CHECK: distruntime.wait
// CHECK-NEXT: scf.for %{{.*}} = %{{.*}} to %c2 step
func.func @overlapping_rows(%u: memref<4x8xf64> {llvm.noalias}, %v: memref<64xf64> {llvm.noalias}, %g: index, %o: index, %bo: index, %bs: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %w = memref.reinterpret_cast %v to offset: [0], sizes: [4, 8], strides: [4, 1] : memref<64xf64> to memref<4x8xf64, strided<[4, 1]>>
  %h, %left, %right = distruntime.get_halo %u gshape [%g, %c8] loffsets [%o, %c0]
      bboffsets [%bo, %c0] bbsizes [%bs, %c8] team(0) : memref<4x8xf64> -> memref<?x8xf64>, memref<?x8xf64>
  distruntime.wait %h
  scf.for %i = %c0 to %c4 step %c1 {
    %is_first = arith.cmpi eq, %i, %c0 : index
    %up = scf.if %is_first -> f64 {
      %a = memref.load %left[%c0, %c0] : memref<?x8xf64>
      scf.yield %a : f64
    } else {
      %p = arith.subi %i, %c1 : index
      %a = memref.load %u[%p, %c0] : memref<4x8xf64>
      scf.yield %a : f64
    }
    %ip = arith.addi %i, %c1 : index
    %is_last = arith.cmpi eq, %ip, %c4 : index
    %dn = scf.if %is_last -> f64 {
      %b = memref.load %right[%c0, %c0] : memref<?x8xf64>
      scf.yield %b : f64
    } else {
      %b = memref.load %u[%ip, %c0] : memref<4x8xf64>
      scf.yield %b : f64
    }
    %s = arith.addf %up, %dn : f64
    scf.for %j = %c0 to %c8 step %c1 {
      memref.store %s, %w[%i, %j] : memref<4x8xf64, strided<[4, 1]>>
    }
  }
  memref.dealloc %left : memref<?x8xf64>
  memref.dealloc %right : memref<?x8xf64>
  return
}
func.func @apart_rows(%u: memref<4x8xf64> {llvm.noalias}, %v: memref<64xf64> {llvm.noalias}, %g: index, %o: index, %bo: index, %bs: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %w = memref.reinterpret_cast %v to offset: [0], sizes: [4, 8], strides: [16, 1] : memref<64xf64> to memref<4x8xf64, strided<[16, 1]>>
  %h, %left, %right = distruntime.get_halo %u gshape [%g, %c8] loffsets [%o, %c0]
      bboffsets [%bo, %c0] bbsizes [%bs, %c8] team(0) : memref<4x8xf64> -> memref<?x8xf64>, memref<?x8xf64>
  distruntime.wait %h
  scf.for %i = %c0 to %c4 step %c1 {
    %is_first = arith.cmpi eq, %i, %c0 : index
    %up = scf.if %is_first -> f64 {
      %a = memref.load %left[%c0, %c0] : memref<?x8xf64>
      scf.yield %a : f64
    } else {
      %p = arith.subi %i, %c1 : index
      %a = memref.load %u[%p, %c0] : memref<4x8xf64>
      scf.yield %a : f64
    }
    %ip = arith.addi %i, %c1 : index
    %is_last = arith.cmpi eq, %ip, %c4 : index
    %dn = scf.if %is_last -> f64 {
      %b = memref.load %right[%c0, %c0] : memref<?x8xf64>
      scf.yield %b : f64
    } else {
      %b = memref.load %u[%ip, %c0] : memref<4x8xf64>
      scf.yield %b : f64
    }
    %s = arith.addf %up, %dn : f64
    scf.for %j = %c0 to %c8 step %c1 {
      memref.store %s, %w[%i, %j] : memref<4x8xf64, strided<[16, 1]>>
    }
  }
  memref.dealloc %left : memref<?x8xf64>
  memref.dealloc %right : memref<?x8xf64>
  return
}
