// Conjugate gradients (unpreconditioned) on the 2-D Poisson problem: the
// 5-point Laplacian (A u)(i, j) = 4 u(i, j) - u(i-1, j) - u(i+1, j)
// - u(i, j-1) - u(i, j+1) on an N x N interior grid with a zero Dirichlet
// boundary, b(i, j) = 1 + ((7 i + 3 j) mod 11) / 8, x0 = 0. The grid is split
// into blocks over a g0 x g1 process grid that distruntime.dims_create
// chooses for the size of team 0 (1: 1x1, 2: 2x1, 4: 2x2, 6: 3x2, 7: 7x1,
// 8: 4x2, 12: 4x3, 64: 8x8: any size, no per-size code; uneven and empty
// blocks allowed), each block inside a frame of one cell that update_halo,
// given that grid, fills before every product A p; the frame at the grid's edge stays 0, the boundary. The dot
// products r.r and p.Ap are one helper, @dot: the local products into a
// buffer, then a global_reduce of every member's products. The iteration
// stops when sqrt(r.r) < 1e-8 sqrt(b.b), a test on global_reduce's result,
// so every member stops at the same iteration, or after max_iters
// iterations. Member 0 prints the iterations, sqrt(r.r) with 17 digits and
// its bits.
//
//   mpirun -np 4 ./cg [N] [max_iters]      (defaults 64 500)
//   DISTRT_REPRODUCIBLE=exact mpirun -np 4 ./cg
//
// With DISTRT_REPRODUCIBLE=exact the dot products are correctly rounded:
// the program prints the same iterations and residual bits at every
// process count, those of cg_reference.py. At the default level (mpi) the
// last bits of each dot product depend on the split and MPI's order, and
// the residual drifts by 1e-11 relative over the 144 iterations.
//
// Every elementwise step is written in a fixed order (A p as
// (((4 p - up) - down) - left) - right, x + alpha p, r - alpha A p,
// r + beta p) that the reference reproduces bit for bit.
// benchmarks/CgReference.h is the same solver written by hand with MPI.
//
// Run:      DISTRT_REPRODUCIBLE=exact ./scripts/run.sh examples/cg.mlir -np 4
// Check:    python3 examples/cg_reference.py [N] [max_iters]  (serial, with
//           correctly rounded dot products: exact's bits; --np P sums as
//           the mpi level does on P members, bit for bit at P = 1 and 2;
//           --check compares outputs within a tolerance)

module {
  // C's printf, to print a float with all its digits and its bits.
  llvm.func @printf(!llvm.ptr, ...) -> i32
  llvm.mlir.global internal constant @fmt_iterations("iterations %lld\0A\00")
      {addr_space = 0 : i32}
  llvm.mlir.global internal constant @fmt_residual("residual %.17e\0A\00")
      {addr_space = 0 : i32}
  llvm.mlir.global internal constant @fmt_bits("residual_bits 0x%016llx\0A\00")
      {addr_space = 0 : i32}

  func.func private @atoi(!llvm.ptr) -> i32

  // argv[i] as an index, or `default` when there are not that many arguments.
  func.func private @arg(%argc: i32, %argv: !llvm.ptr, %i: i32,
                         %default: index) -> index {
    %given = arith.cmpi sgt, %argc, %i : i32
    %r = scf.if %given -> (index) {
      %p = llvm.getelementptr %argv[%i]
          : (!llvm.ptr, i32) -> !llvm.ptr, !llvm.ptr
      %s = llvm.load %p : !llvm.ptr -> !llvm.ptr
      %v = func.call @atoi(%s) : (!llvm.ptr) -> i32
      %x = arith.index_cast %v : i32 to index
      scf.yield %x : index
    } else {
      scf.yield %default : index
    }
    return %r : index
  }

  // Size and offset of block b of n split in parts, the first n % parts
  // blocks one larger.
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

  // Fills the frame of `block` from the neighbouring blocks on the g0 x g1
  // process grid.
  func.func private @exchange(%block: memref<?x?xf64>, %g0: index,
                              %g1: index) {
    distruntime.update_halo %block grid [%g0 : index, %g1 : index]
        split_axes [[0], [1]] halo_sizes [1, 1, 1, 1] key(1)
        : memref<?x?xf64>
    return
  }

  // The global dot product of the cores of a and b (blocks with a frame of
  // one cell): the local products into %prod, then global_reduce sums every
  // element of every member's %prod. At the reproducibility level mpi (the
  // default) each member sums its products in row-major order and MPI sums
  // the members' partial sums; at exact (DISTRT_REPRODUCIBLE=exact, or
  // distruntime-to-llvm's reproducibility=exact) the sum of all products
  // is rounded once, the same bits however the grid is split.
  func.func private @dot(%a: memref<?x?xf64>, %b: memref<?x?xf64>) -> f64 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %si = memref.dim %a, %c0 : memref<?x?xf64>
    %sj = memref.dim %a, %c1 : memref<?x?xf64>
    %ni = arith.subi %si, %c2 : index
    %nj = arith.subi %sj, %c2 : index
    %prod = memref.alloc(%ni, %nj) : memref<?x?xf64>
    scf.for %i = %c0 to %ni step %c1 {
      %bi = arith.addi %i, %c1 : index
      scf.for %j = %c0 to %nj step %c1 {
        %bj = arith.addi %j, %c1 : index
        %x = memref.load %a[%bi, %bj] : memref<?x?xf64>
        %y = memref.load %b[%bi, %bj] : memref<?x?xf64>
        %xy = arith.mulf %x, %y : f64
        memref.store %xy, %prod[%i, %j] : memref<?x?xf64>
      }
    }
    %global = distruntime.global_reduce <sum> %prod team(0)
        : memref<?x?xf64> -> f64
    memref.dealloc %prod : memref<?x?xf64>
    return %global : f64
  }

  // ap = A p on the core: the frame of p from the neighbours, then
  // (((4 p - up) - down) - left) - right at every core cell.
  func.func private @matvec(%p: memref<?x?xf64>, %ap: memref<?x?xf64>,
                            %g0: index, %g1: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %four = arith.constant 4.0 : f64
    func.call @exchange(%p, %g0, %g1)
        : (memref<?x?xf64>, index, index) -> ()
    %si = memref.dim %p, %c0 : memref<?x?xf64>
    %sj = memref.dim %p, %c1 : memref<?x?xf64>
    %ei = arith.subi %si, %c1 : index
    %ej = arith.subi %sj, %c1 : index
    scf.for %i = %c1 to %ei step %c1 {
      %im = arith.subi %i, %c1 : index
      %ip = arith.addi %i, %c1 : index
      scf.for %j = %c1 to %ej step %c1 {
        %jm = arith.subi %j, %c1 : index
        %jp = arith.addi %j, %c1 : index
        %mid = memref.load %p[%i, %j] : memref<?x?xf64>
        %up = memref.load %p[%im, %j] : memref<?x?xf64>
        %down = memref.load %p[%ip, %j] : memref<?x?xf64>
        %left = memref.load %p[%i, %jm] : memref<?x?xf64>
        %right = memref.load %p[%i, %jp] : memref<?x?xf64>
        %t0 = arith.mulf %four, %mid : f64
        %t1 = arith.subf %t0, %up : f64
        %t2 = arith.subf %t1, %down : f64
        %t3 = arith.subf %t2, %left : f64
        %t4 = arith.subf %t3, %right : f64
        memref.store %t4, %ap[%i, %j] : memref<?x?xf64>
      }
    }
    return
  }

  // On the core: x = x + alpha p, r = r - alpha ap.
  func.func private @update_xr(%x: memref<?x?xf64>, %r: memref<?x?xf64>,
                               %p: memref<?x?xf64>, %ap: memref<?x?xf64>,
                               %alpha: f64) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %si = memref.dim %x, %c0 : memref<?x?xf64>
    %sj = memref.dim %x, %c1 : memref<?x?xf64>
    %ei = arith.subi %si, %c1 : index
    %ej = arith.subi %sj, %c1 : index
    scf.for %i = %c1 to %ei step %c1 {
      scf.for %j = %c1 to %ej step %c1 {
        %xv = memref.load %x[%i, %j] : memref<?x?xf64>
        %pv = memref.load %p[%i, %j] : memref<?x?xf64>
        %ap_p = arith.mulf %alpha, %pv : f64
        %xn = arith.addf %xv, %ap_p : f64
        memref.store %xn, %x[%i, %j] : memref<?x?xf64>
        %rv = memref.load %r[%i, %j] : memref<?x?xf64>
        %av = memref.load %ap[%i, %j] : memref<?x?xf64>
        %a_ap = arith.mulf %alpha, %av : f64
        %rn = arith.subf %rv, %a_ap : f64
        memref.store %rn, %r[%i, %j] : memref<?x?xf64>
      }
    }
    return
  }

  // On the core: p = r + beta p.
  func.func private @update_p(%p: memref<?x?xf64>, %r: memref<?x?xf64>,
                              %beta: f64) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %si = memref.dim %p, %c0 : memref<?x?xf64>
    %sj = memref.dim %p, %c1 : memref<?x?xf64>
    %ei = arith.subi %si, %c1 : index
    %ej = arith.subi %sj, %c1 : index
    scf.for %i = %c1 to %ei step %c1 {
      scf.for %j = %c1 to %ej step %c1 {
        %rv = memref.load %r[%i, %j] : memref<?x?xf64>
        %pv = memref.load %p[%i, %j] : memref<?x?xf64>
        %bp = arith.mulf %beta, %pv : f64
        %pn = arith.addf %rv, %bp : f64
        memref.store %pn, %p[%i, %j] : memref<?x?xf64>
      }
    }
    return
  }

  // CG on the n x n grid over the g0 x g1 grid of the team's `members`
  // members: the iterations run and the final sqrt(r.r).
  func.func private @solve(%n: index, %max_iters: index, %members: index,
                           %me: index, %g0: index, %g1: index)
      -> (index, f64) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c7 = arith.constant 7 : index
    %c11 = arith.constant 11 : index
    %zero = arith.constant 0.0 : f64
    %one = arith.constant 1.0 : f64
    %eighth = arith.constant 0.125 : f64
    %rtol = arith.constant 1.0e-8 : f64
    %true = arith.constant true

    // My block: rows [oi, oi + ni), columns [oj, oj + nj), at grid
    // coordinates (me / g1, me % g1); local (a, b) is global
    // (oi + a - 1, oj + b - 1).
    %r0 = arith.divui %me, %g1 : index
    %r1 = arith.remui %me, %g1 : index
    %ni, %oi = func.call @split(%n, %g0, %r0)
        : (index, index, index) -> (index, index)
    %nj, %oj = func.call @split(%n, %g1, %r1)
        : (index, index, index) -> (index, index)
    %si = arith.addi %ni, %c2 : index
    %sj = arith.addi %nj, %c2 : index
    %x = memref.alloc(%si, %sj) : memref<?x?xf64>
    %r = memref.alloc(%si, %sj) : memref<?x?xf64>
    %p = memref.alloc(%si, %sj) : memref<?x?xf64>
    %ap = memref.alloc(%si, %sj) : memref<?x?xf64>
    linalg.fill ins(%zero : f64) outs(%x : memref<?x?xf64>)
    linalg.fill ins(%zero : f64) outs(%r : memref<?x?xf64>)
    linalg.fill ins(%zero : f64) outs(%p : memref<?x?xf64>)
    linalg.fill ins(%zero : f64) outs(%ap : memref<?x?xf64>)

    // x0 = 0, so r0 = p0 = b: b(i, j) = 1 + ((7 i + 3 j) mod 11) / 8.
    %ei = arith.addi %ni, %c1 : index
    %ej = arith.addi %nj, %c1 : index
    scf.for %a = %c1 to %ei step %c1 {
      %ia = arith.addi %oi, %a : index
      %i = arith.subi %ia, %c1 : index
      scf.for %b = %c1 to %ej step %c1 {
        %jb = arith.addi %oj, %b : index
        %j = arith.subi %jb, %c1 : index
        %i7 = arith.muli %i, %c7 : index
        %j3 = arith.muli %j, %c3 : index
        %s = arith.addi %i7, %j3 : index
        %m = arith.remui %s, %c11 : index
        %mi = arith.index_cast %m : index to i64
        %mf = arith.sitofp %mi : i64 to f64
        %frac = arith.mulf %mf, %eighth : f64
        %bv = arith.addf %one, %frac : f64
        memref.store %bv, %r[%a, %b] : memref<?x?xf64>
        memref.store %bv, %p[%a, %b] : memref<?x?xf64>
      }
    }

    // b.b = r0.r0; stop once sqrt(r.r) < 1e-8 sqrt(b.b).
    %bb = func.call @dot(%r, %r) : (memref<?x?xf64>, memref<?x?xf64>) -> f64
    %bnorm = math.sqrt %bb : f64
    %tol = arith.mulf %rtol, %bnorm : f64
    %iters, %rr_final = scf.while (%k = %c0, %rr = %bb)
        : (index, f64) -> (index, f64) {
      %norm = math.sqrt %rr : f64
      %done = arith.cmpf olt, %norm, %tol : f64
      %more = arith.xori %done, %true : i1
      %room = arith.cmpi ult, %k, %max_iters : index
      %go = arith.andi %more, %room : i1
      scf.condition(%go) %k, %rr : index, f64
    } do {
    ^bb0(%k: index, %rr: f64):
      func.call @matvec(%p, %ap, %g0, %g1)
          : (memref<?x?xf64>, memref<?x?xf64>, index, index) -> ()
      %pap = func.call @dot(%p, %ap)
          : (memref<?x?xf64>, memref<?x?xf64>) -> f64
      %alpha = arith.divf %rr, %pap : f64
      func.call @update_xr(%x, %r, %p, %ap, %alpha)
          : (memref<?x?xf64>, memref<?x?xf64>, memref<?x?xf64>,
             memref<?x?xf64>, f64) -> ()
      %rr_new = func.call @dot(%r, %r)
          : (memref<?x?xf64>, memref<?x?xf64>) -> f64
      %beta = arith.divf %rr_new, %rr : f64
      func.call @update_p(%p, %r, %beta)
          : (memref<?x?xf64>, memref<?x?xf64>, f64) -> ()
      %k1 = arith.addi %k, %c1 : index
      scf.yield %k1, %rr_new : index, f64
    }
    %residual = math.sqrt %rr_final : f64
    memref.dealloc %x : memref<?x?xf64>
    memref.dealloc %r : memref<?x?xf64>
    memref.dealloc %p : memref<?x?xf64>
    memref.dealloc %ap : memref<?x?xf64>
    return %iters, %residual : index, f64
  }

  func.func @main(%argc: i32, %argv: !llvm.ptr) -> i32 {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c500 = arith.constant 500 : index
    %a1 = arith.constant 1 : i32
    %a2 = arith.constant 2 : i32
    %ok = arith.constant 0 : i32
    %n = func.call @arg(%argc, %argv, %a1, %c64)
        : (i32, !llvm.ptr, i32, index) -> index
    %max_iters = func.call @arg(%argc, %argv, %a2, %c500)
        : (i32, !llvm.ptr, i32, index) -> index

    %me = distruntime.team_member team(0)
    %is_root = arith.cmpi eq, %me, %c0 : index
    %members = distruntime.team_size team(0)
    %g:2 = distruntime.dims_create team(0) : index, index
    %iters, %residual = func.call @solve(%n, %max_iters, %members, %me,
                                         %g#0, %g#1)
        : (index, index, index, index, index, index) -> (index, f64)
    scf.if %is_root {
      %k = arith.index_cast %iters : index to i64
      %bits = arith.bitcast %residual : f64 to i64
      %f_iters = llvm.mlir.addressof @fmt_iterations : !llvm.ptr
      %f_res = llvm.mlir.addressof @fmt_residual : !llvm.ptr
      %f_bits = llvm.mlir.addressof @fmt_bits : !llvm.ptr
      %w0 = llvm.call @printf(%f_iters, %k)
          vararg(!llvm.func<i32 (ptr, ...)>) : (!llvm.ptr, i64) -> i32
      %w1 = llvm.call @printf(%f_res, %residual)
          vararg(!llvm.func<i32 (ptr, ...)>) : (!llvm.ptr, f64) -> i32
      %w2 = llvm.call @printf(%f_bits, %bits)
          vararg(!llvm.func<i32 (ptr, ...)>) : (!llvm.ptr, i64) -> i32
    }
    return %ok : i32
  }
}
