// The heat2d example prints the same result at 1, 2, 3 and 4 ranks, equal to
// an independent serial computation (examples/heat2d_reference.py).
// RUN: %compile %examples/heat2d.mlir -o %t
// RUN: python3 %examples/heat2d_reference.py > %t.expected
// RUN: %mpirun 1 %t > %t.np1 && diff %t.expected %t.np1
// RUN: %mpirun 2 %t > %t.np2 && diff %t.expected %t.np2
// RUN: %mpirun 3 %t > %t.np3 && diff %t.expected %t.np3
// RUN: %mpirun 4 %t > %t.np4 && diff %t.expected %t.np4
// RUN: FileCheck %s < %t.np3
// CHECK: checksum {{[0-9]+}}
// CHECK-NEXT: residual {{[0-9.e-]+}}
