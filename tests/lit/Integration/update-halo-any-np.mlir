// update_halo on a grid dims_create chooses for the team's size: one source
// runs at np 1-8 (1x1, 2x1, 3x1, 2x2, 5x1, 3x2, 7x1, 4x2). A 13 x 11 array,
// element (i, j) = 100 i + j, is split unevenly over the g0 x g1 grid (the
// first n % g blocks one row or column larger), each block inside a frame
// of width 1 that starts at -1; the sync exchange and an async one must
// fill every frame cell inside the array with its closed-form value and
// leave the others at -1. Each member counts its wrong cells; member 0
// prints the team's total and the grid.
// RUN: %compile %s -o %t
// RUN: %mpirun 1 %t | FileCheck %s --check-prefixes=CHECK,G1
// RUN: %mpirun 2 %t | FileCheck %s --check-prefixes=CHECK,G2
// RUN: %mpirun 3 %t | FileCheck %s --check-prefixes=CHECK,G3
// RUN: %mpirun 4 %t | FileCheck %s --check-prefixes=CHECK,G4
// RUN: %mpirun 5 %t | FileCheck %s --check-prefixes=CHECK,G5
// RUN: %mpirun 6 %t | FileCheck %s --check-prefixes=CHECK,G6
// RUN: %mpirun 7 %t | FileCheck %s --check-prefixes=CHECK,G7
// RUN: %mpirun 8 %t | FileCheck %s --check-prefixes=CHECK,G8
// A grid that does not match the team's size is a run-time error naming it.
// RUN: not %mpirun 3 %t bad 2>&1 | FileCheck %s --check-prefix=BAD
// G1: grid 1 x 1
// G2: grid 2 x 1
// G3: grid 3 x 1
// G4: grid 2 x 2
// G5: grid 5 x 1
// G6: grid 3 x 2
// G7: grid 7 x 1
// G8: grid 4 x 2
// CHECK-NEXT: sync wrong 0
// CHECK-NEXT: async wrong 0
// BAD: distrt: error: update_halo at {{.*}}update-halo-any-np.mlir:{{[0-9]+}}:{{[0-9]+}}: team 0, rank {{[0-9]}}: {{.*}}the grid {{.*}} has 4 processes but the team has 3

module {
  // Size and offset of block b of n split in parts, the first n % parts
  // one larger.
  func.func private @split(%n: index, %parts: index, %b: index)
      -> (index, index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %q = arith.divui %n, %parts : index
    %r = arith.remui %n, %parts : index
    %lt = arith.cmpi ult, %b, %r : index
    %extra = arith.select %lt, %c1, %c0 : index
    %size = arith.addi %q, %extra : index
    %base = arith.muli %b, %q : index
    %m = arith.minui %b, %r : index
    %off = arith.addi %base, %m : index
    return %size, %off : index, index
  }

  // The frame -1, the core (i, j) -> 100 (oi + i - 1) + (oj + j - 1).
  func.func private @fill(%u: memref<?x?xf64>, %oi: index, %oj: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %minus = arith.constant -1.0 : f64
    %si = memref.dim %u, %c0 : memref<?x?xf64>
    %sj = memref.dim %u, %c1 : memref<?x?xf64>
    %ei = arith.subi %si, %c1 : index
    %ej = arith.subi %sj, %c1 : index
    scf.for %i = %c0 to %si step %c1 {
      scf.for %j = %c0 to %sj step %c1 {
        %fi = arith.cmpi eq, %i, %c0 : index
        %li = arith.cmpi eq, %i, %ei : index
        %fj = arith.cmpi eq, %j, %c0 : index
        %lj = arith.cmpi eq, %j, %ej : index
        %a = arith.ori %fi, %li : i1
        %b = arith.ori %fj, %lj : i1
        %frame = arith.ori %a, %b : i1
        %v = scf.if %frame -> f64 {
          scf.yield %minus : f64
        } else {
          %gi = arith.addi %oi, %i : index
          %gj = arith.addi %oj, %j : index
          %x = func.call @value(%gi, %gj) : (index, index) -> f64
          scf.yield %x : f64
        }
        memref.store %v, %u[%i, %j] : memref<?x?xf64>
      }
    }
    return
  }

  // 100 (gi - 1) + (gj - 1) of the global cell at frame coordinates.
  func.func private @value(%gi: index, %gj: index) -> f64 {
    %c1 = arith.constant 1 : index
    %c100 = arith.constant 100 : index
    %i = arith.subi %gi, %c1 : index
    %j = arith.subi %gj, %c1 : index
    %h = arith.muli %i, %c100 : index
    %s = arith.addi %h, %j : index
    %s64 = arith.index_cast %s : index to i64
    %f = arith.sitofp %s64 : i64 to f64
    return %f : f64
  }

  // Cells that differ from what they must hold: inside the array, the
  // closed form; outside it (global row or column -1 or n), -1.
  func.func private @wrong(%u: memref<?x?xf64>, %oi: index, %oj: index,
                           %n0: index, %n1: index) -> i64 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %zero = arith.constant 0 : i64
    %one = arith.constant 1 : i64
    %minus = arith.constant -1.0 : f64
    %si = memref.dim %u, %c0 : memref<?x?xf64>
    %sj = memref.dim %u, %c1 : memref<?x?xf64>
    %endi = arith.addi %n0, %c1 : index
    %endj = arith.addi %n1, %c1 : index
    %count = scf.for %i = %c0 to %si step %c1 iter_args(%ci = %zero) -> i64 {
      %row = scf.for %j = %c0 to %sj step %c1 iter_args(%cj = %ci) -> i64 {
        %gi = arith.addi %oi, %i : index
        %gj = arith.addi %oj, %j : index
        %i0 = arith.cmpi eq, %gi, %c0 : index
        %i1 = arith.cmpi eq, %gi, %endi : index
        %j0 = arith.cmpi eq, %gj, %c0 : index
        %j1 = arith.cmpi eq, %gj, %endj : index
        %oa = arith.ori %i0, %i1 : i1
        %ob = arith.ori %j0, %j1 : i1
        %outside = arith.ori %oa, %ob : i1
        %expected = scf.if %outside -> f64 {
          scf.yield %minus : f64
        } else {
          %x = func.call @value(%gi, %gj) : (index, index) -> f64
          scf.yield %x : f64
        }
        %got = memref.load %u[%i, %j] : memref<?x?xf64>
        %bad = arith.cmpf une, %got, %expected : f64
        %inc = arith.select %bad, %one, %zero : i64
        %next = arith.addi %cj, %inc : i64
        scf.yield %next : i64
      }
      scf.yield %row : i64
    }
    return %count : i64
  }

  func.func private @total(%count: i64) -> i64 {
    %c0 = arith.constant 0 : index
    %buf = memref.alloc() : memref<1xi64>
    memref.store %count, %buf[%c0] : memref<1xi64>
    distruntime.allreduce <sum> %buf team(0) : memref<1xi64>
    %t = memref.load %buf[%c0] : memref<1xi64>
    memref.dealloc %buf : memref<1xi64>
    return %t : i64
  }

  func.func @main(%argc: i32, %argv: !llvm.ptr) -> i32 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %n0 = arith.constant 13 : index
    %n1 = arith.constant 11 : index
    %me = distruntime.team_member team(0)
    %g:2 = distruntime.dims_create team(0) : index, index
    // With an argument, a grid of 4 x 1 whatever the team's size.
    %two = arith.constant 2 : i32
    %bad = arith.cmpi eq, %argc, %two : i32
    %g0 = arith.select %bad, %c4, %g#0 : index
    %g1 = arith.select %bad, %c1, %g#1 : index
    %r0 = arith.divui %me, %g1 : index
    %r1 = arith.remui %me, %g1 : index
    %ni, %oi = func.call @split(%n0, %g0, %r0) : (index, index, index) -> (index, index)
    %nj, %oj = func.call @split(%n1, %g1, %r1) : (index, index, index) -> (index, index)
    %si = arith.addi %ni, %c2 : index
    %sj = arith.addi %nj, %c2 : index
    %u = memref.alloc(%si, %sj) : memref<?x?xf64>
    %is_root = arith.cmpi eq, %me, %c0 : index
    scf.if %is_root {
      vector.print str "grid "
      vector.print %g0 : index punctuation <no_punctuation>
      vector.print str " x "
      vector.print %g1 : index
    }

    func.call @fill(%u, %oi, %oj) : (memref<?x?xf64>, index, index) -> ()
    distruntime.update_halo %u grid [%g0 : index, %g1 : index]
        split_axes [[0], [1]] halo_sizes [1, 1, 1, 1] key(1) : memref<?x?xf64>
    %w0 = func.call @wrong(%u, %oi, %oj, %n0, %n1)
        : (memref<?x?xf64>, index, index, index, index) -> i64
    %t0 = func.call @total(%w0) : (i64) -> i64

    func.call @fill(%u, %oi, %oj) : (memref<?x?xf64>, index, index) -> ()
    %h = distruntime.update_halo %u grid [%g0 : index, %g1 : index]
        split_axes [[0], [1]] halo_sizes [1, 1, 1, 1] key(2) async
        : memref<?x?xf64>
    distruntime.wait %h
    %w1 = func.call @wrong(%u, %oi, %oj, %n0, %n1)
        : (memref<?x?xf64>, index, index, index, index) -> i64
    %t1 = func.call @total(%w1) : (i64) -> i64

    scf.if %is_root {
      vector.print str "sync wrong "
      vector.print %t0 : i64
      vector.print str "async wrong "
      vector.print %t1 : i64
    }
    memref.dealloc %u : memref<?x?xf64>
    %ret = arith.constant 0 : i32
    return %ret : i32
  }
}
