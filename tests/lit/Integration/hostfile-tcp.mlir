// The README's "Several hosts": scripts/run.sh passes --hostfile and --mca
// through to mpirun, and the program runs over TCP only (btl tcp,self on the
// loopback interface, pml ob1 so that no UCX bypasses the BTLs) with
// hostfiles of localhost entries: `localhost slots=2`, and one line per slot.
// The output is the serial reference's at np 2 and 3.
// REQUIRES: openmpi
// RUN: python3 %examples/heat2d_reference.py > %t.expected
// RUN: cp %examples/heat2d.mlir %t.heat2d.mlir
// RUN: printf 'localhost slots=2\n' > %t.hosts2
// RUN: printf 'localhost\nlocalhost\nlocalhost\n' > %t.hosts3
// RUN: %ompi-session bash -c 'ASAN_OPTIONS=$ASAN_OPTIONS:detect_leaks=0 timeout -k 5 120 %examples/../scripts/run.sh --no-build %t.heat2d.mlir -np 2 --hostfile %t.hosts2 --mca btl tcp,self --mca btl_tcp_if_include lo --mca pml ob1 --mca btl_base_verbose 30' > %t.np2 2> %t.np2.err
// RUN: diff %t.expected %t.np2
// RUN: FileCheck %s --check-prefix=TCP < %t.np2.err
// RUN: not grep "initializing btl component vader" %t.np2.err
// RUN: %ompi-session bash -c 'ASAN_OPTIONS=$ASAN_OPTIONS:detect_leaks=0 timeout -k 5 120 %examples/../scripts/run.sh --no-build %t.heat2d.mlir -np 3 --hostfile %t.hosts3 --mca btl tcp,self --mca btl_tcp_if_include lo --mca pml ob1' > %t.np3
// RUN: diff %t.expected %t.np3
// TCP: btl: tcp: Using interface: lo
