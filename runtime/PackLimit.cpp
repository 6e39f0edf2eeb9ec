//===- PackLimit.cpp - Measuring a team's pack limit ------------*- C++ -*-===//

#include "PackLimit.h"
#include "Environment.h"
#include "Error.h"
#include "Team.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace distrt::detail {

static double seconds() {
  return std::chrono::duration<double>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

/// The median time of a one-element MPI_Allreduce over `comm`.
static double smallAllreduceSeconds(MPI_Comm comm) {
  constexpr int kTimed = 9;
  std::array<double, kTimed> times{};
  int64_t value = 0;
  for (int i = -2; i < kTimed; ++i) { // two warm-ups
    const double start = seconds();
    checkMpi(MPI_Allreduce(MPI_IN_PLACE, &value, 1, MPI_INT64_T, MPI_SUM, comm),
             "MPI_Allreduce");
    if (i >= 0)
      times[static_cast<size_t>(i)] = seconds() - start;
  }
  std::nth_element(times.begin(), times.begin() + kTimed / 2, times.end());
  return times[kTimed / 2];
}

/// The best time per byte of copying a pack-sized buffer (larger than the
/// first-level caches, as the packs the limit decides on).
static double copySecondsPerByte() {
  constexpr size_t kBytes = size_t{256} << 10;
  std::vector<std::byte> from(kBytes, std::byte{1}), to(kBytes);
  double best = 1e30;
  for (int i = 0; i < 4; ++i) {
    const double start = seconds();
    std::memcpy(to.data(), from.data(), kBytes);
    // Keeps the copy: its result is read.
    volatile std::byte sink = to[static_cast<size_t>(i) * 4096];
    (void)sink;
    best = std::min(best, seconds() - start);
  }
  return best / kBytes;
}

static void measurePackLimit(TeamState &team) {
  size_t proposal = kReducePackOperandLimit;
#ifndef DISTRT_SMPI
  if (!envBytes("DISTRT_PACK_LIMIT", proposal) && team.size > 2)
    proposal = proposePackLimit(smallAllreduceSeconds(team.comm),
                                copySecondsPerByte());
#else
  envBytes("DISTRT_PACK_LIMIT", proposal);
#endif
  auto agreed = static_cast<uint64_t>(proposal);
  checkMpi(
      MPI_Allreduce(MPI_IN_PLACE, &agreed, 1, MPI_UINT64_T, MPI_MIN, team.comm),
      "MPI_Allreduce");
  team.packOperandLimit = static_cast<size_t>(agreed);
}

size_t packOperandLimit(const TeamState &team) { return team.packOperandLimit; }

[[maybe_unused]] static const bool kHooked =
    addTeamHooks(TeamStage::kPackLimit, {.create = measurePackLimit});

} // namespace distrt::detail
