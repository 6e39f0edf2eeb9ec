// get_halo on awkward distributions, self-checked against the closed form
// a[i][j] = 100 i + j of a global N x 3 array. Every member asks for the whole
// array, so halos span several members; with N < P some members own nothing.
// Each member counts wrong elements and missing/extra halo rows; rank 0
// prints the totals.
// RUN: %compile %s -o %t
// RUN: %mpirun 1 %t 5 | FileCheck %s --check-prefix=N5P1
// RUN: %mpirun 2 %t 5 | FileCheck %s --check-prefix=N5P2
// RUN: %mpirun 3 %t 5 | FileCheck %s --check-prefix=N5P3
// RUN: %mpirun 4 %t 5 | FileCheck %s --check-prefix=N5P4
// RUN: %mpirun 4 %t 2 | FileCheck %s --check-prefix=N2P4
// RUN: %mpirun 3 %t 0 | FileCheck %s --check-prefix=N0P3

// Halo rows received in total: P*N - N (each member gets all rows it does not own).
// N5P1: halo rows 0 errors 0
// N5P2: halo rows 5 errors 0
// N5P3: halo rows 10 errors 0
// N5P4: halo rows 15 errors 0
// N2P4: halo rows 6 errors 0
// N0P3: halo rows 0 errors 0

module {
  func.func private @atoi(!llvm.ptr) -> i32

  func.func @main(%argc: i32, %argv: !llvm.ptr) -> i32 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %c100 = arith.constant 100 : index
    // N from the command line.
    %arg1p = llvm.getelementptr %argv[1] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
    %arg1 = llvm.load %arg1p : !llvm.ptr -> !llvm.ptr
    %n32 = func.call @atoi(%arg1) : (!llvm.ptr) -> i32
    %N = arith.index_cast %n32 : i32 to index

    %P = distruntime.team_size team(0)
    %me = distruntime.team_member team(0)
    // Block distribution, the remainder going to the LAST members, so the
    // empty members come first when N < P.
    %q = arith.divui %N, %P : index
    %rem = arith.remui %N, %P : index
    %first_big = arith.subi %P, %rem : index
    %big = arith.cmpi uge, %me, %first_big : index
    %extra = arith.select %big, %c1, %c0 : index
    %n = arith.addi %q, %extra : index
    %base = arith.muli %q, %me : index
    %over = arith.subi %me, %first_big : index
    %over0 = arith.select %big, %over, %c0 : index
    %off = arith.addi %base, %over0 : index

    %local = memref.alloc(%n) : memref<?x3xi64>
    scf.for %li = %c0 to %n step %c1 {
      scf.for %j = %c0 to %c3 step %c1 {
        %i = arith.addi %off, %li : index
        %v0 = arith.muli %i, %c100 : index
        %v = arith.addi %v0, %j : index
        %vi = arith.index_cast %v : index to i64
        memref.store %vi, %local[%li, %j] : memref<?x3xi64>
      }
    }

    %h, %left, %right = distruntime.get_halo %local gshape [%N, %c3]
        loffsets [%off, %c0] bboffsets [%c0, %c0] bbsizes [%N, %c3] team(0) key(4)
        : memref<?x3xi64> -> memref<?x3xi64>, memref<?x3xi64>
    distruntime.wait %h

    // Check: left holds rows [0, off), right rows [off + n, N).
    %nl = memref.dim %left, %c0 : memref<?x3xi64>
    %nr = memref.dim %right, %c0 : memref<?x3xi64>
    %end = arith.addi %off, %n : index
    %want_r = arith.subi %N, %end : index
    %bad_l = arith.cmpi ne, %nl, %off : index
    %bad_r = arith.cmpi ne, %nr, %want_r : index
    %bad_shape = arith.ori %bad_l, %bad_r : i1
    %shape_err = arith.select %bad_shape, %c1, %c0 : index
    %err_l = scf.for %li = %c0 to %nl step %c1 iter_args(%e = %shape_err) -> (index) {
      %r = scf.for %j = %c0 to %c3 step %c1 iter_args(%e2 = %e) -> (index) {
        %x = memref.load %left[%li, %j] : memref<?x3xi64>
        %v0 = arith.muli %li, %c100 : index
        %v = arith.addi %v0, %j : index
        %vi = arith.index_cast %v : index to i64
        %bad = arith.cmpi ne, %x, %vi : i64
        %inc = arith.select %bad, %c1, %c0 : index
        %e3 = arith.addi %e2, %inc : index
        scf.yield %e3 : index
      }
      scf.yield %r : index
    }
    %err = scf.for %li = %c0 to %nr step %c1 iter_args(%e = %err_l) -> (index) {
      %r = scf.for %j = %c0 to %c3 step %c1 iter_args(%e2 = %e) -> (index) {
        %x = memref.load %right[%li, %j] : memref<?x3xi64>
        %i = arith.addi %end, %li : index
        %v0 = arith.muli %i, %c100 : index
        %v = arith.addi %v0, %j : index
        %vi = arith.index_cast %v : index to i64
        %bad = arith.cmpi ne, %x, %vi : i64
        %inc = arith.select %bad, %c1, %c0 : index
        %e3 = arith.addi %e2, %inc : index
        scf.yield %e3 : index
      }
      scf.yield %r : index
    }

    %totals = memref.alloc() : memref<2xi64>
    %rows = arith.addi %nl, %nr : index
    %rows64 = arith.index_cast %rows : index to i64
    %err64 = arith.index_cast %err : index to i64
    memref.store %rows64, %totals[%c0] : memref<2xi64>
    memref.store %err64, %totals[%c1] : memref<2xi64>
    distruntime.allreduce <sum> %totals team(0) : memref<2xi64>
    %is_root = arith.cmpi eq, %me, %c0 : index
    scf.if %is_root {
      %tr = memref.load %totals[%c0] : memref<2xi64>
      %te = memref.load %totals[%c1] : memref<2xi64>
      vector.print str "halo rows "
      vector.print %tr : i64 punctuation <no_punctuation>
      vector.print str " errors "
      vector.print %te : i64
    }
    %ok = arith.constant 0 : i32
    return %ok : i32
  }
}
