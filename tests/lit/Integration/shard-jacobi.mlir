// examples/shard/jacobi.mlir (upstream shard ops: shard_shape of an uneven
// 37x23 split, update_halo with a frame of 1, all_reduce over both grid
// axes) on its 2x2 grid and on 1x1, 1x2, 2x1 and 1x3 grids made from the same
// source, each at the grid's process count: every one prints exactly what the
// serial reference (examples/shard/reference.py jacobi) prints.
// RUN: python3 %examples/shard/reference.py jacobi > %t.expected
// RUN: FileCheck %s < %t.expected
// RUN: %compile %examples/shard/jacobi.mlir -o %t
// RUN: %mpirun 4 %t > %t.2x2 && diff %t.expected %t.2x2
// RUN: sed 's/shape = 2x2/shape = 1x1/' %examples/shard/jacobi.mlir > %t.1x1.mlir
// RUN: grep -q "shard.grid @grid(shape = 1x1)" %t.1x1.mlir
// RUN: %compile %t.1x1.mlir -o %t.1x1
// RUN: %mpirun 1 %t.1x1 > %t.1x1.out && diff %t.expected %t.1x1.out
// RUN: sed 's/shape = 2x2/shape = 1x2/' %examples/shard/jacobi.mlir > %t.1x2.mlir
// RUN: grep -q "shard.grid @grid(shape = 1x2)" %t.1x2.mlir
// RUN: %compile %t.1x2.mlir -o %t.1x2
// RUN: %mpirun 2 %t.1x2 > %t.1x2.out && diff %t.expected %t.1x2.out
// RUN: sed 's/shape = 2x2/shape = 2x1/' %examples/shard/jacobi.mlir > %t.2x1.mlir
// RUN: grep -q "shard.grid @grid(shape = 2x1)" %t.2x1.mlir
// RUN: %compile %t.2x1.mlir -o %t.2x1
// RUN: %mpirun 2 %t.2x1 > %t.2x1.out && diff %t.expected %t.2x1.out
// RUN: sed 's/shape = 2x2/shape = 1x3/' %examples/shard/jacobi.mlir > %t.1x3.mlir
// RUN: grep -q "shard.grid @grid(shape = 1x3)" %t.1x3.mlir
// RUN: %compile %t.1x3.mlir -o %t.1x3
// RUN: %mpirun 3 %t.1x3 > %t.1x3.out && diff %t.expected %t.1x3.out
// The 2x2 program on 3 processes: every process stops at entry, naming the
// grid, before any shard op runs.
// RUN: %S/Inputs/fails-within.sh 60 %mpirun 3 %t 2>&1 | FileCheck %s --check-prefix=SIZE --implicit-check-not=ORTE_ERROR_LOG

// CHECK: checksum {{[0-9]+}}
// CHECK-NEXT: residual {{[0-9.e-]+}}

// SIZE-DAG: distrt: error: shard.grid @grid (shape 2x2) at {{.*}}jacobi.mlir:{{[0-9]+}}:1: rank 0: processes in team 0: 3 vs 4
// SIZE-DAG: distrt: error: shard.grid @grid (shape 2x2) at {{.*}}jacobi.mlir:{{[0-9]+}}:1: rank 1: processes in team 0: 3 vs 4
// SIZE-DAG: distrt: error: shard.grid @grid (shape 2x2) at {{.*}}jacobi.mlir:{{[0-9]+}}:1: rank 2: processes in team 0: 3 vs 4
