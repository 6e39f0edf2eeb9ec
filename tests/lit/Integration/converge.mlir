// The converge example (a solver that loops until an in-place all_reduce's
// result is below a tolerance) compiles without a diagnostic, stops at the
// same step on every member, and prints the same result at 1, 2, 3 and 4
// ranks, equal to an independent serial computation
// (examples/converge_reference.py).
// RUN: %distruntime-opt %examples/converge.mlir --distruntime-verify-spmd=warnings-as-errors=1 -o /dev/null
// RUN: %compile %examples/converge.mlir -o %t
// RUN: python3 %examples/converge_reference.py > %t.expected
// RUN: %mpirun 1 %t > %t.np1 && diff %t.expected %t.np1
// RUN: %mpirun 2 %t > %t.np2 && diff %t.expected %t.np2
// RUN: %mpirun 3 %t > %t.np3 && diff %t.expected %t.np3
// RUN: %mpirun 4 %t > %t.np4 && diff %t.expected %t.np4
// RUN: FileCheck %s < %t.np3
// CHECK: steps {{[0-9]+}}
// CHECK-NEXT: residual {{[0-9.e-]+}}
// CHECK-NEXT: checksum {{[0-9]+}}
