//===- Watchdog.cpp - A stuck call ends the job with a report ---*- C++ -*-===//

#include "Watchdog.h"
#include "Error.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>

namespace distrt::detail {

int64_t steadyNanos() noexcept {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

/// The report of the blocked call, or "" if it returned meanwhile.
static std::string blockedReport(int64_t since, int64_t timeout) {
  const BlockedCall &b = gBlocked;
  std::string peers;
  for (int i = 0; i < b.peerCount && i < BlockedCall::kPeers; ++i)
    peers += fmt::format("{}{}", i ? ", " : "", b.peers[i]);
  if (b.peerCount > BlockedCall::kPeers)
    peers += ", ...";
  std::string what;
  try {
    const std::string issued =
        b.issuedOp
            ? fmt::format("{} issued at {}", b.issuedOp, b.issuedAt.str())
            : "";
    what =
        fmt::format(fmt::runtime(b.waitsFor), fmt::arg("peers", peers),
                    fmt::arg("channel", b.channel), fmt::arg("issued", issued));
  } catch (const fmt::format_error &) {
    what = b.waitsFor;
  }
  const Error error(b.op, b.loc.str(), b.team, callerRank(b.team),
                    fmt::format("no progress for {:g} s (DISTRT_TIMEOUT): "
                                "waiting for {}",
                                static_cast<double>(timeout) / 1e9, what));
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

} // namespace distrt::detail
