//===- SharedGroup.h - Small reductions in shared memory --------*- C++ -*-===//
//
// A sync all_reduce of a small operand costs MPI a message each way and
// its matching: more than the bytes. When every member of the group is on
// one node, each member instead writes its operand into its slot of a
// shared window, publishes the round's number in front of it (one cache
// line for up to 48 bytes), and folds every member's slot in member order
// into its output: the same fold on every member, so the same bits.
//
// Two slots per member, used in turn: a member writes data in round r only
// after it saw every member publish round r - 1, which each did after it
// had read round r - 2 from every slot, so slot r % 2 is free. Only sync
// calls use it (an async start would write round r + 1 before seeing
// round r). In a broadcast the root writes and returns; the others
// publish the round (they are done with the previous one) and read it.
//
// Which operands take this path must be the same on every member, so it
// rests only on what they share: the call is sync, the group, the
// reduction, its level and element type, and the operand's bytes (ops/
// AllReduce.cpp). The window is made at the first such call on a group
// communicator, where every member is.
//
//===----------------------------------------------------------------------===//

#ifndef DISTRUNTIME_RUNTIME_SHAREDGROUP_H
#define DISTRUNTIME_RUNTIME_SHAREDGROUP_H

#include "SpinWait.h"

#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

namespace distrt::detail {

struct TeamState;

struct SharedGroup {
  /// The largest operand: past a few KiB MPI moves the bytes with fewer
  /// copies than a fold that reads every member's slot.
  static constexpr size_t kMaxBytes = 4096;
  /// A slot: the round's number (+1; 0: none yet), how many bytes the
  /// member wrote, then those bytes.
  static constexpr size_t kDataOffset = 16;
  static constexpr size_t kSlotStride =
      (kDataOffset + kMaxBytes + 63) & ~size_t{63};

  /// The group's communicator (what the group is found by).
  MPI_Comm comm = MPI_COMM_NULL;
  MPI_Win window = MPI_WIN_NULL;
  /// The largest operand the members agreed on (DISTRT_REDUCE_SHM); 0 when
  /// they are not all on one node (the group then uses MPI).
  size_t limit = 0;
  int position = 0;
  int spins = 0;
  /// Each member's two slots, in member order.
  std::vector<std::byte *> segments;
  uint64_t round = 0;

  /// A round of `sent` bytes per member in which each reads `read` in
  /// all may run here. Every member reads every slot it needs, so a large
  /// group reads G times the bytes, where MPI's trees read about log G
  /// times: the reads are bounded too, by twice the operand limit (a
  /// group of two reads what it may send; measured only there, np 2).
  bool fits(size_t sent, size_t read) const {
    return sent <= limit && read <= 2 * limit;
  }

  std::byte *slot(size_t member, uint64_t r) const {
    return segments[member] + (r % 2) * kSlotStride;
  }
};

/// The shared group of `comm` (a group communicator of `team`, rank ==
/// position), made on first use: collective over the group, whose members
/// must all ask in the same call. Its `limit` is 0 when they do not share
/// a node (or under SMPI).
SharedGroup &sharedGroup(TeamState &team, MPI_Comm comm);

/// One round of `g` in which only member `root` writes: its `fill(slot)`
/// writes `bytes` (at most g.limit), then `read(slot, sent)` reads the
/// root's slot on every member (the root too) once it is there.
template <class Fill, class Read>
void broadcastShared(SharedGroup &g, size_t root, size_t bytes, Fill &&fill,
                     Read &&read);

/// One round of `g`: `fill(slot)` writes this member's `bytes` (at most
/// g.limit) into its slot, then `read(member, slot, sent)` reads every
/// member's, in member order, once it is there (`sent`: the bytes that
/// member wrote, for checkSlotBytes).
template <class Fill, class Read>
void exchangeShared(SharedGroup &g, size_t bytes, Fill &&fill, Read &&read);

[[noreturn, gnu::cold]] void raiseSlotBytes(int teamRank, uint64_t sent,
                                            uint64_t expected,
                                            const char *what);

/// Throws unless the member at team rank `teamRank` wrote the `expected`
/// bytes of `what` (members that disagree on shapes or types).
inline void checkSlotBytes(int teamRank, uint64_t sent, uint64_t expected,
                           const char *what) {
  if (sent != expected) [[unlikely]]
    raiseSlotBytes(teamRank, sent, expected, what);
}

/// Frees the team's groups (collective, in the order they were made),
/// before its communicators.
void freeSharedGroups(TeamState &team) noexcept;

/// Waits for member `member`'s round `r` (SpinWait.h).
inline void awaitSlot(const SharedGroup &g, size_t member, uint64_t r) {
  const std::byte *slot = g.slot(member, r);
  spinUntil([&] { return loadAcquire(slot) > r; }, g.comm, g.spins);
}

/// Publishes this member's round `r`, written into its slot.
inline void publishSlot(SharedGroup &g, uint64_t r) {
  storeRelease(g.slot(static_cast<size_t>(g.position), r), r + 1);
}

/// Waits until every member published round r - 1: none reads round r - 2,
/// whose slot round r writes. Usually seen already (a cache hit each).
inline void awaitPrevious(const SharedGroup &g, uint64_t r) {
  if (r == 0)
    return;
  for (size_t m = 0; m < g.segments.size(); ++m)
    awaitSlot(g, m, r - 1);
}

/// Writes this member's round `r`: its bytes by `fill`, how many, then
/// the round's number.
template <class Fill>
void writeSlot(SharedGroup &g, uint64_t r, size_t bytes, Fill &&fill) {
  awaitPrevious(g, r);
  std::byte *mine = g.slot(static_cast<size_t>(g.position), r);
  fill(mine + SharedGroup::kDataOffset);
  const uint64_t written = bytes;
  std::memcpy(mine + 8, &written, sizeof written);
  publishSlot(g, r);
}

/// Reads member `m`'s round `r` once it is there: `read(slot, sent)`.
template <class Read>
void readSlot(const SharedGroup &g, size_t m, uint64_t r, Read &&read) {
  awaitSlot(g, m, r);
  const std::byte *slot = g.slot(m, r);
  uint64_t sent = 0;
  std::memcpy(&sent, slot + 8, sizeof sent);
  read(slot + SharedGroup::kDataOffset, sent);
}

template <class Fill, class Read>
void broadcastShared(SharedGroup &g, size_t root, size_t bytes, Fill &&fill,
                     Read &&read) {
  const uint64_t r = g.round++;
  if (static_cast<size_t>(g.position) == root)
    writeSlot(g, r, bytes, fill);
  else
    publishSlot(g, r);
  readSlot(g, root, r, read);
}

template <class Fill, class Read>
void exchangeShared(SharedGroup &g, size_t bytes, Fill &&fill, Read &&read) {
  const uint64_t r = g.round++;
  writeSlot(g, r, bytes, fill);
  for (size_t m = 0; m < g.segments.size(); ++m)
    readSlot(g, m, r, [&](const std::byte *slot, uint64_t sent) {
      read(m, slot, sent);
    });
}

} // namespace distrt::detail

#endif // DISTRUNTIME_RUNTIME_SHAREDGROUP_H
