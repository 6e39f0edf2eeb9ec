//===- Watchdog.h - A stuck call ends the job with a report -----*- C++ -*-===//
//
// With a timeout (DISTRT_TIMEOUT=<seconds>; in checked mode 120 s unless
// set), a thread of the runtime watches the calls that can block: an op, a
// wait, get_halo. One that has not returned within the timeout prints, on
// its rank, the op, its location and what it waits for (which peers, which
// channel), and the job ends non-zero. The main thread only records what
// it blocks in (a Watch: a few stores); the watchdog thread never calls
// MPI (the runtime is MPI_THREAD_FUNNELED), it reads that record.
//
//===----------------------------------------------------------------------===//

#ifndef DISTRUNTIME_RUNTIME_WATCHDOG_H
#define DISTRUNTIME_RUNTIME_WATCHDOG_H

#include "distruntime/Runtime/distrt.hpp"

#include <array>
#include <atomic>
#include <cstdint>
#include <span>

namespace distrt::detail {

/// The timeout in nanoseconds; 0: no watchdog. Atomic: the watchdog
/// thread reads it.
inline std::atomic<int64_t> gTimeoutNanos{0};

/// What the main thread is blocked in. Written by it before the call, read
/// by the watchdog thread only while `since` is set.
struct BlockedCall {
  const char *op = "";
  SourceLoc loc{""};
  int64_t team = 0;
  /// What the call waits for, a format string: "{peers}" stands for the
  /// team ranks (up to kPeers; `peerCount` may be larger, the rest are
  /// elided), "{channel}" for `channel`.
  const char *waitsFor = "";
  static constexpr int kPeers = 8;
  std::array<int, kPeers> peers{};
  int peerCount = 0;
  int64_t channel = 0;
  /// For a wait: the op it completes and where that was issued ("{issued}").
  const char *issuedOp = nullptr;
  SourceLoc issuedAt{""};

  void addPeer(int rank) {
    if (peerCount < kPeers)
      peers[static_cast<size_t>(peerCount)] = rank;
    ++peerCount;
  }
  void setPeers(std::span<const int> ranks) {
    peerCount = 0;
    for (int rank : ranks)
      addPeer(rank);
  }
  void setPeer(int rank) { setPeers(std::span<const int>(&rank, 1)); }
};

/// Nanoseconds since the call began (steady clock), 0 when not blocked.
inline std::atomic<int64_t> gBlockedSince{0};
inline BlockedCall gBlocked;

int64_t steadyNanos() noexcept;

/// Records the call it spans; nested watches leave the outer one's record.
class Watch {
public:
  Watch(const char *op, const SourceLoc &loc, int64_t team,
        const char *waitsFor) noexcept {
    if (gTimeoutNanos.load(std::memory_order_relaxed) == 0 ||
        gBlockedSince.load(std::memory_order_relaxed) != 0)
      return;
    owner_ = true;
    gBlocked.op = op;
    gBlocked.loc = loc;
    gBlocked.team = team;
    gBlocked.waitsFor = waitsFor;
    gBlocked.peerCount = 0;
    gBlocked.issuedOp = nullptr;
    gBlockedSince.store(steadyNanos(), std::memory_order_release);
  }
  ~Watch() {
    if (owner_)
      gBlockedSince.store(0, std::memory_order_release);
  }
  Watch(const Watch &) = delete;
  Watch &operator=(const Watch &) = delete;

  /// The record, to say more about what the call waits for (null unless
  /// this watch owns it).
  BlockedCall *record() { return owner_ ? &gBlocked : nullptr; }

private:
  bool owner_ = false;
};

/// Sets the timeout (0: off) and starts the watchdog thread if there is
/// none yet. The thread is detached and touches only trivially destructible
/// globals, so it needs no stopping at exit.
void setTimeout(double seconds);

} // namespace distrt::detail

#endif // DISTRUNTIME_RUNTIME_WATCHDOG_H
