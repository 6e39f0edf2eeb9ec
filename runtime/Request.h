//===- Request.h - Async handle table ---------------------------*- C++ -*-===//
//
// An async handle is (generation << 24) | slot. A slot owns the operation's
// MPI requests, staging memory and completion work (receive-size checks and
// unpacking into strided destinations). Slots are recycled LIFO and keep
// their vectors' capacity, so a steady stream of operations allocates
// nothing. A released slot bumps its generation: a stale or twice-waited
// handle no longer matches and is reported, never dereferenced.
//
//===----------------------------------------------------------------------===//

#ifndef DISTRUNTIME_RUNTIME_REQUEST_H
#define DISTRUNTIME_RUNTIME_REQUEST_H

#include "Error.h"
#include "Watchdog.h"

#include "distruntime/Runtime/distrt.h"

#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace distrt::detail {

class HaloChannel;

/// Why a receive got other bytes than it expected, in errors.
inline constexpr const char *kDisagree =
    "the ranks disagree on the geometry or the element type";

/// After completion, request `index` must have delivered `expected`
/// elements of `type` from `peer`.
struct ReceiveCheck {
  int index;
  int expected;
  int peer;
  MPI_Datatype type;
  const char *what; // e.g. "left halo"
  /// `expected` elements' bytes when the poster knows them (-1: unknown),
  /// so that the check reads the status instead of calling MPI_Get_count.
  int64_t bytes = -1;
};

/// After completion, copy the dense staging bytes at `stagingOffset` into the
/// strided destination whose sizes and strides are shapes[shapeIndex...].
struct UnpackJob {
  size_t stagingOffset;
  /// The destination: its first element, rank and element size.
  std::byte *base;
  int64_t rank;
  size_t elementSize;
  /// Where its sizes and strides are kept in RequestSlot::shapes.
  size_t shapeIndex;
};

struct RequestSlot {
  uint64_t generation = 1;
  /// In use; with `isLone`, its operation is `lone` alone (a posted send, a
  /// collective on the operands' own buffers): nothing to check or unpack,
  /// and the vectors below are unused.
  bool active = false, isLone = false;
  MPI_Request lone = MPI_REQUEST_NULL;
  const char *op = "";
  int64_t team = 0;
  /// Where the operation was issued, for the report of a handle never
  /// waited.
  SourceLoc loc{""};
  std::vector<MPI_Request> requests;
  std::vector<MPI_Status> statuses;
  std::vector<ReceiveCheck> checks;
  std::vector<std::byte> staging;
  std::vector<UnpackJob> unpacks;
  std::vector<int64_t> shapes;
  /// What the wait raises unless another call completes the operation
  /// first and clears it (an async host-transfer recv posted before its
  /// send), or the error that call met.
  std::string pendingError;
  /// Runs first when the operation is waited (checked mode's check of what
  /// an async receive's sender says it sent).
  std::function<void()> beforeWait;
  /// Run in order once the requests complete, before the unpacks (an own
  /// reduction's fold of what its requests gathered, Reproducible.h).
  std::vector<std::function<void()>> completions;
  /// A halo exchange's messages in shared memory: its channel completes
  /// round `channelRound` first (HaloChannel.h).
  HaloChannel *channel = nullptr;
  uint64_t channelRound = 0;

  /// At least `bytes` of staging (its capacity kept from use to use).
  std::byte *stage(size_t bytes) {
    if (staging.size() < bytes)
      staging.resize(bytes);
    return staging.data();
  }

  /// Records a strided destination to fill from staging at completion.
  void addUnpack(size_t stagingOffset, std::byte *base, int64_t rank,
                 const int64_t *sizes, const int64_t *strides,
                 size_t elementSize);
};

// The handle table. Its fast paths (a send's handle, a one-request wait)
// are inline: they are most of an async point-to-point call's own cost.

inline constexpr int kSlotBits = 24;
inline constexpr uint64_t kSlotMask = (uint64_t{1} << kSlotBits) - 1;
// Generations wrap well before the handle's sign bit.
inline constexpr uint64_t kGenerationLimit = uint64_t{1} << (63 - kSlotBits);

struct RequestTable {
  // Each slot on its own: addresses stay stable while the table grows, and a
  // handle's slot is one indexed load away.
  std::vector<std::unique_ptr<RequestSlot>> slots;
  /// The free slots' indices are freeSlots[0, freeCount). As long as
  /// `slots`, so that releasing one writes without a capacity check.
  std::vector<uint32_t> freeSlots;
  size_t freeCount = 0;
  size_t live = 0;
};
extern RequestTable *const gRequests;

inline uint32_t slotIndex(distrt_handle_t handle) {
  return static_cast<uint32_t>(static_cast<uint64_t>(handle) & kSlotMask);
}

/// The slot of a live handle, else nullptr.
inline RequestSlot *findRequest(distrt_handle_t handle) noexcept {
  if (handle <= 0)
    return nullptr;
  const auto raw = static_cast<uint64_t>(handle);
  const uint64_t index = raw & kSlotMask;
  RequestTable &t = *gRequests;
  if (index >= t.slots.size())
    return nullptr;
  RequestSlot &slot = *t.slots[index];
  if (!slot.active || slot.generation != raw >> kSlotBits)
    return nullptr;
  return &slot;
}

/// Retires the slot's handle. A slot whose MPI requests may still be pending
/// (its wait failed) is not recycled: MPI may still write into its staging.
inline void retireRequest(RequestSlot &slot, uint32_t index,
                          bool recycle = true) noexcept {
  RequestTable &t = *gRequests;
  slot.active = false;
  if (++slot.generation == kGenerationLimit)
    slot.generation = 1;
  if (recycle)
    t.freeSlots[t.freeCount++] = index;
  --t.live;
}

/// Takes a free slot for `op` on `team`; `handle` receives its handle.
RequestSlot &acquireRequest(const char *op, int64_t team, const SourceLoc &loc,
                            distrt_handle_t &handle);

/// Returns a slot whose operation failed to start; with `recycle` false (some
/// MPI requests were posted) the slot is retired instead of reused.
void releaseRequest(distrt_handle_t handle, bool recycle = true) noexcept;

/// waitRequest() of all but a live lone handle (`slot` null: no live
/// handle).
void completeRequest(RequestSlot *found, distrt_handle_t handle);

/// Waits for `requests` (answering the watchdog if the call is watched),
/// then checks the receives `checks` names against their statuses; throws
/// Failure naming `op`, the requests then possibly still pending.
void waitChecked(const char *op, std::vector<MPI_Request> &requests,
                 std::vector<MPI_Status> &statuses,
                 const std::vector<ReceiveCheck> &checks);

/// Ends `requests` that may be pending (a failed wait, a failed start):
/// cancels the receives not yet matched and gives all `seconds` to
/// complete. True if none is left pending.
bool cancelPending(std::span<MPI_Request> requests, double seconds) noexcept;

/// The requests of a sync operation that posts and completes them at once
/// and has nothing to unpack (update_halo's exchange without staging): no
/// handle, no slot to take and retire, which is most of a small exchange's
/// own cost. The runtime's one set (it is single-threaded).
struct SyncRequests {
  std::vector<MPI_Request> requests;
  std::vector<MPI_Status> statuses;
  std::vector<ReceiveCheck> checks;
};

/// The runtime's SyncRequests, emptied.
SyncRequests &syncRequests();

[[noreturn, gnu::cold, gnu::noinline]] void raiseWaitFailed(const char *op,
                                                            int code);

/// MPI_COMM_WORLD returns errors while this lives, then gets its handler
/// back.
struct WorldErrorsReturn {
  MPI_Errhandler saved = MPI_ERRHANDLER_NULL;
  WorldErrorsReturn() noexcept {
    if (MPI_Comm_get_errhandler(MPI_COMM_WORLD, &saved) == MPI_SUCCESS)
      MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  }
  ~WorldErrorsReturn() {
    if (saved == MPI_ERRHANDLER_NULL)
      return;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, saved);
    MPI_Errhandler_free(&saved);
  }
  WorldErrorsReturn(const WorldErrorsReturn &) = delete;
  WorldErrorsReturn &operator=(const WorldErrorsReturn &) = delete;
};

/// MPICH 4.0 raises the errors of completing a request (MPI_Wait*,
/// MPI_Test*: a truncated receive) on MPI_COMM_WORLD's error handler, not on
/// the request's communicator (which returns errors): fatal by default, so
/// the job would abort before the runtime names the op. The runtime sets
/// world's handler once, at initialization, to one that returns while the
/// runtime completes its own requests (this guard is live) and otherwise
/// hands the error to the handler world had (Request.cpp): a counter here,
/// not two MPI calls around every wait. Open MPI raises them on the
/// request's communicator, but for its nonblocking collectives': only the
/// watched wait, which runs sync collectives, guards against those.
#ifdef MPICH_VERSION
/// Guards of the runtime's completions that are live.
inline int gCompleting = 0;
struct CompletionErrorsReturn {
  CompletionErrorsReturn() noexcept { ++gCompleting; }
  ~CompletionErrorsReturn() { --gCompleting; }
  CompletionErrorsReturn(const CompletionErrorsReturn &) = delete;
  CompletionErrorsReturn &operator=(const CompletionErrorsReturn &) = delete;
};
#else
struct CompletionErrorsReturn {};
#endif

/// A call the watchdog watches is under way (its waits loop).
inline bool watching() {
  return gBlockedSince.load(std::memory_order_relaxed) != 0;
}

/// The wait of a call the watchdog watches: `test(&done)` (MPI_Test or
/// MPI_Testall, as the MPI_Wait or MPI_Waitall it replaces) until done or
/// failed, answering the watchdog meanwhile (answerWatchdog).
template <class Test> [[gnu::noinline]] int waitWatched(Test test) {
  // Open MPI raises a failed nonblocking collective on world's handler.
  const WorldErrorsReturn errors;
  for (;;) {
    int done = 0;
    const int code = test(&done);
    if (code != MPI_SUCCESS || done)
      return code;
    answerWatchdog();
  }
}

/// Completes the lone request of a live handle's slot and retires the slot
/// (not recycled if the wait failed: MPI may still use the request). Returns
/// MPI_Wait's code; the slot's op and team stay readable. `watched`: the
/// call is watched (a caller that knows it is not passes false).
inline int waitLone(RequestSlot &slot, distrt_handle_t handle,
                    bool watched = watching()) noexcept {
  int code;
  {
    [[maybe_unused]] const CompletionErrorsReturn errors;
    if (watched) [[unlikely]]
      code = waitWatched([&](int *done) {
        return MPI_Test(&slot.lone, done, MPI_STATUS_IGNORE);
      });
    else
      code = MPI_Wait(&slot.lone, MPI_STATUS_IGNORE);
  }
  retireRequest(slot, slotIndex(handle), code == MPI_SUCCESS);
  return code;
}

/// Completes `handle`: waits for its MPI requests, checks receive sizes and
/// runs its unpacks. The slot is released even if this throws Failure.
/// `team`, if given, receives the operation's team first (for errors).
inline void waitRequest(distrt_handle_t handle, int64_t *team = nullptr) {
  RequestSlot *slot = findRequest(handle);
  if (slot && team)
    *team = slot->team;
  if (slot && slot->isLone) [[likely]] {
    if (const int code = waitLone(*slot, handle)) [[unlikely]]
      raiseWaitFailed(slot->op, code);
    return;
  }
  completeRequest(slot, handle);
}

/// Makes a slot whose operation came to one request with nothing to check
/// or unpack (a send, a collective on the operands' own buffers) lone, so
/// that its wait is waitLone(). Every operation that posts into a slot from
/// acquireRequest() calls it once its requests are posted.
inline void settleRequest(RequestSlot &slot) noexcept {
  if (slot.requests.size() == 1 && slot.checks.empty() &&
      slot.unpacks.empty() && !slot.beforeWait && slot.completions.empty() &&
      !slot.channel) {
    slot.isLone = true;
    slot.lone = slot.requests.front();
  }
}

/// Makes `f` run first when the live handle's operation is waited (a lone
/// slot becomes a general one, whose wait runs it).
inline void deferToWait(distrt_handle_t handle, std::function<void()> f) {
  RequestSlot *slot = findRequest(handle);
  if (!slot)
    return;
  if (slot->isLone) {
    slot->requests.assign(1, slot->lone);
    slot->checks.clear();
    slot->unpacks.clear();
    slot->shapes.clear();
    slot->pendingError.clear();
    slot->isLone = false;
  }
  slot->beforeWait = std::move(f);
}

/// Runs `start(slot)` in a fresh slot: it posts the operation's MPI calls
/// (blocking ones for a sync operation, whose completion work then runs
/// here) and records the completion work. Returns the handle when `async`,
/// else completes it and returns 0. A failing start returns the slot.
template <class Start>
distrt_handle_t runInSlot(const char *op, int64_t team, const SourceLoc &loc,
                          bool async, Start &&start) {
  distrt_handle_t handle = 0;
  RequestSlot &slot = acquireRequest(op, team, loc, handle);
  try {
    start(slot);
  } catch (...) {
    releaseRequest(handle, slot.requests.empty());
    throw;
  }
  settleRequest(slot);
  if (async)
    return handle;
  waitRequest(handle);
  return 0;
}

/// Makes a free slot (the table grows); raises when too many are in flight.
void growRequests();

/// Takes the last free slot (there must be one) for `op` on `team`;
/// `handle` receives its handle. The caller sets isLone and what it uses.
inline RequestSlot &takeRequest(const char *op, int64_t team,
                                const SourceLoc &loc, distrt_handle_t &handle) {
  RequestTable &t = *gRequests;
  const uint32_t index = t.freeSlots[--t.freeCount];
  RequestSlot &slot = *t.slots[index];
  slot.active = true;
  slot.op = op;
  slot.team = team;
  slot.loc = loc;
  ++t.live;
  handle = static_cast<distrt_handle_t>((slot.generation << kSlotBits) | index);
  return slot;
}

/// A fresh handle owning `request`, already posted: the message leaves
/// before the bookkeeping. If no handle can be made, the request is freed
/// (MPI completes it on its own) and the error raised.
inline distrt_handle_t adoptRequest(const char *op, int64_t team,
                                    const SourceLoc &loc, MPI_Request request) {
  if (gRequests->freeCount == 0) [[unlikely]] {
    try {
      growRequests();
    } catch (...) {
      MPI_Request_free(&request);
      throw;
    }
  }
  distrt_handle_t handle = 0;
  RequestSlot &slot = takeRequest(op, team, loc, handle);
  slot.isLone = true;
  slot.lone = request;
  return handle;
}

/// The result of an operation with nothing to communicate: 0, or when
/// `async` a valid handle all the same.
inline distrt_handle_t done(const char *op, int64_t team, const SourceLoc &loc,
                            bool async) {
  return async ? runInSlot(op, team, loc, true, [](RequestSlot &) {}) : 0;
}

/// Posts a nonblocking MPI call, `call(&request)`, into `into`: a
/// RequestSlot, or SyncRequests (runSync).
template <class Requests, class Call>
void postRequest(Requests &into, const char *name, Call &&call) {
  into.requests.push_back(MPI_REQUEST_NULL);
  const int code = call(&into.requests.back());
  if (code != MPI_SUCCESS) [[unlikely]] {
    into.requests.pop_back();
    raiseMpi(code, name);
  }
}

/// Runs `start(sync)`, which posts a sync operation's requests into the
/// runtime's SyncRequests, then completes them. If either throws, what was
/// posted is cancelled or given a second to complete first.
template <class Start> void runSync(const char *op, Start &&start) {
  SyncRequests &sync = syncRequests();
  try {
    start(sync);
    waitChecked(op, sync.requests, sync.statuses, sync.checks);
  } catch (...) {
    cancelPending(sync.requests, 1.0);
    throw;
  }
}

/// Raises the error of a blocking receive that checkBlockingReceive()
/// rejected.
[[noreturn, gnu::cold, gnu::noinline]] void
failBlockingReceive(const char *op, const ReceiveCheck &check, int code,
                    const MPI_Status &status);

/// The bytes a completed receive delivered. Open MPI keeps them in the
/// status, where MPI_Get_count reads them after its argument checks (a
/// quarter of a small blocking receive's cost on top of MPI_Recv);
/// elsewhere MPI_Get_count, -1 if it fails.
inline int64_t receivedBytes(const MPI_Status &status) {
#if defined(OPEN_MPI) && OPEN_MPI
  return static_cast<int64_t>(status._ucount);
#else
  int count = -1;
  if (MPI_Get_count(&status, MPI_BYTE, &count) != MPI_SUCCESS)
    return -1;
  return count;
#endif
}

/// The checks of waitRequest for a receive of `bytes` bytes from `peer`
/// completed by a blocking call (MPI_Recv, MPI_Sendrecv) that returned
/// `code`, with the same errors.
inline void checkBlockingReceive(const char *op, int code,
                                 const MPI_Status &status, int bytes, int peer,
                                 const char *what) {
  if (code == MPI_SUCCESS && receivedBytes(status) == bytes) [[likely]]
    return;
  failBlockingReceive(op, {0, bytes, peer, MPI_BYTE, what}, code, status);
}

/// Watches the wait of `handle` for the watchdog: the op it completes,
/// where that was issued, the peers it receives from.
class WaitWatch {
public:
  WaitWatch(distrt_handle_t handle, const SourceLoc &loc) noexcept
      : watch_("wait", loc, kNoTeam, "the {issued} to complete") {
    BlockedCall *b = watch_.record();
    const RequestSlot *slot = findRequest(handle);
    if (!b || !slot)
      return;
    b->team = slot->team;
    b->issuedOp = slot->op;
    b->issuedAt = slot->loc;
    if (slot->checks.empty())
      return;
    b->waitsFor = "the {issued} to complete (receiving from team ranks "
                  "{peers})";
    for (const ReceiveCheck &check : slot->checks)
      b->addPeer(check.peer);
  }

private:
  Watch watch_;
};

/// The API's wait: waitRequest() with errors as distrt::Error.
void wait(distrt_handle_t handle, const SourceLoc &loc);

/// A handle never waited is a warning, not an error (DISTRT_UNWAITED=warn).
inline bool gUnwaitedWarns = false;

} // namespace distrt::detail

#endif // DISTRUNTIME_RUNTIME_REQUEST_H
