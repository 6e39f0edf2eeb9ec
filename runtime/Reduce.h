//===- Reduce.h - Reduction operators ---------------------------*- C++ -*-===//

#ifndef DISTRUNTIME_RUNTIME_REDUCE_H
#define DISTRUNTIME_RUNTIME_REDUCE_H

#include "distruntime/Runtime/distrt.h"

#include <mpi.h>

#include <array>
#include <cstdint>

namespace distrt::detail {

/// MPI's built-in op of each (dtype, redop), MPI_OP_NULL where the pair
/// needs a user-defined op or is undefined.
using OpTable =
    std::array<std::array<MPI_Op, DISTRT_NUM_REDOPS>, DISTRT_NUM_DTYPES>;
const OpTable &builtinOps();

/// The user-defined op of (redop, dtype), created on first use; throws
/// Failure for an undefined pair.
MPI_Op userReductionOp(int32_t redop, int32_t dtype);

/// Throws the Failure for an invalid (redop, dtype) pair.
[[noreturn, gnu::cold, gnu::noinline]] void raiseReduction(int32_t redop,
                                                           int32_t dtype);

/// The MPI_Op computing `redop` on `dtype` (both ABI values). Throws Failure
/// for invalid values and for reductions the type does not have.
inline MPI_Op reductionOp(int32_t redop, int32_t dtype) {
  if (static_cast<uint32_t>(dtype) >= DISTRT_NUM_DTYPES ||
      static_cast<uint32_t>(redop) >= DISTRT_NUM_REDOPS) [[unlikely]]
    raiseReduction(redop, dtype);
  MPI_Op op = builtinOps()[dtype][redop];
  if (op == MPI_OP_NULL) [[unlikely]]
    return userReductionOp(redop, dtype);
  return op;
}

/// Exact sums as MPI reduces them: each element a pair of doubles (s, e)
/// whose exact sum is the elements' so far, combined by addExactPairs
/// (Reproducible.h); made on first use, freed at teardown.
struct ExactPairs {
  MPI_Op op;
  MPI_Datatype type;
};
ExactPairs exactPairs();
/// inout[i] = in[i] op inout[i] for `count` elements of `type`, as
/// MPI_Reduce_local does (the buffers distinct): sums of the common types
/// inline, since MPI's call costs more than a small operand's elements
/// (the same bits: one IEEE addition, or a wrapping integer one), the rest
/// by MPI. Throws Failure.
void reduceLocal(const void *in, void *inout, int64_t count, MPI_Datatype type,
                 MPI_Op op);

void addExactPairs(void *in, void *inout, int *length, MPI_Datatype *);

/// The reduction kind's name in the dialect ("sum", "umin", ...).
const char *redopName(int32_t redop);

} // namespace distrt::detail

#endif // DISTRUNTIME_RUNTIME_REDUCE_H
