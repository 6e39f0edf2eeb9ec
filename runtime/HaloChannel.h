//===- HaloChannel.h - A halo plan's messages in shared memory --*- C++ -*-===//
//
// A halo plan that a loop runs again and again exchanges the same messages
// with the same peers every time. Those between members of one node travel
// through a shared window instead of MPI (MPI_Win_allocate_shared): the
// receiver owns, per message, kSlots slots used in turn by the rounds and a
// counter of the rounds it has read. The sender copies or packs its bytes
// straight into the slot of the round and writes the round's number right
// after them (so that the receiver's poll brings the data's last line with
// it), the receiver copies them out and counts the round read.
// No matching, no request, no progress engine: at 64 B-4 KiB this costs
// less than MPI_Isend/MPI_Irecv/MPI_Waitall (docs/benchmarks.md).
//
// Made collectively at a plan's second call (HaloDriver.h): every member
// makes the same calls of a key, so every one is at that call. Each message
// decides alone and alike on both sides: shared when its two ends are on
// one node and its bytes at most kSharedMessageLimit; the others keep
// their MPI messages. The k-th message from a peer with a tag meets the
// k-th one the peer sends to this rank with it, as MPI matches them.
//
// A send whose slot the receiver has not read yet (it is two rounds behind)
// is copied aside and written later, when this rank's waits or halo calls
// make progress, so starting an exchange never blocks; a wait progresses
// every message of the channel, its receives in round order, while it
// drives MPI's progress and answers the watchdog.
//
//===----------------------------------------------------------------------===//

#ifndef DISTRUNTIME_RUNTIME_HALOCHANNEL_H
#define DISTRUNTIME_RUNTIME_HALOCHANNEL_H

#include "Memref.h"

#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <deque>
#include <span>
#include <vector>

namespace distrt::detail {

struct TeamState;

/// One message of a halo plan, as both its ends know it.
struct HaloMessage {
  int peer; // team rank
  int tag;
  size_t bytes;
};

class HaloChannel {
public:
  /// Messages of more bytes keep MPI: past its eager limit MPI moves them
  /// with one copy, the channel with two (np 2, update_halo_rows: 0.34-0.59
  /// of MPI's time at 4 KiB, 0.60-1.05 at 8 KiB and 0.72-1.61 at 16 KiB,
  /// the machine's two modes). DISTRT_HALO_SHM=<bytes> replaces it (0: off).
  static constexpr size_t kSharedMessageLimit = size_t{4} << 10;

  /// A counter other processes read and write (its own cache line).
  struct alignas(64) Counter {
    uint64_t value;
  };
  /// Slots per message: a sender may run this many rounds ahead of its
  /// receiver's reads before it sets a round aside.
  static constexpr uint64_t kSlots = 4;
  /// A slot: the bytes, then the number of the round written (8-aligned).
  static size_t slotStride(size_t bytes) {
    return (((bytes + 7) & ~size_t{7}) + 8 + 63) & ~size_t{63};
  }
  /// A message's link: its counter of rounds read, then its slots.
  static size_t linkBytes(size_t bytes) {
    return sizeof(Counter) + kSlots * slotStride(bytes);
  }

  HaloChannel(const HaloChannel &) = delete;
  HaloChannel &operator=(const HaloChannel &) = delete;
  ~HaloChannel();
  /// Frees the window (collective over the node, in the order made).
  void release() noexcept;

  /// Send `i` (receive `i`) of the plan travels through the channel.
  bool sendShared(size_t i) const { return sendLink_[i] >= 0; }
  bool recvShared(size_t i) const { return recvLink_[i] >= 0; }

  /// Starts an exchange: returns its round, for complete().
  uint64_t begin() { return started_++; }
  /// Where send `i` of the current round is written: the receiver's slot,
  /// or a copy set aside when the slot is still unread.
  std::byte *sendBuffer(size_t i);
  /// Send `i` of the current round is written.
  void sent(size_t i);
  /// Receive `i` of the current round lands at `dst` (dense), or is
  /// unpacked into `strided` (a sync exchange: its sizes and strides must
  /// live until complete()).
  void expect(size_t i, std::byte *dst);
  void expect(size_t i, const StridedBytes &strided);
  /// Completes every message of rounds up to `round`.
  void complete(uint64_t round);

private:
  friend HaloChannel *shareHalo(TeamState &team,
                                std::span<const HaloMessage> sends,
                                std::span<const HaloMessage> recvs);
  HaloChannel() = default;

  /// A message's counters and slots in its receiver's segment.
  struct Link {
    Counter *consumed = nullptr;
    std::byte *slots = nullptr;
    size_t bytes = 0, stride = 0;
    /// Points at the link laid out at `link` for `messageBytes`.
    void attach(std::byte *link, size_t messageBytes);
    std::byte *slot(uint64_t round) const {
      return slots + (round % kSlots) * stride;
    }
    /// Where `slot` says which round it holds (+1; 0: none yet).
    void *sequence(std::byte *slot) const {
      return slot + ((bytes + 7) & ~size_t{7});
    }
  };
  struct SendLink : Link {
    uint64_t written = 0;      // rounds published
    uint64_t consumedSeen = 0; // the receiver's count, as last read
    /// Rounds set aside (round, bytes), oldest first.
    std::deque<std::pair<uint64_t, std::vector<std::byte>>> deferred;
  };
  struct Expected {
    uint64_t round;
    StridedBytes dst; // rank 0: dense at dst.base
  };
  struct RecvLink : Link {
    uint64_t read = 0; // rounds consumed
    std::vector<Expected> expected;
    size_t head = 0; // expected[head...] are pending
  };

  bool slotFree(SendLink &s, uint64_t round);
  void publish(SendLink &s, uint64_t round, const std::byte *from);
  /// Moves every message that can move; true if all of rounds <= `round`
  /// are done.
  bool progress(uint64_t round);

  MPI_Win window_ = MPI_WIN_NULL;
  MPI_Comm progressComm_ = MPI_COMM_NULL;
  /// Polls before a wait yields (0 on an oversubscribed node).
  int spins_ = 0;
  uint64_t started_ = 0;
  std::vector<int32_t> sendLink_, recvLink_;
  std::vector<SendLink> sends_;
  std::vector<RecvLink> recvs_;
};

/// Makes the channel of a plan whose messages are `sends` and `recvs`, or
/// null when none can be shared (no peer on this node, DISTRT_HALO_SHM=0 on
/// a member of the node, SMPI). Collective over the team; the team owns
/// the channel (freed with it, in the order made).
HaloChannel *shareHalo(TeamState &team, std::span<const HaloMessage> sends,
                       std::span<const HaloMessage> recvs);

/// Frees the team's channels and node communicator (collective), before
/// the halo communicator.
void freeHaloChannels(TeamState &team) noexcept;

} // namespace distrt::detail

#endif // DISTRUNTIME_RUNTIME_HALOCHANNEL_H
