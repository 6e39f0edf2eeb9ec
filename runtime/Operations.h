//===- Operations.h - The one implementation of each operation --*- C++ -*-===//
//
// Both the C ABI and the C++ API call these. They throw distrt::Error naming
// the op, location, team and rank.
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

// StableHLO-style collectives (Collectives.cpp, PointToPoint.cpp).
distrt_handle_t allGather(int64_t team, const distrt_groups_t *groups,
                          int64_t dim, const OperandList &inputs,
                          const OperandList &outputs, bool async,
                          const SourceLoc &loc);
distrt_handle_t allReduce(int64_t team, const distrt_groups_t *groups,
                          int32_t redop, const OperandList &inputs,
                          const OperandList &outputs, bool async,
                          const SourceLoc &loc);
distrt_handle_t allToAll(int64_t team, const distrt_groups_t *groups,
                         int64_t splitDim, int64_t concatDim,
                         int64_t splitCount, const OperandList &inputs,
                         const OperandList &outputs, bool async,
                         const SourceLoc &loc);
distrt_handle_t reduceScatter(int64_t team, const distrt_groups_t *groups,
                              int32_t redop, int64_t scatterDim,
                              const OperandList &inputs,
                              const OperandList &outputs, bool async,
                              const SourceLoc &loc);
distrt_handle_t collectiveBroadcast(int64_t team, const distrt_groups_t *groups,
                                    const OperandList &inputs,
                                    const OperandList &outputs, bool async,
                                    const SourceLoc &loc);
distrt_handle_t collectivePermute(int64_t team, const distrt_groups_t *pairs,
                                  const OperandList &inputs,
                                  const OperandList &outputs, bool async,
                                  const SourceLoc &loc);
distrt_handle_t send(int64_t team, const distrt_groups_t *pairs,
                     int64_t channel, bool hostTransfer,
                     const OperandList &inputs, bool async,
                     const SourceLoc &loc);
distrt_handle_t recv(int64_t team, const distrt_groups_t *pairs,
                     int64_t channel, bool hostTransfer,
                     const OperandList &outputs, bool async,
                     const SourceLoc &loc);

} // namespace distrt::detail

#endif // DISTRUNTIME_RUNTIME_OPERATIONS_H
