// tests/smpi/repro.mlir (exact sums: a global_reduce of 4,096 values split
// over the members, and an all_reduce whose large values cancel in pairs)
// prints the correctly rounded sums at 4, 5 and 6 ranks on a real MPI, as
// it does under SMPI up to 1,024 simulated ranks (tests/smpi).
// RUN: %compile %S/../../smpi/repro.mlir -o %t
// RUN: python3 %S/../../smpi/repro_reference.py > %t.expected
// RUN: %mpirun 4 %t > %t.np4 && diff %t.expected %t.np4
// RUN: %mpirun 5 %t > %t.np5 && diff %t.expected %t.np5
// RUN: %mpirun 6 %t > %t.np6 && diff %t.expected %t.np6
