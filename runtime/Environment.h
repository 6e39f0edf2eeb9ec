//===- Environment.h - MPI lifetime -----------------------------*- C++ -*-===//

#ifndef DISTRUNTIME_RUNTIME_ENVIRONMENT_H
#define DISTRUNTIME_RUNTIME_ENVIRONMENT_H

namespace distrt::detail {

/// True between a successful lazy initialization and teardown: the fast path
/// of every entry point is this one load.
inline bool gMpiReady = false;

void initializeSlow();

/// Initializes MPI (if nobody did) and the runtime's state; throws Failure if
/// MPI was already finalized.
inline void ensureMpi() {
  if (!gMpiReady) [[unlikely]]
    initializeSlow();
}

/// How a process finished, as other processes' watchdogs report it (bits).
enum FinishHow : int { kReachedExit = 1, kFinalized = 2 };

/// Frees the runtime's communicators and ops, then finalizes MPI if distrt
/// initialized it. Idempotent. With the watchdog on, first tells the other
/// processes this one finished, and how (Watchdog.h).
void finalizeRuntime(FinishHow how = kFinalized);

/// MPI is initialized and not finalized.
bool mpiActive() noexcept;

} // namespace distrt::detail

#endif // DISTRUNTIME_RUNTIME_ENVIRONMENT_H
