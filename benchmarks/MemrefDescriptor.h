//===- MemrefDescriptor.h - MLIR's ranked memref descriptor -----*- C++ -*-===//
//
// The struct compiled code passes for a memref<...xT> of rank Rank (and
// points an unranked memref at), for benchmarks that call lowered code or
// the C ABI exactly as compiled code does.
//
//===----------------------------------------------------------------------===//

#ifndef DISTRUNTIME_BENCHMARKS_MEMREFDESCRIPTOR_H
#define DISTRUNTIME_BENCHMARKS_MEMREFDESCRIPTOR_H

#include <cstdint>

namespace distrt::bench {

template <class T, int Rank> struct MemrefDescriptor {
  T *allocated, *aligned;
  int64_t offset, sizes[Rank], strides[Rank];
};

} // namespace distrt::bench

#endif // DISTRUNTIME_BENCHMARKS_MEMREFDESCRIPTOR_H
