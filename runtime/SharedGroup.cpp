//===- SharedGroup.cpp - Small reductions in shared memory -----*- C++ -*-===//

#include "SharedGroup.h"

#include "Environment.h"
#include "Error.h"
#include "ProcessGroups.h"
#include "Request.h"
#include "SharedWindow.h"

#include <algorithm>
#include <cstring>
#include <string>

namespace distrt::detail {

/// The largest operand this member proposes: DISTRT_REDUCE_SHM=<bytes> if
/// set (0: off), at most SharedGroup::kMaxBytes.
static uint64_t proposedLimit() {
  size_t bytes = SharedGroup::kMaxBytes;
  envBytes("DISTRT_REDUCE_SHM", bytes);
  return std::min(bytes, SharedGroup::kMaxBytes);
}

/// The members' agreed limit, 0 unless all share one node (`node`, made
/// here, freed unless they do). Collective over `g.comm`.
static uint64_t agreeOnLimit(SharedGroup &g, MPI_Comm &node) {
  int size = 0, nodeSize = 0;
  checkMpi(MPI_Comm_rank(g.comm, &g.position), "MPI_Comm_rank");
  checkMpi(MPI_Comm_size(g.comm, &size), "MPI_Comm_size");
  // Keyed by the group rank: node rank == group rank when all share it.
  checkMpi(MPI_Comm_split_type(g.comm, MPI_COMM_TYPE_SHARED, g.position,
                               MPI_INFO_NULL, &node),
           "MPI_Comm_split_type");
  checkMpi(MPI_Comm_size(node, &nodeSize), "MPI_Comm_size");
  const uint64_t limit = agreeOnLeast(
      g.comm, [&] { return nodeSize == size ? proposedLimit() : 0; });
  g.spins = spinsFor(nodeSize);
  return limit;
}

/// Makes `g`'s window if its members share a node.
static void makeGroup(SharedGroup &g) {
#ifndef DISTRT_SMPI
  MPI_Comm node = MPI_COMM_NULL;
  const uint64_t limit = agreeOnLimit(g, node);
  if (limit == 0) {
    checkMpi(MPI_Comm_free(&node), "MPI_Comm_free");
    return;
  }
  int size = 0;
  checkMpi(MPI_Comm_size(node, &size), "MPI_Comm_size");
  std::byte *base =
      allocateShared(node, 2 * SharedGroup::kSlotStride, g.window);
  // The window keeps the node's group; the communicator is not needed.
  checkMpi(MPI_Comm_free(&node), "MPI_Comm_free");
  std::memset(base, 0, 2 * SharedGroup::kSlotStride);
  for (int m = 0; m < size; ++m) {
    MPI_Aint bytes = 0;
    int unit = 0;
    std::byte *segment = nullptr;
    checkMpi(MPI_Win_shared_query(g.window, m, &bytes, &unit, &segment),
             "MPI_Win_shared_query");
    g.segments.push_back(segment);
  }
  // Every slot is zeroed before any is polled.
  checkMpi(MPI_Win_sync(g.window), "MPI_Win_sync");
  checkMpi(MPI_Barrier(g.comm), "MPI_Barrier");
  checkMpi(MPI_Win_sync(g.window), "MPI_Win_sync");
  g.limit = limit;
#else
  // SMPI simulates its processes in one: no shared window.
  (void)g;
#endif
}

SharedGroup &sharedGroup(TeamState &team, MPI_Comm comm) {
  std::vector<std::unique_ptr<SharedGroup>> &groups = team.groups->sharedGroups;
  for (const std::unique_ptr<SharedGroup> &g : groups)
    if (g->comm == comm)
      return *g;
  groups.push_back(std::make_unique<SharedGroup>());
  groups.back()->comm = comm;
  makeGroup(*groups.back());
  return *groups.back();
}

void freeSharedGroups(TeamState &team) noexcept {
  std::vector<std::unique_ptr<SharedGroup>> &groups = team.groups->sharedGroups;
  // Made in the same order by every member of each: freed so too.
  for (const std::unique_ptr<SharedGroup> &g : groups)
    freeShared(g->window);
  groups.clear();
}

void raiseSlotBytes(int teamRank, uint64_t sent, uint64_t expected,
                    const char *what) {
  if (sent > expected)
    raise("rank {} sent more than the {} bytes expected for the {}: {}",
          teamRank, expected, what, kDisagree);
  raise("received {} bytes from rank {} for the {}, expected {} bytes: {}",
        sent, teamRank, what, expected, kDisagree);
}

} // namespace distrt::detail
