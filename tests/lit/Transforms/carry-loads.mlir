// distruntime-carry-loads: loads of one memref at `iv + c` (c constants a
// multiple of the step apart, the other indices loop-invariant) are loaded
// once, at the highest offset, and carried in iter_args; the first
// iteration's values are loaded before the loop under lb < ub. Negative
// cases: a store to the memref or to one that may alias it, a call, a load
// under scf.if, offsets not a multiple of the step apart, a window of more
// than 4, an index varying in two positions, a non-constant step, and a
// memref defined in the loop.
// RUN: %distruntime-opt %s --split-input-file --distruntime-carry-loads | FileCheck %s

// The stencil row: u[i, j - 1] and u[i, j + 1]; u[i - 1, j] and u[i + 1, j]
// are each one offset of their own group and stay.
// CHECK-LABEL: func.func @row(
// CHECK-SAME: %[[U:[^:]*]]: memref<?x?xf64> {llvm.noalias}, %[[V:[^:]*]]: memref<?x?xf64> {llvm.noalias}, %[[I:[^:]*]]: index, %[[LB:[^:]*]]: index, %[[UB:[^:]*]]: index)
// CHECK: %[[NONEMPTY:.*]] = arith.cmpi slt, %[[LB]], %[[UB]] : index
// CHECK-NEXT: %[[INIT:.*]]:2 = scf.if %[[NONEMPTY]] -> (f64, f64) {
// CHECK-NEXT: %[[M1:.*]] = arith.constant -1 : index
// CHECK-NEXT: %[[A0:.*]] = arith.addi %[[LB]], %[[M1]] : index
// CHECK-NEXT: %[[W0:.*]] = memref.load %[[U]][%[[I]], %[[A0]]]
// CHECK-NEXT: %[[Z:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[A1:.*]] = arith.addi %[[LB]], %[[Z]] : index
// CHECK-NEXT: %[[W1:.*]] = memref.load %[[U]][%[[I]], %[[A1]]]
// CHECK-NEXT: scf.yield %[[W0]], %[[W1]] : f64, f64
// CHECK-NEXT: } else {
// CHECK: scf.yield %{{.*}}, %{{.*}} : f64, f64
// CHECK: scf.for %[[J:.*]] = %[[LB]] to %[[UB]] step %{{.*}} iter_args(%[[WEST:.*]] = %[[INIT]]#0, %[[CENTER:.*]] = %[[INIT]]#1) -> (f64, f64) {
// CHECK-NEXT: %[[JM:.*]] = arith.subi %[[J]]
// CHECK-NEXT: %[[JP:.*]] = arith.addi %[[J]]
// CHECK-NEXT: %[[UP:.*]] = memref.load %[[U]][%{{.*}}, %[[J]]]
// CHECK-NEXT: %[[DN:.*]] = memref.load %[[U]][%{{.*}}, %[[J]]]
// CHECK-NEXT: %[[EAST:.*]] = memref.load %[[U]][%[[I]], %[[JP]]]
// CHECK-NEXT: %[[S1:.*]] = arith.addf %[[UP]], %[[DN]]
// CHECK-NEXT: %[[S2:.*]] = arith.addf %[[S1]], %[[WEST]]
// CHECK-NEXT: %[[S3:.*]] = arith.addf %[[S2]], %[[EAST]]
// CHECK-NEXT: memref.store %[[S3]], %[[V]][%[[I]], %[[J]]]
// CHECK-NEXT: scf.yield %[[CENTER]], %[[EAST]] : f64, f64
func.func @row(%u: memref<?x?xf64> {llvm.noalias},
               %v: memref<?x?xf64> {llvm.noalias}, %i: index, %lb: index,
               %ub: index) {
  %c1 = arith.constant 1 : index
  %im = arith.subi %i, %c1 : index
  %ip = arith.addi %i, %c1 : index
  scf.for %j = %lb to %ub step %c1 {
    %jm = arith.subi %j, %c1 : index
    %jp = arith.addi %j, %c1 : index
    %up = memref.load %u[%im, %j] : memref<?x?xf64>
    %dn = memref.load %u[%ip, %j] : memref<?x?xf64>
    %w = memref.load %u[%i, %jm] : memref<?x?xf64>
    %e = memref.load %u[%i, %jp] : memref<?x?xf64>
    %s1 = arith.addf %up, %dn : f64
    %s2 = arith.addf %s1, %w : f64
    %s3 = arith.addf %s2, %e : f64
    memref.store %s3, %v[%i, %j] : memref<?x?xf64>
  }
  return
}

// -----

// Step 2, offsets 0, 2 and 4 (and 1, alone in its residue), in a loop that
// already carries a value, over unsigned bounds: the window holds the
// elements at iv and iv + 2, the loaded one at iv + 4 enters it.
// CHECK-LABEL: func.func @step_two(
// CHECK-SAME: %[[X:[^:]*]]: memref<?xi32>, %[[LB:[^:]*]]: index, %[[UB:[^:]*]]: index)
// CHECK: arith.cmpi ult, %[[LB]], %[[UB]] : index
// CHECK: %[[INIT:.*]]:2 = scf.if
// CHECK: scf.for unsigned %[[K:.*]] = %[[LB]] to %[[UB]] step %{{.*}} iter_args(%[[SUM:.*]] = %{{.*}}, %[[W0:.*]] = %[[INIT]]#0, %[[W2:.*]] = %[[INIT]]#1) -> (i32, i32, i32) {
// CHECK: %[[K1:.*]] = arith.addi %[[K]], %{{.*}} : index
// CHECK: %[[K4:.*]] = arith.addi %[[K]], %{{.*}} : index
// CHECK: %[[ODD:.*]] = memref.load %[[X]][%[[K1]]]
// CHECK: %[[E4:.*]] = memref.load %[[X]][%[[K4]]]
// CHECK: %[[T0:.*]] = arith.addi %[[W0]], %[[W2]]
// CHECK: %[[T1:.*]] = arith.addi %[[T0]], %[[E4]]
// CHECK: %[[T2:.*]] = arith.addi %[[T1]], %[[ODD]]
// CHECK: %[[T3:.*]] = arith.addi %[[T2]], %[[SUM]]
// CHECK: scf.yield %[[T3]], %[[W2]], %[[E4]] : i32, i32, i32
func.func @step_two(%x: memref<?xi32>, %lb: index, %ub: index) -> i32 {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c0_i32 = arith.constant 0 : i32
  %r = scf.for unsigned %k = %lb to %ub step %c2 iter_args(%sum = %c0_i32) -> i32 {
    %k1 = arith.addi %k, %c1 : index
    %k2 = arith.addi %c2, %k : index
    %k4 = arith.addi %k, %c4 : index
    %a = memref.load %x[%k] : memref<?xi32>
    %odd = memref.load %x[%k1] : memref<?xi32>
    %b = memref.load %x[%k2] : memref<?xi32>
    %e = memref.load %x[%k4] : memref<?xi32>
    %t0 = arith.addi %a, %b : i32
    %t1 = arith.addi %t0, %e : i32
    %t2 = arith.addi %t1, %odd : i32
    %t3 = arith.addi %t2, %sum : i32
    scf.yield %t3 : i32
  }
  return %r : i32
}

// -----

// Nothing is carried where an element may change between the iterations
// that load it, or where a load may not run every iteration.
// CHECK-LABEL: func.func @stores_to_it(
// CHECK-NOT: iter_args
// CHECK: return
func.func @stores_to_it(%u: memref<?xf64>, %lb: index, %ub: index) {
  %c1 = arith.constant 1 : index
  scf.for %j = %lb to %ub step %c1 {
    %jm = arith.subi %j, %c1 : index
    %jp = arith.addi %j, %c1 : index
    %w = memref.load %u[%jm] : memref<?xf64>
    %e = memref.load %u[%jp] : memref<?xf64>
    %s = arith.addf %w, %e : f64
    memref.store %s, %u[%j] : memref<?xf64>
  }
  return
}

// Two arguments without llvm.noalias may be one buffer.
// CHECK-LABEL: func.func @may_alias(
// CHECK-NOT: iter_args
// CHECK: return
func.func @may_alias(%u: memref<?xf64>, %v: memref<?xf64>, %lb: index,
                     %ub: index) {
  %c1 = arith.constant 1 : index
  scf.for %j = %lb to %ub step %c1 {
    %jp = arith.addi %j, %c1 : index
    %w = memref.load %u[%j] : memref<?xf64>
    %e = memref.load %u[%jp] : memref<?xf64>
    %s = arith.addf %w, %e : f64
    memref.store %s, %v[%j] : memref<?xf64>
  }
  return
}

// A subview of the loaded argument is the same buffer, llvm.noalias or
// not.
// CHECK-LABEL: func.func @view_of_it(
// CHECK-NOT: iter_args
// CHECK: return
func.func @view_of_it(%u: memref<16xf64> {llvm.noalias}, %lb: index,
                      %ub: index) {
  %c1 = arith.constant 1 : index
  %tail = memref.subview %u[8] [8] [1]
      : memref<16xf64> to memref<8xf64, strided<[1], offset: 8>>
  scf.for %j = %lb to %ub step %c1 {
    %jp = arith.addi %j, %c1 : index
    %w = memref.load %u[%j] : memref<16xf64>
    %e = memref.load %u[%jp] : memref<16xf64>
    %s = arith.addf %w, %e : f64
    memref.store %s, %tail[%j] : memref<8xf64, strided<[1], offset: 8>>
  }
  return
}

func.func private @opaque(memref<?xf64>)

// A call to a function without a body may write anything it is given.
// CHECK-LABEL: func.func @calls(
// CHECK-NOT: iter_args
// CHECK: return
func.func @calls(%u: memref<?xf64> {llvm.noalias}, %lb: index, %ub: index) {
  %c1 = arith.constant 1 : index
  scf.for %j = %lb to %ub step %c1 {
    %jp = arith.addi %j, %c1 : index
    %w = memref.load %u[%j] : memref<?xf64>
    %e = memref.load %u[%jp] : memref<?xf64>
    func.call @opaque(%u) : (memref<?xf64>) -> ()
  }
  return
}

// The load at j + 1 is under an scf.if: a later iteration cannot count on
// it.
// CHECK-LABEL: func.func @conditional(
// CHECK-NOT: iter_args
// CHECK: return
func.func @conditional(%u: memref<?xf64> {llvm.noalias},
                       %v: memref<?xf64> {llvm.noalias}, %lb: index,
                       %ub: index, %flag: i1) {
  %c1 = arith.constant 1 : index
  scf.for %j = %lb to %ub step %c1 {
    %jp = arith.addi %j, %c1 : index
    %w = memref.load %u[%j] : memref<?xf64>
    %s = scf.if %flag -> f64 {
      %e = memref.load %u[%jp] : memref<?xf64>
      scf.yield %e : f64
    } else {
      scf.yield %w : f64
    }
    memref.store %s, %v[%j] : memref<?xf64>
  }
  return
}

// -----

// Offsets 0 and 1 with step 2 never meet; 0 and 5 are a window of 5, 0 and
// -2^62 an offset out of range; the two-position index, a dynamic step and
// a memref made in the loop do not qualify either.
// CHECK-LABEL: func.func @not_groups(
// CHECK-NOT: iter_args
// CHECK: return
func.func @not_groups(%u: memref<?x?xf64> {llvm.noalias},
                      %v: memref<?xf64> {llvm.noalias}, %lb: index,
                      %ub: index, %step: index) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c5 = arith.constant 5 : index
  scf.for %j = %lb to %ub step %c2 {
    %jp = arith.addi %j, %c1 : index
    %a = memref.load %v[%j] : memref<?xf64>
    %b = memref.load %v[%jp] : memref<?xf64>
    %s = arith.addf %a, %b : f64
    memref.store %s, %u[%c1, %j] : memref<?x?xf64>
  }
  scf.for %j = %lb to %ub step %c1 {
    %j5 = arith.addi %j, %c5 : index
    %a = memref.load %v[%j] : memref<?xf64>
    %b = memref.load %v[%j5] : memref<?xf64>
    %s = arith.addf %a, %b : f64
    memref.store %s, %u[%c1, %j] : memref<?x?xf64>
  }
  scf.for %j = %lb to %ub step %c1 {
    %jp = arith.addi %j, %c1 : index
    %a = memref.load %u[%j, %j] : memref<?x?xf64>
    %b = memref.load %u[%jp, %jp] : memref<?x?xf64>
    %s = arith.addf %a, %b : f64
    memref.store %s, %v[%j] : memref<?xf64>
  }
  %big = arith.constant 4611686018427387904 : index
  scf.for %j = %lb to %ub step %c1 {
    %jb = arith.subi %j, %big : index
    %a = memref.load %v[%j] : memref<?xf64>
    %b = memref.load %v[%jb] : memref<?xf64>
    %s = arith.addf %a, %b : f64
    memref.store %s, %u[%c1, %j] : memref<?x?xf64>
  }
  scf.for %j = %lb to %ub step %step {
    %jp = arith.addi %j, %c1 : index
    %a = memref.load %v[%j] : memref<?xf64>
    %b = memref.load %v[%jp] : memref<?xf64>
    %s = arith.addf %a, %b : f64
    memref.store %s, %u[%c1, %j] : memref<?x?xf64>
  }
  scf.for %j = %lb to %ub step %c1 {
    %jp = arith.addi %j, %c1 : index
    %fresh = memref.alloca() : memref<8xf64>
    %a = memref.load %fresh[%j] : memref<8xf64>
    %b = memref.load %fresh[%jp] : memref<8xf64>
    %s = arith.addf %a, %b : f64
    memref.store %s, %v[%j] : memref<?xf64>
  }
  return
}

// -----

// A fresh allocation is not the argument it is stored to: carried.
// CHECK-LABEL: func.func @fresh_buffer(
// CHECK: iter_args
func.func @fresh_buffer(%v: memref<?xf64>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %u = memref.alloc(%n) : memref<?xf64>
  scf.for %j = %c0 to %n step %c1 {
    %jp = arith.addi %j, %c1 : index
    %a = memref.load %u[%j] : memref<?xf64>
    %b = memref.load %u[%jp] : memref<?xf64>
    %s = arith.addf %a, %b : f64
    memref.store %s, %v[%j] : memref<?xf64>
  }
  memref.dealloc %u : memref<?xf64>
  return
}

// -----

// Constant bounds with lb < ub: the loop surely runs, so the first window
// is loaded unguarded, at folded indices (lb - 1 and lb).
// CHECK-LABEL: func.func @constant_bounds(
// CHECK-SAME: %[[U:[^:]*]]: memref<?xf64> {llvm.noalias}
// CHECK-NOT: scf.if
// CHECK: %[[I0:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[W0:.*]] = memref.load %[[U]][%[[I0]]]
// CHECK-NEXT: %[[I1:.*]] = arith.constant 1 : index
// CHECK-NEXT: %[[W1:.*]] = memref.load %[[U]][%[[I1]]]
// CHECK-NEXT: scf.for %{{.*}} iter_args(%{{.*}} = %[[W0]], %{{.*}} = %[[W1]]) -> (f64, f64) {
func.func @constant_bounds(%u: memref<?xf64> {llvm.noalias},
                           %v: memref<?xf64> {llvm.noalias}) {
  %c1 = arith.constant 1 : index
  %c22 = arith.constant 22 : index
  scf.for %j = %c1 to %c22 step %c1 {
    %jm = arith.subi %j, %c1 : index
    %jp = arith.addi %j, %c1 : index
    %w = memref.load %u[%jm] : memref<?xf64>
    %e = memref.load %u[%jp] : memref<?xf64>
    %s = arith.addf %w, %e : f64
    memref.store %s, %v[%j] : memref<?xf64>
  }
  return
}

// -----

// Constant bounds that do not show the loop runs stay guarded: lb = ub; an
// unsigned loop from -1 (the largest value) to 3, which would run were it
// signed; a constant lb with a dynamic ub (its indices folded still).
// CHECK-LABEL: func.func @guarded(
// CHECK: arith.cmpi slt, %[[FIVE:.*]], %[[FIVE]] : index
// CHECK-NEXT: scf.if
// CHECK-NEXT: arith.constant 4 : index
// CHECK: arith.cmpi ult, %[[MINUS1:.*]], %[[THREE:.*]] : index
// CHECK-NEXT: scf.if
// CHECK-NEXT: arith.constant -2 : index
// CHECK: arith.cmpi slt, %{{.*}}, %[[N:.*]] : index
// CHECK-NEXT: scf.if
// CHECK-NEXT: arith.constant 1 : index
func.func @guarded(%u: memref<?xf64> {llvm.noalias},
                   %v: memref<?xf64> {llvm.noalias}, %n: index) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %cm1 = arith.constant -1 : index
  scf.for %j = %c5 to %c5 step %c1 {
    %jm = arith.subi %j, %c1 : index
    %w = memref.load %u[%jm] : memref<?xf64>
    %e = memref.load %u[%j] : memref<?xf64>
    %s = arith.addf %w, %e : f64
    memref.store %s, %v[%j] : memref<?xf64>
  }
  scf.for unsigned %j = %cm1 to %c3 step %c1 {
    %jm = arith.subi %j, %c1 : index
    %w = memref.load %u[%jm] : memref<?xf64>
    %e = memref.load %u[%j] : memref<?xf64>
    %s = arith.addf %w, %e : f64
    memref.store %s, %v[%j] : memref<?xf64>
  }
  scf.for %j = %c2 to %n step %c1 {
    %jm = arith.subi %j, %c1 : index
    %w = memref.load %u[%jm] : memref<?xf64>
    %e = memref.load %u[%j] : memref<?xf64>
    %s = arith.addf %w, %e : f64
    memref.store %s, %v[%j] : memref<?xf64>
  }
  return
}
