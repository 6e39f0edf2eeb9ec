//===- CApi.cpp - The C ABI of distrt.h and distrt_mpi.h --------*- C++ -*-===//
//
// Each entry point unpacks MLIR's unranked memrefs into views and calls the
// one C++ implementation. Nothing throws across: any exception becomes one
// line on stderr and an abort of the job (fail()).
//
//===----------------------------------------------------------------------===//

#include "distruntime/Runtime/distrt.h"
#include "distruntime/Runtime/distrt_mpi.h"

#include "Environment.h"
#include "Error.h"
#include "Operations.h"
#include "Team.h"

#include <cstdio>
#include <vector>

using namespace distrt;
using namespace distrt::detail;

namespace {

/// The view of an unranked memref argument; rejects what is not one.
MemrefView memref(int64_t rank, void *descriptor, const char *what) {
  if (!descriptor || rank < 0) [[unlikely]]
    throw Failure(
        fmt::format("the {} memref is invalid (rank {}, descriptor {})", what,
                    rank, descriptor ? "set" : "null"));
  return MemrefView::fromUnranked(rank, descriptor);
}

/// The operands of a variadic call as C++ operands, in `storage` (reused
/// from call to call).
Operands operands(int64_t n, const distrt_operand_t *array,
                  std::vector<Operand> &storage, const char *what) {
  if (n < 0 || (n > 0 && !array)) [[unlikely]]
    throw Failure(fmt::format("the {} array is invalid (n = {}, pointer {})",
                              what, n, array ? "set" : "null"));
  storage.resize(static_cast<size_t>(n));
  for (int64_t k = 0; k < n; ++k) {
    const distrt_operand_t &operand = array[k];
    if (!operand.desc || operand.rank < 0) [[unlikely]]
      throw Failure(
          fmt::format("{} {}: invalid memref (rank {}, descriptor {})", what, k,
                      operand.rank, operand.desc ? "set" : "null"));
    if (operand.dtype < 0 || operand.dtype >= DISTRT_NUM_DTYPES) [[unlikely]]
      throw Failure(fmt::format("{} {}: invalid element type {} (expected "
                                "0..{})",
                                what, k, operand.dtype, DISTRT_NUM_DTYPES - 1));
    storage[static_cast<size_t>(k)] = {
        MemrefView::fromUnranked(operand.rank, operand.desc),
        static_cast<Dtype>(operand.dtype)};
  }
  return storage;
}

struct OperandStorage {
  std::vector<Operand> inputs, outputs;
};

OperandStorage &storage() {
  static OperandStorage *instance = new OperandStorage;
  return *instance;
}

Operands inputsOf(int64_t n, const distrt_operand_t *array) {
  return operands(n, array, storage().inputs, "input");
}
Operands outputsOf(int64_t n, const distrt_operand_t *array) {
  return operands(n, array, storage().outputs, "output");
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

void distrt_wait(distrt_handle_t handle, const char *loc) {
  try {
    detail::wait(handle, SourceLoc(loc));
  } catch (...) {
    failCurrent("wait", kNoTeam, loc);
  }
}

distrt_handle_t distrt_all_gather(int64_t team, const distrt_groups_t *groups,
                                  int64_t dim, int64_t n,
                                  const distrt_operand_t *inputs,
                                  const distrt_operand_t *outputs,
                                  int32_t async, const char *loc) {
  try {
    return detail::allGather(team, groups, dim, inputsOf(n, inputs),
                             outputsOf(n, outputs), async != 0, SourceLoc(loc));
  } catch (...) {
    failCurrent("all_gather", team, loc);
  }
}

distrt_handle_t distrt_all_reduce(int64_t team, const distrt_groups_t *groups,
                                  int32_t op, int64_t n,
                                  const distrt_operand_t *inputs,
                                  const distrt_operand_t *outputs,
                                  int32_t async, const char *loc) {
  try {
    return detail::allReduce(team, groups, op, inputsOf(n, inputs),
                             outputsOf(n, outputs), async != 0, SourceLoc(loc));
  } catch (...) {
    failCurrent("all_reduce", team, loc);
  }
}

distrt_handle_t distrt_all_to_all(int64_t team, const distrt_groups_t *groups,
                                  int64_t split_dim, int64_t concat_dim,
                                  int64_t split_count, int64_t n,
                                  const distrt_operand_t *inputs,
                                  const distrt_operand_t *outputs,
                                  int32_t async, const char *loc) {
  try {
    return detail::allToAll(team, groups, split_dim, concat_dim, split_count,
                            inputsOf(n, inputs), outputsOf(n, outputs),
                            async != 0, SourceLoc(loc));
  } catch (...) {
    failCurrent("all_to_all", team, loc);
  }
}

distrt_handle_t distrt_reduce_scatter(int64_t team,
                                      const distrt_groups_t *groups, int32_t op,
                                      int64_t scatter_dim, int64_t n,
                                      const distrt_operand_t *inputs,
                                      const distrt_operand_t *outputs,
                                      int32_t async, const char *loc) {
  try {
    return detail::reduceScatter(team, groups, op, scatter_dim,
                                 inputsOf(n, inputs), outputsOf(n, outputs),
                                 async != 0, SourceLoc(loc));
  } catch (...) {
    failCurrent("reduce_scatter", team, loc);
  }
}

distrt_handle_t distrt_collective_broadcast(int64_t team,
                                            const distrt_groups_t *groups,
                                            int64_t n,
                                            const distrt_operand_t *inputs,
                                            const distrt_operand_t *outputs,
                                            int32_t async, const char *loc) {
  try {
    return detail::collectiveBroadcast(team, groups, inputsOf(n, inputs),
                                       outputsOf(n, outputs), async != 0,
                                       SourceLoc(loc));
  } catch (...) {
    failCurrent("collective_broadcast", team, loc);
  }
}

distrt_handle_t distrt_collective_permute(int64_t team,
                                          const distrt_groups_t *pairs,
                                          int64_t n,
                                          const distrt_operand_t *inputs,
                                          const distrt_operand_t *outputs,
                                          int32_t async, const char *loc) {
  try {
    return detail::collectivePermute(team, pairs, inputsOf(n, inputs),
                                     outputsOf(n, outputs), async != 0,
                                     SourceLoc(loc));
  } catch (...) {
    failCurrent("collective_permute", team, loc);
  }
}

distrt_handle_t distrt_send(int64_t team, const distrt_groups_t *pairs,
                            int64_t channel_id, int32_t host_transfer,
                            int64_t n, const distrt_operand_t *inputs,
                            int32_t async, const char *loc) {
  try {
    return detail::send(team, pairs, channel_id, host_transfer != 0,
                        inputsOf(n, inputs), async != 0, SourceLoc(loc));
  } catch (...) {
    failCurrent("send", team, loc);
  }
}

distrt_handle_t distrt_recv(int64_t team, const distrt_groups_t *pairs,
                            int64_t channel_id, int32_t host_transfer,
                            int64_t n, const distrt_operand_t *outputs,
                            int32_t async, const char *loc) {
  try {
    return detail::recv(team, pairs, channel_id, host_transfer != 0,
                        outputsOf(n, outputs), async != 0, SourceLoc(loc));
  } catch (...) {
    failCurrent("recv", team, loc);
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
