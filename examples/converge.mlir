// A 1-D heat rod relaxed by Jacobi iteration until it converges: 41 points,
// the ends held at 0 and 64, block-distributed over the members of team 0.
// Each step fetches the neighbouring points with get_halo, then takes the
// largest change over the team with an in-place all_reduce and loops while
// it is above the tolerance: the convergence test of every iterative
// solver. The all_reduce leaves the same value on every member, so every
// member stops at the same step; distruntime-verify-spmd proves it (the
// rank-dependent residual stored before the all_reduce does not reach the
// load after it) and compiles the program without a warning.
//
// Run:      ./scripts/run.sh examples/converge.mlir -np 3
// Check:    python3 examples/converge_reference.py  (the same numbers, serially)

module {
  func.func @main() -> i32 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %points = arith.constant 41 : index
    %max_steps = arith.constant 5000 : index
    %zero = arith.constant 0.0 : f64
    %half = arith.constant 0.5 : f64
    %hot = arith.constant 64.0 : f64
    %tol = arith.constant 1.0e-3 : f64
    %scale = arith.constant 1048576.0 : f64

    // Block distribution: points/P each, the first points%P one more.
    %P = distruntime.team_size team(0)
    %me = distruntime.team_member team(0)
    %q = arith.divui %points, %P : index
    %rem = arith.remui %points, %P : index
    %has_extra = arith.cmpi ult, %me, %rem : index
    %extra = arith.select %has_extra, %c1, %c0 : index
    %n = arith.addi %q, %extra : index
    %qme = arith.muli %q, %me : index
    %before = arith.minui %me, %rem : index
    %off = arith.addi %qme, %before : index
    %end = arith.addi %off, %n : index
    %last = arith.subi %points, %c1 : index

    // Cold everywhere but the last point.
    %u = memref.alloc(%n) : memref<?xf64>
    %v = memref.alloc(%n) : memref<?xf64>
    scf.for %li = %c0 to %n step %c1 {
      %i = arith.addi %off, %li : index
      %is_hot = arith.cmpi eq, %i, %last : index
      %x = arith.select %is_hot, %hot, %zero : f64
      memref.store %x, %u[%li] : memref<?xf64>
    }

    // The bounding box: my points plus one on each side, inside the rod.
    %lo_raw = arith.subi %off, %c1 : index
    %lo = arith.maxsi %lo_raw, %c0 : index
    %hi_raw = arith.addi %end, %c1 : index
    %hi = arith.minsi %hi_raw, %points : index
    %bb = arith.subi %hi, %lo : index

    %res = memref.alloc() : memref<1xf64>
    %inf = arith.constant 0x7FF0000000000000 : f64
    %steps, %residual = scf.while (%t = %c0, %r = %inf) : (index, f64) -> (index, f64) {
      %more = arith.cmpf ogt, %r, %tol : f64
      %room = arith.cmpi ult, %t, %max_steps : index
      %go = arith.andi %more, %room : i1
      scf.condition(%go) %t, %r : index, f64
    } do {
    ^bb0(%t: index, %r: f64):
      %h, %left, %right = distruntime.get_halo %u
          gshape [%points] loffsets [%off] bboffsets [%lo] bbsizes [%bb]
          team(0) key(1) : memref<?xf64> -> memref<?xf64>, memref<?xf64>
      distruntime.wait %h
      %local = scf.for %li = %c0 to %n step %c1
          iter_args(%acc = %zero) -> (f64) {
        %i = arith.addi %off, %li : index
        %old = memref.load %u[%li] : memref<?xf64>
        %at_end = arith.cmpi eq, %i, %c0 : index
        %at_last = arith.cmpi eq, %i, %last : index
        %fixed = arith.ori %at_end, %at_last : i1
        %next = scf.if %fixed -> (f64) {
          memref.store %old, %v[%li] : memref<?xf64>
          scf.yield %acc : f64
        } else {
          // The left neighbour comes from the left halo at my first point,
          // the right one from the right halo at my last.
          %first = arith.cmpi eq, %li, %c0 : index
          %west = scf.if %first -> (f64) {
            %w = memref.load %left[%c0] : memref<?xf64>
            scf.yield %w : f64
          } else {
            %p = arith.subi %li, %c1 : index
            %w = memref.load %u[%p] : memref<?xf64>
            scf.yield %w : f64
          }
          %lp1 = arith.addi %li, %c1 : index
          %final = arith.cmpi eq, %lp1, %n : index
          %east = scf.if %final -> (f64) {
            %e = memref.load %right[%c0] : memref<?xf64>
            scf.yield %e : f64
          } else {
            %e = memref.load %u[%lp1] : memref<?xf64>
            scf.yield %e : f64
          }
          %s = arith.addf %west, %east : f64
          %new = arith.mulf %s, %half : f64
          memref.store %new, %v[%li] : memref<?xf64>
          %d = arith.subf %new, %old : f64
          %ad = math.absf %d : f64
          %m = arith.maximumf %acc, %ad : f64
          scf.yield %m : f64
        }
        scf.yield %next : f64
      }
      memref.copy %v, %u : memref<?xf64> to memref<?xf64>
      memref.dealloc %left : memref<?xf64>
      memref.dealloc %right : memref<?xf64>
      // The largest change over the team, in place: every member reads the
      // same value and takes the same branch of the loop's condition.
      memref.store %local, %res[%c0] : memref<1xf64>
      distruntime.all_reduce ins(%res : memref<1xf64>) outs(%res : memref<1xf64>)
          {reduction = #distruntime.reduction<max>,
           replica_groups = dense<> : tensor<0x0xi64>}
      %global = memref.load %res[%c0] : memref<1xf64>
      %t1 = arith.addi %t, %c1 : index
      scf.yield %t1, %global : index, f64
    }

    // An exact fixed-point checksum of the rod.
    %local_sum = scf.for %li = %c0 to %n step %c1
        iter_args(%acc = %c0) -> (index) {
      %x = memref.load %u[%li] : memref<?xf64>
      %xs = arith.mulf %x, %scale : f64
      %xi = arith.fptosi %xs : f64 to i64
      %xidx = arith.index_cast %xi : i64 to index
      %sum = arith.addi %acc, %xidx : index
      scf.yield %sum : index
    }
    %sbuf = memref.alloc() : memref<1xi64>
    %ls = arith.index_cast %local_sum : index to i64
    memref.store %ls, %sbuf[%c0] : memref<1xi64>
    distruntime.allreduce <sum> %sbuf team(0) : memref<1xi64>

    %is_root = arith.cmpi eq, %me, %c0 : index
    scf.if %is_root {
      %checksum = memref.load %sbuf[%c0] : memref<1xi64>
      %steps_i = arith.index_cast %steps : index to i64
      vector.print str "steps "
      vector.print %steps_i : i64
      vector.print str "residual "
      vector.print %residual : f64
      vector.print str "checksum "
      vector.print %checksum : i64
    }
    memref.dealloc %u : memref<?xf64>
    memref.dealloc %v : memref<?xf64>
    memref.dealloc %res : memref<1xf64>
    memref.dealloc %sbuf : memref<1xi64>
    %ok = arith.constant 0 : i32
    return %ok : i32
  }
}
