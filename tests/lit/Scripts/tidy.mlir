// scripts/tidy.sh, which .ci/run runs, passes on a clean file and fails,
// naming the check, on a name against the repository's .clang-tidy
// (Inputs/style-sandbox.sh makes one small git tree per case).
// REQUIRES: clang-tidy
// RUN: rm -rf %t && mkdir -p %t
// RUN: bash %S/Inputs/style-sandbox.sh %examples/.. %t tidy | FileCheck %s

// CHECK-LABEL: tidy_clean: exit 0
// CHECK: tidy.sh: 1 files clean

// CHECK-LABEL: tidy_naming: exit 1
// CHECK: Naming.cpp:5:7: warning: invalid case style for function 'Count_Items' [readability-identifier-naming]
// CHECK: tidy.sh: warnings above
