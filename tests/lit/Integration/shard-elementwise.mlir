// examples/shard/elementwise.mlir (all_slice, a local map and reductions,
// all_reduce of the partial sum and maximum, all_gather of the map) prints
// the serial reference's numbers on grids of 1, 2 and 4, and every process
// holds the same result. (16 elements do not split over 3: MLIR 22's
// shard-partition gives every shard floor(16/3) elements.)
// RUN: python3 %examples/shard/reference.py elementwise > %t.ref
// RUN: grep "^y" %t.ref > %t.y
// RUN: grep "^sum" %t.ref > %t.sum

// RUN: sed 's/@grid(shape = 4)/@grid(shape = 1)/' %examples/shard/elementwise.mlir > %t.1.mlir
// RUN: %compile %t.1.mlir -o %t.1
// RUN: %mpirun 1 %t.1 > %t.1.out
// RUN: grep "^y" %t.1.out | diff %t.y -
// RUN: grep "^sum" %t.1.out | diff %t.sum -

// RUN: sed 's/@grid(shape = 4)/@grid(shape = 2)/' %examples/shard/elementwise.mlir > %t.2.mlir
// RUN: %compile %t.2.mlir -o %t.2
// RUN: %mpirun 2 %t.2 > %t.2.out
// RUN: grep "^y" %t.2.out | diff %t.y -
// RUN: grep "^sum" %t.2.out | sort -u | diff %t.sum -
// RUN: grep -c "^sum" %t.2.out | FileCheck %s --check-prefix=TWO

// RUN: %compile %examples/shard/elementwise.mlir -o %t.4
// RUN: %mpirun 4 %t.4 > %t.4.out
// RUN: grep "^y" %t.4.out | diff %t.y -
// RUN: grep "^sum" %t.4.out | sort -u | diff %t.sum -
// RUN: grep -c "^sum" %t.4.out | FileCheck %s --check-prefix=FOUR

// TWO: 2
// FOUR: 4
