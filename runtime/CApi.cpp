//===- CApi.cpp - The C ABI of distrt.h and distrt_mpi.h --------*- C++ -*-===//
//
// Each entry point unpacks MLIR's unranked memrefs into views and calls the
// one C++ implementation. Nothing throws across: any exception becomes one
// line on stderr and an abort of the job (fail()). The StableHLO-style
// collectives' entry points live with their operations (Collectives.cpp,
// PointToPoint.cpp), where they inline the memoized fast path.
//
//===----------------------------------------------------------------------===//

#include "distruntime/Runtime/distrt.h"
#include "distruntime/Runtime/distrt_mpi.h"

#include "Environment.h"
#include "Error.h"
#include "Operations.h"
#include "Request.h"
#include "Team.h"

#include <cstdio>
#include <vector>

using namespace distrt;
using namespace distrt::detail;

namespace {

[[noreturn, gnu::cold, gnu::noinline]] void
raiseBadMemref(int64_t rank, void *descriptor, const char *what) {
  raise("the {} memref is invalid (rank {}, descriptor {})", what, rank,
        descriptor ? "set" : "null");
}

/// The view of an unranked memref argument; rejects what is not one.
inline MemrefView memref(int64_t rank, void *descriptor, const char *what) {
  if (!descriptor || rank < 0) [[unlikely]]
    raiseBadMemref(rank, descriptor, what);
  return MemrefView::fromUnranked(rank, descriptor);
}

} // namespace

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

distrt_handle_t distrt_allreduce(int64_t team, int32_t op, int32_t dtype,
                                 int64_t rank, void *data, int32_t async,
                                 const char *loc) {
  try {
    return detail::allreduce(team, op, dtype, memref(rank, data, "data"),
                             async != 0, SourceLoc(loc));
  } catch (...) {
    failCurrent("allreduce", team, loc);
  }
}

distrt_handle_t distrt_get_halo(int64_t team, int64_t key, int32_t dtype,
                                int64_t local_rank, void *local,
                                int64_t geometry_rank, void *geometry,
                                int64_t left_rank, void *left,
                                int64_t right_rank, void *right,
                                const char *loc) {
  try {
    const MemrefView geometryView = memref(geometry_rank, geometry, "geometry");
    // The geometry travels as one strided i64 memref of 4 * r values.
    if (geometry_rank != 1)
      throw Failure(fmt::format(
          "the geometry must be a 1-D memref, got rank {}", geometry_rank));
    const int64_t values = geometryView.sizes[0];
    if (local_rank < 1 || values != 4 * local_rank)
      throw Failure(fmt::format("the geometry has {} values, expected 4 * {} "
                                "(four per dimension of the local block)",
                                values, local_rank));
    const auto *base = static_cast<const int64_t *>(geometryView.aligned) +
                       geometryView.offset;
    const int64_t *g = base;
    // Generated code passes a dense array; a strided one is gathered once.
    static thread_local std::vector<int64_t> dense;
    if (geometryView.strides[0] != 1 && values > 1) {
      dense.resize(static_cast<size_t>(values));
      for (int64_t i = 0; i < values; ++i)
        dense[static_cast<size_t>(i)] = base[i * geometryView.strides[0]];
      g = dense.data();
    }
    const auto r = static_cast<size_t>(local_rank);
    const HaloGeometry halo{{g, r}, {g + r, r}, {g + 2 * r, r}, {g + 3 * r, r}};
    return detail::getHalo(team, key, dtype, memref(local_rank, local, "local"),
                           halo, memref(left_rank, left, "left halo"),
                           memref(right_rank, right, "right halo"),
                           SourceLoc(loc));
  } catch (...) {
    failCurrent("get_halo", team, loc);
  }
}

namespace {

[[noreturn, gnu::cold, gnu::noinline]] void
failWait(const char *op, int64_t team, int code, const char *loc) noexcept {
  try {
    raiseWaitFailed(op, code);
  } catch (...) {
    failCurrent("wait", team, loc);
  }
}

[[gnu::noinline]] void waitCall(distrt_handle_t handle,
                                const char *loc) noexcept {
  int64_t team = kNoTeam;
  try {
    waitRequest(handle, &team);
  } catch (...) {
    failCurrent("wait", team, loc);
  }
}

} // namespace

// A lone request's wait (a posted send, a collective on the operands' own
// buffers) keeps no frame for errors: it is half of a small async
// operation's cost on top of MPI.
void distrt_wait(distrt_handle_t handle, const char *loc) {
  RequestSlot *slot = findRequest(handle);
  if (slot && slot->isLone) [[likely]] {
    if (const int code = waitLone(*slot, handle)) [[unlikely]]
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
