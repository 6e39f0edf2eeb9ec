//===- Reduce.h - Reduction operators ---------------------------*- C++ -*-===//

#ifndef DISTRUNTIME_RUNTIME_REDUCE_H
#define DISTRUNTIME_RUNTIME_REDUCE_H

#include "distruntime/Runtime/distrt.h"

#include <mpi.h>

#include <cstdint>

namespace distrt::detail {

/// MPI's built-in op of each reduction, for i1 and for the other types.
extern const MPI_Op kI1Ops[DISTRT_NUM_REDOPS];
extern const MPI_Op kOps[DISTRT_NUM_REDOPS];

/// The user-defined op of an f16 or bf16 reduction (created on first use).
MPI_Op halfReductionOp(int32_t redop, int32_t dtype);

/// Throws the Failure for an invalid (redop, dtype) pair.
[[noreturn, gnu::cold, gnu::noinline]] void raiseReduction(int32_t redop,
                                                           int32_t dtype);

/// The MPI_Op computing `redop` on `dtype` (both ABI values). Throws Failure
/// for invalid values and for bitwise reductions of floats.
inline MPI_Op reductionOp(int32_t redop, int32_t dtype) {
  static_assert(DISTRT_F16 == 9 && DISTRT_BF16 == 10 && DISTRT_F32 == 11 &&
                    DISTRT_F64 == 12 && DISTRT_NUM_DTYPES == 13,
                "the floating-point types are the last four");
  if (static_cast<uint32_t>(dtype) >= DISTRT_NUM_DTYPES ||
      static_cast<uint32_t>(redop) >= DISTRT_NUM_REDOPS) [[unlikely]]
    raiseReduction(redop, dtype);
  if (dtype == DISTRT_I1)
    return kI1Ops[redop];
  if (dtype >= DISTRT_F16) {
    if (redop >= DISTRT_AND) [[unlikely]]
      raiseReduction(redop, dtype);
    if (dtype <= DISTRT_BF16)
      return halfReductionOp(redop, dtype);
  }
  return kOps[redop];
}

/// Frees the user-defined ops (at teardown).
void freeReductionOps() noexcept;

} // namespace distrt::detail

#endif // DISTRUNTIME_RUNTIME_REDUCE_H
