//===- Reproducible.h - Reductions with a fixed order -----------*- C++ -*-===//
//
// A floating-point sum's last bits depend on the order in which it adds,
// and MPI picks that order by message size, algorithm and implementation.
// A reduction's reproducibility level (distrt.h, distrt_repro_t) says what
// its result may depend on:
//  - mpi: whatever the MPI library does;
//  - ordered: the members' values and their positions in the group only.
//    Each element is the fold of the members' values over a binomial tree
//    of the positions (step s combines position p, p % 2^(s+1) == 0, with
//    p + 2^s, lower position first);
//  - exact: sums are correctly rounded (ExactSum.h), a function of the
//    values alone; other reductions are as under ordered.
// Under both, float min and max are IEEE 754's minimum and maximum (-0 <
// +0, a NaN gives NaN), which no order changes, and integers reduce as
// under mpi: their reductions are exact in any order.
//
// A sum or product of floats over three members or more is then the
// runtime's own (ownReduction()); over one or two, MPI's, whose result has
// those bits (each element is one application of the op to two values,
// itself correctly rounded). Every path below folds each element the same
// way, so the choice between them is only one of speed:
//  - a small sync all-reduce: MPI_Allgather of every member's elements,
//    each member folds them;
//  - a larger one: the binomial tree itself, then a broadcast (ordered),
//    or, for few elements, each member's exact accumulators added as
//    integers by MPI_Allreduce, exact in any order (exact);
//  - a large one: the members exchange blocks (MPI_Alltoallv), each folds
//    its block of every member's values, then MPI_Allgatherv: the data a
//    ring all-reduce moves;
//  - async: MPI_Iallgather (or the accumulators' MPI_Iallreduce), folded
//    at the wait, so that nothing waits for another member's call before
//    the wait;
//  - reduce_scatter: MPI_Alltoall (or MPI_Ialltoall) of the blocks, folded.
// global_reduce's exact sums are such accumulators (ops/GlobalReduce.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef DISTRUNTIME_RUNTIME_REPRODUCIBLE_H
#define DISTRUNTIME_RUNTIME_REPRODUCIBLE_H

#include "Dtype.h"
#include "Params.h"

#include "distruntime/Runtime/distrt.h"

#include <mpi.h>

#include <cstddef>
#include <cstdint>

namespace distrt::detail {

struct RequestSlot;

enum class Repro : int32_t {
  Mpi = DISTRT_REPRO_MPI,
  Ordered = DISTRT_REPRO_ORDERED,
  Exact = DISTRT_REPRO_EXACT,
};

/// A reduction argument's parts: op = redop | level << DISTRT_REPRO_SHIFT.
struct Reduction {
  int32_t redop;
  Repro level;
};

/// The redop bits of a reduction argument.
inline int32_t redopOf(int32_t op) {
  return op & ((1 << DISTRT_REPRO_SHIFT) - 1);
}

/// The level `op` asks for (its bits from DISTRT_REPRO_SHIFT on), else
/// (DISTRT_REPRO_DEFAULT) the environment's: DISTRT_REPRODUCIBLE's, mpi if
/// unset, -1 if it names no level. A call carries it beside its redop, so
/// that checked mode compares the level each member runs.
int64_t requestedLevel(int32_t op) noexcept;

/// The reduction of a call's redop and requestedLevel(); throws Failure for
/// a level that is none.
Reduction reductionOf(int64_t redop, int64_t level);

/// The reduction of a call whose first two scalars are its redop and
/// requestedLevel() (all_reduce, reduce_scatter, global_reduce).
inline Reduction reductionOf(const Params &p) {
  return reductionOf(p.scalar(0), p.scalar(1));
}

/// "mpi", "ordered" or "exact".
const char *reproName(Repro level);

/// The reduction that runs for `redop` on `dtype` at `level`: float min
/// and max become minimum and maximum above mpi.
inline int32_t levelRedop(int32_t redop, int32_t dtype, Repro level) {
  if (level == Repro::Mpi || dtype < DISTRT_F16)
    return redop;
  return redop == DISTRT_MIN   ? DISTRT_MINIMUM
         : redop == DISTRT_MAX ? DISTRT_MAXIMUM
                               : redop;
}

/// The runtime reduces by its own algorithm: a float sum or product above
/// mpi over three members or more.
inline bool ownReduction(int members, int32_t redop, int32_t dtype,
                         Repro level) {
  return level != Repro::Mpi && members > 2 && dtype >= DISTRT_F16 &&
         (redop == DISTRT_SUM || redop == DISTRT_PROD);
}

/// An own reduction: dense elements of `dtype` reduced by `redop` at
/// `level` over the `members` of `comm`, this process at `position`.
struct OwnReduce {
  int32_t dtype, redop;
  Repro level;
  const DtypeInfo *type;
  MPI_Comm comm;
  int members, position;
};

/// out[i] = the fold of rows[p][i] over p in [0, members), row p at
/// `rows` + p * rowBytes. The rows are scratch: the fold may write them.
void foldRows(const OwnReduce &r, std::byte *rows, size_t rowBytes,
              int64_t count, std::byte *out);

/// all_reduce of `count` elements in place in `data`, sync.
void ownAllreduce(const OwnReduce &r, std::byte *data, int64_t count);

/// The same, async: posted into `slot`, folded into `data` at the wait.
void ownIallreduce(const OwnReduce &r, RequestSlot &slot, std::byte *data,
                   int64_t count);

/// reduce_scatter: `send` holds `members` blocks of `count` elements, block
/// j for member j; `recv` gets the fold of every member's block `position`.
/// With `slot`, async (folded at the wait).
void ownReduceScatter(const OwnReduce &r, RequestSlot *slot,
                      const std::byte *send, std::byte *recv, int64_t count);

} // namespace distrt::detail

#endif // DISTRUNTIME_RUNTIME_REPRODUCIBLE_H
