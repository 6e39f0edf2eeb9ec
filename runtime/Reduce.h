//===- Reduce.h - Reduction operators ---------------------------*- C++ -*-===//

#ifndef DISTRUNTIME_RUNTIME_REDUCE_H
#define DISTRUNTIME_RUNTIME_REDUCE_H

#include "distruntime/Runtime/distrt.h"

#include <mpi.h>

#include <array>
#include <cstdint>
#include <vector>

namespace distrt::detail {

struct GroupLayout;

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
  const MPI_Op op = builtinOps()[dtype][redop];
  if (op == MPI_OP_NULL) [[unlikely]]
    return userReductionOp(redop, dtype);
  return op;
}

/// One operand's blocking reduction (MPI_Allreduce,
/// MPI_Reduce_scatter_block) of `count` elements of `type` from `send` to
/// `recv`, its dense output; with `inPlace` (all_reduce), the input is
/// first copied (or converted) into the output.
struct ReduceCall {
  const void *send;
  void *recv;
  int count;
  MPI_Datatype type;
  MPI_Op op;
  bool inPlace;
  uint32_t operand;
};

/// The plan of all_reduce and reduce_scatter: one typed reduction per
/// operand with elements.
struct ReducePlan {
  const GroupLayout *layout;
  /// Operands with elements.
  size_t active;
  /// A sync call is `calls`, one blocking call per active operand, each on
  /// the operand's own dense buffers.
  bool blocking;
  std::vector<ReduceCall> calls;
  MPI_Comm comm;
};

/// Frees the user-defined ops (at teardown).
void freeReductionOps() noexcept;

} // namespace distrt::detail

#endif // DISTRUNTIME_RUNTIME_REDUCE_H
