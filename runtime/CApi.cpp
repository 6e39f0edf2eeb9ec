//===- CApi.cpp - The C ABI of distrt.h and distrt_mpi.h --------*- C++ -*-===//
//
// The entry points that belong to no op: teams, wait, checks, init and
// finalize. Each op's own entry point lives in its file under ops/.
// Nothing throws across: any exception becomes one line on stderr and an
// abort of the job (fail()).
//
//===----------------------------------------------------------------------===//

#include "distruntime/Runtime/distrt.h"
#include "distruntime/Runtime/distrt_mpi.h"

#include "Check.h"
#include "Dims.h"
#include "Environment.h"
#include "Error.h"
#include "Request.h"
#include "Team.h"

#include <cstdio>
#include <map>
#include <utility>
#include <vector>

using namespace distrt;
using namespace distrt::detail;

extern "C" {

int64_t distrt_team_size(int64_t team, const char *loc) {
  try {
    return lookupTeam(team).size;
  } catch (...) {
    failCurrent("team_size", team, loc);
  }
}

int64_t distrt_team_member(int64_t team, const char *loc) {
  try {
    return lookupTeam(team).rank;
  } catch (...) {
    failCurrent("team_member", team, loc);
  }
}

int64_t distrt_dims_create(int64_t team, int64_t n, int64_t axis,
                           const char *loc) {
  try {
    if (n < 1 || axis < 0 || axis >= n)
      raise("axis {} of a grid of {} axes", axis, n);
    // One grid per (team size, axes): the lowering asks axis by axis.
    static std::map<std::pair<int64_t, int64_t>, std::vector<int64_t>> grids;
    const int64_t size = lookupTeam(team).size;
    auto [grid, made] = grids.try_emplace({size, n});
    if (made)
      grid->second = balancedDims(size, n);
    return grid->second[static_cast<size_t>(axis)];
  } catch (...) {
    failCurrent("dims_create", team, loc);
  }
}

[[noreturn, gnu::cold, gnu::noinline]] static void
failWait(const char *op, int64_t team, int code, const char *loc) noexcept {
  try {
    raiseWaitFailed(op, code);
  } catch (...) {
    failCurrent("wait", team, loc);
  }
}

[[gnu::noinline]] static void waitCall(distrt_handle_t handle,
                                       const char *loc) noexcept {
  int64_t team = kNoTeam;
  try {
    const WaitWatch watch(handle, SourceLoc(loc));
    waitRequest(handle, &team);
  } catch (...) {
    failCurrent("wait", team, loc);
  }
}

// A lone request's wait (a posted send, a collective on the operands' own
// buffers) keeps no frame for errors: it is half of a small async
// operation's cost on top of MPI.
void distrt_wait(distrt_handle_t handle, const char *loc) {
  RequestSlot *slot = findRequest(handle);
  if (slot && slot->isLone && !gGuarded) [[likely]] {
    if (const int code = waitLone(*slot, handle, /*watched=*/false))
        [[unlikely]]
      failWait(slot->op, slot->team, code, loc);
    return;
  }
  waitCall(handle, loc);
}

void distrt_check_failed(const char *op, const char *what, int64_t have,
                         int64_t want, const char *loc) {
  try {
    raise("{}: {} vs {}", what ? what : "check failed", have, want);
  } catch (...) {
    failCurrent(op ? op : "check", kNoTeam, loc);
  }
}

void distrt_set_check(int32_t level) {
  try {
    ensureMpi();
    detail::setChecked(level == DISTRT_CHECK_OFF   ? CheckLevel::Off
                       : level == DISTRT_CHECK_ALL ? CheckLevel::All
                                                   : CheckLevel::Unproven);
  } catch (...) {
    failCurrent("set_check", kNoTeam, "distrt_set_check");
  }
}

void distrt_set_timeout(double seconds) {
  try {
    ensureMpi();
    setWatchTimeout(seconds);
  } catch (...) {
    failCurrent("set_timeout", kNoTeam, "distrt_set_timeout");
  }
}

void distrt_init(void) {
  try {
    ensureMpi();
  } catch (...) {
    failCurrent("init", kNoTeam, "distrt_init");
  }
}

void distrt_finalize(void) {
  try {
    finalizeRuntime();
  } catch (...) {
    failCurrent("finalize", kNoTeam, "distrt_finalize");
  }
}

int distrt_team_register(int64_t id, MPI_Comm comm) {
  try {
    registerTeam(id, comm);
    return 0;
  } catch (...) {
    const Error error =
        currentError("team_register", id, SourceLoc("distrt_team_register"));
    std::fprintf(stderr, "distrt: error: %s\n", error.what());
    return error.code() != MPI_SUCCESS ? error.code() : -1;
  }
}

int distrt_team_unregister(int64_t id) {
  try {
    unregisterTeam(id);
    return 0;
  } catch (...) {
    const Error error = currentError("team_unregister", id,
                                     SourceLoc("distrt_team_unregister"));
    std::fprintf(stderr, "distrt: error: %s\n", error.what());
    return error.code() != MPI_SUCCESS ? error.code() : -1;
  }
}

} // extern "C"
