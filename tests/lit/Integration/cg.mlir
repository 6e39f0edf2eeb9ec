// The cg example (conjugate gradients on the 64 x 64 Poisson problem,
// update_halo before each product, a global_reduce per dot product)
// compiles without a diagnostic and stops at the same iteration on every
// member.
// At the reproducibility level exact its dot products are correctly
// rounded: at 1, 2, 3 and 4 ranks (and on uneven and empty blocks) it
// prints exactly what examples/cg_reference.py prints (math.fsum dot
// products), iterations and residual bits.
// At the default level (mpi) each member sums its products in row-major
// order and MPI sums the partial sums: at 1 and 2 ranks, where that order
// cannot matter, it prints the bits of cg_reference.py --np P; at 3 and 4
// the same iterations and a residual within 1e-9 relative (--check;
// measured: 1e-11 to 8e-11 at np 1-4, 16 and 64).
// RUN: %distruntime-opt %examples/cg.mlir --distruntime-verify-spmd=warnings-as-errors=1 -o /dev/null
// RUN: %compile %examples/cg.mlir -o %t
// RUN: python3 %examples/cg_reference.py > %t.exact
// RUN: env DISTRT_REPRODUCIBLE=exact %mpirun 1 %t > %t.e1 && diff %t.exact %t.e1
// RUN: env DISTRT_REPRODUCIBLE=exact %mpirun 2 %t > %t.e2 && diff %t.exact %t.e2
// RUN: env DISTRT_REPRODUCIBLE=exact %mpirun 3 %t > %t.e3 && diff %t.exact %t.e3
// RUN: env DISTRT_REPRODUCIBLE=exact %mpirun 4 %t > %t.e4 && diff %t.exact %t.e4
// RUN: python3 %examples/cg_reference.py --np 1 > %t.expected1
// RUN: python3 %examples/cg_reference.py --np 2 > %t.expected2
// RUN: %mpirun 1 %t > %t.np1 && diff %t.expected1 %t.np1
// RUN: %mpirun 2 %t > %t.np2 && diff %t.expected2 %t.np2
// RUN: %mpirun 3 %t > %t.np3
// RUN: %mpirun 4 %t > %t.np4
// RUN: python3 %examples/cg_reference.py --check %t.np1 %t.np2 %t.np3 %t.np4
// RUN: FileCheck %s < %t.np3
// CHECK: iterations {{[0-9]+}}
// CHECK-NEXT: residual {{[0-9]\.[0-9]+e[-+][0-9]+$}}
// CHECK-NEXT: residual_bits 0x{{[0-9a-f]+$}}
// Uneven and empty blocks, stopped early, exact: 5 rows over 3 x 1
// (2 + 2 + 1), 2 rows over 3 x 1 (1 + 1 + 0), 1 x 1 over 2 x 2 (one block of
// one cell, three empty), 3 x 3 over 2 x 2 (2 + 1 each way).
// RUN: python3 %examples/cg_reference.py 5 3 > %t.r5
// RUN: env DISTRT_REPRODUCIBLE=exact %mpirun 3 %t 5 3 > %t.n5 && diff %t.r5 %t.n5
// RUN: python3 %examples/cg_reference.py 2 1 > %t.r2
// RUN: env DISTRT_REPRODUCIBLE=exact %mpirun 3 %t 2 1 > %t.n2 && diff %t.r2 %t.n2
// RUN: python3 %examples/cg_reference.py 1 > %t.r1
// RUN: env DISTRT_REPRODUCIBLE=exact %mpirun 4 %t 1 > %t.n1 && diff %t.r1 %t.n1
// RUN: python3 %examples/cg_reference.py 3 2 > %t.r3
// RUN: env DISTRT_REPRODUCIBLE=exact %mpirun 4 %t 3 2 > %t.n3 && diff %t.r3 %t.n3
// One source for every np: dims_create chooses the grid (5: 5x1, 6: 3x2,
// 7: 7x1, 8: 4x2), the same bits at exact.
// RUN: env DISTRT_REPRODUCIBLE=exact %mpirun 5 %t > %t.e5 && diff %t.exact %t.e5
// RUN: env DISTRT_REPRODUCIBLE=exact %mpirun 6 %t > %t.e6 && diff %t.exact %t.e6
// RUN: env DISTRT_REPRODUCIBLE=exact %mpirun 7 %t > %t.e7 && diff %t.exact %t.e7
// RUN: env DISTRT_REPRODUCIBLE=exact %mpirun 8 %t > %t.e8 && diff %t.exact %t.e8
// A level DISTRT_REPRODUCIBLE does not name is an error on every rank,
// naming the op and where it is.
// RUN: env DISTRT_REPRODUCIBLE=fast not %mpirun 2 %t > %t.badlevel 2>&1
// RUN: FileCheck %s --check-prefix=BADLEVEL < %t.badlevel
// BADLEVEL: distrt: error: global_reduce at {{.*}}cg.mlir:{{[0-9]+}}:{{[0-9]+}}: team 0, rank {{[01]}}: DISTRT_REPRODUCIBLE=fast: expected mpi, ordered or exact
