// distruntime-opt --version prints LLVM's lines, then distruntime's version
// (project(... VERSION) in CMakeLists.txt, with git describe when configured
// in a git checkout) and the MLIR it was built against.
// RUN: %distruntime-opt --version | FileCheck %s
// RUN: %distruntime-opt --version > %t
// RUN: bash -c 'grep -qF "distruntime version $(sed -n "s/^project(distruntime VERSION \([0-9.]*\).*/\1/p" %examples/../CMakeLists.txt)" %t'
// CHECK: LLVM version 22.
// CHECK: distruntime version {{[0-9]+\.[0-9]+\.[0-9]+}}
// CHECK-NEXT: built against MLIR 22.
