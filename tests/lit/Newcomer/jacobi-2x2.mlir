// A newcomer's second program: Jacobi on a 10 x 8 grid split over a 2 x 2
// process grid with update_halo (a frame of one cell), written from the
// guide. Member m holds block (m / 2, m % 2) of 5 x 4 cells inside a 7 x 6
// buffer; the grid's edge keeps its values. The checksum (the sum of
// int(u * 2^20), exact) and the last step's largest change must equal the
// serial reference, examples/heat2d_reference.py's jacobi().
// RUN: %compile %s -o %t
// RUN: %mpirun 4 %t > %t.out
// RUN: python3 -c "import sys; sys.path.insert(0, '%examples'); import heat2d_reference as h; u, r = h.jacobi(10, 8, 20); print(h.checksum(u)); print('%%.17g' %% r)" > %t.expected
// RUN: diff %t.expected %t.out
// A team that is not 2 x 2 is an error naming the op, not a hang.
// RUN: not %mpirun 3 %t 2>&1 | FileCheck %s --check-prefix=NP3
// NP3: distrt: error: update_halo at {{.*}}jacobi-2x2.mlir:{{[0-9]+}}:{{[0-9]+}}: team 0, rank {{[0-2]}}: the grid [2, 2] has 4 processes but the team has 3
module {
  llvm.func @printf(!llvm.ptr, ...) -> i32
  llvm.mlir.global internal constant @fmt("%.17g\0A\00") {addr_space = 0 : i32}

  func.func @main() -> i32 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %c5 = arith.constant 5 : index
    %c6 = arith.constant 6 : index
    %c7 = arith.constant 7 : index
    %c8 = arith.constant 8 : index
    %c9 = arith.constant 9 : index
    %c11 = arith.constant 11 : index
    %c20 = arith.constant 20 : index
    %quarter = arith.constant 0.25 : f64
    %zero = arith.constant 0.0 : f64
    %scale = arith.constant 1048576.0 : f64

    // Block (bi, bj) holds global rows [5 bi, 5 bi + 5), columns [4 bj, 4 bj + 4).
    %me = distruntime.team_member team(0)
    %bi = arith.divui %me, %c2 : index
    %bj = arith.remui %me, %c2 : index
    %row0 = arith.muli %bi, %c5 : index
    %col0 = arith.muli %bj, %c4 : index

    // u(i, j) = (7 i + 3 j) mod 11 on the core; local (li, lj) = global
    // (row0 + li - 1, col0 + lj - 1).
    %u = memref.alloc() : memref<7x6xf64>
    %v = memref.alloc() : memref<7x6xf64>
    linalg.fill ins(%zero : f64) outs(%u : memref<7x6xf64>)
    scf.for %li = %c1 to %c6 step %c1 {
      scf.for %lj = %c1 to %c5 step %c1 {
        %i0 = arith.addi %row0, %li : index
        %i = arith.subi %i0, %c1 : index
        %j0 = arith.addi %col0, %lj : index
        %j = arith.subi %j0, %c1 : index
        %a = arith.muli %i, %c7 : index
        %b = arith.muli %j, %c3 : index
        %s = arith.addi %a, %b : index
        %m = arith.remui %s, %c11 : index
        %mi = arith.index_cast %m : index to i64
        %x = arith.sitofp %mi : i64 to f64
        memref.store %x, %u[%li, %lj] : memref<7x6xf64>
      }
    }

    %res = memref.alloc() : memref<1xf64>
    scf.for %step = %c0 to %c20 step %c1 {
      // Fill the frame from the neighbours (rows on grid axis 0, columns on 1).
      distruntime.update_halo %u grid [2, 2] split_axes [[0], [1]]
          halo_sizes [1, 1, 1, 1] key(1) : memref<7x6xf64>
      memref.store %zero, %res[%c0] : memref<1xf64>
      scf.for %li = %c1 to %c6 step %c1 {
        scf.for %lj = %c1 to %c5 step %c1 {
          %i0 = arith.addi %row0, %li : index
          %i = arith.subi %i0, %c1 : index
          %j0 = arith.addi %col0, %lj : index
          %j = arith.subi %j0, %c1 : index
          %mid = memref.load %u[%li, %lj] : memref<7x6xf64>
          // Interior cells of the global grid change; its edge does not.
          %i_lo = arith.cmpi uge, %i, %c1 : index
          %i_hi = arith.cmpi ult, %i, %c9 : index
          %j_lo = arith.cmpi uge, %j, %c1 : index
          %j_hi = arith.cmpi ult, %j, %c7 : index
          %in_i = arith.andi %i_lo, %i_hi : i1
          %in_j = arith.andi %j_lo, %j_hi : i1
          %inside = arith.andi %in_i, %in_j : i1
          %new = scf.if %inside -> f64 {
            %lu = arith.subi %li, %c1 : index
            %ld = arith.addi %li, %c1 : index
            %ll = arith.subi %lj, %c1 : index
            %lr = arith.addi %lj, %c1 : index
            %up = memref.load %u[%lu, %lj] : memref<7x6xf64>
            %dn = memref.load %u[%ld, %lj] : memref<7x6xf64>
            %lt = memref.load %u[%li, %ll] : memref<7x6xf64>
            %rt = memref.load %u[%li, %lr] : memref<7x6xf64>
            %s1 = arith.addf %up, %dn : f64
            %s2 = arith.addf %s1, %lt : f64
            %s3 = arith.addf %s2, %rt : f64
            %n = arith.mulf %s3, %quarter : f64
            %d = arith.subf %n, %mid : f64
            %ad = math.absf %d : f64
            %r0 = memref.load %res[%c0] : memref<1xf64>
            %r1 = arith.maximumf %r0, %ad : f64
            memref.store %r1, %res[%c0] : memref<1xf64>
            scf.yield %n : f64
          } else {
            scf.yield %mid : f64
          }
          memref.store %new, %v[%li, %lj] : memref<7x6xf64>
        }
      }
      scf.for %li = %c1 to %c6 step %c1 {
        scf.for %lj = %c1 to %c5 step %c1 {
          %x = memref.load %v[%li, %lj] : memref<7x6xf64>
          memref.store %x, %u[%li, %lj] : memref<7x6xf64>
        }
      }
    }

    // Exact checksum and the largest change, over the team.
    %sum = memref.alloc() : memref<1xi64>
    %z = arith.constant 0 : i64
    memref.store %z, %sum[%c0] : memref<1xi64>
    scf.for %li = %c1 to %c6 step %c1 {
      scf.for %lj = %c1 to %c5 step %c1 {
        %x = memref.load %u[%li, %lj] : memref<7x6xf64>
        %xs = arith.mulf %x, %scale : f64
        %xi = arith.fptosi %xs : f64 to i64
        %acc = memref.load %sum[%c0] : memref<1xi64>
        %acc1 = arith.addi %acc, %xi : i64
        memref.store %acc1, %sum[%c0] : memref<1xi64>
      }
    }
    distruntime.all_reduce ins(%sum : memref<1xi64>) outs(%sum : memref<1xi64>)
        {reduction = #distruntime.reduction<sum>, replica_groups = dense<> : tensor<0x0xi64>}
    distruntime.all_reduce ins(%res : memref<1xf64>) outs(%res : memref<1xf64>)
        {reduction = #distruntime.reduction<max>, replica_groups = dense<> : tensor<0x0xi64>}
    %is0 = arith.cmpi eq, %me, %c0 : index
    scf.if %is0 {
      %total = memref.load %sum[%c0] : memref<1xi64>
      vector.print %total : i64
      %r = memref.load %res[%c0] : memref<1xf64>
      %fmt = llvm.mlir.addressof @fmt : !llvm.ptr
      %w = llvm.call @printf(%fmt, %r) vararg(!llvm.func<i32 (ptr, ...)>) : (!llvm.ptr, f64) -> i32
    }
    %ok = arith.constant 0 : i32
    return %ok : i32
  }
}
