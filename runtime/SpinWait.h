//===- SpinWait.h - Waiting on memory another process writes ----*- C++ -*-===//
//
// The shared-memory paths (HaloChannel.h, SharedGroup.h) publish a round by
// a release store of its number into a word another process polls with
// acquire loads. A wait polls briefly (the writer is usually a cache line
// away), then lets MPI progress (an exchange of another op may wait on this
// process; an MPI told to yield when idle yields there), answers the
// watchdog and gives the core away now and then, for an MPI that polls on.
// On a node with more processes than cores it skips the polling: the
// awaited process may need this core.
//
//===----------------------------------------------------------------------===//

#ifndef DISTRUNTIME_RUNTIME_SPINWAIT_H
#define DISTRUNTIME_RUNTIME_SPINWAIT_H

#include "Watchdog.h"

#include <mpi.h>
#include <sched.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>

namespace distrt::detail {

inline uint64_t loadAcquire(const void *word) {
  return std::atomic_ref<uint64_t>(
             *static_cast<uint64_t *>(const_cast<void *>(word)))
      .load(std::memory_order_acquire);
}

inline void storeRelease(void *word, uint64_t value) {
  std::atomic_ref<uint64_t>(*static_cast<uint64_t *>(word))
      .store(value, std::memory_order_release);
}

inline void cpuRelax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}

/// Polls of a wait before it lets MPI progress, given the processes on the
/// node: none when they outnumber its cores.
inline int spinsFor(int nodeProcesses) {
  constexpr int kSpins = 64;
  return nodeProcesses > sysconf(_SC_NPROCESSORS_ONLN) ? 0 : kSpins;
}

/// The polls of spinUntil once `ready()` was false: out of line, so that
/// scripts/call-cost.sh, which counts the runtime's own instructions per
/// call, leaves out how long a peer took (its polls here).
template <class Ready>
[[gnu::noinline]] void pollPeers(Ready ready, MPI_Comm comm, int spins) {
  // Probes per yield of the core: at every probe on top of Open MPI's own
  // yield the exchanges were slower (np 3 on two cores, 64 B halos: 1.5x).
  constexpr int kProbesPerYield = 16;
  for (int polls = 0; !ready(); ++polls) {
    if (polls < spins) {
      cpuRelax();
      continue;
    }
    int flag = 0;
    MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, comm, &flag, MPI_STATUS_IGNORE);
    answerWatchdog();
    if ((polls - spins) % kProbesPerYield == kProbesPerYield - 1)
      sched_yield();
  }
}

/// Waits until `ready()`, after `spins` polls probing `comm` for MPI's
/// progress.
template <class Ready>
inline void spinUntil(Ready ready, MPI_Comm comm, int spins) {
  if (!ready())
    pollPeers(ready, comm, spins);
}

} // namespace distrt::detail

#endif // DISTRUNTIME_RUNTIME_SPINWAIT_H
