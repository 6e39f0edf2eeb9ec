//===- Team.cpp - Team registry ---------------------------------*- C++ -*-===//

#include "Team.h"
#include "Error.h"
#include "Request.h"

#include <fmt/ranges.h>

#include <algorithm>
#include <array>
#include <memory>
#include <ranges>

namespace distrt::detail {

/// Constant-initialized, so registrations at static initialization find it
/// ready whatever the order of the files.
static constinit std::array<TeamHooks, static_cast<size_t>(TeamStage::kStages)>
    gTeamHooks{};

bool addTeamHooks(TeamStage stage, TeamHooks hooks) noexcept {
  gTeamHooks[static_cast<size_t>(stage)] = hooks;
  return true;
}

void freeComm(MPI_Comm &comm) noexcept {
  if (comm != MPI_COMM_NULL)
    MPI_Comm_free(&comm);
}

MPI_Comm dupForRuntime(MPI_Comm comm) {
  MPI_Comm dup = MPI_COMM_NULL;
#ifdef DISTRT_SMPI
  // The same group in the same order. SMPI 3.32 does not stop a rank's
  // computation timer around MPI_Comm_dup, so the time every other rank
  // runs meanwhile became this rank's simulated computation: 3 ms at
  // P = 16, 82 ms at P = 64 for one dup (docs/scaling.md). Its split is
  // timed as communication.
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  checkMpi(MPI_Comm_split(comm, 0, rank, &dup), "MPI_Comm_split");
#else
  checkMpi(MPI_Comm_dup(comm, &dup), "MPI_Comm_dup");
#endif
  int code = MPI_Comm_set_errhandler(dup, MPI_ERRORS_RETURN);
  if (code != MPI_SUCCESS) {
    MPI_Comm_free(&dup);
    raiseMpi(code, "MPI_Comm_set_errhandler");
  }
  return dup;
}

/// Frees the subsystems' state of the team, in reverse, then its
/// communicator.
static void releaseTeam(TeamState &state) noexcept {
  for (const TeamHooks &hooks : std::views::reverse(gTeamHooks))
    if (hooks.release)
      hooks.release(state);
  freeComm(state.comm);
}

static std::unique_ptr<TeamState> makeTeam(int64_t id, MPI_Comm comm) {
  auto state = std::make_unique<TeamState>();
  state->id = id;
  state->comm = dupForRuntime(comm);
  MPI_Comm_size(state->comm, &state->size);
  MPI_Comm_rank(state->comm, &state->rank);
  try {
    for (const TeamHooks &hooks : gTeamHooks)
      if (hooks.create)
        hooks.create(*state);
  } catch (...) {
    releaseTeam(*state);
    throw;
  }
  return state;
}

static void insert(int64_t id, std::unique_ptr<TeamState> state) {
  TeamRegistry &registry = teamRegistry();
  ++gTeamGeneration;
  if (id < kDenseTeamIds) {
    if (registry.dense.size() <= static_cast<size_t>(id))
      registry.dense.resize(static_cast<size_t>(id) + 1, nullptr);
    registry.dense[static_cast<size_t>(id)] = state.release();
    gDenseTeams = registry.dense.data();
    gDenseTeamCount = registry.dense.size();
  } else {
    registry.sparse[id] = state.release();
  }
}

static void destroy(TeamState *state) noexcept {
  ++gTeamGeneration;
  releaseTeam(*state);
  delete state;
}

TeamRegistry &teamRegistry() {
  // Leaked on purpose: it must outlive the atexit hook that finalizes MPI.
  static TeamRegistry *registry = new TeamRegistry;
  return *registry;
}

TeamState *findTeam(int64_t id) noexcept {
  const TeamRegistry &registry = teamRegistry();
  if (id < 0)
    return nullptr;
  if (id < static_cast<int64_t>(registry.dense.size()))
    return registry.dense[static_cast<size_t>(id)];
  auto it = registry.sparse.find(id);
  return it == registry.sparse.end() ? nullptr : it->second;
}

/// "0, 3, 7": the ids of the teams there are (team 0 always is), the
/// first 16 of them.
static std::string teamIds() {
  const TeamRegistry &registry = teamRegistry();
  std::vector<int64_t> ids{0};
  for (size_t id = 1; id < registry.dense.size(); ++id)
    if (registry.dense[id])
      ids.push_back(static_cast<int64_t>(id));
  for (const auto &entry : registry.sparse)
    ids.push_back(entry.first);
  std::sort(ids.begin() + 1, ids.end());
  constexpr size_t kShown = 16;
  if (ids.size() <= kShown)
    return fmt::format("{}", fmt::join(ids, ", "));
  return fmt::format("{}, ... ({} in all)",
                     fmt::join(ids.begin(), ids.begin() + kShown, ", "),
                     ids.size());
}

TeamState &lookupTeamSlow(int64_t id) {
  ensureMpi();
  if (TeamState *state = findTeam(id))
    return *state;
  if (id != 0)
    raise("unknown team {}; registered teams: {} (a host program registers "
          "an MPI communicator as a team with distrt_team_register or "
          "distrt::Team::registerComm)",
          id, teamIds());
  insert(0, makeTeam(0, MPI_COMM_WORLD));
  return *findTeam(0);
}

void registerTeam(int64_t id, MPI_Comm comm) {
  ensureMpi();
  if (id == 0)
    raise("team 0 is the world and cannot be registered");
  if (id < 0)
    raise("team id {} is negative", id);
  if (comm == MPI_COMM_NULL)
    raise("cannot register MPI_COMM_NULL as team {}", id);
  if (findTeam(id))
    raise("team {} is already registered", id);
  insert(id, makeTeam(id, comm));
}

void unregisterTeam(int64_t id) {
  TeamState *state = findTeam(id);
  if (!state || id == 0)
    raise("cannot unregister team {}: {}", id,
          id == 0 ? "it is the world" : "it is not registered");
  // A live handle would complete through the team's freed communicators
  // and shared windows.
  for (const std::unique_ptr<RequestSlot> &slot : gRequests->slots)
    if (slot->active && slot->team == id)
      raise("cannot unregister team {}: its {} at {} was not waited; wait "
            "every handle of a team before unregistering it",
            id, slot->op, slot->loc.str());
  TeamRegistry &registry = teamRegistry();
  if (id < static_cast<int64_t>(registry.dense.size()))
    registry.dense[static_cast<size_t>(id)] = nullptr;
  else
    registry.sparse.erase(id);
  destroy(state);
}

/// Frees every team (at teardown).
static void freeTeams() noexcept {
  TeamRegistry &registry = teamRegistry();
  for (TeamState *&state : registry.dense)
    if (state) {
      destroy(state);
      state = nullptr;
    }
  for (auto &[id, state] : registry.sparse)
    destroy(state);
  registry.sparse.clear();
}

[[maybe_unused]] static const bool kHooked =
    addRuntimeHooks(RuntimeStage::kTeams, {.release = freeTeams});

} // namespace distrt::detail

namespace distrt {

Team::Team(int64_t id, SourceLoc loc) : id_(id) {
  detail::guarded("team", id, loc, [&] { detail::lookupTeam(id); });
}

Team::~Team() { drop(); }

void Team::drop() noexcept {
  if (!owned_)
    return;
  owned_ = false;
  try {
    if (detail::gMpiReady)
      detail::unregisterTeam(id_);
  } catch (...) {
    detail::failCurrent("team_unregister", id_, "distrt::Team::~Team");
  }
}

Team &Team::operator=(Team &&other) noexcept {
  if (this != &other) {
    drop();
    id_ = other.id_;
    owned_ = other.owned_;
    other.owned_ = false;
  }
  return *this;
}

Team Team::registerComm(int64_t id, MPI_Comm comm, SourceLoc loc) {
  detail::guarded("team_register", id, loc,
                  [&] { detail::registerTeam(id, comm); });
  return Team(id, Adopt{});
}

int Team::size() const {
  return detail::guarded("team_size", id_, SourceLoc("distrt::Team::size"),
                         [&] { return detail::lookupTeam(id_).size; });
}

int Team::rank() const {
  return detail::guarded("team_member", id_, SourceLoc("distrt::Team::rank"),
                         [&] { return detail::lookupTeam(id_).rank; });
}

MPI_Comm Team::comm() const {
  return detail::guarded("team", id_, SourceLoc("distrt::Team::comm"),
                         [&] { return detail::lookupTeam(id_).comm; });
}

} // namespace distrt
