//===- SharedPair.h - A group of two sharing memory -------------*- C++ -*-===//
//
// all_reduce's pack exchange in a group of two whose members share a node
// (ops/AllReduce.cpp): each member writes its packed operands into its half
// of a shared window (MPI_Win_allocate_shared), then the round's number and
// the bytes written in the segment's header, and the other reduces them
// straight from there once it reads that round (SpinWait.h). Two segments
// per member, used in turn by the exchanges ("rounds"); each member says in
// its window which of the peer's rounds it has read, and writes round r
// only once the peer has read its round r - 2 from that segment.
//
// An async exchange publishes its round at its start and reads the peer's
// at its wait, or at the start of this member's round r + 2 at the latest
// (the peer waits for that read before it writes its round r + 2): so any
// number of async exchanges may be in flight, waited in any order, without
// a member waiting for a read the other has not yet reached.
//
//===----------------------------------------------------------------------===//

#ifndef DISTRUNTIME_RUNTIME_SHAREDPAIR_H
#define DISTRUNTIME_RUNTIME_SHAREDPAIR_H

#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace distrt::detail {

struct RequestSlot;
struct TeamState;

struct SharedPair {
  /// The group's communicator (what the pair is found by).
  MPI_Comm comm = MPI_COMM_NULL;
  /// The two members as MPI_Comm_split_type made them; MPI_COMM_NULL when
  /// they do not share a node (the exchange then uses messages).
  MPI_Comm shared = MPI_COMM_NULL;
  MPI_Win window = MPI_WIN_NULL;
  /// This member's segments and the peer's, kStride apart.
  std::byte *mine = nullptr, *theirs = nullptr;
  /// Past them, per segment, the last round of the other member's read
  /// from it, plus one: this member's record and the peer's.
  std::byte *myReads = nullptr, *theirReads = nullptr;
  /// The exchanges so far: the segment of the next is round % 2.
  uint64_t round = 0;
  /// Polls of a wait before it lets MPI progress (SpinWait.h).
  int spins = 0;

  /// An async exchange whose peer round this member has not read yet: then
  /// op(theirs, target) over `count` elements of `type`, `target` being in
  /// the staging of `slot` while it holds the op (its `generation`).
  struct Pending {
    uint64_t round;
    std::byte *target;
    uint64_t bytes;
    int64_t count;
    MPI_Datatype type;
    MPI_Op op;
    /// The peer's rank in the team, for errors.
    int peerRank;
    RequestSlot *slot;
    uint64_t generation;
  };
  /// In round order.
  std::vector<Pending> pending;
  /// Rounds read early whose peer sent other bytes: the error their own
  /// wait raises.
  std::vector<std::pair<uint64_t, std::string>> failed;

  /// Before this member writes round `r`: completes its pending rounds up
  /// to r - 2, then waits until the peer has read its round r - 2.
  void beginRound(uint64_t r);
  /// Publishes round `r`: `bytes` written (and fenced) in its segment.
  void publish(uint64_t r, uint64_t bytes);
  /// Waits until the peer has published round `r`; the bytes it wrote.
  uint64_t awaitPeer(uint64_t r);
  /// Records that this member has read the peer's round `r`.
  void markRead(uint64_t r);
  /// Reads the peer's round `r` into its pending exchange, if it still is,
  /// and records the read (a size mismatch too: the peer must not wait for
  /// it); a mismatch is kept for raiseIfFailed.
  void complete(uint64_t r);
  /// Raises the error of round `r` if its exchange failed.
  void raiseIfFailed(uint64_t r);

  /// The bytes of a segment: a pack exchanged in a group of two at most
  /// (kReduceExchangeLimit).
  static constexpr size_t kSegmentBytes = size_t{256} << 10;
  /// A segment's header (the round's number + 1, then the bytes written),
  /// a cache line before its bytes.
  static constexpr size_t kHeaderBytes = 64;
  static constexpr size_t kStride = kHeaderBytes + kSegmentBytes;

  /// The header and the bytes of `side`'s segment of round `r`.
  static std::byte *header(std::byte *side, uint64_t r) {
    return side + (r % 2) * kStride;
  }
  static std::byte *bytes(std::byte *side, uint64_t r) {
    return header(side, r) + kHeaderBytes;
  }
};

/// The pair of the group of two on `comm` (a group communicator of `team`,
/// rank == position), made on first use: collective over the two members,
/// which must both ask in the same exchange. Null when the members do not
/// share a node (or under SMPI).
SharedPair *sharedPair(TeamState &team, MPI_Comm comm);

/// Frees the team's pairs' windows (collective, in the order they were
/// made), before its communicators, once their pending rounds are read.
/// The pairs themselves are kept: a handle not yet waited still names its
/// pair.
void freeSharedPairs(TeamState &team) noexcept;

/// Copies `bytes` to `dst` bypassing this core's caches where the machine
/// allows (x86-64 streaming stores): the peer then reads them from memory,
/// faster than from this core's cache (np 2 here: 128 KiB in 10 us against
/// 28 us). Stores are ordered by streamFence().
void streamCopy(std::byte *dst, const std::byte *src, size_t bytes);
void streamFence();

} // namespace distrt::detail

#endif // DISTRUNTIME_RUNTIME_SHAREDPAIR_H
