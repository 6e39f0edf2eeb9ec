//===- ReducePlan.h - Plans of all_reduce and reduce_scatter ----*- C++ -*-===//
//
// Both ops make one typed MPI reduction per operand with elements. A sync
// call whose every operand is reduced from and into its own dense buffers
// is a list of blocking calls, planned once; any other call is served by
// the op's run(). An all_reduce operand of more than gMaxCount elements is
// several calls of at most gMaxCount elements each, or one large-count call
// (maxReduceCount(), LargeCount.h).
//
// all_reduce packs small operands of one element type into one reduction
// (a ReducePack) where that cannot change a bit of any result
// (packingExact): the per-call latency of a small MPI_Allreduce (about
// 0.6 us at np 2 here) dominates a list of small tensors, such as the
// gradients that distruntime-combine-collectives gathers into one op.
//
//===----------------------------------------------------------------------===//

#ifndef DISTRUNTIME_RUNTIME_REDUCEPLAN_H
#define DISTRUNTIME_RUNTIME_REDUCEPLAN_H

#include "Environment.h"
#include "LargeCount.h"
#include "Operands.h"
#include "ProcessGroups.h"
#include "Reduce.h"
#include "Reproducible.h"
#include "SharedGroup.h"

#include <algorithm>
#include <cstring>
#include <vector>

namespace distrt::detail {

struct SharedPair;

/// One operand's blocking reduction (MPI_Allreduce,
/// MPI_Reduce_scatter_block) of `count` elements from `send` to `recv`, its
/// dense output (or the part of them a chunk of a long operand covers);
/// with `copyInput` (all_reduce in place, the operand's first call), the
/// input is first copied (or converted) into the output.
struct ReduceCall {
  const void *send;
  void *recv;
  int64_t count;
  MPI_Datatype type;
  MPI_Op op;
  bool copyInput;
  uint32_t operand;
  /// A sync call reduces it in shared memory where the group can
  /// (SharedGroup.h).
  bool shared = false;
};

/// Operands whose outputs have one element type, reduced by one MPI call on
/// staging: their inputs packed one after another (converted to the output
/// type), reduced in place, unpacked into the outputs.
struct ReducePack {
  /// The members: ReducePlan::members[first, end).
  uint32_t first, end;
  /// Where the pack starts in the staging, its bytes and elements.
  size_t offset, bytes;
  int64_t count;
  MPI_Datatype type;
  MPI_Op op;
  /// A sync exchange's persistent requests (ExchangeRequests) from here.
  size_t firstRequest;
};

/// An operand of a pack: where its elements start in the staging, and
/// whether its input is its output's elements (in place, as a gradient
/// sync's are: nothing to copy before reducing into the output).
struct PackMember {
  uint32_t operand;
  size_t offset;
  bool inPlace = false;
};

/// An operand of at most this many bytes may be packed: past it, one call
/// costs little more than moving the bytes, and packing copies them twice.
/// Over three or more members a team measures a smaller limit
/// (PackLimit.h).
inline constexpr size_t kReducePackOperandLimit = size_t{64} << 10;
/// A pack holds at most this many bytes (staging is kept by the plan): in a
/// group of two, as many as one exchange takes (kReduceExchangeLimit). One
/// MPI_Allreduce of a 4 MiB pack, between copying it in and out, took
/// 0.5-1.0 the time of the per-operand calls where exchanges of 256 KiB
/// take 0.1-0.5 (np 2, 64 operands of 8-64 KiB).
/// In a group of two, a pack of at most this many bytes is exchanged with
/// the peer (through shared memory on one node, SharedPair.h, else point to
/// point) and reduced locally (MPI_Reduce_local), which is what
/// MPI_Allreduce does for two processes, less its algorithm selection: past
/// it, MPI_Allreduce.
inline constexpr size_t kReduceExchangeLimit = size_t{256} << 10;
inline constexpr size_t kReducePackLimit = kReduceExchangeLimit;
/// The exchange sends a pack in messages of at most this many bytes, so
/// that each is eager on Open MPI's shared-memory transport (vader: 4 KiB
/// with its headers): one message of 16 KiB there is a rendezvous, a
/// round trip with the peer before its bytes move, and costs about twice
/// the four eager ones (np 2, 64 x 256 B). The receiver reduces each
/// message as it arrives while the next ones are still being copied. A
/// multiple of 64, so every element type's elements stay whole.
inline constexpr size_t kReduceChunkBytes = 4032;

/// Reducing operands packed into one call gives every element the bits that
/// one call per operand gives: the element is still reduced once by each
/// group member's contribution, but MPI picks its algorithm (and so the
/// order in which it combines the members' values) by message size, and a
/// pack is a larger message. That order cannot matter when the reduction
/// is exact for the type: every integer reduction (sums and products wrap
/// modulo 2^n, min, max and the bitwise ops are associative and
/// commutative). It cannot matter either in a group of at most two, where
/// each element is one application of the op to the two values, for the
/// floating-point reductions that are commutative bit for bit (sum, prod,
/// IEEE minimum/maximum/minimumNumber/maximumNumber; the NaN payload of
/// two NaNs aside, which MPI leaves unspecified anyway). MPI_MIN/MPI_MAX
/// on floats are not: of -0 and +0, or of a NaN and a number, they return
/// one operand by position. Floating-point reductions over larger groups
/// are therefore reduced operand by operand, as separate calls would be.
/// Above mpi (Reproducible.h) each element's fold is fixed whatever the
/// message: packing is exact in any group.
inline bool packingExact(int groupSize, int32_t redop, int32_t dtype,
                         Repro level) {
  if (groupSize <= 1 || dtype < DISTRT_F16 || level != Repro::Mpi)
    return true;
  return groupSize == 2 && redop != DISTRT_MIN && redop != DISTRT_MAX;
}

/// A sync call may reduce an operand of `bytes` alone in shared memory
/// (SharedGroup.h) when the fold in member order gives every element the
/// bits MPI would (packingExact: exact for the type, or one application of
/// a commutative op in a group of two), the reduction is MPI's (not an own
/// one), and the operand is one call. Every member evaluates it alike.
inline bool sharedReduction(int groupSize, int32_t redop, int32_t dtype,
                            Repro level, bool own, size_t bytes,
                            int64_t count) {
  return groupSize >= 2 && !own &&
         packingExact(groupSize, redop, dtype, level) &&
         bytes <= SharedGroup::kMaxBytes && count <= maxReduceCount();
}

/// The persistent requests of a plan's sync exchanges (each exchanged
/// pack's receives, then its sends), made for one staging, group and set
/// of packs and kept while a new plan makes the same: starting them costs
/// less than posting new requests (10% of an exchange of 33 messages at
/// np 2 here).
struct ExchangeRequests {
  std::vector<MPI_Request> requests;
  /// What they were made for (AllReduce.cpp, exchangeKey).
  std::vector<uint64_t> key;

  ExchangeRequests() = default;
  ExchangeRequests(const ExchangeRequests &) = delete;
  ExchangeRequests &operator=(const ExchangeRequests &) = delete;
  ~ExchangeRequests() { release(); }

  /// Frees the requests (none is active between calls) unless the runtime
  /// has let MPI go: at static destruction MPI may be finalized, and under
  /// SMPI the simulated process is gone (MPI_Finalized cannot tell).
  void release() noexcept {
    for (MPI_Request &request : requests)
      if (request != MPI_REQUEST_NULL && gMpiReady)
        MPI_Request_free(&request);
    requests.clear();
    key.clear();
  }
};

/// An own reduction (Reproducible.h) of `dtype` by `red` over `layout`'s
/// group.
inline OwnReduce ownReduceOver(const GroupLayout &layout, Reduction red,
                               int32_t dtype) {
  return {dtype,       red.redop,     red.level,      &kDtypes[dtype],
          layout.comm, layout.size(), layout.position};
}

struct ReducePlan {
  const GroupLayout *layout = nullptr;
  MPI_Comm comm = MPI_COMM_NULL;
  /// Operands with elements.
  size_t active = 0;
  /// Every active operand has its call in `calls`.
  bool blocking = true;
  std::vector<ReduceCall> calls;
  /// all_reduce's packs (after `calls`, in this order), their members, and
  /// the staging of a sync call: the packs, then (groups of two) the
  /// peer's packs.
  std::vector<ReducePack> packs;
  std::vector<PackMember> members;
  /// Per operand, whether a pack holds it.
  std::vector<bool> packed;
  /// Mutable: the sync path runs on a const plan and only reuses it.
  mutable std::vector<std::byte> staging;
  /// The packs' bytes, each aligned (alignUp).
  size_t packBytes = 0;
  /// The sync exchanges' requests, made at the first exchange by messages
  /// after planning (exchangeReady; a group sharing a node never needs
  /// them).
  mutable ExchangeRequests exchange;
  mutable bool exchangeReady = false;
  /// A group of two's shared window (SharedPair.h, null: messages), looked
  /// up at the first exchange after planning, where both members are (its
  /// making is collective; a plan is not: one member may replan alone).
  mutable SharedPair *shared = nullptr;
  mutable bool sharedKnown = false;
  /// Per operand, whether a sync call may reduce it in shared memory (the
  /// same on every member: sharedReduction()); the group's window, looked
  /// up at the first such call, where every member is.
  std::vector<bool> shareable;
  mutable SharedGroup *group = nullptr;
  /// reduce_scatter's scatter_dimension (its shared-memory path's blocks).
  int64_t scatterDim = 0;

  /// Starts planning over `layout` (the calls keep their storage).
  void start(const GroupLayout &layout) {
    this->layout = &layout;
    comm = layout.comm;
    active = 0;
    blocking = true;
    calls.clear();
    packs.clear();
    members.clear();
    packed.clear();
    packBytes = 0;
    exchangeReady = false;
    shared = nullptr;
    sharedKnown = false;
    shareable.clear();
    group = nullptr;
  }

  /// Counts operand k, which has elements. With `asIs` it is reduced by a
  /// blocking call from `send` (or in place) into `out`, `count` elements;
  /// past maxReduceCount() by several calls, each on the next elements (an
  /// elementwise reduction: reduce_scatter never passes more). In place,
  /// `copyInput` says the input must first be copied into the output (it
  /// is not those elements already).
  void add(size_t k, bool asIs, const void *send, const Buffer &out,
           int64_t count, MPI_Op op, bool copyInput = false) {
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
           .copyInput = inPlace && copyInput && first == 0,
           .operand = static_cast<uint32_t>(k)});
    }
  }

  /// A sync call made of `calls` and `packs` alone.
  bool direct(bool async) const { return !async && blocking && active > 0; }
};

/// Folds an operand of a sync call in the shared group of `p`'s group
/// (SharedGroup.h) into the dense `target` (`out`'s elements and type) if
/// the group shares a node and allows `sentBytes`: `fill(slot)` writes the
/// `sentBytes` this member sends, each member's slot is read from
/// `readOffset` (all_reduce: 0; reduce_scatter: this member's block), each
/// checked to hold the same bytes (`what` in the error). Every member
/// folds the slots in member order: the same bits everywhere.
template <class Fill>
bool foldInGroup(const ReducePlan &p, int64_t team, size_t sentBytes,
                 Fill &&fill, size_t readOffset, std::byte *target,
                 const Buffer &out, MPI_Op op, const char *what) {
  if (!p.group)
    p.group = &sharedGroup(lookupTeam(team), p.comm);
  const auto members = static_cast<size_t>(p.layout->size());
  if (!p.group->fits(sentBytes, members * out.byteCount))
    return false;
  const auto read = [&](size_t member, const std::byte *slot, uint64_t sent) {
    checkSlotBytes(p.layout->members[member], sent, sentBytes, what);
    if (member == 0)
      std::memcpy(target, slot + readOffset, out.byteCount);
    else
      reduceLocal(slot + readOffset, target, out.count, out.type->mpi, op);
  };
  exchangeShared(*p.group, sentBytes, fill, read);
  return true;
}

} // namespace distrt::detail

#endif // DISTRUNTIME_RUNTIME_REDUCEPLAN_H
