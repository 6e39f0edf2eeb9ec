//===- Operations.h - The one implementation of each operation --*- C++ -*-===//
//
// Both the C ABI and the C++ API call these. They throw distrt::Error naming
// the op, location, team and rank. The StableHLO-style collectives live
// with their entry points (Collectives.cpp, PointToPoint.cpp): a memoized
// fast path in the C ABI, a full path both APIs share.
//
//===----------------------------------------------------------------------===//

#ifndef DISTRUNTIME_RUNTIME_OPERATIONS_H
#define DISTRUNTIME_RUNTIME_OPERATIONS_H

#include "Operands.h"

#include "distruntime/Runtime/distrt.hpp"

namespace distrt::detail {

/// Returns a handle when `async`, else completes and returns 0.
distrt_handle_t allreduce(int64_t team, int32_t redop, int32_t dtype,
                          const MemrefView &data, bool async,
                          const SourceLoc &loc);

distrt_handle_t getHalo(int64_t team, int64_t key, int32_t dtype,
                        const MemrefView &local, const HaloGeometry &geometry,
                        const MemrefView &left, const MemrefView &right,
                        const SourceLoc &loc);

void wait(distrt_handle_t handle, const SourceLoc &loc);

} // namespace distrt::detail

#endif // DISTRUNTIME_RUNTIME_OPERATIONS_H
