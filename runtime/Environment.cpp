//===- Environment.cpp - MPI lifetime ---------------------------*- C++ -*-===//
//
// MPI is initialized lazily by the first call if the host program did not do
// it, and finalized only if distrt initialized it (at distrt_finalize or at
// exit). The runtime's own state (communicators, user ops) is freed by a
// delete callback of an attribute on MPI_COMM_SELF, which MPI runs at the
// start of MPI_Finalize: so it is freed in time even when the host program
// finalizes MPI itself. What each subsystem reads at initialization, says
// when the process finishes and frees is its hooks' (RuntimeHooks), so this
// file knows none of them.
//
//===----------------------------------------------------------------------===//

#include "Environment.h"
#include "Error.h"

#include <array>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <ranges>

namespace distrt::detail {

namespace {

bool gOwnsMpi = false;
bool gAtexitRegistered = false;
int gSelfKeyval = MPI_KEYVAL_INVALID;
/// The process exits with status 1 (a handle was never waited).
bool gExitFails = false;
/// The runtime's atexit hook is running.
bool gAtExit = false;

/// Constant-initialized, so registrations at static initialization find it
/// ready whatever the order of the files.
constinit std::array<RuntimeHooks, static_cast<size_t>(RuntimeStage::kStages)>
    gHooks{};

} // namespace

bool addRuntimeHooks(RuntimeStage stage, RuntimeHooks hooks) noexcept {
  gHooks[static_cast<size_t>(stage)] = hooks;
  return true;
}

static void exitIfFailed() {
  if (!gExitFails)
    return;
  std::fflush(nullptr);
  std::_Exit(1);
}

void failAtExit() {
  static bool registered = false;
  gExitFails = true;
  // The runtime's own hook checks (registering during exit is undefined).
  if (!registered && !gAtExit)
    std::atexit(exitIfFailed);
  registered = true;
}

static void teardownState() noexcept {
  if (!gMpiReady)
    return;
  gMpiReady = false;
  for (const RuntimeHooks &hooks : std::views::reverse(gHooks))
    if (hooks.release)
      hooks.release();
}

static int selfDeleteCallback(MPI_Comm, int, void *, void *) {
  teardownState();
  return MPI_SUCCESS;
}

static void atexitHook() {
  gAtExit = true;
  try {
    finalizeRuntime(kReachedExit);
  } catch (...) {
    // E.g. checked mode's agreement at exit found a rank elsewhere.
    failCurrent("finalize", 0, "program exit");
  }
  exitIfFailed();
}

bool envBytes(const char *name, size_t &bytes) {
  const char *value = std::getenv(name);
  if (!value || !*value)
    return false;
  char *end = nullptr;
  errno = 0;
  const long long parsed = std::strtoll(value, &end, 10);
  if (*end != '\0' || parsed < 0 || errno == ERANGE)
    raise("{}={}: expected a number of bytes", name, value);
  bytes = static_cast<size_t>(parsed);
  return true;
}

bool mpiActive() noexcept {
  int initialized = 0, finalized = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  return initialized && !finalized;
}

void initializeSlow() {
  int initialized = 0, finalized = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  if (finalized)
    raise("MPI is already finalized");
  if (!initialized) {
    int provided = 0;
    checkMpi(MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided),
             "MPI_Init_thread");
    gOwnsMpi = true;
#ifdef MPICH
    // MPICH leaves stdout unbuffered when it is a pipe to its launcher, so
    // the pieces of a line (vector.print writes each value on its own)
    // from different ranks interleave; line-buffered, a line is one write.
    // glibc keeps its one-byte buffer for a null `buf`: give it one.
    static std::array<char, BUFSIZ> lineBuffer;
    std::setvbuf(stdout, lineBuffer.data(), _IOLBF, lineBuffer.size());
#endif
    if (!gAtexitRegistered) {
      std::atexit(atexitHook);
      gAtexitRegistered = true;
    }
  }
  if (gSelfKeyval == MPI_KEYVAL_INVALID)
    checkMpi(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, selfDeleteCallback,
                                    &gSelfKeyval, nullptr),
             "MPI_Comm_create_keyval");
  checkMpi(MPI_Comm_set_attr(MPI_COMM_SELF, gSelfKeyval, nullptr),
           "MPI_Comm_set_attr");
  gMpiReady = true;
  for (const RuntimeHooks &hooks : gHooks)
    if (hooks.initialize)
      hooks.initialize();
}

void finalizeRuntime(FinishHow how) {
  if (!mpiActive())
    return;
  if (gMpiReady) {
    // In reverse: the watchdog's notices go before checked mode's
    // agreement, which may block (a process stuck waiting for this one
    // says it finished; a rank that skipped a collective is named there).
    for (const RuntimeHooks &hooks : std::views::reverse(gHooks))
      if (hooks.finish)
        hooks.finish(how);
    // Runs selfDeleteCallback, which tears the state down.
    MPI_Comm_delete_attr(MPI_COMM_SELF, gSelfKeyval);
    teardownState();
  }
  if (gOwnsMpi) {
    gOwnsMpi = false;
    checkMpi(MPI_Finalize(), "MPI_Finalize");
  }
}

} // namespace distrt::detail

namespace distrt {

Environment::Environment() {
  detail::guarded("init", kNoTeam, SourceLoc("distrt::Environment"),
                  [] { detail::ensureMpi(); });
}

Environment::~Environment() {
  if (!active_)
    return;
  try {
    detail::finalizeRuntime();
  } catch (...) {
    detail::failCurrent("finalize", kNoTeam, "distrt::Environment");
  }
}

Environment &Environment::operator=(Environment &&other) noexcept {
  if (this != &other) {
    active_ = other.active_;
    other.active_ = false;
  }
  return *this;
}

} // namespace distrt
