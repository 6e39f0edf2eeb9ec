// A compiled program started without mpirun runs as one process (MPI
// singleton init by the runtime's lazy MPI_Init): heat2d prints what it
// prints under `mpirun -np 1`. (A sanitized build checks no leaks in the
// compiled programs, as %mpirun.)
// RUN: %compile %examples/heat2d.mlir -o %t
// RUN: %mpirun 1 %t > %t.np1
// RUN: %ompi-session bash -c 'ASAN_OPTIONS=$ASAN_OPTIONS:detect_leaks=0 timeout -k 5 120 %t > %t.direct'
// RUN: diff %t.np1 %t.direct
// RUN: FileCheck %s < %t.direct
// CHECK: checksum {{[0-9]+}}
// CHECK-NEXT: residual {{[0-9.e-]+}}
