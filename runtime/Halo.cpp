//===- Halo.cpp - A team's halo state, made and freed with it ---*- C++ -*-===//

#include "Halo.h"

namespace distrt::detail {

/// The communicator is duplicated with the team: made lazily, at a halo op
/// some member skips, it would leave the others blocked in the dup.
static void createHalos(TeamState &team) {
  auto halos = std::make_unique<TeamHalos>();
  halos->comm = dupForRuntime(team.comm);
  team.halos = halos.release();
}

/// Frees the communicator and the plans (with their derived datatypes).
static void freeHalos(TeamState &team) noexcept {
  if (!team.halos)
    return;
  freeComm(team.halos->comm);
  delete team.halos;
  team.halos = nullptr;
}

[[maybe_unused]] static const bool kHooked = addTeamHooks(
    TeamStage::kHalos, {.create = createHalos, .release = freeHalos});

} // namespace distrt::detail
