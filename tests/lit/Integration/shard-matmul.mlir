// examples/shard/matmul.mlir, sharded with upstream shard annotations and
// compiled through shard-to-llvm, prints the serial reference's matrices
// (the K-split 1-D grid and the 2-D block grid give the same one, the K split
// with rows kept split a taller one) at every grid size, and every process
// holds the same result (one checksum line per process and product). The
// rows-split K split is one reduce_scatter where shard-simplify rewrites it:
// groups of two (exactly: f64 sums of two values in any order), and four
// with reassociate=1, whose output is checked too.
// The grids are resized with sed: line x square = 1 x 1x1, 2 x 1x2, 2 x 2x1,
// 3 x 1x3, 4 x 2x2.
// RUN: python3 %examples/shard/reference.py matmul > %t.ref
// RUN: grep -v checksum %t.ref > %t.rows
// RUN: grep checksum %t.ref | sort -u > %t.sum

// RUN: sed 's/@line(shape = 4)/@line(shape = 1)/; s/@square(shape = 2x2)/@square(shape = 1x1)/' %examples/shard/matmul.mlir > %t.1.mlir
// RUN: %compile %t.1.mlir -o %t.1
// RUN: %mpirun 1 %t.1 > %t.1.out
// RUN: grep -v checksum %t.1.out | diff %t.rows -
// RUN: grep -c checksum %t.1.out | FileCheck %s --check-prefix=THREE
// RUN: grep checksum %t.1.out | sort -u | diff %t.sum -

// RUN: sed 's/@line(shape = 4)/@line(shape = 2)/; s/@square(shape = 2x2)/@square(shape = 1x2)/' %examples/shard/matmul.mlir > %t.2.mlir
// RUN: %compile %t.2.mlir -o %t.2
// RUN: %compile %t.2.mlir --llvm-dialect -o %t.2.llvm.mlir
// RUN: FileCheck %s --check-prefix=RS < %t.2.llvm.mlir
// RUN: %mpirun 2 %t.2 > %t.2.out
// RUN: grep -v checksum %t.2.out | diff %t.rows -
// RUN: grep -c checksum %t.2.out | FileCheck %s --check-prefix=SIX
// RUN: grep checksum %t.2.out | sort -u | diff %t.sum -

// RUN: sed 's/@line(shape = 4)/@line(shape = 2)/; s/@square(shape = 2x2)/@square(shape = 2x1)/' %examples/shard/matmul.mlir > %t.21.mlir
// RUN: %compile %t.21.mlir -o %t.21
// RUN: %mpirun 2 %t.21 > %t.21.out
// RUN: grep -v checksum %t.21.out | diff %t.rows -
// RUN: grep checksum %t.21.out | sort -u | diff %t.sum -

// RUN: sed 's/@line(shape = 4)/@line(shape = 3)/; s/@square(shape = 2x2)/@square(shape = 1x3)/' %examples/shard/matmul.mlir > %t.3.mlir
// RUN: %compile %t.3.mlir -o %t.3
// RUN: %mpirun 3 %t.3 > %t.3.out
// RUN: grep -v checksum %t.3.out | diff %t.rows -
// RUN: grep -c checksum %t.3.out | FileCheck %s --check-prefix=NINE
// RUN: grep checksum %t.3.out | sort -u | diff %t.sum -

// RUN: %compile %examples/shard/matmul.mlir -o %t.4
// RUN: %compile %examples/shard/matmul.mlir --llvm-dialect -o %t.4.llvm.mlir
// RUN: FileCheck %s --check-prefix=NORS < %t.4.llvm.mlir
// RUN: %mpirun 4 %t.4 > %t.4.out
// RUN: grep -v checksum %t.4.out | diff %t.rows -
// RUN: grep -c checksum %t.4.out | FileCheck %s --check-prefix=TWELVE
// RUN: grep checksum %t.4.out | sort -u | diff %t.sum -

// RUN: env DISTRUNTIME_PIPELINE_OPTIONS=reassociate=1 %compile %examples/shard/matmul.mlir -o %t.4r
// RUN: env DISTRUNTIME_PIPELINE_OPTIONS=reassociate=1 %compile %examples/shard/matmul.mlir --llvm-dialect -o %t.4r.llvm.mlir
// RUN: FileCheck %s --check-prefix=RS < %t.4r.llvm.mlir
// RUN: %mpirun 4 %t.4r > %t.4r.out
// RUN: grep -v checksum %t.4r.out | diff %t.rows -
// RUN: grep checksum %t.4r.out | sort -u | diff %t.sum -

// RS: llvm.call @distrt_reduce_scatter(
// NORS-NOT: llvm.call @distrt_reduce_scatter(
// THREE: 3
// SIX: 6
// NINE: 9
// TWELVE: 12
