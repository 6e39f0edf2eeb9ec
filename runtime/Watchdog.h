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
// What the record cannot know, that an awaited member has finished, comes
// from the members: at its end a process tells the others (announceFinish,
// a message each, only with the watchdog on), and when a call times out the
// watchdog asks the main thread, which answers from the runtime's wait loop
// (answerWatchdog) with the notices received. In a blocking MPI call it
// cannot answer, and the report goes without.
//
//===----------------------------------------------------------------------===//

#ifndef DISTRUNTIME_RUNTIME_WATCHDOG_H
#define DISTRUNTIME_RUNTIME_WATCHDOG_H

#include "Environment.h"

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
  /// What the call waits for, never empty, a format string: "{peers}"
  /// stands for the team ranks (up to kPeers; `peerCount` may be larger,
  /// the rest are elided), "{team}" for `team`, "{channel}" for `channel`.
  const char *waitsFor = "";
  static constexpr int kPeers = 8;
  std::array<int, kPeers> peers{};
  int peerCount = 0;
  /// All the awaited team ranks when the call knows them (a collective's
  /// group), else empty: then `peers` if complete, else any member.
  std::span<const int> awaited;
  int64_t channel = 0;
  /// For a wait: the op it completes and where that was issued ("{issued}").
  const char *issuedOp = nullptr;
  SourceLoc issuedAt{""};
  /// The awaited members known to have finished (as `peers`), and how
  /// (FinishHow bits): the main thread's answer to the watchdog.
  std::array<int, kPeers> finished{};
  int finishedCount = 0, finishedHow = 0;

  void addPeer(int rank) { addRank(peers, peerCount, rank); }
  void setPeers(std::span<const int> ranks) {
    peerCount = 0;
    for (int rank : ranks)
      addPeer(rank);
  }
  void setPeer(int rank) { setPeers(std::span<const int>(&rank, 1)); }
  /// The members of the caller's group but the caller (at `position`):
  /// the first kPeers are copied, so a call costs the same at any size.
  void setOtherMembers(std::span<const int> members, int position) {
    peerCount = 0;
    for (int i = 0; i < static_cast<int>(members.size()) && peerCount < kPeers;
         ++i)
      if (i != position)
        addPeer(members[static_cast<size_t>(i)]);
    peerCount = static_cast<int>(members.size()) - (position >= 0);
    awaited = members;
  }
  /// The call may be waiting for team rank `rank`.
  bool awaits(int rank) const;

  static void addRank(std::array<int, kPeers> &ranks, int &count, int rank) {
    if (count < kPeers)
      ranks[static_cast<size_t>(count)] = rank;
    ++count;
  }
};

/// Nanoseconds since the call began (steady clock), 0 when not blocked.
inline std::atomic<int64_t> gBlockedSince{0};
inline BlockedCall gBlocked;

int64_t steadyNanos() noexcept;

/// Records the call it spans; nested watches leave the outer one's record.
class Watch {
public:
  /// `waitsFor` (BlockedCall) is a literal, and not empty: a report always
  /// says what the call waits for. Without `on` the call is not watched (a
  /// proven site in selective checked mode).
  template <size_t N>
  Watch(const char *op, const SourceLoc &loc, int64_t team,
        const char (&waitsFor)[N], bool on = true) noexcept {
    static_assert(N > 1, "say what the call waits for");
    if (!on || gTimeoutNanos.load(std::memory_order_relaxed) == 0 ||
        gBlockedSince.load(std::memory_order_relaxed) != 0)
      return;
    owner_ = true;
    gBlocked.op = op;
    gBlocked.loc = loc;
    gBlocked.team = team;
    gBlocked.waitsFor = waitsFor;
    gBlocked.peerCount = 0;
    gBlocked.awaited = {};
    gBlocked.issuedOp = nullptr;
    gBlocked.finishedCount = gBlocked.finishedHow = 0;
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

/// What a call waits for before it knows more: the first call on a team,
/// or with new groups, sets up communicators with the other members.
inline constexpr char kWaitsForTeam[] =
    "the other members of team {team} to set up communicators with it";

/// The watchdog thread's request for news of the awaited members (the
/// `since` of the call it reports), and the main thread's answer (the same
/// value once it has filled them into gBlocked).
inline std::atomic<int64_t> gNewsWanted{0};
inline std::atomic<int64_t> gNewsGiven{0};

void giveNews(int64_t since) noexcept;

/// The main thread, waiting in the runtime's loop: answers the watchdog's
/// request for the current call, if there is one (a load otherwise).
inline void answerWatchdog() noexcept {
  const int64_t wanted = gNewsWanted.load(std::memory_order_relaxed);
  if (wanted != 0 && wanted == gBlockedSince.load(std::memory_order_relaxed) &&
      wanted != gNewsGiven.load(std::memory_order_relaxed)) [[unlikely]]
    giveNews(wanted);
}

/// Sets the timeout (0: off) and starts the watchdog thread if there is
/// none yet. The thread is detached and touches only trivially destructible
/// globals, so it needs no stopping at exit.
void setTimeout(double seconds);

} // namespace distrt::detail

#endif // DISTRUNTIME_RUNTIME_WATCHDOG_H
