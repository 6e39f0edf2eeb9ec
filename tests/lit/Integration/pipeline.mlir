// The pipeline-parallel ring example (async send/recv over
// source_target_pairs i -> i + 1 mod P, compute overlapped) prints the same
// checksum as an independent serial computation
// (examples/pipeline_reference.py) at 2, 3 and 4 stages.
// RUN: %compile %examples/pipeline.mlir -o %t
// RUN: python3 %examples/pipeline_reference.py 2 > %t.expected2
// RUN: %mpirun 2 %t > %t.np2 && diff %t.expected2 %t.np2
// RUN: python3 %examples/pipeline_reference.py 3 > %t.expected3
// RUN: %mpirun 3 %t > %t.np3 && diff %t.expected3 %t.np3
// RUN: python3 %examples/pipeline_reference.py 4 > %t.expected4
// RUN: %mpirun 4 %t > %t.np4 && diff %t.expected4 %t.np4
// One process is no ring.
// RUN: not %mpirun 1 %t 2>&1 | FileCheck %s
// CHECK: pipeline: run at np 2, 3 or 4
