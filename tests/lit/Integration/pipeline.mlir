// The pipeline-parallel ring example (async send/recv over
// source_target_pairs i -> i + 1 mod P, a table built from the team's size,
// compute overlapped) prints the same checksum as an independent serial
// computation (examples/pipeline_reference.py) at every np, one program.
// RUN: %compile %examples/pipeline.mlir -o %t
// RUN: python3 %examples/pipeline_reference.py 1 > %t.expected1
// RUN: %mpirun 1 %t > %t.np1 && diff %t.expected1 %t.np1
// RUN: python3 %examples/pipeline_reference.py 2 > %t.expected2
// RUN: %mpirun 2 %t > %t.np2 && diff %t.expected2 %t.np2
// RUN: python3 %examples/pipeline_reference.py 3 > %t.expected3
// RUN: %mpirun 3 %t > %t.np3 && diff %t.expected3 %t.np3
// RUN: python3 %examples/pipeline_reference.py 4 > %t.expected4
// RUN: %mpirun 4 %t > %t.np4 && diff %t.expected4 %t.np4
// RUN: python3 %examples/pipeline_reference.py 5 > %t.expected5
// RUN: %mpirun 5 %t > %t.np5 && diff %t.expected5 %t.np5
// RUN: python3 %examples/pipeline_reference.py 8 > %t.expected8
// RUN: %mpirun 8 %t > %t.np8 && diff %t.expected8 %t.np8
// Checked mode compares the pairs and every message's header.
// RUN: env DISTRT_CHECK=1 %mpirun 3 %t > %t.np3c && diff %t.expected3 %t.np3c
