//===- Halo.cpp - A team's halo state, made and freed with it ---*- C++ -*-===//

#include "Halo.h"

#include "HaloChannel.h"

namespace distrt::detail {

TeamHalos::TeamHalos() = default;
TeamHalos::~TeamHalos() = default;

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
  freeHaloChannels(team);
  freeComm(team.halos->comm);
  delete team.halos;
  team.halos = nullptr;
}

template <class T> static size_t capacityBytes(const std::vector<T> &v) {
  return v.capacity() * sizeof(T);
}

size_t HaloPlan::bytes() const noexcept {
  return capacityBytes(geometry) + capacityBytes(sends) + capacityBytes(recvs) +
         capacityBytes(boxes) + capacityBytes(gathered) +
         capacityBytes(gatheredDims);
}

size_t UpdateHaloPlan::bytes() const noexcept {
  return capacityBytes(key) + capacityBytes(recvs) + capacityBytes(sends) +
         capacityBytes(shapes) + capacityBytes(gathered);
}

size_t haloPlanBytes(int64_t id) {
  const TeamState *team = findTeam(id);
  if (!team || !team->halos)
    return 0;
  return team->halos->getHalo.bytes() + team->halos->updateHalo.bytes();
}

[[maybe_unused]] static const bool kHooked = addTeamHooks(
    TeamStage::kHalos, {.create = createHalos, .release = freeHalos});

} // namespace distrt::detail
