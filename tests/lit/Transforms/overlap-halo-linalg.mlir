// distruntime-overlap-halo on linalg stencils after update_halo: the first
// linalg op after the exchange that reads the block is cut into an interior
// box, whose iterations read only the block's core, placed before the
// exchange's wait (a sync update_halo becomes async), and the slabs around
// it after the wait. Negative cases: an op that reads its output, writes the
// block, reads a fixed halo row, may alias, reduces, follows another reader
// of the block, reads through a strided view, or has an empty interior.
// RUN: %distruntime-opt %s -split-input-file -distruntime-overlap-halo | FileCheck %s
// With distruntime-async-collectives after it, the result passes
// distruntime-verify-spmd (the interior reads subviews of the core only).
// RUN: %distruntime-opt %s -split-input-file -distruntime-overlap-halo -distruntime-async-collectives -distruntime-verify-spmd -o /dev/null
// The remarks say which ops were split and why the others were not.
// RUN: %distruntime-opt %s -split-input-file -distruntime-overlap-halo --remarks-filter='distruntime.*' -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// REMARK: [Passed] Overlapped | {{.*}}Function=five_point | Remark="the interior of the linalg.generic at {{.*}} runs while the exchange is in flight, its boundary slabs after"
// REMARK: [Missed] NotOverlapped | {{.*}}Function=reads_output | Reason="an output may alias the block, an input or an output"
// REMARK: [Missed] NotOverlapped | {{.*}}Function=fixed_halo_row | Reason="a read of the block is not a shifted view"
// REMARK: [Missed] NotOverlapped | {{.*}}Function=reduction | Reason="the linalg op's elements may depend on each other"
// REMARK: [Missed] NotOverlapped | {{.*}}Function=load_between | Reason="the first op touching the block is no linalg op"

// A 5-point stencil on a 10x10 block with a frame of 1 on a 2x2 grid: the
// 8x8 core of v from the views of u shifted by one row or column. The
// north view starts at row 0 (the frame): its iteration i reads u's row i,
// in the core for 1 <= i < 9; the south view starts at row 2: core for
// -1 <= i < 7; likewise for columns. So the interior is [1, 7) x [1, 7),
// and the slabs are rows 0 and 7 (all columns), then columns 0 and 7 of
// rows 1..6.
// CHECK-LABEL: func.func @five_point(
// CHECK-SAME: %[[U:[^:]*]]: memref<10x10xf64> {llvm.noalias}, %[[V:[^:]*]]: memref<10x10xf64> {llvm.noalias}
// CHECK: %[[H:.*]] = distruntime.update_halo %[[U]] grid [2, 2] split_axes {{\[}}[0], [1]] halo_sizes [1, 1, 1, 1] async : memref<10x10xf64>
// CHECK-NOT: distruntime.wait
// CHECK-DAG: %[[N:.*]] = memref.subview %[[U]][0, 1] [8, 8] [1, 1]
// CHECK-DAG: %[[S:.*]] = memref.subview %[[U]][2, 1] [8, 8] [1, 1]
// CHECK-DAG: %[[O:.*]] = memref.subview %[[V]][1, 1] [8, 8] [1, 1]
// The interior: every operand restricted to [1, 7) x [1, 7).
// CHECK: %[[IN:.*]] = memref.subview %[[N]][1, 1] [6, 6] [1, 1]
// CHECK: %[[IS:.*]] = memref.subview %[[S]][1, 1] [6, 6] [1, 1]
// CHECK: %[[IO:.*]] = memref.subview %[[O]][1, 1] [6, 6] [1, 1]
// CHECK: linalg.generic {{.*}} ins(%[[IN]], %[[IS]], {{.*}}) outs(%[[IO]] :
// CHECK: distruntime.wait %[[H]]
// Row 0, row 7, then columns 0 and 7 of rows 1..6.
// CHECK: memref.subview %[[O]][0, 0] [1, 8] [1, 1]
// CHECK: linalg.generic
// CHECK: memref.subview %[[O]][7, 0] [1, 8] [1, 1]
// CHECK: linalg.generic
// CHECK: memref.subview %[[O]][1, 0] [6, 1] [1, 1]
// CHECK: linalg.generic
// CHECK: memref.subview %[[O]][1, 7] [6, 1] [1, 1]
// CHECK: linalg.generic
// CHECK-NOT: linalg.generic
// CHECK: return
func.func @five_point(%u: memref<10x10xf64> {llvm.noalias}, %v: memref<10x10xf64> {llvm.noalias}) {
  distruntime.update_halo %u grid [2, 2] split_axes [[0], [1]] halo_sizes [1, 1, 1, 1] : memref<10x10xf64>
  %n = memref.subview %u[0, 1] [8, 8] [1, 1] : memref<10x10xf64> to memref<8x8xf64, strided<[10, 1], offset: 1>>
  %s = memref.subview %u[2, 1] [8, 8] [1, 1] : memref<10x10xf64> to memref<8x8xf64, strided<[10, 1], offset: 21>>
  %w = memref.subview %u[1, 0] [8, 8] [1, 1] : memref<10x10xf64> to memref<8x8xf64, strided<[10, 1], offset: 10>>
  %e = memref.subview %u[1, 2] [8, 8] [1, 1] : memref<10x10xf64> to memref<8x8xf64, strided<[10, 1], offset: 12>>
  %o = memref.subview %v[1, 1] [8, 8] [1, 1] : memref<10x10xf64> to memref<8x8xf64, strided<[10, 1], offset: 11>>
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%n, %s, %w, %e : memref<8x8xf64, strided<[10, 1], offset: 1>>, memref<8x8xf64, strided<[10, 1], offset: 21>>, memref<8x8xf64, strided<[10, 1], offset: 10>>, memref<8x8xf64, strided<[10, 1], offset: 12>>)
      outs(%o : memref<8x8xf64, strided<[10, 1], offset: 11>>) {
  ^bb0(%a: f64, %b: f64, %c: f64, %d: f64, %out: f64):
    %ab = arith.addf %a, %b : f64
    %cd = arith.addf %c, %d : f64
    %r = arith.addf %ab, %cd : f64
    linalg.yield %r : f64
  }
  return
}

// -----

// Rows split only (halo [1, 1, 0, 0]), the exchange written async, the
// shifts down in the indexing maps of the whole block (linalg wants a view
// of the loops' extent for the unshifted read, the view of rows 0..7). Row
// i of the output reads u's rows i, i + 1 and i + 2: in the core [1, 9)
// for 1 <= i < 7. Columns are not exchanged: the interior has all 8, and
// only rows 0 and 7 are slabs. Each read of u starts at the box's first
// row; its extent is the box's rows plus the shift.
// CHECK-LABEL: func.func @shifted_maps(
// CHECK-SAME: %[[U:[^:]*]]: memref<10x8xf64> {llvm.noalias}, %[[V:[^:]*]]: memref<8x8xf64> {llvm.noalias}
// CHECK: %[[H:.*]] = distruntime.update_halo %[[U]] {{.*}} async
// CHECK-NEXT: %[[N:.*]] = memref.subview %[[U]][0, 0] [8, 8] [1, 1]
// CHECK-NEXT: memref.subview %[[N]][1, 0] [6, 8] [1, 1]
// CHECK-NEXT: memref.subview %[[U]][1, 0] [7, 8] [1, 1]
// CHECK-NEXT: memref.subview %[[U]][1, 0] [8, 8] [1, 1]
// CHECK-NEXT: memref.subview %[[V]][1, 0] [6, 8] [1, 1]
// CHECK-NEXT: linalg.generic
// CHECK: distruntime.wait %[[H]]
// CHECK-NEXT: memref.subview %[[N]][0, 0] [1, 8] [1, 1]
// CHECK-NEXT: memref.subview %[[U]][0, 0] [2, 8] [1, 1]
// CHECK-NEXT: memref.subview %[[U]][0, 0] [3, 8] [1, 1]
// CHECK-NEXT: memref.subview %[[V]][0, 0] [1, 8] [1, 1]
// CHECK-NEXT: linalg.generic
// CHECK: memref.subview %[[N]][7, 0] [1, 8] [1, 1]
// CHECK-NEXT: memref.subview %[[U]][7, 0] [2, 8] [1, 1]
// CHECK-NEXT: memref.subview %[[U]][7, 0] [3, 8] [1, 1]
// CHECK-NEXT: memref.subview %[[V]][7, 0] [1, 8] [1, 1]
// CHECK-NEXT: linalg.generic
// CHECK-NOT: linalg.generic
// CHECK: return
func.func @shifted_maps(%u: memref<10x8xf64> {llvm.noalias}, %v: memref<8x8xf64> {llvm.noalias}) {
  %h = distruntime.update_halo %u grid [2] split_axes [[0]] halo_sizes [1, 1, 0, 0] async : memref<10x8xf64>
  distruntime.wait %h
  %n = memref.subview %u[0, 0] [8, 8] [1, 1] : memref<10x8xf64> to memref<8x8xf64, strided<[8, 1]>>
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i + 1, j)>, affine_map<(i, j) -> (i + 2, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%n, %u, %u : memref<8x8xf64, strided<[8, 1]>>, memref<10x8xf64>, memref<10x8xf64>)
      outs(%v : memref<8x8xf64>) {
  ^bb0(%a: f64, %b: f64, %c: f64, %out: f64):
    %ab = arith.addf %a, %b : f64
    %r = arith.subf %ab, %c : f64
    linalg.yield %r : f64
  }
  return
}

// -----

// Dynamic shapes and halo width: the interior's bounds are computed at run
// time (affine.max/min), before the interior; linalg.index counts from the
// box's start (its row offset is added).
// CHECK-LABEL: func.func @dynamic(
// CHECK: %[[H:.*]] = distruntime.update_halo {{.*}} async
// CHECK: affine.max
// CHECK: affine.min
// CHECK: linalg.generic
// CHECK: linalg.index 0
// CHECK-NEXT: affine.apply
// CHECK: distruntime.wait %[[H]]
// CHECK-COUNT-4: linalg.generic
// CHECK-NOT: linalg.generic
// CHECK: return
func.func @dynamic(%u: memref<?x?xf64> {llvm.noalias}, %v: memref<?x?xf64> {llvm.noalias}, %w: i64, %r: index, %c: index) {
  %c1 = arith.constant 1 : index
  distruntime.update_halo %u grid [2, 2] split_axes [[0], [1]] halo_sizes [%w : i64, %w : i64, %w : i64, %w : i64] : memref<?x?xf64>
  %n = memref.subview %u[0, 1] [%r, %c] [1, 1] : memref<?x?xf64> to memref<?x?xf64, strided<[?, 1], offset: 1>>
  %s = memref.subview %u[2, 1] [%r, %c] [1, 1] : memref<?x?xf64> to memref<?x?xf64, strided<[?, 1], offset: ?>>
  %o = memref.subview %v[1, 1] [%r, %c] [1, 1] : memref<?x?xf64> to memref<?x?xf64, strided<[?, 1], offset: ?>>
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%n, %s : memref<?x?xf64, strided<[?, 1], offset: 1>>, memref<?x?xf64, strided<[?, 1], offset: ?>>)
      outs(%o : memref<?x?xf64, strided<[?, 1], offset: ?>>) {
  ^bb0(%a: f64, %b: f64, %out: f64):
    %i = linalg.index 0 : index
    %ii = arith.index_cast %i : index to i64
    %fi = arith.sitofp %ii : i64 to f64
    %ab = arith.addf %a, %b : f64
    %x = arith.addf %ab, %fi : f64
    linalg.yield %x : f64
  }
  return
}

// -----

// Negative: the op reads its output (a shifted view of v, written by the
// other rows): the order of the iterations matters.
// CHECK-LABEL: func.func @reads_output(
// CHECK: distruntime.update_halo {{.*}}halo_sizes [1, 1, 0, 0]{{ +}}: memref
// CHECK-NOT: distruntime.wait
// CHECK: linalg.generic
// CHECK-NOT: linalg.generic
// CHECK: return
func.func @reads_output(%u: memref<10x8xf64> {llvm.noalias}, %v: memref<10x8xf64> {llvm.noalias}) {
  distruntime.update_halo %u grid [2] split_axes [[0]] halo_sizes [1, 1, 0, 0] : memref<10x8xf64>
  %n = memref.subview %u[0, 0] [8, 8] [1, 1] : memref<10x8xf64> to memref<8x8xf64, strided<[8, 1]>>
  %vp = memref.subview %v[0, 0] [8, 8] [1, 1] : memref<10x8xf64> to memref<8x8xf64, strided<[8, 1]>>
  %o = memref.subview %v[1, 0] [8, 8] [1, 1] : memref<10x8xf64> to memref<8x8xf64, strided<[8, 1], offset: 8>>
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%n, %vp : memref<8x8xf64, strided<[8, 1]>>, memref<8x8xf64, strided<[8, 1]>>)
      outs(%o : memref<8x8xf64, strided<[8, 1], offset: 8>>) {
  ^bb0(%a: f64, %b: f64, %out: f64):
    %r = arith.addf %a, %b : f64
    linalg.yield %r : f64
  }
  return
}

// -----

// Negative: the op writes the block (the exchange reads its core while the
// interior would run).
// CHECK-LABEL: func.func @writes_block(
// CHECK: distruntime.update_halo {{.*}}halo_sizes [1, 1, 0, 0]{{ +}}: memref
// CHECK-NOT: distruntime.wait
// CHECK: linalg.generic
// CHECK-NOT: linalg.generic
// CHECK: return
func.func @writes_block(%u: memref<10x8xf64> {llvm.noalias}, %v: memref<8x8xf64> {llvm.noalias}) {
  distruntime.update_halo %u grid [2] split_axes [[0]] halo_sizes [1, 1, 0, 0] : memref<10x8xf64>
  %o = memref.subview %u[1, 0] [8, 8] [1, 1] : memref<10x8xf64> to memref<8x8xf64, strided<[8, 1], offset: 8>>
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%v : memref<8x8xf64>) outs(%o : memref<8x8xf64, strided<[8, 1], offset: 8>>) {
  ^bb0(%a: f64, %out: f64):
    linalg.yield %a : f64
  }
  return
}

// -----

// Negative: every iteration reads row 0 of u, a halo row: no interior
// excludes it.
// CHECK-LABEL: func.func @fixed_halo_row(
// CHECK: distruntime.update_halo {{.*}}halo_sizes [1, 1, 0, 0]{{ +}}: memref
// CHECK-NOT: distruntime.wait
// CHECK: linalg.generic
// CHECK-NOT: linalg.generic
// CHECK: return
func.func @fixed_halo_row(%u: memref<10x8xf64> {llvm.noalias}, %v: memref<8x8xf64> {llvm.noalias}) {
  distruntime.update_halo %u grid [2] split_axes [[0]] halo_sizes [1, 1, 0, 0] : memref<10x8xf64>
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (0, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%u : memref<10x8xf64>) outs(%v : memref<8x8xf64>) {
  ^bb0(%a: f64, %out: f64):
    linalg.yield %a : f64
  }
  return
}

// -----

// Negative: without llvm.noalias, v may be u: the output may alias the
// block.
// CHECK-LABEL: func.func @may_alias(
// CHECK: distruntime.update_halo {{.*}}halo_sizes [1, 1, 0, 0]{{ +}}: memref
// CHECK-NOT: distruntime.wait
// CHECK: linalg.generic
// CHECK-NOT: linalg.generic
// CHECK: return
func.func @may_alias(%u: memref<10x8xf64>, %v: memref<8x8xf64>) {
  distruntime.update_halo %u grid [2] split_axes [[0]] halo_sizes [1, 1, 0, 0] : memref<10x8xf64>
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i + 1, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%u : memref<10x8xf64>) outs(%v : memref<8x8xf64>) {
  ^bb0(%a: f64, %out: f64):
    linalg.yield %a : f64
  }
  return
}

// -----

// Negative: a float sum over the rows (a reduction loop): its bits depend
// on the order of the iterations.
// CHECK-LABEL: func.func @reduction(
// CHECK: distruntime.update_halo {{.*}}halo_sizes [1, 1, 0, 0]{{ +}}: memref
// CHECK-NOT: distruntime.wait
// CHECK: linalg.generic
// CHECK-NOT: linalg.generic
// CHECK: return
func.func @reduction(%u: memref<10x8xf64> {llvm.noalias}, %v: memref<8xf64> {llvm.noalias}) {
  distruntime.update_halo %u grid [2] split_axes [[0]] halo_sizes [1, 1, 0, 0] : memref<10x8xf64>
  linalg.generic {indexing_maps = [affine_map<(j, i) -> (i, j)>, affine_map<(j, i) -> (j)>], iterator_types = ["parallel", "reduction"]}
      ins(%u : memref<10x8xf64>) outs(%v : memref<8xf64>) {
  ^bb0(%a: f64, %out: f64):
    %r = arith.addf %a, %out : f64
    linalg.yield %r : f64
  }
  return
}

// -----

// Negative: a load of the block between the exchange and the op needs the
// halo first; the wait cannot move past it to the op.
// CHECK-LABEL: func.func @load_between(
// CHECK: distruntime.update_halo {{.*}}halo_sizes [1, 1, 0, 0]{{ +}}: memref
// CHECK-NOT: distruntime.wait
// CHECK: memref.load
// CHECK: linalg.generic
// CHECK-NOT: linalg.generic
// CHECK: return
func.func @load_between(%u: memref<10x8xf64> {llvm.noalias}, %v: memref<8x8xf64> {llvm.noalias}) -> f64 {
  %c0 = arith.constant 0 : index
  distruntime.update_halo %u grid [2] split_axes [[0]] halo_sizes [1, 1, 0, 0] : memref<10x8xf64>
  %x = memref.load %u[%c0, %c0] : memref<10x8xf64>
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i + 1, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%u : memref<10x8xf64>) outs(%v : memref<8x8xf64>) {
  ^bb0(%a: f64, %out: f64):
    linalg.yield %a : f64
  }
  return %x : f64
}

// -----

// Negative: a strided view of the block (every other row): its reads are
// not bounded by a shift.
// CHECK-LABEL: func.func @strided(
// CHECK: distruntime.update_halo {{.*}}halo_sizes [1, 1, 0, 0]{{ +}}: memref
// CHECK-NOT: distruntime.wait
// CHECK: linalg.generic
// CHECK-NOT: linalg.generic
// CHECK: return
func.func @strided(%u: memref<10x8xf64> {llvm.noalias}, %v: memref<4x8xf64> {llvm.noalias}) {
  distruntime.update_halo %u grid [2] split_axes [[0]] halo_sizes [1, 1, 0, 0] : memref<10x8xf64>
  %s = memref.subview %u[1, 0] [4, 8] [2, 1] : memref<10x8xf64> to memref<4x8xf64, strided<[16, 1], offset: 8>>
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%s : memref<4x8xf64, strided<[16, 1], offset: 8>>) outs(%v : memref<4x8xf64>) {
  ^bb0(%a: f64, %out: f64):
    linalg.yield %a : f64
  }
  return
}

// -----

// Negative: a 4-row block (core rows 1 and 2) and 2 output rows reading
// rows i and i + 2: row 0 reads the top halo, row 1 the bottom one, and
// the interior is empty.
// CHECK-LABEL: func.func @empty_interior(
// CHECK: distruntime.update_halo {{.*}}halo_sizes [1, 1, 0, 0]{{ +}}: memref
// CHECK-NOT: distruntime.wait
// CHECK-NOT: affine
// CHECK: linalg.generic
// CHECK-NOT: linalg.generic
// CHECK: return
func.func @empty_interior(%u: memref<4x8xf64> {llvm.noalias}, %v: memref<2x8xf64> {llvm.noalias}) {
  distruntime.update_halo %u grid [2] split_axes [[0]] halo_sizes [1, 1, 0, 0] : memref<4x8xf64>
  %n = memref.subview %u[0, 0] [2, 8] [1, 1] : memref<4x8xf64> to memref<2x8xf64, strided<[8, 1]>>
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i + 2, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%n, %u : memref<2x8xf64, strided<[8, 1]>>, memref<4x8xf64>) outs(%v : memref<2x8xf64>) {
  ^bb0(%a: f64, %b: f64, %out: f64):
    %r = arith.addf %a, %b : f64
    linalg.yield %r : f64
  }
  return
}

// -----

// An op between the exchange and the stencil that leaves the block alone
// (a store to another buffer) stays where it is: the exchange is in flight
// across it and the interior. A second reader of the block, after the
// first one's slabs (which need the halo), stays whole after the wait.
// CHECK-LABEL: func.func @two_readers(
// CHECK-SAME: %[[U:[^:]*]]: memref<10x8xf64> {llvm.noalias}, %[[V:[^:]*]]: memref<8x8xf64> {llvm.noalias}, %[[W:[^:]*]]: memref<8x8xf64> {llvm.noalias}, %[[X:[^:]*]]: memref<1xf64> {llvm.noalias}
// CHECK: %[[H:.*]] = distruntime.update_halo %[[U]] {{.*}} async
// CHECK-NEXT: memref.store %{{.*}}, %[[X]]
// CHECK: memref.subview %[[V]][1, 0] [6, 8] [1, 1]
// CHECK-NEXT: linalg.generic
// CHECK: distruntime.wait %[[H]]
// CHECK-COUNT-2: outs(%{{.*}} : memref<1x8xf64
// CHECK: linalg.generic {{.*}} ins(%[[U]] : memref<10x8xf64>) outs(%[[W]] : memref<8x8xf64>)
// CHECK-NOT: linalg.generic
// CHECK: return
func.func @two_readers(%u: memref<10x8xf64> {llvm.noalias}, %v: memref<8x8xf64> {llvm.noalias}, %w: memref<8x8xf64> {llvm.noalias}, %x: memref<1xf64> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1.0 : f64
  distruntime.update_halo %u grid [2] split_axes [[0]] halo_sizes [1, 1, 0, 0] : memref<10x8xf64>
  memref.store %one, %x[%c0] : memref<1xf64>
  %n = memref.subview %u[0, 0] [8, 8] [1, 1] : memref<10x8xf64> to memref<8x8xf64, strided<[8, 1]>>
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i + 2, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%n, %u : memref<8x8xf64, strided<[8, 1]>>, memref<10x8xf64>) outs(%v : memref<8x8xf64>) {
  ^bb0(%a: f64, %b: f64, %out: f64):
    %r = arith.addf %a, %b : f64
    linalg.yield %r : f64
  }
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i + 1, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%u : memref<10x8xf64>) outs(%w : memref<8x8xf64>) {
  ^bb0(%a: f64, %out: f64):
    linalg.yield %a : f64
  }
  return
}

// -----

// A time loop that swaps its two buffers through iter_args: u and v start
// apart (distinct llvm.noalias arguments) and each step passes them on
// swapped, so they are apart in every step and the stencil in the loop
// body is split.
// CHECK-LABEL: func.func @swapped_in_loop(
// CHECK: scf.for {{.*}} iter_args(%[[U:.*]] = %{{.*}}, %[[V:.*]] = %{{.*}})
// CHECK: %[[H:.*]] = distruntime.update_halo %[[U]] {{.*}} async : memref<10x8xf64>
// CHECK: linalg.generic
// CHECK: distruntime.wait %[[H]]
// CHECK: linalg.generic
// CHECK: linalg.generic
// CHECK: scf.yield %[[V]], %[[U]]
func.func @swapped_in_loop(%u0: memref<10x8xf64> {llvm.noalias},
                           %v0: memref<10x8xf64> {llvm.noalias},
                           %steps: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %fin:2 = scf.for %t = %c0 to %steps step %c1
      iter_args(%u = %u0, %v = %v0) -> (memref<10x8xf64>, memref<10x8xf64>) {
    distruntime.update_halo %u grid [2] split_axes [[0]] halo_sizes [1, 1, 0, 0] : memref<10x8xf64>
    %n = memref.subview %u[0, 0] [8, 8] [1, 1] : memref<10x8xf64> to memref<8x8xf64, strided<[8, 1]>>
    %s = memref.subview %u[2, 0] [8, 8] [1, 1] : memref<10x8xf64> to memref<8x8xf64, strided<[8, 1], offset: 16>>
    %o = memref.subview %v[1, 0] [8, 8] [1, 1] : memref<10x8xf64> to memref<8x8xf64, strided<[8, 1], offset: 8>>
    linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
        ins(%n, %s : memref<8x8xf64, strided<[8, 1]>>, memref<8x8xf64, strided<[8, 1], offset: 16>>)
        outs(%o : memref<8x8xf64, strided<[8, 1], offset: 8>>) {
    ^bb0(%a: f64, %b: f64, %out: f64):
      %r = arith.addf %a, %b : f64
      linalg.yield %r : f64
    }
    scf.yield %v, %u : memref<10x8xf64>, memref<10x8xf64>
  }
  return
}

// Negative: the loop passes u on as both (not a permutation), so from the
// second step on v is u.
// CHECK-LABEL: func.func @not_permuted(
// CHECK: distruntime.update_halo {{.*}}halo_sizes [1, 1, 0, 0]{{ +}}: memref
// CHECK-NOT: distruntime.wait
// CHECK: linalg.generic
// CHECK-NOT: linalg.generic
// CHECK: return
func.func @not_permuted(%u0: memref<10x8xf64> {llvm.noalias},
                        %v0: memref<10x8xf64> {llvm.noalias},
                        %steps: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %fin:2 = scf.for %t = %c0 to %steps step %c1
      iter_args(%u = %u0, %v = %v0) -> (memref<10x8xf64>, memref<10x8xf64>) {
    distruntime.update_halo %u grid [2] split_axes [[0]] halo_sizes [1, 1, 0, 0] : memref<10x8xf64>
    %n = memref.subview %u[0, 0] [8, 8] [1, 1] : memref<10x8xf64> to memref<8x8xf64, strided<[8, 1]>>
    %o = memref.subview %v[1, 0] [8, 8] [1, 1] : memref<10x8xf64> to memref<8x8xf64, strided<[8, 1], offset: 8>>
    linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
        ins(%n : memref<8x8xf64, strided<[8, 1]>>)
        outs(%o : memref<8x8xf64, strided<[8, 1], offset: 8>>) {
    ^bb0(%a: f64, %out: f64):
      linalg.yield %a : f64
    }
    scf.yield %u, %u : memref<10x8xf64>, memref<10x8xf64>
  }
  return
}

// Negative: the buffers swap, but start as arguments without llvm.noalias,
// which may be one buffer.
// CHECK-LABEL: func.func @swapped_may_alias(
// CHECK: distruntime.update_halo {{.*}}halo_sizes [1, 1, 0, 0]{{ +}}: memref
// CHECK-NOT: distruntime.wait
// CHECK: linalg.generic
// CHECK-NOT: linalg.generic
// CHECK: return
func.func @swapped_may_alias(%u0: memref<10x8xf64>, %v0: memref<10x8xf64>,
                             %steps: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %fin:2 = scf.for %t = %c0 to %steps step %c1
      iter_args(%u = %u0, %v = %v0) -> (memref<10x8xf64>, memref<10x8xf64>) {
    distruntime.update_halo %u grid [2] split_axes [[0]] halo_sizes [1, 1, 0, 0] : memref<10x8xf64>
    %n = memref.subview %u[0, 0] [8, 8] [1, 1] : memref<10x8xf64> to memref<8x8xf64, strided<[8, 1]>>
    %o = memref.subview %v[1, 0] [8, 8] [1, 1] : memref<10x8xf64> to memref<8x8xf64, strided<[8, 1], offset: 8>>
    linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
        ins(%n : memref<8x8xf64, strided<[8, 1]>>)
        outs(%o : memref<8x8xf64, strided<[8, 1], offset: 8>>) {
    ^bb0(%a: f64, %out: f64):
      linalg.yield %a : f64
    }
    scf.yield %v, %u : memref<10x8xf64>, memref<10x8xf64>
  }
  return
}
