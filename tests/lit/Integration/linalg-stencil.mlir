// A Jacobi stencil written with linalg after a sync update_halo, the form
// distruntime-overlap-halo splits: a global R x C array of f64, u(i, j) =
// (7 i + 3 j) mod 11, split into uneven blocks over a PR x PC grid (rows
// along grid axis 0, columns along axis 1), each block in a frame of 1.
// Each step exchanges the frames, then one linalg.generic computes u'(i, j)
// = (((u(i-1, j) + u(i+1, j)) + u(i, j-1)) + u(i, j+1)) / 4 on the global
// interior from four views of the block (rows through subviews at dynamic
// offsets, columns through indexing maps `j` and `j + 2` of one view); the
// global edge keeps its values. Rank 0 prints the exact checksum sum
// int(u * 2^20), combined with allreduce. The serial reference
// (Inputs/linalg_stencil_ref.py, heat2d's iteration in the same
// floating-point order) prints the same at every grid, with the pass (the
// default pipeline) and without it.
// Arguments: R C steps PR PC; the grid attribute of @step must be PR x PC
// (the variants below are made by sed).
// RUN: %compile %s -o %t
// RUN: python3 %S/Inputs/linalg_stencil_ref.py 37 23 50 > %t.expected
// RUN: %mpirun 4 %t 37 23 50 2 2 > %t.2x2 && diff %t.expected %t.2x2
// RUN: DISTRUNTIME_PIPELINE_OPTIONS="overlap-halo=0 async-collectives=0" %compile %s -o %t.off
// RUN: %mpirun 4 %t.off 37 23 50 2 2 > %t.2x2off && diff %t.expected %t.2x2off
// RUN: sed 's/grid \[2, 2\]/grid [1, 1]/' %s > %t.1x1.mlir
// RUN: %compile %t.1x1.mlir -o %t.1x1
// RUN: %mpirun 1 %t.1x1 37 23 50 1 1 > %t.1x1.out && diff %t.expected %t.1x1.out
// RUN: sed 's/grid \[2, 2\]/grid [2, 1]/' %s > %t.2x1.mlir
// RUN: %compile %t.2x1.mlir -o %t.2x1
// RUN: %mpirun 2 %t.2x1 37 23 50 2 1 > %t.2x1.out && diff %t.expected %t.2x1.out
// RUN: sed 's/grid \[2, 2\]/grid [1, 3]/' %s > %t.1x3.mlir
// RUN: %compile %t.1x3.mlir -o %t.1x3
// RUN: %mpirun 3 %t.1x3 37 23 50 1 3 > %t.1x3.out && diff %t.expected %t.1x3.out
// RUN: DISTRUNTIME_PIPELINE_OPTIONS="overlap-halo=0 async-collectives=0" %compile %t.1x3.mlir -o %t.1x3off
// RUN: %mpirun 3 %t.1x3off 37 23 50 1 3 > %t.1x3off.out && diff %t.expected %t.1x3off.out
// 5 x 4 on 2 x 2: blocks of 3 and 2 rows, 2 columns; some interiors are
// empty at run time.
// RUN: python3 %S/Inputs/linalg_stencil_ref.py 5 4 7 > %t.small
// RUN: %mpirun 4 %t 5 4 7 2 2 > %t.small4 && diff %t.small %t.small4
// The pass splits the step: the exchange becomes async, the interior runs
// before its wait, the four slabs after it.
// RUN: %distruntime-opt %s -distruntime-overlap-halo | FileCheck %s
// With @step inlined, main's time loop swaps u and v through iter_args (two
// allocations: apart in every step) and is split the same way; its output
// is the same.
// RUN: %distruntime-opt %s --inline > %t.inline.mlir
// RUN: %distruntime-opt %t.inline.mlir -distruntime-overlap-halo | FileCheck %s --check-prefix=INLINE
// RUN: %compile %t.inline.mlir -o %t.inline
// RUN: %mpirun 4 %t.inline 37 23 50 2 2 > %t.inline.out && diff %t.expected %t.inline.out
// INLINE-LABEL: func.func @main(
// INLINE: scf.for {{.*}} iter_args(%[[U:.*]] = %{{.*}}, %[[V:.*]] = %{{.*}}) -> (memref<?x?xf64>, memref<?x?xf64>)
// INLINE-NEXT: %[[H:.*]] = distruntime.update_halo %[[U]] {{.*}} async
// INLINE: linalg.generic
// INLINE: distruntime.wait %[[H]]
// INLINE-COUNT-4: linalg.generic
// INLINE: scf.yield %[[V]], %[[U]]

// CHECK-LABEL: func.func @step(
// CHECK: %[[H:.*]] = distruntime.update_halo {{.*}} async
// CHECK: linalg.generic
// CHECK: distruntime.wait %[[H]]
// CHECK-COUNT-4: linalg.generic
// CHECK-NOT: linalg.generic
// CHECK: return

module {
  func.func private @atoi(!llvm.ptr) -> i32

  func.func private @arg(%argv: !llvm.ptr, %k: i32) -> index {
    %p = llvm.getelementptr %argv[%k] : (!llvm.ptr, i32) -> !llvm.ptr, !llvm.ptr
    %s = llvm.load %p : !llvm.ptr -> !llvm.ptr
    %v = func.call @atoi(%s) : (!llvm.ptr) -> i32
    %i = arith.index_cast %v : i32 to index
    return %i : index
  }

  // Size and offset of block b of n split in p parts, the first n % p
  // blocks one larger.
  func.func private @split(%n: index, %p: index, %b: index) -> (index, index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %q = arith.divui %n, %p : index
    %r = arith.remui %n, %p : index
    %lt = arith.cmpi ult, %b, %r : index
    %extra = arith.select %lt, %c1, %c0 : index
    %size = arith.addi %q, %extra : index
    %base = arith.muli %b, %q : index
    %m = arith.minui %b, %r : index
    %off = arith.addi %base, %m : index
    return %size, %off : index, index
  }

  // One step: v's cells [la, la + ra) x [lb, lb + rb) from u's neighbours.
  // Rows come from the views one row up and down; columns from one view
  // starting a column to the left, read at j and j + 2.
  func.func @step(%u: memref<?x?xf64> {llvm.noalias},
                  %v: memref<?x?xf64> {llvm.noalias},
                  %la: index, %ra: index, %lb: index, %rb: index) {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %quarter = arith.constant 0.25 : f64
    distruntime.update_halo %u grid [2, 2] split_axes [[0], [1]] halo_sizes [1, 1, 1, 1] key(1) : memref<?x?xf64>
    %am = arith.subi %la, %c1 : index
    %ap = arith.addi %la, %c1 : index
    %bm = arith.subi %lb, %c1 : index
    %rb2 = arith.addi %rb, %c2 : index
    %up = memref.subview %u[%am, %lb] [%ra, %rb] [1, 1] : memref<?x?xf64> to memref<?x?xf64, strided<[?, 1], offset: ?>>
    %dn = memref.subview %u[%ap, %lb] [%ra, %rb] [1, 1] : memref<?x?xf64> to memref<?x?xf64, strided<[?, 1], offset: ?>>
    %mid = memref.subview %u[%la, %bm] [%ra, %rb2] [1, 1] : memref<?x?xf64> to memref<?x?xf64, strided<[?, 1], offset: ?>>
    %out = memref.subview %v[%la, %lb] [%ra, %rb] [1, 1] : memref<?x?xf64> to memref<?x?xf64, strided<[?, 1], offset: ?>>
    linalg.generic {
        indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>,
                         affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j + 2)>,
                         affine_map<(i, j) -> (i, j)>],
        iterator_types = ["parallel", "parallel"]}
        ins(%up, %dn, %mid, %mid : memref<?x?xf64, strided<[?, 1], offset: ?>>, memref<?x?xf64, strided<[?, 1], offset: ?>>,
                                   memref<?x?xf64, strided<[?, 1], offset: ?>>, memref<?x?xf64, strided<[?, 1], offset: ?>>)
        outs(%out : memref<?x?xf64, strided<[?, 1], offset: ?>>) {
    ^bb0(%n: f64, %s: f64, %w: f64, %e: f64, %old: f64):
      %s1 = arith.addf %n, %s : f64
      %s2 = arith.addf %s1, %w : f64
      %s3 = arith.addf %s2, %e : f64
      %new = arith.mulf %s3, %quarter : f64
      linalg.yield %new : f64
    }
    return
  }

  func.func @main(%argc: i32, %argv: !llvm.ptr) -> i32 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c7 = arith.constant 7 : index
    %c11 = arith.constant 11 : index
    %zero = arith.constant 0.0 : f64
    %scale = arith.constant 1048576.0 : f64
    %i0 = arith.constant 0 : i64
    %a1 = arith.constant 1 : i32
    %a2 = arith.constant 2 : i32
    %a3 = arith.constant 3 : i32
    %a4 = arith.constant 4 : i32
    %a5 = arith.constant 5 : i32
    %R = func.call @arg(%argv, %a1) : (!llvm.ptr, i32) -> index
    %C = func.call @arg(%argv, %a2) : (!llvm.ptr, i32) -> index
    %steps = func.call @arg(%argv, %a3) : (!llvm.ptr, i32) -> index
    %PR = func.call @arg(%argv, %a4) : (!llvm.ptr, i32) -> index
    %PC = func.call @arg(%argv, %a5) : (!llvm.ptr, i32) -> index

    %me = distruntime.team_member team(0)
    %pi = arith.divui %me, %PC : index
    %pj = arith.remui %me, %PC : index
    %rows, %oi = func.call @split(%R, %PR, %pi) : (index, index, index) -> (index, index)
    %cols, %oj = func.call @split(%C, %PC, %pj) : (index, index, index) -> (index, index)

    // Local (a, b), 1 <= a <= rows, 1 <= b <= cols, is global
    // (oi + a - 1, oj + b - 1); the rest is the frame, 0 at first.
    %fr = arith.addi %rows, %c2 : index
    %fc = arith.addi %cols, %c2 : index
    %end_a = arith.addi %rows, %c1 : index
    %end_b = arith.addi %cols, %c1 : index
    %u0 = memref.alloc(%fr, %fc) : memref<?x?xf64>
    %v0 = memref.alloc(%fr, %fc) : memref<?x?xf64>
    linalg.fill ins(%zero : f64) outs(%u0 : memref<?x?xf64>)
    scf.for %a = %c1 to %end_a step %c1 {
      scf.for %b = %c1 to %end_b step %c1 {
        %i = arith.addi %oi, %a : index
        %i1 = arith.subi %i, %c1 : index
        %j = arith.addi %oj, %b : index
        %j1 = arith.subi %j, %c1 : index
        %x = arith.muli %i1, %c7 : index
        %y = arith.muli %j1, %c3 : index
        %s = arith.addi %x, %y : index
        %m = arith.remui %s, %c11 : index
        %mi = arith.index_cast %m : index to i64
        %val = arith.sitofp %mi : i64 to f64
        memref.store %val, %u0[%a, %b] : memref<?x?xf64>
      }
    }
    // Global edge cells are never written: both blocks start equal.
    memref.copy %u0, %v0 : memref<?x?xf64> to memref<?x?xf64>

    // The updated cells: global 1 <= i < R - 1, 1 <= j < C - 1, i.e.
    // local max(1, 2 - oi) <= a < min(rows + 1, R - oi), the same for
    // columns; no cells when the range is empty.
    %top = arith.cmpi eq, %oi, %c0 : index
    %la = arith.select %top, %c2, %c1 : index
    %r_oi = arith.subi %R, %oi : index
    %hi_a = arith.minsi %end_a, %r_oi : index
    %ra0 = arith.subi %hi_a, %la : index
    %ra = arith.maxsi %ra0, %c0 : index
    %left = arith.cmpi eq, %oj, %c0 : index
    %lb = arith.select %left, %c2, %c1 : index
    %c_oj = arith.subi %C, %oj : index
    %hi_b = arith.minsi %end_b, %c_oj : index
    %rb0 = arith.subi %hi_b, %lb : index
    %rb = arith.maxsi %rb0, %c0 : index

    %fin:2 = scf.for %t = %c0 to %steps step %c1
        iter_args(%u = %u0, %v = %v0) -> (memref<?x?xf64>, memref<?x?xf64>) {
      func.call @step(%u, %v, %la, %ra, %lb, %rb)
          : (memref<?x?xf64>, memref<?x?xf64>, index, index, index, index) -> ()
      scf.yield %v, %u : memref<?x?xf64>, memref<?x?xf64>
    }

    // Exact fixed-point checksum of the cores.
    %local = scf.for %a = %c1 to %end_a step %c1 iter_args(%acc = %i0) -> (i64) {
      %row = scf.for %b = %c1 to %end_b step %c1 iter_args(%racc = %acc) -> (i64) {
        %x = memref.load %fin#0[%a, %b] : memref<?x?xf64>
        %xs = arith.mulf %x, %scale : f64
        %xi = arith.fptosi %xs : f64 to i64
        %sum = arith.addi %racc, %xi : i64
        scf.yield %sum : i64
      }
      scf.yield %row : i64
    }
    %sbuf = memref.alloca() : memref<1xi64>
    memref.store %local, %sbuf[%c0] : memref<1xi64>
    distruntime.allreduce <sum> %sbuf team(0) : memref<1xi64>
    %root = arith.cmpi eq, %me, %c0 : index
    scf.if %root {
      %checksum = memref.load %sbuf[%c0] : memref<1xi64>
      vector.print str "checksum "
      vector.print %checksum : i64
    }
    memref.dealloc %u0 : memref<?x?xf64>
    memref.dealloc %v0 : memref<?x?xf64>
    %ok = arith.constant 0 : i32
    return %ok : i32
  }
}
