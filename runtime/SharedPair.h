//===- SharedPair.h - A group of two sharing memory -------------*- C++ -*-===//
//
// all_reduce's pack exchange in a group of two whose members share a node
// (ops/AllReduce.cpp): each member writes its packed operands into its half
// of a shared window (MPI_Win_allocate_shared) and the other reduces them
// straight from there, after a one-byte message says they are written. Two
// segments per member, used in turn by the exchanges ("rounds"), so that a
// member writes a round's operands only once the peer has read the
// previous ones from that segment: the peer's message of round r - 1 came
// after it finished round r - 2.
//
//===----------------------------------------------------------------------===//

#ifndef DISTRUNTIME_RUNTIME_SHAREDPAIR_H
#define DISTRUNTIME_RUNTIME_SHAREDPAIR_H

#include <mpi.h>

#include <cstddef>
#include <cstdint>

namespace distrt::detail {

struct TeamState;

struct SharedPair {
  /// The group's communicator (what the pair is found by).
  MPI_Comm comm = MPI_COMM_NULL;
  /// The two members as MPI_Comm_split_type made them; MPI_COMM_NULL when
  /// they do not share a node (the exchange then uses messages).
  MPI_Comm shared = MPI_COMM_NULL;
  MPI_Win window = MPI_WIN_NULL;
  /// This member's segments and the peer's, kSegmentBytes apart.
  std::byte *mine = nullptr, *theirs = nullptr;
  /// The exchanges so far: the segment of the next is round % 2.
  uint64_t round = 0;
  /// Persistent requests of the messages that say a segment is written
  /// (receive, send), and what they carry: the bytes written.
  MPI_Request ready[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
  uint64_t in = 0, out = 0;

  /// The bytes of a segment: a pack exchanged in a group of two at most
  /// (kReduceExchangeLimit).
  static constexpr size_t kSegmentBytes = size_t{256} << 10;

  /// Writes this member's segment of the next round.
  std::byte *segmentMine() const { return mine + (round % 2) * kSegmentBytes; }
  /// Reads the peer's segment of the next round.
  const std::byte *segmentTheirs() const {
    return theirs + (round % 2) * kSegmentBytes;
  }
};

/// The pair of the group of two on `comm` (a group communicator of `team`,
/// rank == position), made on first use: collective over the two members,
/// which must both ask in the same exchange. Null when the members do not
/// share a node (or under SMPI).
SharedPair *sharedPair(TeamState &team, MPI_Comm comm);

/// Frees the team's pairs (collective, in the order they were made), before
/// its communicators.
void freeSharedPairs(TeamState &team) noexcept;

/// Copies `bytes` to `dst` bypassing this core's caches where the machine
/// allows (x86-64 streaming stores): the peer then reads them from memory,
/// faster than from this core's cache (np 2 here: 128 KiB in 10 us against
/// 28 us). Stores are ordered by streamFence().
void streamCopy(std::byte *dst, const std::byte *src, size_t bytes);
void streamFence();

} // namespace distrt::detail

#endif // DISTRUNTIME_RUNTIME_SHAREDPAIR_H
