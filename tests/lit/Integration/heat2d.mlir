// The heat2d example prints the same result at 1 to 8 ranks, equal to
// an independent serial computation (examples/heat2d_reference.py).
// RUN: %compile %examples/heat2d.mlir -o %t
// RUN: python3 %examples/heat2d_reference.py > %t.expected
// RUN: %mpirun 1 %t > %t.np1 && diff %t.expected %t.np1
// RUN: %mpirun 2 %t > %t.np2 && diff %t.expected %t.np2
// RUN: %mpirun 3 %t > %t.np3 && diff %t.expected %t.np3
// RUN: %mpirun 4 %t > %t.np4 && diff %t.expected %t.np4
// The same program at np 5-8 (oversubscribed), no per-np code.
// RUN: %mpirun 5 %t > %t.np5 && diff %t.expected %t.np5
// RUN: %mpirun 6 %t > %t.np6 && diff %t.expected %t.np6
// RUN: %mpirun 7 %t > %t.np7 && diff %t.expected %t.np7
// RUN: %mpirun 8 %t > %t.np8 && diff %t.expected %t.np8
// RUN: FileCheck %s < %t.np3
// CHECK: checksum {{[0-9]+}}
// CHECK-NEXT: residual {{[0-9.e-]+}}
