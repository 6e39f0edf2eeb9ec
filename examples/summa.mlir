// SUMMA matrix multiply C = A B of N x N f64 matrices (N = 420) on the
// pr x pc process grid dims_create picks for the team (any np whose grid
// divides 420: np 1-8 among others). Rank r = pc row + col holds the
// (N / pr) x (N / pc) blocks A[row][col], B[row][col] and computes
// C[row][col]. The k dimension goes in panels of w = gcd(N / pr, N / pc)
// columns of A (rows of B), so that one process owns each panel: at step k
// the owner of A's panel broadcasts it along its grid row and the owner of
// B's panel along its grid column (collective_broadcast over groups built
// from the grid at run time, from the owner's position); every process
// then accumulates C[row][col] += A_panel B_panel (linalg.matmul). The two
// broadcasts of a step run together (async, then both waits).
//
// A(i, j) = (i + 2 j) mod 13 - 5, B(i, j) = (3 i + j) mod 11 - 4: small
// integers, so the product is exact; their periods in k (13 and 11) divide
// neither N nor a panel's width, so a panel out of place changes C. Rank 0 prints the grid, the weighted
// sum of C's entries with weights (i + 1)(j + 2), and four entries
// (combined with allreduce).
//
// Run:      ./scripts/run.sh examples/summa.mlir -np 4
// Check:    python3 examples/summa_reference.py 4

module {
  // Block x of a matrix with entries (a i + b j) mod m - h, its first
  // element at (r0, c0).
  func.func private @fill_block(%x: memref<?x?xf64>, %r0: index, %c0g: index,
                                %a: index, %b: index, %m: index, %h: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %rows = memref.dim %x, %c0 : memref<?x?xf64>
    %cols = memref.dim %x, %c1 : memref<?x?xf64>
    %hi = arith.index_cast %h : index to i64
    scf.for %li = %c0 to %rows step %c1 {
      scf.for %lj = %c0 to %cols step %c1 {
        %i = arith.addi %r0, %li : index
        %j = arith.addi %c0g, %lj : index
        %ai = arith.muli %a, %i : index
        %bj = arith.muli %b, %j : index
        %s = arith.addi %ai, %bj : index
        %mod = arith.remui %s, %m : index
        %mi = arith.index_cast %mod : index to i64
        %d = arith.subi %mi, %hi : i64
        %v = arith.sitofp %d : i64 to f64
        memref.store %v, %x[%li, %lj] : memref<?x?xf64>
      }
    }
    return
  }

  // Greatest common divisor.
  func.func private @gcd(%a: index, %b: index) -> index {
    %c0 = arith.constant 0 : index
    %r:2 = scf.while (%x = %a, %y = %b) : (index, index) -> (index, index) {
      %more = arith.cmpi ne, %y, %c0 : index
      scf.condition(%more) %x, %y : index, index
    } do {
    ^bb0(%x: index, %y: index):
      %m = arith.remui %x, %y : index
      scf.yield %y, %m : index, index
    }
    return %r#0 : index
  }

  func.func @main() -> i32 {
    %c0 = arith.constant 0 : index
    %N = arith.constant 420 : index
    %me = distruntime.team_member team(0)
    %is_root = arith.cmpi eq, %me, %c0 : index
    %g:2 = distruntime.dims_create team(0) : index, index
    %pr64 = arith.index_cast %g#0 : index to i64
    %pc64 = arith.index_cast %g#1 : index to i64
    %rem_r = arith.remui %N, %g#0 : index
    %rem_c = arith.remui %N, %g#1 : index
    %uneven = arith.ori %rem_r, %rem_c : index
    %bad = arith.cmpi ne, %uneven, %c0 : index
    %status = scf.if %bad -> i32 {
      scf.if %is_root {
        vector.print str "summa: the grid "
        vector.print %pr64 : i64 punctuation <no_punctuation>
        vector.print str " x "
        vector.print %pc64 : i64 punctuation <no_punctuation>
        vector.print str " does not divide N = 420\n"
      }
      %one = arith.constant 1 : i32
      scf.yield %one : i32
    } else {
      func.call @summa(%g#0, %g#1, %N) : (index, index, index) -> ()
      %ok = arith.constant 0 : i32
      scf.yield %ok : i32
    }
    return %status : i32
  }

  func.func private @summa(%pr: index, %pc: index, %N: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %c5 = arith.constant 5 : index
    %c11 = arith.constant 11 : index
    %c13 = arith.constant 13 : index
    %zero = arith.constant 0.0 : f64
    %me = distruntime.team_member team(0)
    %row = arith.divui %me, %pc : index
    %col = arith.remui %me, %pc : index
    %mb = arith.divui %N, %pr : index
    %nb = arith.divui %N, %pc : index
    %w = func.call @gcd(%mb, %nb) : (index, index) -> index
    %r0 = arith.muli %row, %mb : index
    %c0g = arith.muli %col, %nb : index

    %a = memref.alloc(%mb, %nb) : memref<?x?xf64>
    %b = memref.alloc(%mb, %nb) : memref<?x?xf64>
    func.call @fill_block(%a, %r0, %c0g, %c1, %c2, %c13, %c5)
        : (memref<?x?xf64>, index, index, index, index, index, index) -> ()
    func.call @fill_block(%b, %r0, %c0g, %c3, %c1, %c11, %c4)
        : (memref<?x?xf64>, index, index, index, index, index, index) -> ()
    %apanel = memref.alloc(%mb, %w) : memref<?x?xf64>
    %bpanel = memref.alloc(%w, %nb) : memref<?x?xf64>
    %cblk = memref.alloc(%mb, %nb) : memref<?x?xf64>
    linalg.fill ins(%zero : f64) outs(%cblk : memref<?x?xf64>)

    // The grid's rows (group i: ranks i pc + j, position j = grid column)
    // and columns (group j: ranks i pc + j, position i = grid row).
    %rows = memref.alloc(%pr, %pc) : memref<?x?xi64>
    %cols = memref.alloc(%pc, %pr) : memref<?x?xi64>
    scf.for %i = %c0 to %pr step %c1 {
      scf.for %j = %c0 to %pc step %c1 {
        %q0 = arith.muli %i, %pc : index
        %q = arith.addi %q0, %j : index
        %q64 = arith.index_cast %q : index to i64
        memref.store %q64, %rows[%i, %j] : memref<?x?xi64>
        memref.store %q64, %cols[%j, %i] : memref<?x?xi64>
      }
    }
    %aroot = memref.alloc() : memref<1xi32>
    %broot = memref.alloc() : memref<1xi32>

    scf.for %k = %c0 to %N step %w {
      // The panel's owners: the grid column holding A's columns k..k+w and
      // the grid row holding B's rows k..k+w.
      %ocol = arith.divui %k, %nb : index
      %orow = arith.divui %k, %mb : index
      %ocol32 = arith.index_cast %ocol : index to i32
      %orow32 = arith.index_cast %orow : index to i32
      memref.store %ocol32, %aroot[%c0] : memref<1xi32>
      memref.store %orow32, %broot[%c0] : memref<1xi32>
      %a_owner = arith.cmpi eq, %col, %ocol : index
      scf.if %a_owner {
        %off = arith.remui %k, %nb : index
        %src = memref.subview %a[0, %off] [%mb, %w] [1, 1]
            : memref<?x?xf64> to memref<?x?xf64, strided<[?, 1], offset: ?>>
        memref.copy %src, %apanel
            : memref<?x?xf64, strided<[?, 1], offset: ?>> to memref<?x?xf64>
      }
      %b_owner = arith.cmpi eq, %row, %orow : index
      scf.if %b_owner {
        %off = arith.remui %k, %mb : index
        %src = memref.subview %b[%off, 0] [%w, %nb] [1, 1]
            : memref<?x?xf64> to memref<?x?xf64, strided<[?, 1], offset: ?>>
        memref.copy %src, %bpanel
            : memref<?x?xf64, strided<[?, 1], offset: ?>> to memref<?x?xf64>
      }
      %ha = distruntime.collective_broadcast ins(%apanel : memref<?x?xf64>)
          roots(%aroot : memref<1xi32>) outs(%apanel : memref<?x?xf64>)
          replica_groups(%rows : memref<?x?xi64>) async
      %hb = distruntime.collective_broadcast ins(%bpanel : memref<?x?xf64>)
          roots(%broot : memref<1xi32>) outs(%bpanel : memref<?x?xf64>)
          replica_groups(%cols : memref<?x?xi64>) async
      distruntime.wait %ha
      distruntime.wait %hb
      linalg.matmul ins(%apanel, %bpanel : memref<?x?xf64>, memref<?x?xf64>)
          outs(%cblk : memref<?x?xf64>)
    }

    // out = [sum of (i + 1)(j + 2) C(i, j), C(0, 0), C(101, 377),
    // C(263, 54), C(419, 419)]: each process adds its block's sum and the
    // entries it owns; allreduce.
    %out = memref.alloc() : memref<5xf64>
    linalg.fill ins(%zero : f64) outs(%out : memref<5xf64>)
    %sum = scf.for %i = %c0 to %mb step %c1 iter_args(%acc = %zero) -> (f64) {
      %gi = arith.addi %r0, %i : index
      %gi1 = arith.addi %gi, %c1 : index
      %rs = scf.for %j = %c0 to %nb step %c1 iter_args(%racc = %acc) -> (f64) {
        %x = memref.load %cblk[%i, %j] : memref<?x?xf64>
        %gj = arith.addi %c0g, %j : index
        %gj2 = arith.addi %gj, %c2 : index
        %wt = arith.muli %gi1, %gj2 : index
        %wi = arith.index_cast %wt : index to i64
        %wf = arith.sitofp %wi : i64 to f64
        %xw = arith.mulf %x, %wf : f64
        %s = arith.addf %racc, %xw : f64
        scf.yield %s : f64
      }
      scf.yield %rs : f64
    }
    memref.store %sum, %out[%c0] : memref<5xf64>
    %picks = arith.constant dense<[[0, 0], [101, 377], [263, 54], [419, 419]]> : tensor<4x2xindex>
    scf.for %p = %c0 to %c4 step %c1 {
      %gi = tensor.extract %picks[%p, %c0] : tensor<4x2xindex>
      %gj = tensor.extract %picks[%p, %c1] : tensor<4x2xindex>
      %bi = arith.divui %gi, %mb : index
      %bj = arith.divui %gj, %nb : index
      %mine_r = arith.cmpi eq, %bi, %row : index
      %mine_c = arith.cmpi eq, %bj, %col : index
      %mine = arith.andi %mine_r, %mine_c : i1
      scf.if %mine {
        %li = arith.remui %gi, %mb : index
        %lj = arith.remui %gj, %nb : index
        %x = memref.load %cblk[%li, %lj] : memref<?x?xf64>
        %slot = arith.addi %p, %c1 : index
        memref.store %x, %out[%slot] : memref<5xf64>
      }
    }
    distruntime.allreduce <sum> %out team(0) : memref<5xf64>

    %is_root = arith.cmpi eq, %me, %c0 : index
    scf.if %is_root {
      %pr64 = arith.index_cast %pr : index to i64
      %pc64 = arith.index_cast %pc : index to i64
      vector.print str "grid "
      vector.print %pr64 : i64 punctuation <no_punctuation>
      vector.print str " x "
      vector.print %pc64 : i64
      %s = memref.load %out[%c0] : memref<5xf64>
      %si = arith.fptosi %s : f64 to i64
      vector.print str "checksum "
      vector.print %si : i64
      %c5i = arith.constant 5 : index
      scf.for %p = %c1 to %c5i step %c1 {
        %pm = arith.subi %p, %c1 : index
        %gi = tensor.extract %picks[%pm, %c0] : tensor<4x2xindex>
        %gj = tensor.extract %picks[%pm, %c1] : tensor<4x2xindex>
        %gi64 = arith.index_cast %gi : index to i64
        %gj64 = arith.index_cast %gj : index to i64
        %x = memref.load %out[%p] : memref<5xf64>
        %xi = arith.fptosi %x : f64 to i64
        vector.print str "C("
        vector.print %gi64 : i64 punctuation <no_punctuation>
        vector.print str ", "
        vector.print %gj64 : i64 punctuation <no_punctuation>
        vector.print str ") = "
        vector.print %xi : i64
      }
    }
    memref.dealloc %a : memref<?x?xf64>
    memref.dealloc %b : memref<?x?xf64>
    memref.dealloc %apanel : memref<?x?xf64>
    memref.dealloc %bpanel : memref<?x?xf64>
    memref.dealloc %cblk : memref<?x?xf64>
    memref.dealloc %rows : memref<?x?xi64>
    memref.dealloc %cols : memref<?x?xi64>
    memref.dealloc %aroot : memref<1xi32>
    memref.dealloc %broot : memref<1xi32>
    memref.dealloc %out : memref<5xf64>
    return
  }
}
