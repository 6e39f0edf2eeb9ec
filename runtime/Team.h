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
#include <unordered_map>
#include <vector>

namespace distrt::detail {

struct TeamHalos;
struct GroupCache;
struct ChannelState;

/// A team. The subsystems' state of it is made and freed by their hooks
/// (TeamHooks), never by the registry: each pointer below is owned by the
/// subsystem named beside it.
struct TeamState {
  int64_t id = 0;
  MPI_Comm comm = MPI_COMM_NULL;
  /// Checked mode's agreements (Check.h), made on the first one.
  MPI_Comm checkComm = MPI_COMM_NULL;
  /// Team 0 only: where a finished process tells the others (Watchdog.h).
  MPI_Comm noticeComm = MPI_COMM_NULL;
  /// This process's rank in the team, and the team's size.
  int rank = 0, size = 0;
  /// get_halo's and update_halo's plans and communicator (Halo.h).
  TeamHalos *halos = nullptr;
  /// Process-group layouts and their communicators (ProcessGroups.h).
  GroupCache *groups = nullptr;
  /// send/recv channels: buffered sends, host queues (Channels.h).
  ChannelState *channels = nullptr;
  /// The largest all_reduce operand packed over three or more members,
  /// measured when the team is made (PackLimit.h).
  size_t packOperandLimit = 0;

  TeamState() = default;
  TeamState(const TeamState &) = delete;
  TeamState &operator=(const TeamState &) = delete;
};

/// The subsystems that keep state per team, in the order they set it up
/// when a team is made; they release it in reverse.
enum class TeamStage : int {
  kHalos,         // the halo communicator and plans
  kProcessGroups, // group communicators; permute's and the channels' own
  kChannels,      // buffered sends, freed before the channels' communicator
  kCheck,         // checked mode's communicator
  kWatchdog,      // team 0's notice communicator
  kPackLimit,     // measures the team's all_reduce pack limit
  kStages
};

/// What a subsystem does with each team; either may be null. Registered
/// with addTeamHooks(), so that the registry calls up into the subsystems
/// without knowing them.
struct TeamHooks {
  /// Sets up the subsystem's state of a new team. Collective over it (every
  /// member runs the same hooks in the same order): a communicator made
  /// later, at an op some member skips, would leave the others blocked.
  void (*create)(TeamState &team) = nullptr;
  /// Frees it: the team is unregistered, or MPI finalized.
  void (*release)(TeamState &team) noexcept = nullptr;
};

/// Registers the hooks of `stage`, once per stage, at static
/// initialization: `static const bool kHooked = addTeamHooks(...);`.
/// Returns true.
bool addTeamHooks(TeamStage stage, TeamHooks hooks) noexcept;

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

/// Duplicates `comm` with MPI_ERRORS_RETURN set (errors are reported with
/// the runtime's context instead of aborting inside MPI).
MPI_Comm dupForRuntime(MPI_Comm comm);
/// Frees `comm` unless it is MPI_COMM_NULL.
void freeComm(MPI_Comm &comm) noexcept;

} // namespace distrt::detail

#endif // DISTRUNTIME_RUNTIME_TEAM_H
