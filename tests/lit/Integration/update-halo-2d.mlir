// update_halo in a 2-D stencil. A global N x M array of i64, f(i, j) =
// 1000 i + j, is split into uneven blocks over a process grid chosen by the
// team size (1: 1x1, 2: 2x1, 3: 1x3, 4: 2x2), rows along grid axis 0 and
// columns along axis 1. Each block carries a frame of width W (dynamic), set
// to -1. After the first exchange every frame cell inside the global array,
// corners included, must hold f of its global index and every other one
// still -1: the program counts the cells that differ ("errors") and the
// filled ones ("frame"). It then iterates ITERS steps of a 9-point stencil
// u'(i, j) = (sum of u over the 3x3 neighbourhood) mod 1000003 on the
// interior of the global array (the edges keep f), exchanging before each
// step, and prints the checksum sum u(i, j) (i M + j + 1). The serial
// reference Inputs/update_halo_ref.py computes frame and checksum
// independently of any decomposition.
// RUN: %compile %s -o %t
// RUN: python3 %S/Inputs/update_halo_ref.py 2d 13 11 1 5 1 > %t.ref1
// RUN: %mpirun 1 %t 13 11 1 5 > %t.out1
// RUN: FileCheck %s < %t.out1 && grep -v errors %t.out1 > %t.cmp1 && diff %t.ref1 %t.cmp1
// RUN: python3 %S/Inputs/update_halo_ref.py 2d 13 11 1 5 2 > %t.ref2
// RUN: %mpirun 2 %t 13 11 1 5 > %t.out2
// RUN: FileCheck %s < %t.out2 && grep -v errors %t.out2 > %t.cmp2 && diff %t.ref2 %t.cmp2
// RUN: python3 %S/Inputs/update_halo_ref.py 2d 13 11 1 5 3 > %t.ref3
// RUN: %mpirun 3 %t 13 11 1 5 > %t.out3
// RUN: FileCheck %s < %t.out3 && grep -v errors %t.out3 > %t.cmp3 && diff %t.ref3 %t.cmp3
// RUN: python3 %S/Inputs/update_halo_ref.py 2d 13 11 1 5 4 > %t.ref4
// RUN: %mpirun 4 %t 13 11 1 5 > %t.out4
// RUN: FileCheck %s < %t.out4 && grep -v errors %t.out4 > %t.cmp4 && diff %t.ref4 %t.cmp4
// A frame of 2, wider than the 3x3 stencil needs.
// RUN: python3 %S/Inputs/update_halo_ref.py 2d 13 11 2 3 4 > %t.ref4w2
// RUN: %mpirun 4 %t 13 11 2 3 > %t.out4w2
// RUN: FileCheck %s < %t.out4w2 && grep -v errors %t.out4w2 > %t.cmp4w2 && diff %t.ref4w2 %t.cmp4w2
// 3 rows split 2 + 1: a frame of 2 reaches past the one-row neighbour.
// RUN: python3 %S/Inputs/update_halo_ref.py 2d 3 5 2 2 4 > %t.ref4n3
// RUN: %mpirun 4 %t 3 5 2 2 > %t.out4n3
// RUN: FileCheck %s < %t.out4n3 && grep -v errors %t.out4n3 > %t.cmp4n3 && diff %t.ref4n3 %t.cmp4n3

// CHECK: errors 0
// CHECK-NEXT: frame
// CHECK-NEXT: checksum

module {
  func.func private @atoi(!llvm.ptr) -> i32

  func.func @arg(%argv: !llvm.ptr, %k: i32) -> index {
    %p = llvm.getelementptr %argv[%k] : (!llvm.ptr, i32) -> !llvm.ptr, !llvm.ptr
    %s = llvm.load %p : !llvm.ptr -> !llvm.ptr
    %v = func.call @atoi(%s) : (!llvm.ptr) -> i32
    %i = arith.index_cast %v : i32 to index
    return %i : index
  }

  // Size and offset of block b of n split in p parts, the first n % p
  // blocks one larger.
  func.func @split(%n: index, %p: index, %b: index) -> (index, index) {
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

  // The exchange on the grid of a team of p members.
  func.func @exchange(%u: memref<?x?xi64>, %p: index, %w: index) {
    scf.index_switch %p
    case 1 {
      distruntime.update_halo %u grid [1, 1] split_axes [[0], [1]] halo_sizes [%w : index, %w : index, %w : index, %w : index] key(1) : memref<?x?xi64>
      scf.yield
    }
    case 2 {
      distruntime.update_halo %u grid [2, 1] split_axes [[0], [1]] halo_sizes [%w : index, %w : index, %w : index, %w : index] key(2) : memref<?x?xi64>
      scf.yield
    }
    case 3 {
      distruntime.update_halo %u grid [1, 3] split_axes [[0], [1]] halo_sizes [%w : index, %w : index, %w : index, %w : index] key(3) : memref<?x?xi64>
      scf.yield
    }
    case 4 {
      distruntime.update_halo %u grid [2, 2] split_axes [[0], [1]] halo_sizes [%w : index, %w : index, %w : index, %w : index] key(4) : memref<?x?xi64>
      scf.yield
    }
    default {
    }
    return
  }

  func.func @main(%argc: i32, %argv: !llvm.ptr) -> i32 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %c1000 = arith.constant 1000 : index
    %i0 = arith.constant 0 : i64
    %i1 = arith.constant 1 : i64
    %none = arith.constant -1 : i64
    %true = arith.constant true
    %mod = arith.constant 1000003 : i64
    %a1 = arith.constant 1 : i32
    %a2 = arith.constant 2 : i32
    %a3 = arith.constant 3 : i32
    %a4 = arith.constant 4 : i32
    %N = func.call @arg(%argv, %a1) : (!llvm.ptr, i32) -> index
    %M = func.call @arg(%argv, %a2) : (!llvm.ptr, i32) -> index
    %W = func.call @arg(%argv, %a3) : (!llvm.ptr, i32) -> index
    %iters = func.call @arg(%argv, %a4) : (!llvm.ptr, i32) -> index

    %P = distruntime.team_size team(0)
    %me = distruntime.team_member team(0)
    // Grid g0 x g1: 4 -> 2x2, 3 -> 1x3, else P x 1.
    %is4 = arith.cmpi eq, %P, %c4 : index
    %is3 = arith.cmpi eq, %P, %c3 : index
    %g1a = arith.select %is3, %c3, %c1 : index
    %g1 = arith.select %is4, %c2, %g1a : index
    %g0 = arith.divui %P, %g1 : index
    %r0 = arith.divui %me, %g1 : index
    %r1 = arith.remui %me, %g1 : index
    %ni, %oi = func.call @split(%N, %g0, %r0) : (index, index, index) -> (index, index)
    %nj, %oj = func.call @split(%M, %g1, %r1) : (index, index, index) -> (index, index)
    %w2 = arith.muli %W, %c2 : index
    %si = arith.addi %ni, %w2 : index
    %sj = arith.addi %nj, %w2 : index
    %endi = arith.addi %W, %ni : index
    %endj = arith.addi %W, %nj : index
    // Global index of local (a, b) is (oi + a - W, oj + b - W).
    %bi = arith.subi %oi, %W : index
    %bj = arith.subi %oj, %W : index

    // Core: f; frame: -1.
    %u0 = memref.alloc(%si, %sj) : memref<?x?xi64>
    %v0 = memref.alloc(%si, %sj) : memref<?x?xi64>
    scf.for %a = %c0 to %si step %c1 {
      scf.for %b = %c0 to %sj step %c1 {
        %gi = arith.addi %bi, %a : index
        %gj = arith.addi %bj, %b : index
        %fi = arith.muli %gi, %c1000 : index
        %f = arith.addi %fi, %gj : index
        %f64 = arith.index_cast %f : index to i64
        %ina0 = arith.cmpi uge, %a, %W : index
        %ina1 = arith.cmpi ult, %a, %endi : index
        %inb0 = arith.cmpi uge, %b, %W : index
        %inb1 = arith.cmpi ult, %b, %endj : index
        %in0 = arith.andi %ina0, %ina1 : i1
        %in1 = arith.andi %inb0, %inb1 : i1
        %core = arith.andi %in0, %in1 : i1
        %x = arith.select %core, %f64, %none : i64
        memref.store %x, %u0[%a, %b] : memref<?x?xi64>
        memref.store %x, %v0[%a, %b] : memref<?x?xi64>
      }
    }

    // The first exchange against the closed form.
    func.call @exchange(%u0, %P, %W) : (memref<?x?xi64>, index, index) -> ()
    %Ni = arith.index_cast %N : index to i64
    %counts:2 = scf.for %a = %c0 to %si step %c1 iter_args(%e0 = %i0, %k0 = %i0) -> (i64, i64) {
      %r:2 = scf.for %b = %c0 to %sj step %c1 iter_args(%e = %e0, %k = %k0) -> (i64, i64) {
        %gi = arith.addi %bi, %a : index
        %gj = arith.addi %bj, %b : index
        %fi = arith.muli %gi, %c1000 : index
        %f = arith.addi %fi, %gj : index
        %f64 = arith.index_cast %f : index to i64
        // Signed compares: the frame's global indices may be negative.
        %gi0 = arith.cmpi sge, %gi, %c0 : index
        %gi1 = arith.cmpi slt, %gi, %N : index
        %gj0 = arith.cmpi sge, %gj, %c0 : index
        %gj1 = arith.cmpi slt, %gj, %M : index
        %g0ok = arith.andi %gi0, %gi1 : i1
        %g1ok = arith.andi %gj0, %gj1 : i1
        %inside = arith.andi %g0ok, %g1ok : i1
        %want = arith.select %inside, %f64, %none : i64
        %x = memref.load %u0[%a, %b] : memref<?x?xi64>
        %bad = arith.cmpi ne, %x, %want : i64
        %bad64 = arith.extui %bad : i1 to i64
        %e2 = arith.addi %e, %bad64 : i64
        // Filled frame cells: inside the array, outside the core.
        %ina0 = arith.cmpi uge, %a, %W : index
        %ina1 = arith.cmpi ult, %a, %endi : index
        %inb0 = arith.cmpi uge, %b, %W : index
        %inb1 = arith.cmpi ult, %b, %endj : index
        %in0 = arith.andi %ina0, %ina1 : i1
        %in1 = arith.andi %inb0, %inb1 : i1
        %core = arith.andi %in0, %in1 : i1
        %filled = arith.cmpi ne, %x, %none : i64
        %notcore = arith.xori %core, %true : i1
        %frame = arith.andi %filled, %notcore : i1
        %frame64 = arith.extui %frame : i1 to i64
        %k2 = arith.addi %k, %frame64 : i64
        scf.yield %e2, %k2 : i64, i64
      }
      scf.yield %r#0, %r#1 : i64, i64
    }

    // Stencil steps on the global interior, [1, N - 1) x [1, M - 1).
    %N1 = arith.subi %N, %c1 : index
    %M1 = arith.subi %M, %c1 : index
    %fin:2 = scf.for %it = %c0 to %iters step %c1 iter_args(%u = %u0, %v = %v0) -> (memref<?x?xi64>, memref<?x?xi64>) {
      func.call @exchange(%u, %P, %W) : (memref<?x?xi64>, index, index) -> ()
      scf.for %a = %W to %endi step %c1 {
        scf.for %b = %W to %endj step %c1 {
          %gi = arith.addi %bi, %a : index
          %gj = arith.addi %bj, %b : index
          %ii0 = arith.cmpi sge, %gi, %c1 : index
          %ii1 = arith.cmpi slt, %gi, %N1 : index
          %ij0 = arith.cmpi sge, %gj, %c1 : index
          %ij1 = arith.cmpi slt, %gj, %M1 : index
          %i0ok = arith.andi %ii0, %ii1 : i1
          %i1ok = arith.andi %ij0, %ij1 : i1
          %interior = arith.andi %i0ok, %i1ok : i1
          %new = scf.if %interior -> (i64) {
            %am = arith.subi %a, %c1 : index
            %bm = arith.subi %b, %c1 : index
            %s = scf.for %da = %c0 to %c3 step %c1 iter_args(%s0 = %i0) -> (i64) {
              %s1 = scf.for %db = %c0 to %c3 step %c1 iter_args(%s2 = %s0) -> (i64) {
                %x = arith.addi %am, %da : index
                %y = arith.addi %bm, %db : index
                %val = memref.load %u[%x, %y] : memref<?x?xi64>
                %s3 = arith.addi %s2, %val : i64
                scf.yield %s3 : i64
              }
              scf.yield %s1 : i64
            }
            %m = arith.remsi %s, %mod : i64
            scf.yield %m : i64
          } else {
            %old = memref.load %u[%a, %b] : memref<?x?xi64>
            scf.yield %old : i64
          }
          memref.store %new, %v[%a, %b] : memref<?x?xi64>
        }
      }
      scf.yield %v, %u : memref<?x?xi64>, memref<?x?xi64>
    }

    // Checksum over the cores.
    %Mi = arith.index_cast %M : index to i64
    %sum = scf.for %a = %W to %endi step %c1 iter_args(%s0 = %i0) -> (i64) {
      %s1 = scf.for %b = %W to %endj step %c1 iter_args(%s = %s0) -> (i64) {
        %gi = arith.addi %bi, %a : index
        %gj = arith.addi %bj, %b : index
        %lin = arith.muli %gi, %M : index
        %lin1 = arith.addi %lin, %gj : index
        %wgt = arith.addi %lin1, %c1 : index
        %wgt64 = arith.index_cast %wgt : index to i64
        %x = memref.load %fin#0[%a, %b] : memref<?x?xi64>
        %xw = arith.muli %x, %wgt64 : i64
        %s2 = arith.addi %s, %xw : i64
        scf.yield %s2 : i64
      }
      scf.yield %s1 : i64
    }

    %totals = memref.alloc() : memref<3xi64>
    memref.store %counts#0, %totals[%c0] : memref<3xi64>
    memref.store %counts#1, %totals[%c1] : memref<3xi64>
    memref.store %sum, %totals[%c2] : memref<3xi64>
    distruntime.allreduce <sum> %totals team(0) : memref<3xi64>
    %root = arith.cmpi eq, %me, %c0 : index
    scf.if %root {
      %te = memref.load %totals[%c0] : memref<3xi64>
      %tk = memref.load %totals[%c1] : memref<3xi64>
      %ts = memref.load %totals[%c2] : memref<3xi64>
      vector.print str "errors "
      vector.print %te : i64
      vector.print str "frame "
      vector.print %tk : i64
      vector.print str "checksum "
      vector.print %ts : i64
    }
    memref.dealloc %u0 : memref<?x?xi64>
    memref.dealloc %v0 : memref<?x?xi64>
    memref.dealloc %totals : memref<3xi64>
    %ok = arith.constant 0 : i32
    return %ok : i32
  }
}
