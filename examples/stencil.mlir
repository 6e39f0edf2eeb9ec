// A parametrised heat/Jacobi stencil: an N x N grid of f64, block-distributed
// along rows over the members of team 0 (the first N % P members one row
// more), `steps` Jacobi steps, then an exact fixed-point checksum combined
// with allreduce. The grid's edge keeps its initial values.
//
//   mpirun -np 4 ./stencil [N] [steps] [overlap]     (defaults 64 100 1)
//
// Each step fetches the neighbouring rows with get_halo. With overlap = 1
// (jacobi_step_overlap) the exchange runs while the interior rows, which
// need no halo, are computed; the two rows next to the halos follow the
// wait. With overlap = 0 (jacobi_step_blocking) the step waits first; with
// overlap = 2 (jacobi_step_sync) it is one loop over the rows after the
// wait, which the compiler splits and overlaps. All compute the same
// numbers.
//
// main reads argc/argv: func.func @main(i32, !llvm.ptr) -> i32 lowers to C's
// int main(int argc, char **argv), and atoi comes from the C library.
// The step functions have C interfaces (llvm.emit_c_interface), so a C++
// program can call them on its own arrays: benchmarks/bench_stencil.cpp.
// Their u and v never share memory (llvm.noalias, C's restrict): that lets
// the compiler overlap the exchange, which reads u, with rows that write v.
// The row kernels say so of the halos too, as the C++ kernel's restrict
// pointers do: the edge rows vectorize without checks.
//
// Run:      ./scripts/run.sh examples/stencil.mlir -np 4
// Check:    python3 examples/stencil_reference.py [N] [steps]

module {
  func.func private @atoi(!llvm.ptr) -> i32

  // argv[i] as an index, or `default` when there are not that many arguments.
  func.func private @arg(%argc: i32, %argv: !llvm.ptr, %i: i32,
                         %default: index) -> index {
    %given = arith.cmpi sgt, %argc, %i : i32
    %r = scf.if %given -> (index) {
      %p = llvm.getelementptr %argv[%i] : (!llvm.ptr, i32) -> !llvm.ptr, !llvm.ptr
      %s = llvm.load %p : !llvm.ptr -> !llvm.ptr
      %v = func.call @atoi(%s) : (!llvm.ptr) -> i32
      %x = arith.index_cast %v : i32 to index
      scf.yield %x : index
    } else {
      scf.yield %default : index
    }
    return %r : index
  }

  // Rows [lo, hi) of v from u, all inside u: the 5-point average in the
  // interior columns, the edge columns copied. Public with a C interface so
  // that benchmarks/bench_stencil.cpp times the compute alone.
  func.func @relax_rows(%u: memref<?x?xf64> {llvm.noalias},
                        %v: memref<?x?xf64> {llvm.noalias},
                        %lo: index, %hi: index)
      attributes {llvm.emit_c_interface} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %quarter = arith.constant 0.25 : f64
    %cols = memref.dim %u, %c1 : memref<?x?xf64>
    %last = arith.subi %cols, %c1 : index
    scf.for %i = %lo to %hi step %c1 {
      %im = arith.subi %i, %c1 : index
      %ip = arith.addi %i, %c1 : index
      %first = memref.load %u[%i, %c0] : memref<?x?xf64>
      memref.store %first, %v[%i, %c0] : memref<?x?xf64>
      %end = memref.load %u[%i, %last] : memref<?x?xf64>
      memref.store %end, %v[%i, %last] : memref<?x?xf64>
      scf.for %j = %c1 to %last step %c1 {
        %jm = arith.subi %j, %c1 : index
        %jp = arith.addi %j, %c1 : index
        %up = memref.load %u[%im, %j] : memref<?x?xf64>
        %dn = memref.load %u[%ip, %j] : memref<?x?xf64>
        %w = memref.load %u[%i, %jm] : memref<?x?xf64>
        %e = memref.load %u[%i, %jp] : memref<?x?xf64>
        %s1 = arith.addf %up, %dn : f64
        %s2 = arith.addf %s1, %w : f64
        %s3 = arith.addf %s2, %e : f64
        %new = arith.mulf %s3, %quarter : f64
        memref.store %new, %v[%i, %j] : memref<?x?xf64>
      }
    }
    return
  }

  // Local row li of v (global row off + li) from u and the halos: copied
  // on the grid's first and last rows, else relaxed with the row above from
  // the left halo at li = 0 and the row below from the right halo at the
  // last local row.
  func.func private @relax_edge_row(%u: memref<?x?xf64> {llvm.noalias},
                                    %v: memref<?x?xf64> {llvm.noalias},
                                    %left: memref<?x?xf64> {llvm.noalias},
                                    %right: memref<?x?xf64> {llvm.noalias},
                                    %li: index, %off: index, %rows: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %quarter = arith.constant 0.25 : f64
    %n = memref.dim %u, %c0 : memref<?x?xf64>
    %cols = memref.dim %u, %c1 : memref<?x?xf64>
    %last = arith.subi %cols, %c1 : index
    %i = arith.addi %off, %li : index
    %last_row = arith.subi %rows, %c1 : index
    %top = arith.cmpi eq, %i, %c0 : index
    %bottom = arith.cmpi eq, %i, %last_row : index
    %fixed = arith.ori %top, %bottom : i1
    scf.if %fixed {
      scf.for %j = %c0 to %cols step %c1 {
        %x = memref.load %u[%li, %j] : memref<?x?xf64>
        memref.store %x, %v[%li, %j] : memref<?x?xf64>
      }
    } else {
      %is_first = arith.cmpi eq, %li, %c0 : index
      %up_buf, %up_row = scf.if %is_first -> (memref<?x?xf64>, index) {
        scf.yield %left, %c0 : memref<?x?xf64>, index
      } else {
        %p = arith.subi %li, %c1 : index
        scf.yield %u, %p : memref<?x?xf64>, index
      }
      %lp1 = arith.addi %li, %c1 : index
      %is_last = arith.cmpi eq, %lp1, %n : index
      %dn_buf, %dn_row = scf.if %is_last -> (memref<?x?xf64>, index) {
        scf.yield %right, %c0 : memref<?x?xf64>, index
      } else {
        scf.yield %u, %lp1 : memref<?x?xf64>, index
      }
      %first = memref.load %u[%li, %c0] : memref<?x?xf64>
      memref.store %first, %v[%li, %c0] : memref<?x?xf64>
      %end = memref.load %u[%li, %last] : memref<?x?xf64>
      memref.store %end, %v[%li, %last] : memref<?x?xf64>
      scf.for %j = %c1 to %last step %c1 {
        %jm = arith.subi %j, %c1 : index
        %jp = arith.addi %j, %c1 : index
        %up = memref.load %up_buf[%up_row, %j] : memref<?x?xf64>
        %dn = memref.load %dn_buf[%dn_row, %j] : memref<?x?xf64>
        %w = memref.load %u[%li, %jm] : memref<?x?xf64>
        %e = memref.load %u[%li, %jp] : memref<?x?xf64>
        %s1 = arith.addf %up, %dn : f64
        %s2 = arith.addf %s1, %w : f64
        %s3 = arith.addf %s2, %e : f64
        %new = arith.mulf %s3, %quarter : f64
        memref.store %new, %v[%li, %j] : memref<?x?xf64>
      }
    }
    return
  }

  // The bounding box of my rows [off, off + n) plus one row on each side,
  // inside the grid: (first row, number of rows).
  func.func private @halo_box(%off: index, %n: index, %rows: index)
      -> (index, index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %lo_raw = arith.subi %off, %c1 : index
    %lo = arith.maxsi %lo_raw, %c0 : index
    %end = arith.addi %off, %n : index
    %hi_raw = arith.addi %end, %c1 : index
    %hi = arith.minsi %hi_raw, %rows : index
    %bb = arith.subi %hi, %lo : index
    return %lo, %bb : index, index
  }

  // The first and last local rows (one row when n = 1), after the halos
  // have arrived.
  func.func private @relax_edge_rows(%u: memref<?x?xf64> {llvm.noalias},
                                     %v: memref<?x?xf64> {llvm.noalias},
                                     %left: memref<?x?xf64> {llvm.noalias},
                                     %right: memref<?x?xf64> {llvm.noalias},
                                     %off: index, %rows: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %n = memref.dim %u, %c0 : memref<?x?xf64>
    func.call @relax_edge_row(%u, %v, %left, %right, %c0, %off, %rows)
        : (memref<?x?xf64>, memref<?x?xf64>, memref<?x?xf64>, memref<?x?xf64>,
           index, index, index) -> ()
    %two_rows = arith.cmpi ugt, %n, %c1 : index
    scf.if %two_rows {
      %ln = arith.subi %n, %c1 : index
      func.call @relax_edge_row(%u, %v, %left, %right, %ln, %off, %rows)
          : (memref<?x?xf64>, memref<?x?xf64>, memref<?x?xf64>,
             memref<?x?xf64>, index, index, index) -> ()
    }
    return
  }

  // One step, v from u (my n >= 1 rows of the rows x cols grid, starting at
  // global row off): the halo exchange, then every row.
  func.func @jacobi_step_blocking(%u: memref<?x?xf64> {llvm.noalias},
                                  %v: memref<?x?xf64> {llvm.noalias},
                                  %off: index, %rows: index)
      attributes {llvm.emit_c_interface} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %n = memref.dim %u, %c0 : memref<?x?xf64>
    %cols = memref.dim %u, %c1 : memref<?x?xf64>
    %lo, %bb = func.call @halo_box(%off, %n, %rows)
        : (index, index, index) -> (index, index)
    %h, %left, %right = distruntime.get_halo %u
        gshape [%rows, %cols] loffsets [%off, %c0]
        bboffsets [%lo, %c0] bbsizes [%bb, %cols] team(0) key(1)
        : memref<?x?xf64> -> memref<?x?xf64>, memref<?x?xf64>
    distruntime.wait %h
    %inner_end = arith.subi %n, %c1 : index
    func.call @relax_rows(%u, %v, %c1, %inner_end)
        : (memref<?x?xf64>, memref<?x?xf64>, index, index) -> ()
    func.call @relax_edge_rows(%u, %v, %left, %right, %off, %rows)
        : (memref<?x?xf64>, memref<?x?xf64>, memref<?x?xf64>, memref<?x?xf64>,
           index, index) -> ()
    memref.dealloc %left : memref<?x?xf64>
    memref.dealloc %right : memref<?x?xf64>
    return
  }

  // The same step with the exchange overlapped: post it, compute the rows
  // that need no halo, wait, compute the first and last rows.
  func.func @jacobi_step_overlap(%u: memref<?x?xf64> {llvm.noalias},
                                 %v: memref<?x?xf64> {llvm.noalias},
                                 %off: index, %rows: index)
      attributes {llvm.emit_c_interface} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %n = memref.dim %u, %c0 : memref<?x?xf64>
    %cols = memref.dim %u, %c1 : memref<?x?xf64>
    %lo, %bb = func.call @halo_box(%off, %n, %rows)
        : (index, index, index) -> (index, index)
    %h, %left, %right = distruntime.get_halo %u
        gshape [%rows, %cols] loffsets [%off, %c0]
        bboffsets [%lo, %c0] bbsizes [%bb, %cols] team(0) key(1)
        : memref<?x?xf64> -> memref<?x?xf64>, memref<?x?xf64>
    %inner_end = arith.subi %n, %c1 : index
    func.call @relax_rows(%u, %v, %c1, %inner_end)
        : (memref<?x?xf64>, memref<?x?xf64>, index, index) -> ()
    distruntime.wait %h
    func.call @relax_edge_rows(%u, %v, %left, %right, %off, %rows)
        : (memref<?x?xf64>, memref<?x?xf64>, memref<?x?xf64>, memref<?x?xf64>,
           index, index) -> ()
    memref.dealloc %left : memref<?x?xf64>
    memref.dealloc %right : memref<?x?xf64>
    return
  }

  // The same step written sync, as a first version would be: the exchange,
  // its wait, then one loop over the rows in which the first and last rows
  // take their neighbours from the halos. The compiler (distruntime-overlap-
  // halo, distruntime-async-collectives) splits the loop and computes the
  // interior rows while the halos travel, as jacobi_step_overlap does by
  // hand.
  func.func @jacobi_step_sync(%u: memref<?x?xf64> {llvm.noalias},
                              %v: memref<?x?xf64> {llvm.noalias},
                              %off: index, %rows: index)
      attributes {llvm.emit_c_interface} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %quarter = arith.constant 0.25 : f64
    %n = memref.dim %u, %c0 : memref<?x?xf64>
    %cols = memref.dim %u, %c1 : memref<?x?xf64>
    %last = arith.subi %cols, %c1 : index
    %last_row = arith.subi %rows, %c1 : index
    %lo, %bb = func.call @halo_box(%off, %n, %rows)
        : (index, index, index) -> (index, index)
    %h, %left, %right = distruntime.get_halo %u
        gshape [%rows, %cols] loffsets [%off, %c0]
        bboffsets [%lo, %c0] bbsizes [%bb, %cols] team(0) key(1)
        : memref<?x?xf64> -> memref<?x?xf64>, memref<?x?xf64>
    distruntime.wait %h
    scf.for %li = %c0 to %n step %c1 {
      %i = arith.addi %off, %li : index
      %top = arith.cmpi eq, %i, %c0 : index
      %bottom = arith.cmpi eq, %i, %last_row : index
      %fixed = arith.ori %top, %bottom : i1
      scf.if %fixed {
        scf.for %j = %c0 to %cols step %c1 {
          %x = memref.load %u[%li, %j] : memref<?x?xf64>
          memref.store %x, %v[%li, %j] : memref<?x?xf64>
        }
      } else {
        %is_first = arith.cmpi eq, %li, %c0 : index
        %up_buf, %up_row = scf.if %is_first -> (memref<?x?xf64>, index) {
          scf.yield %left, %c0 : memref<?x?xf64>, index
        } else {
          %p = arith.subi %li, %c1 : index
          scf.yield %u, %p : memref<?x?xf64>, index
        }
        %lp1 = arith.addi %li, %c1 : index
        %is_last = arith.cmpi eq, %lp1, %n : index
        %dn_buf, %dn_row = scf.if %is_last -> (memref<?x?xf64>, index) {
          scf.yield %right, %c0 : memref<?x?xf64>, index
        } else {
          scf.yield %u, %lp1 : memref<?x?xf64>, index
        }
        %first = memref.load %u[%li, %c0] : memref<?x?xf64>
        memref.store %first, %v[%li, %c0] : memref<?x?xf64>
        %end = memref.load %u[%li, %last] : memref<?x?xf64>
        memref.store %end, %v[%li, %last] : memref<?x?xf64>
        scf.for %j = %c1 to %last step %c1 {
          %jm = arith.subi %j, %c1 : index
          %jp = arith.addi %j, %c1 : index
          %up = memref.load %up_buf[%up_row, %j] : memref<?x?xf64>
          %dn = memref.load %dn_buf[%dn_row, %j] : memref<?x?xf64>
          %w = memref.load %u[%li, %jm] : memref<?x?xf64>
          %e = memref.load %u[%li, %jp] : memref<?x?xf64>
          %s1 = arith.addf %up, %dn : f64
          %s2 = arith.addf %s1, %w : f64
          %s3 = arith.addf %s2, %e : f64
          %new = arith.mulf %s3, %quarter : f64
          memref.store %new, %v[%li, %j] : memref<?x?xf64>
        }
      }
    }
    memref.dealloc %left : memref<?x?xf64>
    memref.dealloc %right : memref<?x?xf64>
    return
  }

  func.func @main(%argc: i32, %argv: !llvm.ptr) -> i32 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c7 = arith.constant 7 : index
    %c11 = arith.constant 11 : index
    %d_rows = arith.constant 64 : index
    %d_steps = arith.constant 100 : index
    %i1 = arith.constant 1 : i32
    %i2 = arith.constant 2 : i32
    %i3 = arith.constant 3 : i32
    %rows = func.call @arg(%argc, %argv, %i1, %d_rows)
        : (i32, !llvm.ptr, i32, index) -> index
    %steps = func.call @arg(%argc, %argv, %i2, %d_steps)
        : (i32, !llvm.ptr, i32, index) -> index
    %overlap = func.call @arg(%argc, %argv, %i3, %c1)
        : (i32, !llvm.ptr, i32, index) -> index
    %P = distruntime.team_size team(0)
    %me = distruntime.team_member team(0)
    %is_root = arith.cmpi eq, %me, %c0 : index

    // Every member needs a row, and the grid an interior.
    %too_small = arith.cmpi ult, %rows, %c3 : index
    %too_few = arith.cmpi ult, %rows, %P : index
    %bad_size = arith.ori %too_small, %too_few : i1
    %neg_steps = arith.cmpi slt, %steps, %c0 : index
    %bad = arith.ori %bad_size, %neg_steps : i1
    %status = scf.if %bad -> (i32) {
      scf.if %is_root {
        vector.print str "stencil: need 3 <= N, P <= N and steps >= 0\n"
      }
      %one = arith.constant 1 : i32
      scf.yield %one : i32
    } else {
      // Block distribution: rows/P each, the first rows%P members one more.
      %q = arith.divui %rows, %P : index
      %rem = arith.remui %rows, %P : index
      %has_extra = arith.cmpi ult, %me, %rem : index
      %extra = arith.select %has_extra, %c1, %c0 : index
      %n = arith.addi %q, %extra : index
      %qme = arith.muli %q, %me : index
      %before = arith.minui %me, %rem : index
      %off = arith.addi %qme, %before : index

      // u(i, j) = (7 i + 3 j) mod 11 initially.
      %u = memref.alloc(%n, %rows) : memref<?x?xf64>
      %v = memref.alloc(%n, %rows) : memref<?x?xf64>
      scf.for %li = %c0 to %n step %c1 {
        %i = arith.addi %off, %li : index
        scf.for %j = %c0 to %rows step %c1 {
          %a = arith.muli %i, %c7 : index
          %b = arith.muli %j, %c3 : index
          %s = arith.addi %a, %b : index
          %m = arith.remui %s, %c11 : index
          %mi = arith.index_cast %m : index to i64
          %val = arith.sitofp %mi : i64 to f64
          memref.store %val, %u[%li, %j] : memref<?x?xf64>
        }
      }

      // The two arrays swap roles every step.
      %use_overlap = arith.cmpi ne, %overlap, %c0 : index
      %final, %other = scf.for %t = %c0 to %steps step %c1
          iter_args(%a = %u, %b = %v) -> (memref<?x?xf64>, memref<?x?xf64>) {
        %sync_written = arith.cmpi eq, %overlap, %c2 : index
        scf.if %sync_written {
          func.call @jacobi_step_sync(%a, %b, %off, %rows)
              : (memref<?x?xf64>, memref<?x?xf64>, index, index) -> ()
        } else {
        scf.if %use_overlap {
          func.call @jacobi_step_overlap(%a, %b, %off, %rows)
              : (memref<?x?xf64>, memref<?x?xf64>, index, index) -> ()
        } else {
          func.call @jacobi_step_blocking(%a, %b, %off, %rows)
              : (memref<?x?xf64>, memref<?x?xf64>, index, index) -> ()
        }
        }
        scf.yield %b, %a : memref<?x?xf64>, memref<?x?xf64>
      }

      // Exact fixed-point checksum: sum of trunc(x * 2^20).
      %scale = arith.constant 1048576.0 : f64
      %local_sum = scf.for %li = %c0 to %n step %c1
          iter_args(%acc = %c0) -> (index) {
        %row = scf.for %j = %c0 to %rows step %c1
            iter_args(%racc = %acc) -> (index) {
          %x = memref.load %final[%li, %j] : memref<?x?xf64>
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
      scf.if %is_root {
        %checksum = memref.load %sbuf[%c0] : memref<1xi64>
        %rows64 = arith.index_cast %rows : index to i64
        %steps64 = arith.index_cast %steps : index to i64
        vector.print str "N "
        vector.print %rows64 : i64 punctuation <no_punctuation>
        vector.print str " steps "
        vector.print %steps64 : i64
        vector.print str "checksum "
        vector.print %checksum : i64
      }
      memref.dealloc %u : memref<?x?xf64>
      memref.dealloc %v : memref<?x?xf64>
      %ok = arith.constant 0 : i32
      scf.yield %ok : i32
    }
    return %status : i32
  }
}
