//===- Environment.h - MPI lifetime -----------------------------*- C++ -*-===//

#ifndef DISTRUNTIME_RUNTIME_ENVIRONMENT_H
#define DISTRUNTIME_RUNTIME_ENVIRONMENT_H

#include <cstddef>

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

/// The environment variable `name` as a number of bytes into `bytes`, if
/// set (false if not); throws Failure naming it when it is not a number.
bool envBytes(const char *name, size_t &bytes);

/// MPI is initialized and not finalized.
bool mpiActive() noexcept;

/// Makes the process's exit status 1 when it ends (after MPI is finalized,
/// so that the other processes finish too).
void failAtExit();

/// The subsystems that hook into the runtime's lifetime, in the order they
/// initialize; they finish and are released in reverse.
enum class RuntimeStage : int {
  kExitWait,    // waits for the others to finish, after everything else
  kCheck,       // reads DISTRT_CHECK, DISTRT_TIMEOUT; agrees on finalize
  kLargeCounts, // reads DISTRT_TEST_MAX_COUNT; frees the wide datatypes
  kReductions,  // frees the user-defined MPI_Ops
  kTeams,       // frees every team (Team.h), once no request runs on it
  kRequests,    // reports and abandons the handles never waited
  kWatchdog,    // tells the others this process finished, before any wait
  kStages
};

/// What a subsystem does at each point of the runtime's lifetime; each may
/// be null. Registered with addRuntimeHooks(), so that this layer calls up
/// into the subsystems without knowing them.
struct RuntimeHooks {
  /// After MPI is ready, at the first call. Throws Failure.
  void (*initialize)() = nullptr;
  /// The process finishes (distrt_finalize, program exit), before the
  /// release: may still communicate. Throws Failure.
  void (*finish)(FinishHow how) = nullptr;
  /// Frees the subsystem's MPI objects. Runs at the start of MPI_Finalize,
  /// whoever calls it.
  void (*release)() noexcept = nullptr;
};

/// Registers the hooks of `stage`, once per stage, at static
/// initialization: `static const bool kHooked = addRuntimeHooks(...);`.
/// Returns true.
bool addRuntimeHooks(RuntimeStage stage, RuntimeHooks hooks) noexcept;

} // namespace distrt::detail

#endif // DISTRUNTIME_RUNTIME_ENVIRONMENT_H
