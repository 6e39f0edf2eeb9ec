// The SUMMA example (collective_broadcast along the rows and columns of a
// 2 x 2 grid) prints the product's weighted sum and four entries, equal to
// an independent serial product (examples/summa_reference.py).
// RUN: %compile %examples/summa.mlir -o %t
// RUN: python3 %examples/summa_reference.py > %t.expected
// RUN: %mpirun 4 %t > %t.np4 && diff %t.expected %t.np4
