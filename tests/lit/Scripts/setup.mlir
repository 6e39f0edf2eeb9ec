// scripts/setup.sh's logic against stub dpkg-query, apt-get,
// update-alternatives and sudo (Inputs/setup-stubs.sh): it installs on a
// machine where nothing is installed and no alternative exists, does nothing
// when everything is there, keeps the system's default MPI, and names the
// failing command and what to do when apt fails.
// RUN: bash %S/Inputs/setup-stubs.sh %examples/../scripts fresh | FileCheck %s --check-prefix=FRESH
// RUN: bash %S/Inputs/setup-stubs.sh %examples/../scripts plots | FileCheck %s --check-prefix=PLOTS
// RUN: env DISTRUNTIME_MPI=mpich bash %S/Inputs/setup-stubs.sh %examples/../scripts fresh | FileCheck %s --check-prefix=MPICH
// RUN: bash %S/Inputs/setup-stubs.sh %examples/../scripts installed | FileCheck %s --check-prefix=INSTALLED
// RUN: env DISTRUNTIME_MPI=mpich bash %S/Inputs/setup-stubs.sh %examples/../scripts alternatives | FileCheck %s --check-prefix=ALT
// RUN: bash %S/Inputs/setup-stubs.sh %examples/../scripts apt-fails | FileCheck %s --check-prefix=FAIL
// RUN: bash %S/Inputs/setup-stubs.sh %examples/../scripts no-sudo | FileCheck %s --check-prefix=NOSUDO

// FRESH: out: setup: installing {{[0-9]+}} Debian package(s) with apt-get: llvm-22-dev libmlir-22-dev mlir-22-tools
// FRESH: call: update-alternatives --query mpi
// FRESH: call: apt-get update
// FRESH: call: apt-get install {{.*}}llvm-22-dev libmlir-22-dev mlir-22-tools llvm-22-tools libopenmpi-dev openmpi-bin catch2 libfmt-dev
// FRESH-NOT: --set
// FRESH-NOT: matplotlib
// FRESH: exit: 0

// A first run does not download the plotting library; bench.sh asks for it.
// PLOTS: call: apt-get install {{.*}} python3-matplotlib
// PLOTS: exit: 0

// MPICH: call: apt-get install {{.*}} mpich libmpich-dev
// MPICH: exit: 0

// INSTALLED-NOT: apt-get
// INSTALLED-NOT: update-alternatives
// INSTALLED: exit: 0

// ALT: out: setup: restoring update-alternatives mpi to /usr/lib/x86_64-linux-gnu/openmpi/include
// ALT: out: setup: restoring update-alternatives mpirun to /usr/bin/mpirun.openmpi
// ALT: call: apt-get install
// ALT: call: update-alternatives --set mpi /usr/lib/x86_64-linux-gnu/openmpi/include
// ALT: alternative mpi: /usr/lib/x86_64-linux-gnu/openmpi/include
// ALT: alternative mpirun: /usr/bin/mpirun.openmpi
// ALT: exit: 0

// FAIL: out: setup: failed (exit 100): {{.*}}apt-get install
// FAIL: out: setup: check the network and the apt sources
// FAIL: exit: 100

// NOSUDO: out: setup: not root and no sudo: install them as root (apt-get install llvm-22-dev
// NOSUDO-NOT: call: apt-get
// NOSUDO: exit: 1
