//===- Watchdog.cpp - A stuck call ends the job with a report ---*- C++ -*-===//

#include "Watchdog.h"
#include "Error.h"
#include "Team.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <utility>
#include <vector>

namespace distrt::detail {

int64_t steadyNanos() noexcept {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

bool BlockedCall::awaits(int rank) const {
  if (!awaited.empty())
    return std::ranges::find(awaited, rank) != awaited.end();
  if (peerCount == 0 || peerCount > kPeers)
    return true; // not all known
  return std::find(peers.begin(), peers.begin() + peerCount, rank) !=
         peers.begin() + peerCount;
}

/// "1, 2, 3" for the first `count` ranks, in increasing order (notices of
/// finished members arrive in any order), "..." past what is kept.
static std::string rankList(std::array<int, BlockedCall::kPeers> ranks,
                            int count) {
  const int kept = std::min(count, BlockedCall::kPeers);
  std::sort(ranks.begin(), ranks.begin() + kept);
  std::string text;
  for (int i = 0; i < kept; ++i)
    text += fmt::format("{}{}", i ? ", " : "", ranks[static_cast<size_t>(i)]);
  return count > BlockedCall::kPeers ? text + ", ..." : text;
}

/// What the record says the call waits for.
static std::string waitsFor(const BlockedCall &b) {
  const std::string issued =
      b.issuedOp ? fmt::format("{} issued at {}", b.issuedOp, b.issuedAt.str())
                 : "";
  std::string what;
  try {
    what = fmt::format(fmt::runtime(b.waitsFor),
                       fmt::arg("peers", rankList(b.peers, b.peerCount)),
                       fmt::arg("team", b.team), fmt::arg("channel", b.channel),
                       fmt::arg("issued", issued));
  } catch (const fmt::format_error &) {
    what = b.waitsFor;
  }
  if (what.empty()) // Watch makes this impossible; a report still says so
    what = "the call to complete";
  if (b.finishedCount > 0) {
    const bool one = b.finishedCount == 1;
    static const char *const how[] = {
        "", "reached program exit", "finalized distrt or MPI",
        "reached program exit or finalized distrt or MPI"};
    what += fmt::format("; team rank{} {} {} finished ({})", one ? "" : "s",
                        rankList(b.finished, b.finishedCount),
                        one ? "has" : "have", how[b.finishedHow & 3]);
  }
  return what;
}

/// The report of the blocked call, or "" if it returned meanwhile.
static std::string blockedReport(int64_t since, int64_t timeout) {
  const BlockedCall &b = gBlocked;
  const Error error(b.op, b.loc.str(), b.team, callerRank(b.team),
                    fmt::format("no progress for {:g} s (DISTRT_TIMEOUT): "
                                "waiting for {}",
                                static_cast<double>(timeout) / 1e9,
                                waitsFor(b)));
  if (gBlockedSince.load(std::memory_order_acquire) != since)
    return "";
  return error.what();
}

[[noreturn]] static void watchdogLoop() {
  for (;;) {
    const int64_t timeout = gTimeoutNanos.load(std::memory_order_relaxed);
    // A tenth of the timeout, at most a quarter second: the report comes
    // well within the timeout + 5 s the watchdog promises.
    const int64_t poll =
        timeout ? std::min<int64_t>(timeout / 10, 250'000'000) : 250'000'000;
    std::this_thread::sleep_for(
        std::chrono::nanoseconds(std::max<int64_t>(poll, 1'000'000)));
    const int64_t since = gBlockedSince.load(std::memory_order_acquire);
    if (!timeout || !since || steadyNanos() - since < timeout)
      continue;
    // Asks the main thread for news of the awaited members; waiting in the
    // runtime's loop, it answers within microseconds.
    gNewsWanted.store(since, std::memory_order_relaxed);
    for (int i = 0;
         i < 50 && gNewsGiven.load(std::memory_order_acquire) != since; ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    const std::string report = blockedReport(since, timeout);
    if (report.empty())
      continue;
    std::fprintf(stderr, "distrt: error: %s\n", report.c_str());
    std::fflush(stderr);
    // The ranks it waits for are usually stuck too: give their watchdogs
    // time to print before this exit takes the job down.
    std::this_thread::sleep_for(std::chrono::milliseconds(1500));
    std::_Exit(1);
  }
}

void setTimeout(double seconds) {
  if (!(seconds >= 0) || seconds > 1e9)
    raise("the timeout must be between 0 and 1e9 seconds, not {}", seconds);
  gTimeoutNanos.store(static_cast<int64_t>(seconds * 1e9),
                      std::memory_order_relaxed);
  static bool started = false;
  if (seconds > 0 && !started) {
    std::thread(watchdogLoop).detach();
    started = true;
  }
}

// The finish notices: the main thread's side (it alone calls MPI).

/// Notices travel on team 0's notice communicator with this tag.
constexpr int kNoticeTag = 0;

/// The finish notices received so far: (world rank, how). A finished
/// process stays finished, so they are kept across calls. Leaked on
/// purpose, like the other runtime tables.
static std::vector<std::pair<int, int>> &notices() {
  static auto &received = *new std::vector<std::pair<int, int>>;
  return received;
}

/// Receives the notices that have arrived.
static void receiveNotices(const TeamState &world) {
  for (;;) {
    int found = 0, how = 0;
    MPI_Status status;
    if (MPI_Iprobe(MPI_ANY_SOURCE, kNoticeTag, world.noticeComm, &found,
                   &status) != MPI_SUCCESS ||
        !found ||
        MPI_Recv(&how, 1, MPI_INT, status.MPI_SOURCE, kNoticeTag,
                 world.noticeComm, MPI_STATUS_IGNORE) != MPI_SUCCESS)
      return;
    notices().emplace_back(status.MPI_SOURCE, how);
  }
}

/// After its own notice, a finished process waits for the others' before
/// it goes on to MPI_Finalize, for at most the timeout + 5 s (the time a
/// stuck process takes to end the job). Open MPI 4.1's launcher may crash
/// in PMIx_server_finalize, or hang, when a process exits non-zero while
/// another waits in MPI_Finalize; with the watchdog on, that is how a
/// stuck job ends. A process whose watchdog is off sends no notice: the
/// others then finalize after the bound, as they would have.
static void awaitOthersFinished(const TeamState &world) {
  const int64_t bound =
      gTimeoutNanos.load(std::memory_order_relaxed) + 5'000'000'000;
  const int64_t start = steadyNanos();
  std::vector<char> heard(static_cast<size_t>(world.size));
  int missing = world.size - 1;
  size_t counted = 0;
  while (missing > 0 && steadyNanos() - start < bound) {
    receiveNotices(world);
    for (; counted < notices().size(); ++counted) {
      const int rank = notices()[counted].first;
      if (rank >= 0 && rank < world.size && rank != world.rank &&
          !heard[static_cast<size_t>(rank)]) {
        heard[static_cast<size_t>(rank)] = 1;
        --missing;
      }
    }
    if (missing > 0)
      std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
}

/// At the end of a process with the watchdog on: tells every other
/// process (O(P) small messages, once) that this one finished, and how.
/// Idempotent.
static void announceFinish(FinishHow how) noexcept {
  static bool announced = false;
  const TeamState *world = findTeam(0);
  if (announced || gTimeoutNanos.load(std::memory_order_relaxed) == 0 ||
      !world || world->noticeComm == MPI_COMM_NULL)
    return;
  announced = true;
  static int message; // outlives the sends, which nobody may receive
  message = how;
  for (int rank = 0; rank < world->size; ++rank) {
    MPI_Request request;
    if (rank != world->rank &&
        MPI_Isend(&message, 1, MPI_INT, rank, kNoticeTag, world->noticeComm,
                  &request) == MPI_SUCCESS)
      MPI_Request_free(&request);
  }
}

/// The last step of the end: after the handles never waited are reported
/// and checked mode agreed on the end (its agreement is made by every
/// process, so a rank that skipped a collective is named there), waits
/// for the others' notices (awaitOthersFinished).
static void awaitOthersAtExit(FinishHow) noexcept {
  const TeamState *world = findTeam(0);
  if (gTimeoutNanos.load(std::memory_order_relaxed) == 0 || !world ||
      world->noticeComm == MPI_COMM_NULL)
    return;
  try {
    awaitOthersFinished(*world);
  } catch (...) {
    // Out of memory: finalize without waiting.
  }
}

/// At the release: announced already unless the host finalizes MPI itself.
static void announceFinalized() noexcept { announceFinish(kFinalized); }

/// Made even without the watchdog, which distrt_set_timeout may start
/// later.
static void createNoticeComm(TeamState &team) {
  if (team.id == 0)
    team.noticeComm = dupForRuntime(team.comm);
}
static void freeNoticeComm(TeamState &team) noexcept {
  freeComm(team.noticeComm);
}

[[maybe_unused]] static const bool kTeamHooked =
    addTeamHooks(TeamStage::kWatchdog,
                 {.create = createNoticeComm, .release = freeNoticeComm});
[[maybe_unused]] static const bool kRuntimeHooked =
    addRuntimeHooks(RuntimeStage::kWatchdog,
                    {.finish = announceFinish, .release = announceFinalized});
[[maybe_unused]] static const bool kExitWaitHooked =
    addRuntimeHooks(RuntimeStage::kExitWait, {.finish = awaitOthersAtExit});

/// Team ranks of world ranks `ranks`, in place (MPI_UNDEFINED: not in it).
static void toTeamRanks(const TeamState &team, const TeamState &world,
                        std::vector<int> &ranks) {
  if (&team == &world || ranks.empty())
    return;
  MPI_Group from, to;
  MPI_Comm_group(world.comm, &from);
  MPI_Comm_group(team.comm, &to);
  std::vector<int> worldRanks = ranks;
  MPI_Group_translate_ranks(from, static_cast<int>(ranks.size()),
                            worldRanks.data(), to, ranks.data());
  MPI_Group_free(&from);
  MPI_Group_free(&to);
}

void giveNews(int64_t since) noexcept {
  BlockedCall &b = gBlocked;
  const TeamState *world = findTeam(0);
  const TeamState *team = findTeam(b.team);
  try {
    if (world && world->noticeComm != MPI_COMM_NULL)
      receiveNotices(*world);
    if (world && team) {
      std::vector<int> ranks;
      ranks.reserve(notices().size());
      for (const auto &notice : notices())
        ranks.push_back(notice.first);
      toTeamRanks(*team, *world, ranks);
      for (size_t i = 0; i < ranks.size(); ++i)
        if (ranks[i] != MPI_UNDEFINED && b.awaits(ranks[i])) {
          BlockedCall::addRank(b.finished, b.finishedCount, ranks[i]);
          b.finishedHow |= notices()[i].second;
        }
    }
  } catch (...) {
    // Out of memory: the report goes without.
  }
  gNewsGiven.store(since, std::memory_order_release);
}

} // namespace distrt::detail
