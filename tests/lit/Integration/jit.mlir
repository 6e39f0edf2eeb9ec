// scripts/run.sh --jit: programs run through mlir-runner under mpirun, with
// libdistrt as a shared library (no native compile), print what the compiled
// program prints, and main's result is the exit status.
// The launcher's flags come from the build (DISTRUNTIME_BUILD_DIR, set by
// lit); each run is killed after the suite's 120 s.

// heat2d at np 2 and 3, diffed against the compiled program's output.
// RUN: %compile %examples/heat2d.mlir -o %t.heat2d
// RUN: %mpirun 2 %t.heat2d > %t.heat2d.np2
// RUN: %mpirun 3 %t.heat2d > %t.heat2d.np3
// RUN: %ompi-session timeout -k 5 120 %examples/../scripts/run.sh --no-build --jit %examples/heat2d.mlir -np 2 > %t.jit.np2
// RUN: diff %t.heat2d.np2 %t.jit.np2
// RUN: %ompi-session timeout -k 5 120 %examples/../scripts/run.sh --no-build --jit %examples/heat2d.mlir -np 3 > %t.jit.np3
// RUN: diff %t.heat2d.np3 %t.jit.np3
// RUN: FileCheck %s --check-prefix=HEAT < %t.jit.np3
// HEAT: checksum {{[0-9]+}}
// HEAT-NEXT: residual {{[0-9.e-]+}}

// Collectives: allreduce.mlir's program and its checks at np 3.
// RUN: %ompi-session timeout -k 5 120 %examples/../scripts/run.sh --no-build --jit %S/allreduce.mlir -np 3 | FileCheck %S/allreduce.mlir --check-prefix=NP3

// A shard program (shard-to-llvm, as compile.sh picks): matmul on its 2x2
// grid at np 4 prints the serial reference's rows.
// RUN: python3 %examples/shard/reference.py matmul | grep -v checksum > %t.rows
// RUN: %ompi-session timeout -k 5 120 %examples/../scripts/run.sh --no-build --jit %examples/shard/matmul.mlir -np 4 > %t.matmul
// RUN: grep -v checksum %t.matmul | diff %t.rows -

// main's result: rank 0 returns 3; compiled and jit exit with the same
// non-zero status (mpirun's).
// A main(argc, argv) gets the arguments after `--` under the JIT as when
// compiled (the stencil's N, steps and overlap), and its defaults without.
// RUN: %compile %examples/stencil.mlir -o %t.stencil
// RUN: %mpirun 2 %t.stencil 37 5 0 > %t.stencil.compiled
// RUN: %ompi-session timeout -k 5 120 %examples/../scripts/run.sh --no-build --jit %examples/stencil.mlir -np 2 -- 37 5 0 > %t.stencil.jit
// RUN: diff %t.stencil.compiled %t.stencil.jit
// RUN: FileCheck %s --check-prefix=ARGS < %t.stencil.jit
// ARGS: N 37 steps 5
// RUN: %mpirun 2 %t.stencil > %t.stencil.default
// RUN: %ompi-session timeout -k 5 120 %examples/../scripts/run.sh --no-build --jit %examples/stencil.mlir -np 2 > %t.stencil.jitdefault
// RUN: diff %t.stencil.default %t.stencil.jitdefault
// RUN: %compile %S/Inputs/exit-code.mlir -o %t.exit
// RUN: bash -c '%mpirun 2 %t.exit > /dev/null 2>&1; echo $? > %t.rc.compiled'
// RUN: %ompi-session bash -c 'timeout -k 5 120 %examples/../scripts/run.sh --no-build --jit %S/Inputs/exit-code.mlir -np 2 > /dev/null 2>&1; echo $? > %t.rc.jit'
// RUN: diff %t.rc.compiled %t.rc.jit
// RUN: not grep -x 0 %t.rc.jit
