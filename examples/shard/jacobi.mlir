// Jacobi iteration on a 37 x 23 array written with upstream shard ops, in
// SPMD form (what a program looks like after partitioning): the array is
// split over a 2x2 grid, rows along grid axis 0 and columns along axis 1
// (37 and 23 do not divide by 2: as upstream splits, the trailing shard of
// each axis gets the extra row or column). Each process holds its block in a
// frame of width 1, refreshed by shard.update_halo before each of 50 steps
// of the 5-point update u'(i, j) = (u(i-1, j) + u(i+1, j) + u(i, j-1) +
// u(i, j+1)) / 4 on the interior of the global array; boundary cells keep
// their initial values u(i, j) = (7 i + 3 j) mod 11. Process 0 prints the
// global max residual of the last step and an exact checksum (the sum of
// int(u * 2^20)), both combined with shard.all_reduce over the whole grid.
// The problem is heat2d.mlir's: the numbers are the same.
//
// Any grid shape works (the test also runs 1x1, 1x2, 2x1 and 1x3); the
// program must run on as many processes as the grid has.
//
// Run:    scripts/run.sh examples/shard/jacobi.mlir -np 4
// Check:  python3 examples/shard/reference.py jacobi

shard.grid @grid(shape = 2x2)

// Offset of shard k of n parts of a dimension of extent d, split as
// upstream's shard_shape does: d / n each, the last d % n shards one more.
func.func @shard_offset(%d: index, %n: index, %k: index) -> index {
  %c0 = arith.constant 0 : index
  %q = arith.divui %d, %n : index
  %r = arith.remui %d, %n : index
  %first_big = arith.subi %n, %r : index
  %base = arith.muli %k, %q : index
  // max(0, k - (n - r)) larger shards before k.
  %late = arith.cmpi ugt, %k, %first_big : index
  %over = arith.subi %k, %first_big : index
  %bigs = arith.select %late, %over, %c0 : index
  %off = arith.addi %base, %bigs : index
  return %off : index
}

func.func @main() -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c7 = arith.constant 7 : index
  %c11 = arith.constant 11 : index
  %R = arith.constant 37 : index
  %C = arith.constant 23 : index
  %steps = arith.constant 50 : index
  %zero = arith.constant 0.0 : f64
  %quarter = arith.constant 0.25 : f64
  %scale = arith.constant 1048576.0 : f64
  %i0 = arith.constant 0 : i64

  // My block: its size from the sharding, its offset in the global array.
  %pi, %pj = shard.process_multi_index on @grid : index, index
  %gi, %gj = shard.grid_shape @grid : index, index
  %split = shard.sharding @grid split_axes = [[0], [1]] : !shard.sharding
  %rows, %cols = shard.shard_shape dims = [37, 23] sharding = %split
      device = [%pi, %pj] : index, index
  %oi = func.call @shard_offset(%R, %gi, %pi) : (index, index, index) -> index
  %oj = func.call @shard_offset(%C, %gj, %pj) : (index, index, index) -> index

  // Local (a, b), 1 <= a <= rows, 1 <= b <= cols, is global
  // (oi + a - 1, oj + b - 1); row and column 0 and rows+1, cols+1 are the
  // frame. u(i, j) = (7 i + 3 j) mod 11 in the core, 0 in the frame.
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
  // The second block starts equal: its global boundary cells are never
  // written and keep their initial values.
  memref.copy %u0, %v0 : memref<?x?xf64> to memref<?x?xf64>

  // The updated cells: global 1 <= i < R - 1, 1 <= j < C - 1, i.e. local
  // max(1, 2 - oi) <= a < min(rows + 1, R - oi), the same for columns.
  %top = arith.cmpi eq, %oi, %c0 : index
  %lo_a = arith.select %top, %c2, %c1 : index
  %r_oi = arith.subi %R, %oi : index
  %hi_a = arith.minui %end_a, %r_oi : index
  %left = arith.cmpi eq, %oj, %c0 : index
  %lo_b = arith.select %left, %c2, %c1 : index
  %c_oj = arith.subi %C, %oj : index
  %hi_b = arith.minui %end_b, %c_oj : index

  %fin:3 = scf.for %t = %c0 to %steps step %c1
      iter_args(%u = %u0, %v = %v0, %unused = %zero)
      -> (memref<?x?xf64>, memref<?x?xf64>, f64) {
    // The neighbours' edge rows and columns (and corners) into my frame.
    %h = shard.update_halo %u on @grid split_axes = [[0], [1]]
        halo_sizes = [1, 1, 1, 1] : memref<?x?xf64>
    %res = scf.for %a = %lo_a to %hi_a step %c1
        iter_args(%acc = %zero) -> (f64) {
      %am = arith.subi %a, %c1 : index
      %ap = arith.addi %a, %c1 : index
      %row = scf.for %b = %lo_b to %hi_b step %c1
          iter_args(%racc = %acc) -> (f64) {
        %bm = arith.subi %b, %c1 : index
        %bp = arith.addi %b, %c1 : index
        %up = memref.load %h[%am, %b] : memref<?x?xf64>
        %dn = memref.load %h[%ap, %b] : memref<?x?xf64>
        %w = memref.load %h[%a, %bm] : memref<?x?xf64>
        %e = memref.load %h[%a, %bp] : memref<?x?xf64>
        %old = memref.load %h[%a, %b] : memref<?x?xf64>
        %s1 = arith.addf %up, %dn : f64
        %s2 = arith.addf %s1, %w : f64
        %s3 = arith.addf %s2, %e : f64
        %new = arith.mulf %s3, %quarter : f64
        memref.store %new, %v[%a, %b] : memref<?x?xf64>
        %d = arith.subf %new, %old : f64
        %ad = math.absf %d : f64
        %r = arith.maximumf %racc, %ad : f64
        scf.yield %r : f64
      }
      scf.yield %row : f64
    }
    scf.yield %v, %h, %res : memref<?x?xf64>, memref<?x?xf64>, f64
  }

  // Exact fixed-point checksum of my core.
  %local_sum = scf.for %a = %c1 to %end_a step %c1
      iter_args(%acc = %i0) -> (i64) {
    %row = scf.for %b = %c1 to %end_b step %c1
        iter_args(%racc = %acc) -> (i64) {
      %x = memref.load %fin#0[%a, %b] : memref<?x?xf64>
      %xs = arith.mulf %x, %scale : f64
      %xi = arith.fptosi %xs : f64 to i64
      %sum = arith.addi %racc, %xi : i64
      scf.yield %sum : i64
    }
    scf.yield %row : i64
  }

  // Over the whole grid: both axes (no grid_axes would be groups of one).
  %rbuf = memref.alloca() : memref<1xf64>
  memref.store %fin#2, %rbuf[%c0] : memref<1xf64>
  %rall = shard.all_reduce %rbuf on @grid grid_axes = [0, 1] reduction = max
      : memref<1xf64> -> memref<1xf64>
  %sbuf = memref.alloca() : memref<1xi64>
  memref.store %local_sum, %sbuf[%c0] : memref<1xi64>
  %sall = shard.all_reduce %sbuf on @grid grid_axes = [0, 1]
      : memref<1xi64> -> memref<1xi64>

  %me = shard.process_linear_index on @grid : index
  %root = arith.cmpi eq, %me, %c0 : index
  scf.if %root {
    %checksum = memref.load %sall[%c0] : memref<1xi64>
    %residual = memref.load %rall[%c0] : memref<1xf64>
    vector.print str "checksum "
    vector.print %checksum : i64
    vector.print str "residual "
    vector.print %residual : f64
  }
  memref.dealloc %u0 : memref<?x?xf64>
  memref.dealloc %v0 : memref<?x?xf64>
  %ok = arith.constant 0 : i32
  return %ok : i32
}
