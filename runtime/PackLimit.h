//===- PackLimit.h - The operand size up to which packing pays --*- C++ -*-===//
//
// Packing an all_reduce operand saves its own MPI call (a small call's
// latency, alpha) and costs two copies of its bytes, into the pack and out
// of it. Both are the machine's: where a small MPI_Allreduce is fast and
// memory slow, copying a 16 KiB operand costs more than the call it saves.
// So the limit is measured when a team is made (collective over it, as
// every team hook): each member times a one-element MPI_Allreduce over the
// team (the median of several) and its own copy bandwidth, and proposes
// alpha / (2 x copy time per byte); the team takes the smallest proposal
// (MPI_MIN), so every member packs alike. DISTRT_PACK_LIMIT=<bytes> replaces
// a member's proposal. Under SMPI, where a measurement would time the
// simulation rather than the simulated machine, the proposal is
// kReducePackOperandLimit.
//
// A group of two exchanges its packs (ReducePlan.h): the copies are the
// message's own, which MPI makes too, so there the limit does not apply.
//
//===----------------------------------------------------------------------===//

#ifndef DISTRUNTIME_RUNTIME_PACKLIMIT_H
#define DISTRUNTIME_RUNTIME_PACKLIMIT_H

#include "ReducePlan.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>

namespace distrt::detail {

struct TeamState;

/// The team's measured limit: an operand of at most this many bytes may be
/// packed into an MPI reduction over its groups of three or more members.
size_t packOperandLimit(const TeamState &team);

/// The smallest limit proposed: below it, an operand's copies cost less
/// than any MPI call.
inline constexpr size_t kLeastPackLimit = 64;

/// A member's proposal from its measurements: the bytes whose two copies
/// take as long as one small call (`alphaSeconds`), within
/// [kLeastPackLimit, kReducePackOperandLimit]; that limit if either
/// measurement is not a positive time.
inline size_t proposePackLimit(double alphaSeconds, double copySecondsPerByte) {
  if (!(copySecondsPerByte > 0) || !(alphaSeconds > 0))
    return kReducePackOperandLimit;
  const double bytes = alphaSeconds / (2 * copySecondsPerByte);
  return std::clamp(static_cast<size_t>(std::min(bytes, 1e12)), kLeastPackLimit,
                    kReducePackOperandLimit);
}

} // namespace distrt::detail

#endif // DISTRUNTIME_RUNTIME_PACKLIMIT_H
