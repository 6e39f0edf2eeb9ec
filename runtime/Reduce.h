//===- Reduce.h - Reduction operators ---------------------------*- C++ -*-===//

#ifndef DISTRUNTIME_RUNTIME_REDUCE_H
#define DISTRUNTIME_RUNTIME_REDUCE_H

#include <mpi.h>

#include <cstdint>

namespace distrt::detail {

/// The MPI_Op computing `redop` on `dtype` (both ABI values). Throws Failure
/// for invalid values and for bitwise reductions of floats.
MPI_Op reductionOp(int32_t redop, int32_t dtype);

/// Frees the user-defined ops (at teardown).
void freeReductionOps() noexcept;

} // namespace distrt::detail

#endif // DISTRUNTIME_RUNTIME_REDUCE_H
