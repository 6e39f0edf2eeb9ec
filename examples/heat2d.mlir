// Heat diffusion by Jacobi iteration on a 37 x 23 grid, block-distributed
// along rows over the members of team 0 (37 rows do not divide evenly by 2,
// 3 or 4). Each iteration fetches the neighbouring rows with get_halo (async,
// then wait); the result is a global max residual and an exact checksum,
// both combined with allreduce. Boundary cells keep their initial values.
//
// Run:      ./scripts/run.sh examples/heat2d.mlir -np 3
// Check:    python3 examples/heat2d_reference.py  (the same numbers, serially)

module {
  func.func @main() -> i32 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %c7 = arith.constant 7 : index
    %c11 = arith.constant 11 : index
    %rows = arith.constant 37 : index
    %cols = arith.constant 23 : index
    %steps = arith.constant 50 : index
    %zero = arith.constant 0.0 : f64
    %quarter = arith.constant 0.25 : f64
    %scale = arith.constant 1048576.0 : f64

    // Block distribution: rows/P each, the first rows%P members one more.
    %P = distruntime.team_size team(0)
    %me = distruntime.team_member team(0)
    %q = arith.divui %rows, %P : index
    %rem = arith.remui %rows, %P : index
    %has_extra = arith.cmpi ult, %me, %rem : index
    %extra = arith.select %has_extra, %c1, %c0 : index
    %n = arith.addi %q, %extra : index
    %qme = arith.muli %q, %me : index
    %before = arith.minui %me, %rem : index
    %off = arith.addi %qme, %before : index
    %end = arith.addi %off, %n : index
    %last_row = arith.subi %rows, %c1 : index
    %last_col = arith.subi %cols, %c1 : index

    // u(i, j) = (7 i + 3 j) mod 11 initially.
    %u = memref.alloc(%n) : memref<?x23xf64>
    %v = memref.alloc(%n) : memref<?x23xf64>
    scf.for %li = %c0 to %n step %c1 {
      %i = arith.addi %off, %li : index
      scf.for %j = %c0 to %cols step %c1 {
        %a = arith.muli %i, %c7 : index
        %b = arith.muli %j, %c3 : index
        %s = arith.addi %a, %b : index
        %m = arith.remui %s, %c11 : index
        %mi = arith.index_cast %m : index to i64
        %val = arith.sitofp %mi : i64 to f64
        memref.store %val, %u[%li, %j] : memref<?x23xf64>
      }
    }

    // The bounding box: my rows plus one on each side, inside the grid.
    %lo_raw = arith.subi %off, %c1 : index
    %lo = arith.maxsi %lo_raw, %c0 : index
    %hi_raw = arith.addi %end, %c1 : index
    %hi = arith.minsi %hi_raw, %rows : index
    %bb_rows = arith.subi %hi, %lo : index

    %residual = scf.for %t = %c0 to %steps step %c1
        iter_args(%unused = %zero) -> (f64) {
      %h, %left, %right = distruntime.get_halo %u
          gshape [%rows, %cols] loffsets [%off, %c0]
          bboffsets [%lo, %c0] bbsizes [%bb_rows, %cols] team(0) key(1)
          : memref<?x23xf64> -> memref<?x23xf64>, memref<?x23xf64>
      distruntime.wait %h

      %rmax = scf.for %li = %c0 to %n step %c1
          iter_args(%acc = %zero) -> (f64) {
        %i = arith.addi %off, %li : index
        %top = arith.cmpi eq, %i, %c0 : index
        %bottom = arith.cmpi eq, %i, %last_row : index
        %fixed = arith.ori %top, %bottom : i1
        %row_max = scf.if %fixed -> (f64) {
          scf.for %j = %c0 to %cols step %c1 {
            %x = memref.load %u[%li, %j] : memref<?x23xf64>
            memref.store %x, %v[%li, %j] : memref<?x23xf64>
          }
          scf.yield %acc : f64
        } else {
          // The row above comes from the left halo at my first row, the row
          // below from the right halo at my last row.
          %first = arith.cmpi eq, %li, %c0 : index
          %up_buf, %up_row = scf.if %first -> (memref<?x23xf64>, index) {
            scf.yield %left, %c0 : memref<?x23xf64>, index
          } else {
            %p = arith.subi %li, %c1 : index
            scf.yield %u, %p : memref<?x23xf64>, index
          }
          %lp1 = arith.addi %li, %c1 : index
          %last = arith.cmpi eq, %lp1, %n : index
          %dn_buf, %dn_row = scf.if %last -> (memref<?x23xf64>, index) {
            scf.yield %right, %c0 : memref<?x23xf64>, index
          } else {
            scf.yield %u, %lp1 : memref<?x23xf64>, index
          }
          %first_col = memref.load %u[%li, %c0] : memref<?x23xf64>
          memref.store %first_col, %v[%li, %c0] : memref<?x23xf64>
          %last_val = memref.load %u[%li, %last_col] : memref<?x23xf64>
          memref.store %last_val, %v[%li, %last_col] : memref<?x23xf64>
          %m = scf.for %j = %c1 to %last_col step %c1
              iter_args(%racc = %acc) -> (f64) {
            %jm = arith.subi %j, %c1 : index
            %jp = arith.addi %j, %c1 : index
            %up = memref.load %up_buf[%up_row, %j] : memref<?x23xf64>
            %dn = memref.load %dn_buf[%dn_row, %j] : memref<?x23xf64>
            %w = memref.load %u[%li, %jm] : memref<?x23xf64>
            %e = memref.load %u[%li, %jp] : memref<?x23xf64>
            %old = memref.load %u[%li, %j] : memref<?x23xf64>
            %s1 = arith.addf %up, %dn : f64
            %s2 = arith.addf %s1, %w : f64
            %s3 = arith.addf %s2, %e : f64
            %new = arith.mulf %s3, %quarter : f64
            memref.store %new, %v[%li, %j] : memref<?x23xf64>
            %d = arith.subf %new, %old : f64
            %ad = math.absf %d : f64
            %r = arith.maximumf %racc, %ad : f64
            scf.yield %r : f64
          }
          scf.yield %m : f64
        }
        scf.yield %row_max : f64
      }
      memref.copy %v, %u : memref<?x23xf64> to memref<?x23xf64>
      memref.dealloc %left : memref<?x23xf64>
      memref.dealloc %right : memref<?x23xf64>
      scf.yield %rmax : f64
    }

    // Global residual of the last step (max is exact in any order) ...
    %rbuf = memref.alloca() : memref<1xf64>
    memref.store %residual, %rbuf[%c0] : memref<1xf64>
    %hr = distruntime.allreduce <max> %rbuf team(0)
        : memref<1xf64> -> !distruntime.async_handle
    // ... overlapped with the local part of an exact fixed-point checksum.
    %local_sum = scf.for %li = %c0 to %n step %c1
        iter_args(%acc = %c0) -> (index) {
      %row = scf.for %j = %c0 to %cols step %c1
          iter_args(%racc = %acc) -> (index) {
        %x = memref.load %u[%li, %j] : memref<?x23xf64>
        %xs = arith.mulf %x, %scale : f64
        %xi = arith.fptosi %xs : f64 to i64
        %xidx = arith.index_cast %xi : i64 to index
        %sum = arith.addi %racc, %xidx : index
        scf.yield %sum : index
      }
      scf.yield %row : index
    }
    %sbuf = memref.alloca() : memref<1xi64>
    %ls = arith.index_cast %local_sum : index to i64
    memref.store %ls, %sbuf[%c0] : memref<1xi64>
    distruntime.allreduce <sum> %sbuf team(0) : memref<1xi64>
    distruntime.wait %hr

    %is_root = arith.cmpi eq, %me, %c0 : index
    scf.if %is_root {
      %checksum = memref.load %sbuf[%c0] : memref<1xi64>
      %r = memref.load %rbuf[%c0] : memref<1xf64>
      vector.print str "checksum "
      vector.print %checksum : i64
      vector.print str "residual "
      vector.print %r : f64
    }
    memref.dealloc %u : memref<?x23xf64>
    memref.dealloc %v : memref<?x23xf64>
    %ok = arith.constant 0 : i32
    return %ok : i32
  }
}
