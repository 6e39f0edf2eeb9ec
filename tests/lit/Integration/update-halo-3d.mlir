// update_halo on a 3-D tensor (tensor form, async, static frame lo 1 and
// hi 2 in every dimension) over uneven blocks of a global N0 x N1 x N2
// array of i64, f(i, j, k) = 10000 i + 100 j + k. The cases:
//   1: np 1, grid [1, 1], split_axes [[0], [1]]    blocks 1 x 1 x 1
//   2: np 2, grid [2], split_axes [[], [], [0]]    blocks 1 x 1 x 2 (strided faces)
//   3: np 3, grid [3], split_axes [[], [0]]        blocks 1 x 3 x 1
//   4: np 4, grid [2, 2], split_axes [[], [1, 0], []]: dimension 1 in 4 blocks,
//      block index c1 * 2 + c0 for grid coordinates (c0, c1) (axis 1 slowest)
//   5: np 4, grid [2, 1, 2], split_axes [[0], [1], [2]]: blocks 2 x 1 x 2,
//      corners and edges across two split dimensions
// Every block starts as f on its core and -1 on its frame. After the
// exchange each frame cell inside the global array must hold f of its
// global index and every other one still -1 ("errors" counts the cells that
// differ); "frame" counts the filled frame cells, which the serial
// reference Inputs/update_halo_ref.py computes from the decomposition.
// RUN: %compile %s -o %t
// RUN: python3 %S/Inputs/update_halo_ref.py 3d 5 7 6 1 > %t.ref1
// RUN: %mpirun 1 %t 5 7 6 0 > %t.out1
// RUN: FileCheck %s < %t.out1 && grep -v errors %t.out1 > %t.cmp1 && diff %t.ref1 %t.cmp1
// RUN: python3 %S/Inputs/update_halo_ref.py 3d 5 7 6 2 > %t.ref2
// RUN: %mpirun 2 %t 5 7 6 0 > %t.out2
// RUN: FileCheck %s < %t.out2 && grep -v errors %t.out2 > %t.cmp2 && diff %t.ref2 %t.cmp2
// RUN: python3 %S/Inputs/update_halo_ref.py 3d 5 7 6 3 > %t.ref3
// RUN: %mpirun 3 %t 5 7 6 0 > %t.out3
// RUN: FileCheck %s < %t.out3 && grep -v errors %t.out3 > %t.cmp3 && diff %t.ref3 %t.cmp3
// RUN: python3 %S/Inputs/update_halo_ref.py 3d 5 7 6 4 > %t.ref4
// RUN: %mpirun 4 %t 5 7 6 0 > %t.out4
// RUN: FileCheck %s < %t.out4 && grep -v errors %t.out4 > %t.cmp4 && diff %t.ref4 %t.cmp4
// Dimension 1 of 5 in blocks 2, 1, 1, 1: a hi frame of 2 spans two blocks.
// RUN: python3 %S/Inputs/update_halo_ref.py 3d 5 5 6 4 > %t.ref4b
// RUN: %mpirun 4 %t 5 5 6 0 > %t.out4b
// RUN: FileCheck %s < %t.out4b && grep -v errors %t.out4b > %t.cmp4b && diff %t.ref4b %t.cmp4b
// RUN: python3 %S/Inputs/update_halo_ref.py 3d 5 7 6 5 > %t.ref5
// RUN: %mpirun 4 %t 5 7 6 1 > %t.out5
// RUN: FileCheck %s < %t.out5 && grep -v errors %t.out5 > %t.cmp5 && diff %t.ref5 %t.cmp5

// CHECK: errors 0
// CHECK-NEXT: frame

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

  // f on the core ([1, 1 + n) in every dimension), -1 on the frame; also
  // the value every cell must have after the exchange (`after`).
  func.func @value(%x: index, %n: index, %off: index, %big: index, %gsize: index) -> (index, i1, i1) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %g0 = arith.addi %off, %x : index
    %g = arith.subi %g0, %c1 : index
    %end = arith.addi %n, %c1 : index
    %lo = arith.cmpi uge, %x, %c1 : index
    %hi = arith.cmpi ult, %x, %end : index
    %core = arith.andi %lo, %hi : i1
    %glo = arith.cmpi sge, %g, %c0 : index
    %ghi = arith.cmpi slt, %g, %gsize : index
    %inside = arith.andi %glo, %ghi : i1
    %v = arith.muli %g, %big : index
    return %v, %core, %inside : index, i1, i1
  }

  func.func @main(%argc: i32, %argv: !llvm.ptr) -> i32 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %c5 = arith.constant 5 : index
    %c100 = arith.constant 100 : index
    %c10000 = arith.constant 10000 : index
    %i0 = arith.constant 0 : i64
    %none = arith.constant -1 : i64
    %true = arith.constant true
    %a1 = arith.constant 1 : i32
    %a2 = arith.constant 2 : i32
    %a3 = arith.constant 3 : i32
    %a4 = arith.constant 4 : i32
    %N0 = func.call @arg(%argv, %a1) : (!llvm.ptr, i32) -> index
    %N1 = func.call @arg(%argv, %a2) : (!llvm.ptr, i32) -> index
    %N2 = func.call @arg(%argv, %a3) : (!llvm.ptr, i32) -> index
    %mode = func.call @arg(%argv, %a4) : (!llvm.ptr, i32) -> index

    %P = distruntime.team_size team(0)
    %me = distruntime.team_member team(0)
    %is4 = arith.cmpi eq, %P, %c4 : index
    %m1 = arith.cmpi eq, %mode, %c1 : index
    %is5 = arith.andi %is4, %m1 : i1
    %case = arith.select %is5, %c5, %P : index

    // Blocks along each dimension and this member's block index.
    %meHi = arith.divui %me, %c2 : index
    %meLo = arith.remui %me, %c2 : index
    %geo:6 = scf.index_switch %case -> index, index, index, index, index, index
    case 2 {
      scf.yield %c1, %c0, %c1, %c0, %c2, %me : index, index, index, index, index, index
    }
    case 3 {
      scf.yield %c1, %c0, %c3, %me, %c1, %c0 : index, index, index, index, index, index
    }
    case 4 {
      // Coordinates (c0, c1) = (me / 2, me % 2); block c1 * 2 + c0.
      %b0 = arith.muli %meLo, %c2 : index
      %b = arith.addi %b0, %meHi : index
      scf.yield %c1, %c0, %c4, %b, %c1, %c0 : index, index, index, index, index, index
    }
    case 5 {
      scf.yield %c2, %meHi, %c1, %c0, %c2, %meLo : index, index, index, index, index, index
    }
    default {
      scf.yield %c1, %c0, %c1, %c0, %c1, %c0 : index, index, index, index, index, index
    }
    %n0, %o0 = func.call @split(%N0, %geo#0, %geo#1) : (index, index, index) -> (index, index)
    %n1, %o1 = func.call @split(%N1, %geo#2, %geo#3) : (index, index, index) -> (index, index)
    %n2, %o2 = func.call @split(%N2, %geo#4, %geo#5) : (index, index, index) -> (index, index)
    %s0 = arith.addi %n0, %c3 : index
    %s1 = arith.addi %n1, %c3 : index
    %s2 = arith.addi %n2, %c3 : index

    %block = tensor.generate %s0, %s1, %s2 {
    ^bb0(%x: index, %y: index, %z: index):
      %v0, %k0, %in0 = func.call @value(%x, %n0, %o0, %c10000, %N0) : (index, index, index, index, index) -> (index, i1, i1)
      %v1, %k1, %in1 = func.call @value(%y, %n1, %o1, %c100, %N1) : (index, index, index, index, index) -> (index, i1, i1)
      %v2, %k2, %in2 = func.call @value(%z, %n2, %o2, %c1, %N2) : (index, index, index, index, index) -> (index, i1, i1)
      %v01 = arith.addi %v0, %v1 : index
      %v = arith.addi %v01, %v2 : index
      %vi = arith.index_cast %v : index to i64
      %k01 = arith.andi %k0, %k1 : i1
      %core = arith.andi %k01, %k2 : i1
      %x0 = arith.select %core, %vi, %none : i64
      tensor.yield %x0 : i64
    } : tensor<?x?x?xi64>

    %after = scf.index_switch %case -> tensor<?x?x?xi64>
    case 1 {
      %r, %h = distruntime.update_halo %block grid [1, 1] split_axes [[0], [1]] halo_sizes [1, 2, 1, 2, 1, 2] key(1) async : tensor<?x?x?xi64>
      distruntime.wait %h
      scf.yield %r : tensor<?x?x?xi64>
    }
    case 2 {
      %r, %h = distruntime.update_halo %block grid [2] split_axes [[], [], [0]] halo_sizes [1, 2, 1, 2, 1, 2] key(2) async : tensor<?x?x?xi64>
      distruntime.wait %h
      scf.yield %r : tensor<?x?x?xi64>
    }
    case 3 {
      %r, %h = distruntime.update_halo %block grid [3] split_axes [[], [0]] halo_sizes [1, 2, 1, 2, 1, 2] key(3) async : tensor<?x?x?xi64>
      distruntime.wait %h
      scf.yield %r : tensor<?x?x?xi64>
    }
    case 4 {
      %r, %h = distruntime.update_halo %block grid [2, 2] split_axes [[], [1, 0], []] halo_sizes [1, 2, 1, 2, 1, 2] key(4) async : tensor<?x?x?xi64>
      distruntime.wait %h
      scf.yield %r : tensor<?x?x?xi64>
    }
    case 5 {
      %r, %h = distruntime.update_halo %block grid [2, 1, 2] split_axes [[0], [1], [2]] halo_sizes [1, 2, 1, 2, 1, 2] key(5) async : tensor<?x?x?xi64>
      distruntime.wait %h
      scf.yield %r : tensor<?x?x?xi64>
    }
    default {
      scf.yield %block : tensor<?x?x?xi64>
    }

    // Errors and filled frame cells.
    %counts:2 = scf.for %x = %c0 to %s0 step %c1 iter_args(%ea = %i0, %fa = %i0) -> (i64, i64) {
      %rx:2 = scf.for %y = %c0 to %s1 step %c1 iter_args(%eb = %ea, %fb = %fa) -> (i64, i64) {
        %ry:2 = scf.for %z = %c0 to %s2 step %c1 iter_args(%e = %eb, %f = %fb) -> (i64, i64) {
          %v0, %k0, %in0 = func.call @value(%x, %n0, %o0, %c10000, %N0) : (index, index, index, index, index) -> (index, i1, i1)
          %v1, %k1, %in1 = func.call @value(%y, %n1, %o1, %c100, %N1) : (index, index, index, index, index) -> (index, i1, i1)
          %v2, %k2, %in2 = func.call @value(%z, %n2, %o2, %c1, %N2) : (index, index, index, index, index) -> (index, i1, i1)
          %v01 = arith.addi %v0, %v1 : index
          %v = arith.addi %v01, %v2 : index
          %vi = arith.index_cast %v : index to i64
          %in01 = arith.andi %in0, %in1 : i1
          %inside = arith.andi %in01, %in2 : i1
          %want = arith.select %inside, %vi, %none : i64
          %have = tensor.extract %after[%x, %y, %z] : tensor<?x?x?xi64>
          %bad = arith.cmpi ne, %have, %want : i64
          %bad64 = arith.extui %bad : i1 to i64
          %e2 = arith.addi %e, %bad64 : i64
          %k01 = arith.andi %k0, %k1 : i1
          %core = arith.andi %k01, %k2 : i1
          %frame = arith.xori %core, %true : i1
          %filled = arith.cmpi ne, %have, %none : i64
          %count = arith.andi %frame, %filled : i1
          %count64 = arith.extui %count : i1 to i64
          %f2 = arith.addi %f, %count64 : i64
          scf.yield %e2, %f2 : i64, i64
        }
        scf.yield %ry#0, %ry#1 : i64, i64
      }
      scf.yield %rx#0, %rx#1 : i64, i64
    }

    %totals = memref.alloc() : memref<2xi64>
    memref.store %counts#0, %totals[%c0] : memref<2xi64>
    memref.store %counts#1, %totals[%c1] : memref<2xi64>
    distruntime.allreduce <sum> %totals team(0) : memref<2xi64>
    %root = arith.cmpi eq, %me, %c0 : index
    scf.if %root {
      %te = memref.load %totals[%c0] : memref<2xi64>
      %tf = memref.load %totals[%c1] : memref<2xi64>
      vector.print str "errors "
      vector.print %te : i64
      vector.print str "frame "
      vector.print %tf : i64
    }
    memref.dealloc %totals : memref<2xi64>
    %ok = arith.constant 0 : i32
    return %ok : i32
  }
}
