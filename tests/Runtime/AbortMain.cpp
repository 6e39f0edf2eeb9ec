//===- AbortMain.cpp - The C ABI reports an error and aborts ----*- C++ -*-===//
//
// Calls distrt_allreduce on an unregistered team. The test passes when the
// one error line appears (the job is expected to abort).
//
//===----------------------------------------------------------------------===//

#include "distruntime/Runtime/distrt.h"

#include <cstdio>

int main() {
  double value = 1.0;
  struct {
    double *allocated, *aligned;
    long long offset, sizes[1], strides[1];
  } desc{&value, &value, 0, {1}, {1}};
  distrt_allreduce(7, DISTRT_SUM, DISTRT_F64, 1, &desc, 0, "abort.mlir:3:5");
  std::puts("distrt_allreduce returned instead of aborting");
  return 0;
}
