// The style checks .ci/run runs fail on each kind of regression they guard
// against and pass on a clean tree (Inputs/style-sandbox.sh makes one small
// git tree per case with the checkout's scripts and configuration).
// RUN: rm -rf %t && mkdir -p %t
// RUN: bash %S/Inputs/style-sandbox.sh %examples/.. %t | FileCheck %s

// CHECK-LABEL: clean: exit 0
// CHECK: check-style: format and banners clean

// CHECK-LABEL: banner: exit 1
// CHECK-NEXT: check-style: banner: runtime/Good.cpp: first line is not '//===- Good.cpp - ... ===//': // Good.cpp, no banner

// CHECK-LABEL: format: exit 1
// CHECK: check-style: format: runtime/Good.cpp:3:{{[0-9]+}}: warning: code should be clang-formatted
// CHECK: check-style: not clang-format clean (fix: clang-format -i <file>)

// CHECK-LABEL: length: exit 1
// CHECK-NEXT: check-function-length: runtime/Good.cpp:3: count is 81 lines (at most 80)
