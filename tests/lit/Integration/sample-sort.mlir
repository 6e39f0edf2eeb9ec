// The sample_sort example (10^6 integers, ragged_all_to_all sized by the
// data) prints the same lines at np 1-8 (oversubscribed), equal to an
// independent serial sort (examples/sample_sort_reference.py); compiled
// with the verifier on, it gets no warning (members hold rows in any
// number).
// RUN: %compile %examples/sample_sort.mlir -o %t 2>&1 | FileCheck %s --check-prefix=COMPILE --allow-empty
// RUN: python3 %examples/sample_sort_reference.py > %t.expected
// RUN: %mpirun 1 %t > %t.np1 && diff %t.expected %t.np1
// RUN: %mpirun 2 %t > %t.np2 && diff %t.expected %t.np2
// RUN: %mpirun 3 %t > %t.np3 && diff %t.expected %t.np3
// RUN: %mpirun 4 %t > %t.np4 && diff %t.expected %t.np4
// RUN: %mpirun 5 %t > %t.np5 && diff %t.expected %t.np5
// RUN: %mpirun 6 %t > %t.np6 && diff %t.expected %t.np6
// RUN: %mpirun 7 %t > %t.np7 && diff %t.expected %t.np7
// RUN: %mpirun 8 %t > %t.np8 && diff %t.expected %t.np8
// RUN: FileCheck %s < %t.np8
// COMPILE-NOT: warning
// CHECK: count 1000000
// CHECK-NEXT: sum {{[0-9]+}}
// CHECK: sorted yes
