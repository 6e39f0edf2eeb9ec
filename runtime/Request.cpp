//===- Request.cpp - Async handle table -------------------------*- C++ -*-===//

#include "Request.h"
#include "Error.h"
#include "HaloChannel.h"
#include "Memref.h"

#include <cstdio>
#include <memory>

namespace distrt::detail {

// Leaked on purpose: it must outlive the atexit hook that finalizes MPI. Made
// when the library loads, so the hot paths need no initialization guard.
RequestTable *const gRequests = new RequestTable;

/// Throws `message`, prefixed by the op a wait completes (a blocking call's
/// own error names it already: `op` is empty).
[[noreturn]] static void raiseWait(const char *op, const std::string &message,
                                   int code) {
  throw Failure(*op ? fmt::format("{}: {}", op, message) : message, code);
}

/// "8 bytes" for a byte count, "8 elements" otherwise.
static std::string amount(int64_t count, MPI_Datatype type) {
  return fmt::format("{} {}", count, type == MPI_BYTE ? "bytes" : "elements");
}

/// Throws for a receive that failed with `error`.
[[noreturn, gnu::cold]] static void
raiseReceiveError(const char *op, const ReceiveCheck &check, int error) {
  int errorClass = error;
  MPI_Error_class(error, &errorClass);
  if (errorClass == MPI_ERR_TRUNCATE)
    raiseWait(op,
              fmt::format("rank {} sent more than the {} expected for the "
                          "{}: {}",
                          check.peer, amount(check.expected, check.type),
                          check.what, kDisagree),
              error);
  raiseWait(op,
            fmt::format("receiving the {} from rank {} failed: {}", check.what,
                        check.peer, mpiErrorString(error)),
            error);
}

/// Throws unless the completed receive delivered what `check` expects.
static void checkReceived(const char *op, const ReceiveCheck &check,
                          const MPI_Status &status) {
  if (check.bytes >= 0 && receivedBytes(status) == check.bytes) [[likely]]
    return;
  int count = 0;
  MPI_Get_count(&status, check.type, &count);
  if (count == check.expected) [[likely]]
    return;
  // Counted in bytes: a peer with another element type may have sent a
  // partial element, for which MPI has no element count.
  int bytes = 0, typeSize = 0;
  MPI_Get_count(&status, MPI_BYTE, &bytes);
  MPI_Type_size(check.type, &typeSize);
  const std::string expected =
      check.type == MPI_BYTE
          ? amount(check.expected, check.type)
          : fmt::format("{} ({} bytes)", amount(check.expected, check.type),
                        static_cast<int64_t>(check.expected) * typeSize);
  raiseWait(op,
            fmt::format("received {} bytes from rank {} for the {}, "
                        "expected {}: {}",
                        bytes, check.peer, check.what, expected, kDisagree),
            MPI_SUCCESS);
}

void RequestSlot::addUnpack(size_t stagingOffset, std::byte *base, int64_t rank,
                            const int64_t *sizes, const int64_t *strides,
                            size_t elementSize) {
  const size_t shapeIndex = shapes.size();
  shapes.insert(shapes.end(), sizes, sizes + rank);
  shapes.insert(shapes.end(), strides, strides + rank);
  unpacks.push_back({stagingOffset, base, rank, elementSize, shapeIndex});
}

void growRequests() {
  RequestTable &t = *gRequests;
  if (t.slots.size() > kSlotMask)
    raise("too many async operations in flight ({})", t.slots.size());
  // Room first: a failed allocation leaves the table as it was.
  auto slot = std::make_unique<RequestSlot>();
  if (t.slots.size() == t.slots.capacity())
    t.slots.reserve(2 * t.slots.size() + 16);
  t.freeSlots.resize(t.slots.size() + 1);
  t.slots.push_back(std::move(slot));
  t.freeSlots[t.freeCount++] = static_cast<uint32_t>(t.slots.size() - 1);
}

RequestSlot &acquireRequest(const char *op, int64_t team, const SourceLoc &loc,
                            distrt_handle_t &handle) {
  if (gRequests->freeCount == 0)
    growRequests();
  RequestSlot &slot = takeRequest(op, team, loc, handle);
  slot.isLone = false;
  // A free slot's vectors keep their capacity: no allocation.
  slot.requests.clear();
  slot.checks.clear();
  slot.unpacks.clear();
  slot.shapes.clear();
  slot.pendingError.clear();
  slot.beforeWait = nullptr;
  slot.completions.clear();
  slot.channel = nullptr;
  return slot;
}

void releaseRequest(distrt_handle_t handle, bool recycle) noexcept {
  if (RequestSlot *slot = findRequest(handle))
    retireRequest(*slot, slotIndex(handle), recycle);
}

void raiseWaitFailed(const char *op, int code) {
  raiseWait(op, fmt::format("MPI_Wait failed: {}", mpiErrorString(code)), code);
}

/// Ends a slot's pending requests: a wait that throws (no request of it may
/// touch the program's buffers afterwards; Open MPI's MPI_Waitall returns at
/// the first failed request and leaves the others active, MPI_ERR_PENDING)
/// and a handle never waited, at teardown. Receives not yet matched are
/// cancelled (a send that cannot be cancelled completes); all get `seconds`.
/// True if nothing is left pending.
bool cancelPending(std::span<MPI_Request> requests, double seconds) noexcept {
  const double deadline = MPI_Wtime() + seconds;
  bool quiet = true;
  for (MPI_Request &request : requests) {
    if (request == MPI_REQUEST_NULL)
      continue;
    int done = 0;
    MPI_Test(&request, &done, MPI_STATUS_IGNORE);
    if (!done)
      MPI_Cancel(&request); // a send that cannot be cancelled completes
    while (!done && MPI_Wtime() < deadline)
      if (MPI_Test(&request, &done, MPI_STATUS_IGNORE) != MPI_SUCCESS)
        break;
    quiet = quiet && done;
  }
  return quiet;
}

void waitChecked(const char *op, std::vector<MPI_Request> &requests,
                 std::vector<MPI_Status> &statuses,
                 const std::vector<ReceiveCheck> &checks) {
  if (requests.empty())
    return;
  [[maybe_unused]] const CompletionErrorsReturn errors;
  const bool needStatuses = !checks.empty();
  if (needStatuses)
    statuses.resize(requests.size());
  const int count = static_cast<int>(requests.size());
  MPI_Status *status = needStatuses ? statuses.data() : MPI_STATUSES_IGNORE;
  int code;
  if (watching())
    code = waitWatched([&](int *done) {
      return MPI_Testall(count, requests.data(), done, status);
    });
  else
    code = MPI_Waitall(count, requests.data(), status);
  if (code == MPI_ERR_IN_STATUS && needStatuses) {
    for (const ReceiveCheck &check : checks) {
      const int error = statuses[static_cast<size_t>(check.index)].MPI_ERROR;
      if (error != MPI_SUCCESS && error != MPI_ERR_PENDING)
        raiseReceiveError(op, check, error);
    }
  }
  if (code != MPI_SUCCESS)
    raiseWait(op, fmt::format("MPI_Waitall failed: {}", mpiErrorString(code)),
              code);
  for (const ReceiveCheck &check : checks)
    checkReceived(op, check, statuses[static_cast<size_t>(check.index)]);
}

SyncRequests &syncRequests() {
  static SyncRequests requests;
  requests.requests.clear();
  requests.checks.clear();
  return requests;
}

void completeRequest(RequestSlot *found, distrt_handle_t handle) {
  if (!found)
    raise("handle {:#x} was already waited or is invalid", handle);
  RequestSlot &slot = *found;
  // Outlives the releaser, whose cancelPending() tests requests too.
  [[maybe_unused]] const CompletionErrorsReturn errors;
  struct Releaser {
    RequestSlot &slot;
    distrt_handle_t handle;
    bool completed = false;
    ~Releaser() {
      if (!completed)
        completed = cancelPending(slot.requests, 1.0); // the error waits for it
      retireRequest(slot, slotIndex(handle), completed);
    }
  } releaser{slot, handle};

  if (!slot.pendingError.empty())
    raiseWait(slot.op, slot.pendingError, MPI_SUCCESS);
  if (slot.beforeWait)
    slot.beforeWait();
  if (slot.channel)
    slot.channel->complete(slot.channelRound);
  waitChecked(slot.op, slot.requests, slot.statuses, slot.checks);
  for (const std::function<void()> &complete : slot.completions)
    complete();
  for (const UnpackJob &job : slot.unpacks) {
    const int64_t *sizes = slot.shapes.data() + job.shapeIndex;
    unpack(slot.staging.data() + job.stagingOffset,
           StridedBytes{job.base, job.rank, sizes, sizes + job.rank,
                        job.elementSize});
  }
  releaser.completed = true;
}

void failBlockingReceive(const char *op, const ReceiveCheck &check, int code,
                         const MPI_Status &status) {
  if (code != MPI_SUCCESS)
    raiseReceiveError("", check, code);
  checkReceived("", check, status);
  // The count matched, so reading it failed the first time.
  raise("{}: MPI_Get_count failed for the {} from rank {}", op, check.what,
        check.peer);
}

/// The handles never waited, each reported (op, location, team, rank)
/// before anything touches its requests: the program may have freed their
/// buffers. As an error (the default) the process then exits 1 right here,
/// its requests untouched and MPI not finalized: completing or cancelling
/// one could read or write freed memory, and MPI_Finalize could wait on
/// them forever; the launcher ends the job. With DISTRT_UNWAITED=warn it is
/// a warning, and the release completes them (abandonRequests()).
static void reportUnwaited() noexcept {
  static bool reported = false;
  RequestTable &t = *gRequests;
  if (!t.live || reported)
    return;
  reported = true;
  for (const std::unique_ptr<RequestSlot> &slot : t.slots) {
    if (!slot->active)
      continue;
    std::string why = slot->pendingError; // a host recv no send served
    why += why.empty() ? "" : "; ";
    why += gUnwaitedWarns ? "completing it at finalization (its buffers must "
                            "still be alive)"
                          : "the process exits 1 without completing it, "
                            "since its buffers may be gone";
    std::fprintf(stderr,
                 "distrt: %s: %s at %s: team %lld, rank %d: the handle was "
                 "never waited; %s\n",
                 gUnwaitedWarns ? "warning" : "error", slot->op,
                 slot->loc.str().c_str(), static_cast<long long>(slot->team),
                 callerRank(slot->team), why.c_str());
  }
  if (!gUnwaitedWarns)
    exitFailing();
}

/// The finish hook: the handles never waited are reported before checked
/// mode's agreement at exit, which would otherwise blame the members for a
/// collective this process left pending.
static void finishRequests(FinishHow) { reportUnwaited(); }

/// At teardown, before the communicators are freed, with
/// DISTRT_UNWAITED=warn (reportUnwaited() ends the process otherwise):
/// gives the handles never waited a bounded time to complete (every rank
/// of an SPMD program left the same ones); a receive still pending then is
/// cancelled, anything else reported and left to MPI.
static void abandonRequests() noexcept {
  reportUnwaited();
  RequestTable &t = *gRequests;
  if (!t.live)
    return;
  // All are polled together, so one that never completes does not use up
  // the others' time.
  constexpr double kGraceSeconds = 5.0;
  const double deadline = MPI_Wtime() + kGraceSeconds;
  std::vector<RequestSlot *> pending;
  for (const std::unique_ptr<RequestSlot> &owned : t.slots)
    if (owned->active) {
      if (owned->isLone)
        owned->requests.assign(1, owned->lone);
      pending.push_back(owned.get());
    }
  std::vector<int> completed(pending.size(), 0);
  [[maybe_unused]] const CompletionErrorsReturn errors;
  for (bool all = false; !all && MPI_Wtime() < deadline;) {
    all = true;
    for (size_t i = 0; i < pending.size(); ++i) {
      std::vector<MPI_Request> &requests = pending[i]->requests;
      if (!completed[i] &&
          MPI_Testall(static_cast<int>(requests.size()), requests.data(),
                      &completed[i], MPI_STATUSES_IGNORE) != MPI_SUCCESS)
        completed[i] = -1; // failed: left to MPI
      all = all && completed[i] != 0;
    }
  }
  for (size_t i = 0; i < pending.size(); ++i) {
    RequestSlot &slot = *pending[i];
    if (completed[i] == 1) {
      slot.active = false;
      continue;
    }
    const bool cancelled =
        !slot.checks.empty() && cancelPending(slot.requests, 1.0);
    std::fprintf(stderr, "distrt: warning: %s at %s: team %lld, rank %d: %s\n",
                 slot.op, slot.loc.str().c_str(),
                 static_cast<long long>(slot.team), callerRank(slot.team),
                 cancelled ? "its receives were cancelled at finalization"
                           : "still pending at finalization, left to MPI");
    slot.active = !cancelled;
  }
}

#ifdef MPICH_VERSION
namespace {
/// World's handler while the runtime lives, and the one it replaced.
MPI_Errhandler gWorldHandler = MPI_ERRHANDLER_NULL;
MPI_Errhandler gProgramHandler = MPI_ERRHANDLER_NULL;
} // namespace

/// World's handler: returns inside the runtime's completions (the runtime
/// reads the code and names the op); elsewhere the handler world had
/// decides, as if the runtime were not there.
static void onWorldError(MPI_Comm *comm, int *code, ...) {
  if (gCompleting)
    return;
  MPI_Comm_set_errhandler(*comm, gProgramHandler);
  MPI_Comm_call_errhandler(*comm, *code);
  MPI_Comm_set_errhandler(*comm, gWorldHandler);
}

static void installWorldHandler() {
  checkMpi(MPI_Comm_get_errhandler(MPI_COMM_WORLD, &gProgramHandler),
           "MPI_Comm_get_errhandler");
  checkMpi(MPI_Comm_create_errhandler(onWorldError, &gWorldHandler),
           "MPI_Comm_create_errhandler");
  checkMpi(MPI_Comm_set_errhandler(MPI_COMM_WORLD, gWorldHandler),
           "MPI_Comm_set_errhandler");
}

/// Gives world its handler back, unless the program has set another since.
static void restoreWorldHandler() noexcept {
  if (gWorldHandler == MPI_ERRHANDLER_NULL)
    return;
  MPI_Errhandler current = MPI_ERRHANDLER_NULL;
  if (MPI_Comm_get_errhandler(MPI_COMM_WORLD, &current) == MPI_SUCCESS) {
    if (current == gWorldHandler)
      MPI_Comm_set_errhandler(MPI_COMM_WORLD, gProgramHandler);
    MPI_Errhandler_free(&current);
  }
  MPI_Errhandler_free(&gWorldHandler);
  MPI_Errhandler_free(&gProgramHandler);
}
#else
static void installWorldHandler() {}
static void restoreWorldHandler() noexcept {}
#endif

/// Handles never waited: reported, and then the process exits 1 or, with
/// DISTRT_UNWAITED=warn, they are completed (abandonRequests()).
static void releaseRequests() noexcept {
  abandonRequests();
  restoreWorldHandler();
}

[[maybe_unused]] static const bool kHooked =
    addRuntimeHooks(RuntimeStage::kRequests, {.initialize = installWorldHandler,
                                              .finish = finishRequests,
                                              .release = releaseRequests});

} // namespace distrt::detail

namespace distrt::detail {

void wait(distrt_handle_t handle, const SourceLoc &loc) {
  int64_t team = kNoTeam;
  try {
    const WaitWatch watch(handle, loc);
    waitRequest(handle, &team);
  } catch (...) {
    throw currentError("wait", team, loc);
  }
}

} // namespace distrt::detail

namespace distrt {

void wait(distrt_handle_t handle, SourceLoc loc) { detail::wait(handle, loc); }

void Request::wait(SourceLoc loc) {
  // Given up before waiting: MPI reuse rules make a retry meaningless.
  const distrt_handle_t handle = release();
  if (handle)
    detail::wait(handle, loc);
}

Request::~Request() {
  if (!handle_)
    return;
  try {
    detail::wait(release(), SourceLoc("distrt::Request::~Request"));
  } catch (const Error &error) {
    detail::fail(error);
  }
}

Request &Request::operator=(Request &&other) noexcept {
  if (this != &other) {
    if (handle_) {
      try {
        detail::wait(release(), SourceLoc("distrt::Request::operator="));
      } catch (const Error &error) {
        detail::fail(error);
      }
    }
    handle_ = other.release();
  }
  return *this;
}

} // namespace distrt
