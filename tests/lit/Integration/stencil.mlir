// The parametrised stencil example (size and steps from argv) prints the
// same checksum at 1 to 8 ranks, with and without overlap (by hand or by
// the compiler), equal to an independent serial computation
// (examples/stencil_reference.py); N = 37 does not divide by 2, 3 or 4, and
// N = 5 at 4 ranks leaves one row each.
// RUN: %compile %examples/stencil.mlir -o %t
// RUN: python3 %examples/stencil_reference.py 37 50 > %t.expected
// RUN: %mpirun 1 %t 37 50 > %t.np1 && diff %t.expected %t.np1
// RUN: %mpirun 2 %t 37 50 > %t.np2 && diff %t.expected %t.np2
// RUN: %mpirun 2 %t 37 50 0 > %t.np2b && diff %t.expected %t.np2b
// RUN: %mpirun 3 %t 37 50 1 > %t.np3 && diff %t.expected %t.np3
// RUN: %mpirun 4 %t 37 50 0 > %t.np4b && diff %t.expected %t.np4b
// RUN: %mpirun 4 %t 37 50 1 > %t.np4 && diff %t.expected %t.np4
// The step written sync (overlap = 2), split and overlapped by the
// compiler, gives the serial reference's checksum too; compiled without
// the passes, the same.
// RUN: %mpirun 1 %t 37 50 2 > %t.np1s && diff %t.expected %t.np1s
// RUN: %mpirun 2 %t 37 50 2 > %t.np2s && diff %t.expected %t.np2s
// RUN: %mpirun 3 %t 37 50 2 > %t.np3s && diff %t.expected %t.np3s
// RUN: %mpirun 4 %t 37 50 2 > %t.np4s && diff %t.expected %t.np4s
// The same program at np 5-8 (oversubscribed), no per-np code.
// RUN: %mpirun 5 %t 37 50 1 > %t.np5 && diff %t.expected %t.np5
// RUN: %mpirun 6 %t 37 50 2 > %t.np6s && diff %t.expected %t.np6s
// RUN: %mpirun 7 %t 37 50 0 > %t.np7b && diff %t.expected %t.np7b
// RUN: %mpirun 8 %t 37 50 2 > %t.np8s && diff %t.expected %t.np8s
// RUN: DISTRUNTIME_PIPELINE_OPTIONS="overlap-halo=0 async-collectives=0" %compile %examples/stencil.mlir -o %t.off
// RUN: %mpirun 3 %t.off 37 50 2 > %t.np3off && diff %t.expected %t.np3off
// RUN: python3 %examples/stencil_reference.py 5 9 > %t.small
// RUN: %mpirun 4 %t 5 9 > %t.small4 && diff %t.small %t.small4
// RUN: %mpirun 4 %t 5 9 2 > %t.small4s && diff %t.small %t.small4s
// The defaults (64 x 64, 100 steps).
// RUN: python3 %examples/stencil_reference.py > %t.default
// RUN: %mpirun 3 %t > %t.default3 && diff %t.default %t.default3
// A grid smaller than the team is refused on every rank.
// RUN: not %mpirun 4 %t 3 1 2>&1 | FileCheck %s
// CHECK: stencil: need 3 <= N, P <= N and steps >= 0
