//===- Team.h - Team registry -----------------------------------*- C++ -*-===//
//
// A team id names a communicator of the runtime's own (a duplicate), so user
// traffic never matches ours. Team 0 duplicates MPI_COMM_WORLD on first use.
//
//===----------------------------------------------------------------------===//

#ifndef DISTRUNTIME_RUNTIME_TEAM_H
#define DISTRUNTIME_RUNTIME_TEAM_H

#include "Environment.h"

#include <mpi.h>

#include <cstdint>
#include <memory>
#include <unordered_map>
#include <vector>

namespace distrt::detail {

struct HaloPlan;
struct UpdateHaloPlan;
struct GroupCache;
struct ChannelState;

struct TeamState {
  int64_t id = 0;
  MPI_Comm comm = MPI_COMM_NULL;
  /// A second duplicate for halo point-to-point traffic, so its tags never
  /// meet anything else; created with the team.
  MPI_Comm haloComm = MPI_COMM_NULL;
  /// Checked mode's agreements (Check.h), made on the first one.
  MPI_Comm checkComm = MPI_COMM_NULL;
  /// Team 0 only: where a finished process tells the others (Watchdog.h).
  MPI_Comm noticeComm = MPI_COMM_NULL;
  /// This process's rank in the team, and the team's size.
  int rank = 0, size = 0;
  /// Cached get_halo plans by key, and one scratch plan for key < 0.
  std::unordered_map<int64_t, std::unique_ptr<HaloPlan>> haloPlans;
  std::unique_ptr<HaloPlan> scratchPlan;
  /// The same for update_halo.
  std::unordered_map<int64_t, std::unique_ptr<UpdateHaloPlan>> updateHaloPlans;
  std::unique_ptr<UpdateHaloPlan> updateHaloScratch;
  /// Process-group layouts and their communicators (ProcessGroups.h).
  std::unique_ptr<GroupCache> groups;
  /// send/recv channels: buffered sends, host queues (Channels.h).
  std::unique_ptr<ChannelState> channels;

  TeamState();
  ~TeamState();
  TeamState(const TeamState &) = delete;
  TeamState &operator=(const TeamState &) = delete;
};

/// Ids below this are looked up by indexing a vector; larger ids by hashing.
inline constexpr int64_t kDenseTeamIds = 1024;

struct TeamRegistry {
  std::vector<TeamState *> dense;
  std::unordered_map<int64_t, TeamState *> sparse;
};
TeamRegistry &teamRegistry();

/// TeamRegistry::dense as plain globals, kept in step by the registry: the
/// hot path reads them without a call or a static guard.
inline TeamState *const *gDenseTeams = nullptr;
inline size_t gDenseTeamCount = 0;

/// Bumped whenever a team is created or destroyed (with its layouts and
/// communicators): a memoized call (CallMemo.h) of an older generation may
/// hold pointers to them and is not reused.
inline uint64_t gTeamGeneration = 0;

TeamState &lookupTeamSlow(int64_t id);

/// The team `id`; initializes MPI and creates team 0 on first use. Throws
/// Failure "unknown team <id>; registered teams: ..." for an unregistered
/// id.
inline TeamState &lookupTeam(int64_t id) {
  if (gMpiReady && static_cast<uint64_t>(id) < gDenseTeamCount) [[likely]]
    if (TeamState *state = gDenseTeams[id]) [[likely]]
      return *state;
  return lookupTeamSlow(id);
}

/// The team `id` if it exists already; never initializes or throws.
TeamState *findTeam(int64_t id) noexcept;

/// Registers a duplicate of `comm` as team `id` (> 0, unused).
void registerTeam(int64_t id, MPI_Comm comm);
void unregisterTeam(int64_t id);
/// Frees every team's communicators (at teardown).
void freeTeams() noexcept;

/// Duplicates `comm` with MPI_ERRORS_RETURN set (errors are reported with
/// the runtime's context instead of aborting inside MPI).
MPI_Comm dupForRuntime(MPI_Comm comm);
/// Frees `comm` unless it is MPI_COMM_NULL.
void freeComm(MPI_Comm &comm) noexcept;

/// The communicator for halo traffic of `team`.
MPI_Comm haloComm(TeamState &team);

} // namespace distrt::detail

#endif // DISTRUNTIME_RUNTIME_TEAM_H
