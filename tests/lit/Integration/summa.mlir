// The SUMMA example (collective_broadcast along the rows and columns of the
// grid dims_create picks, groups built at run time, roots by panel owner)
// prints the product's weighted sum and four entries, equal to an
// independent serial product (examples/summa_reference.py), at np 1-8 from
// one program.
// RUN: %compile %examples/summa.mlir -o %t
// RUN: python3 %examples/summa_reference.py 1 > %t.expected1
// RUN: %mpirun 1 %t > %t.np1 && diff %t.expected1 %t.np1
// RUN: python3 %examples/summa_reference.py 2 > %t.expected2
// RUN: %mpirun 2 %t > %t.np2 && diff %t.expected2 %t.np2
// RUN: python3 %examples/summa_reference.py 3 > %t.expected3
// RUN: %mpirun 3 %t > %t.np3 && diff %t.expected3 %t.np3
// RUN: python3 %examples/summa_reference.py 4 > %t.expected4
// RUN: %mpirun 4 %t > %t.np4 && diff %t.expected4 %t.np4
// RUN: python3 %examples/summa_reference.py 5 > %t.expected5
// RUN: %mpirun 5 %t > %t.np5 && diff %t.expected5 %t.np5
// RUN: python3 %examples/summa_reference.py 6 > %t.expected6
// RUN: %mpirun 6 %t > %t.np6 && diff %t.expected6 %t.np6
// RUN: python3 %examples/summa_reference.py 7 > %t.expected7
// RUN: %mpirun 7 %t > %t.np7 && diff %t.expected7 %t.np7
// RUN: python3 %examples/summa_reference.py 8 > %t.expected8
// RUN: %mpirun 8 %t > %t.np8 && diff %t.expected8 %t.np8
// Checked mode compares the groups and roots at every call.
// RUN: env DISTRT_CHECK=1 %mpirun 6 %t > %t.np6c && diff %t.expected6 %t.np6c
