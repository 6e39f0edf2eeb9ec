// SUMMA matrix multiply C = A B of 16 x 16 f64 matrices on a 2 x 2 process
// grid (np = 4): rank 2 r + c holds the 8 x 8 blocks A[r][c], B[r][c] and
// computes C[r][c]. At step k the owner of A[r][k] broadcasts it along
// grid row r and the owner of B[k][c] broadcasts it along grid column c
// (collective_broadcast, each group listed root first); every process then
// accumulates C[r][c] += A[r][k] B[k][c] (linalg.matmul). The two
// broadcasts of a step run together (async, then both waits).
//
// A(i, j) = (i + 2 j) mod 5 - 2, B(i, j) = (3 i + j) mod 7 - 3: small
// integers, so the product is exact. Rank 0 prints a weighted sum of C's entries
// and four of them (combined with allreduce).
//
// Run:      ./scripts/run.sh examples/summa.mlir -np 4
// Check:    python3 examples/summa_reference.py

module attributes {distruntime.num_replicas = 4 : i64} {
  // The 8 x 8 block (r, c) of a matrix with entries (a i + b j) mod m - h.
  func.func private @fill_block(%x: memref<8x8xf64>, %r: index, %c: index,
                                %a: index, %b: index, %m: index, %h: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %r0 = arith.muli %r, %c8 : index
    %c0g = arith.muli %c, %c8 : index
    scf.for %li = %c0 to %c8 step %c1 {
      scf.for %lj = %c0 to %c8 step %c1 {
        %i = arith.addi %r0, %li : index
        %j = arith.addi %c0g, %lj : index
        %ai = arith.muli %a, %i : index
        %bj = arith.muli %b, %j : index
        %s = arith.addi %ai, %bj : index
        %mod = arith.remui %s, %m : index
        %mi = arith.index_cast %mod : index to i64
        %hi = arith.index_cast %h : index to i64
        %d = arith.subi %mi, %hi : i64
        %v = arith.sitofp %d : i64 to f64
        memref.store %v, %x[%li, %lj] : memref<8x8xf64>
      }
    }
    return
  }

  func.func @main() -> i32 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c5 = arith.constant 5 : index
    %c7 = arith.constant 7 : index
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    %zero = arith.constant 0.0 : f64
    %me = distruntime.team_member team(0)
    %row = arith.divui %me, %c2 : index
    %col = arith.remui %me, %c2 : index

    %a = memref.alloc() : memref<8x8xf64>
    %b = memref.alloc() : memref<8x8xf64>
    func.call @fill_block(%a, %row, %col, %c1, %c2, %c5, %c2)
        : (memref<8x8xf64>, index, index, index, index, index, index) -> ()
    func.call @fill_block(%b, %row, %col, %c3, %c1, %c7, %c3)
        : (memref<8x8xf64>, index, index, index, index, index, index) -> ()
    %abuf = memref.alloc() : memref<8x8xf64>
    %bbuf = memref.alloc() : memref<8x8xf64>
    %cblk = memref.alloc() : memref<8x8xf64>
    linalg.fill ins(%zero : f64) outs(%cblk : memref<8x8xf64>)

    // Step k = 0: roots in grid column 0 (A) and grid row 0 (B).
    %a_root0 = arith.cmpi eq, %col, %c0 : index
    scf.if %a_root0 {
      memref.copy %a, %abuf : memref<8x8xf64> to memref<8x8xf64>
    }
    %b_root0 = arith.cmpi eq, %row, %c0 : index
    scf.if %b_root0 {
      memref.copy %b, %bbuf : memref<8x8xf64> to memref<8x8xf64>
    }
    %ha0 = distruntime.collective_broadcast ins(%abuf : memref<8x8xf64>)
        outs(%abuf : memref<8x8xf64>) async
        {replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>}
    %hb0 = distruntime.collective_broadcast ins(%bbuf : memref<8x8xf64>)
        outs(%bbuf : memref<8x8xf64>) async
        {replica_groups = dense<[[0, 2], [1, 3]]> : tensor<2x2xi64>}
    distruntime.wait %ha0
    distruntime.wait %hb0
    linalg.matmul ins(%abuf, %bbuf : memref<8x8xf64>, memref<8x8xf64>)
        outs(%cblk : memref<8x8xf64>)

    // Step k = 1: roots in grid column 1 (A) and grid row 1 (B), listed
    // first in their groups.
    %a_root1 = arith.cmpi eq, %col, %c1 : index
    scf.if %a_root1 {
      memref.copy %a, %abuf : memref<8x8xf64> to memref<8x8xf64>
    }
    %b_root1 = arith.cmpi eq, %row, %c1 : index
    scf.if %b_root1 {
      memref.copy %b, %bbuf : memref<8x8xf64> to memref<8x8xf64>
    }
    %ha1 = distruntime.collective_broadcast ins(%abuf : memref<8x8xf64>)
        outs(%abuf : memref<8x8xf64>) async
        {replica_groups = dense<[[1, 0], [3, 2]]> : tensor<2x2xi64>}
    %hb1 = distruntime.collective_broadcast ins(%bbuf : memref<8x8xf64>)
        outs(%bbuf : memref<8x8xf64>) async
        {replica_groups = dense<[[2, 0], [3, 1]]> : tensor<2x2xi64>}
    distruntime.wait %ha1
    distruntime.wait %hb1
    linalg.matmul ins(%abuf, %bbuf : memref<8x8xf64>, memref<8x8xf64>)
        outs(%cblk : memref<8x8xf64>)

    // out = [sum of (16 i + j + 1) C(i, j), C(0, 0), C(5, 11), C(9, 2), C(15, 15)]: each
    // process adds its block's sum and the entries it owns; allreduce.
    %out = memref.alloc() : memref<5xf64>
    linalg.fill ins(%zero : f64) outs(%out : memref<5xf64>)
    %sum = scf.for %i = %c0 to %c8 step %c1 iter_args(%acc = %zero) -> (f64) {
      %rs = scf.for %j = %c0 to %c8 step %c1 iter_args(%racc = %acc) -> (f64) {
        %x = memref.load %cblk[%i, %j] : memref<8x8xf64>
        // Weight 16 gi + gj + 1, so that misplaced blocks show.
        %r8 = arith.muli %row, %c8 : index
        %gi = arith.addi %r8, %i : index
        %k8 = arith.muli %col, %c8 : index
        %gj = arith.addi %k8, %j : index
        %g16 = arith.muli %gi, %c16 : index
        %g = arith.addi %g16, %gj : index
        %g1 = arith.addi %g, %c1 : index
        %gw = arith.index_cast %g1 : index to i64
        %w = arith.sitofp %gw : i64 to f64
        %xw = arith.mulf %x, %w : f64
        %s = arith.addf %racc, %xw : f64
        scf.yield %s : f64
      }
      scf.yield %rs : f64
    }
    memref.store %sum, %out[%c0] : memref<5xf64>
    %picks = arith.constant dense<[[0, 0], [5, 11], [9, 2], [15, 15]]> : tensor<4x2xindex>
    %c4 = arith.constant 4 : index
    scf.for %p = %c0 to %c4 step %c1 {
      %gi = tensor.extract %picks[%p, %c0] : tensor<4x2xindex>
      %gj = tensor.extract %picks[%p, %c1] : tensor<4x2xindex>
      %bi = arith.divui %gi, %c8 : index
      %bj = arith.divui %gj, %c8 : index
      %mine_r = arith.cmpi eq, %bi, %row : index
      %mine_c = arith.cmpi eq, %bj, %col : index
      %mine = arith.andi %mine_r, %mine_c : i1
      scf.if %mine {
        %li = arith.remui %gi, %c8 : index
        %lj = arith.remui %gj, %c8 : index
        %x = memref.load %cblk[%li, %lj] : memref<8x8xf64>
        %slot = arith.addi %p, %c1 : index
        memref.store %x, %out[%slot] : memref<5xf64>
      }
    }
    distruntime.allreduce <sum> %out team(0) : memref<5xf64>

    %is_root = arith.cmpi eq, %me, %c0 : index
    scf.if %is_root {
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
    %ok = arith.constant 0 : i32
    return %ok : i32
  }
}
