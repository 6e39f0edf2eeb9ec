// The optimizing passes of the pipelines (distruntime-combine-collectives,
// distruntime-shard-simplify, distruntime-overlap-halo,
// distruntime-async-collectives, distruntime-carry-loads) change no
// program's output: every example and
// integration program is lowered with and without them; those they change
// are compiled and run both ways and print the same (Inputs/both-ways.sh).
// The K-split matmul on a grid of two (its all_reduce + all_slice become a
// reduce_scatter) and the gradient sync of combine-collectives.mlir are
// among them.
// RUN: rm -rf %t.dir && mkdir -p %t.dir
// RUN: sed 's/@line(shape = 4)/@line(shape = 2)/; s/@square(shape = 2x2)/@square(shape = 1x2)/' %examples/shard/matmul.mlir > %t.dir/matmul-line2.mlir
// RUN: %S/Inputs/both-ways.sh "%mpirun" %compile %t.work %examples/*.mlir %examples/shard/*.mlir %S/*.mlir %t.dir/matmul-line2.mlir:2 > %t.out
// RUN: FileCheck %s --implicit-check-not=DIFFERS < %t.out
// heat2d's and the stencil's row loops are split and overlapped, and so is
// linalg-stencil's linalg.generic after update_halo; programs that end in an
// error (errors/bbox) compare too.
// CHECK-DAG: {{^}}heat2d: changed, same output at np 3
// CHECK-DAG: {{^}}linalg-stencil: changed, same output at np 4
// CHECK-DAG: {{^}}stencil: changed, same output at np 4
// CHECK-DAG: {{^}}halo: changed, same output at np 4
// CHECK-DAG: {{^}}errors/bbox: changed, same output at np 2
// CHECK-DAG: {{^}}matmul: changed, same output at np 4
// CHECK-DAG: {{^}}collectives/reduce: changed, same output at np 4
// CHECK-DAG: {{^}}combine-collectives: changed, same output at np 2
// CHECK-DAG: {{^}}matmul-line2: changed, same output at np 2
