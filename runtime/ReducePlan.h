//===- ReducePlan.h - Plans of all_reduce and reduce_scatter ----*- C++ -*-===//
//
// Both ops make one typed MPI reduction per operand with elements. A sync
// call whose every operand is reduced from and into its own dense buffers
// is a list of blocking calls, planned once; any other call is served by
// the op's run(). An all_reduce operand of more than gMaxCount elements is
// several calls of at most gMaxCount elements each, or one large-count call
// (maxReduceCount(), LargeCount.h).
//
//===----------------------------------------------------------------------===//

#ifndef DISTRUNTIME_RUNTIME_REDUCEPLAN_H
#define DISTRUNTIME_RUNTIME_REDUCEPLAN_H

#include "LargeCount.h"
#include "Operands.h"
#include "ProcessGroups.h"
#include "Reduce.h"

#include <algorithm>
#include <vector>

namespace distrt::detail {

/// One operand's blocking reduction (MPI_Allreduce,
/// MPI_Reduce_scatter_block) of `count` elements from `send` to `recv`, its
/// dense output (or the part of them a chunk of a long operand covers);
/// with `inPlace` (all_reduce, the operand's first call), the input is
/// first copied (or converted) into the output.
struct ReduceCall {
  const void *send;
  void *recv;
  int64_t count;
  MPI_Datatype type;
  MPI_Op op;
  bool inPlace;
  uint32_t operand;
};

struct ReducePlan {
  const GroupLayout *layout = nullptr;
  MPI_Comm comm = MPI_COMM_NULL;
  /// Operands with elements.
  size_t active = 0;
  /// Every active operand has its call in `calls`.
  bool blocking = true;
  std::vector<ReduceCall> calls;

  /// Starts planning over `layout` (the calls keep their storage).
  void start(const GroupLayout &layout) {
    this->layout = &layout;
    comm = layout.comm;
    active = 0;
    blocking = true;
    calls.clear();
  }

  /// Counts operand k, which has elements. With `asIs` it is reduced by a
  /// blocking call from `send` (or in place) into `out`, `count` elements;
  /// past maxReduceCount() by several calls, each on the next elements (an
  /// elementwise reduction: reduce_scatter never passes more).
  void add(size_t k, bool asIs, const void *send, const Buffer &out,
           int64_t count, MPI_Op op) {
    ++active;
    blocking &= asIs;
    if (!asIs)
      return;
    const bool inPlace = send == MPI_IN_PLACE;
    const size_t size = out.type->size;
    const int64_t most = maxReduceCount();
    for (int64_t first = 0; first < count; first += most) {
      const auto offset = static_cast<size_t>(first) * size;
      calls.push_back(
          {.send =
               inPlace ? send : static_cast<const std::byte *>(send) + offset,
           .recv = out.bytes.base + offset,
           .count = std::min(count - first, most),
           .type = out.type->mpi,
           .op = op,
           .inPlace = inPlace && first == 0,
           .operand = static_cast<uint32_t>(k)});
    }
  }

  /// A sync call made of `calls` alone.
  bool direct(bool async) const { return !async && blocking && active > 0; }
};

} // namespace distrt::detail

#endif // DISTRUNTIME_RUNTIME_REDUCEPLAN_H
