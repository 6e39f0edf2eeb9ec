//===- TeamTest.cpp - Teams and host-registered communicators ---*- C++ -*-===//

#include "Team.h"
#include "Dims.h"
#include "TestUtil.h"

#include "distruntime/Runtime/distrt_mpi.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <vector>

using namespace distrt;
using namespace distrt::test;

TEST_CASE("team 0 is a duplicate of the world", "[team]") {
  Team world;
  INFO("rank " << worldRank());
  CHECK(world.id() == 0);
  CHECK(world.size() == worldSize());
  CHECK(world.rank() == worldRank());
  CHECK(distrt_team_size(0, "TeamTest") == worldSize());
  CHECK(distrt_team_member(0, "TeamTest") == worldRank());
  int comparison = MPI_UNEQUAL;
  MPI_Comm_compare(world.comm(), MPI_COMM_WORLD, &comparison);
  CHECK(comparison == MPI_CONGRUENT);
}

TEST_CASE("a registered communicator is a team until unregistered", "[team]") {
  const int P = worldSize(), me = worldRank();
  MPI_Comm parity = MPI_COMM_NULL;
  MPI_Comm_split(MPI_COMM_WORLD, me % 2, me, &parity);
  // Ranks of my parity: me % 2, me % 2 + 2, ...
  const int members = (P - me % 2 + 1) / 2;
  for (int64_t id : {int64_t{3}, int64_t{5000}}) {
    INFO("rank " << me << ", team " << id);
    {
      Team team = Team::registerComm(id, parity);
      // The runtime keeps its own duplicate.
      CHECK(team.comm() != parity);
      CHECK(team.size() == members);
      CHECK(team.rank() == me / 2);
      CHECK(distrt_team_size(id, "TeamTest") == members);

      std::vector<int64_t> value{me + 1};
      allreduce(team, RedOp::Sum, std::span<int64_t>(value));
      // Sum of (q + 1) over the ranks q of my parity.
      int64_t want = 0;
      for (int q = me % 2; q < P; q += 2)
        want += q + 1;
      CHECK(value[0] == want);

      CHECK_THROWS_WITH(Team::registerComm(id, parity),
                        Catch::Contains("team " + std::to_string(id) +
                                        " is already registered"));
    }
    CHECK_THROWS_WITH(Team(id), Catch::Contains("unknown team"));
  }
  // The C entry points of distrt_mpi.h.
  CHECK(distrt_team_register(9, parity) == 0);
  CHECK(distrt_team_size(9, "TeamTest") == members);
  CHECK(distrt_team_unregister(9) == 0);
  CHECK(distrt_team_register(0, parity) != 0);
  CHECK(distrt_team_register(4, MPI_COMM_NULL) != 0);
  CHECK(distrt_team_unregister(9) != 0);
  MPI_Comm_free(&parity);
}

TEST_CASE("team 0 cannot be registered", "[team]") {
  CHECK_THROWS_WITH(Team::registerComm(0, MPI_COMM_WORLD),
                    Catch::Contains("team 0 is the world"));
  CHECK_THROWS_WITH(Team::registerComm(-4, MPI_COMM_WORLD),
                    Catch::Contains("team id -4 is negative"));
}

/// Every factorization of `size` into `n` non-increasing factors, each at
/// most `cap`, appended after `prefix`.
static void allFactorizations(int64_t size, int64_t n, int64_t cap,
                              std::vector<int64_t> &prefix,
                              std::vector<std::vector<int64_t>> &out) {
  if (n == 0) {
    if (size == 1)
      out.push_back(prefix);
    return;
  }
  for (int64_t d = 1; d <= cap; ++d)
    if (size % d == 0) {
      prefix.push_back(d);
      allFactorizations(size / d, n - 1, d, prefix, out);
      prefix.pop_back();
    }
}

TEST_CASE("dims_create chooses the most balanced grid", "[team]") {
  // Every size up to 512 on 1 to 4 axes: of all the non-increasing
  // factorizations (enumerated here), the smallest from the first factor
  // on; on 2 axes the first is the least divisor at or above the square
  // root. MPICH's MPI_Dims_create agrees; Open MPI 4.1's does not always
  // (72 on 2 axes: 12 x 6, where 9 x 8 is closer).
  for (int64_t size = 1; size <= 512; ++size)
    for (int64_t n = 1; n <= 4; ++n) {
      std::vector<int64_t> prefix;
      std::vector<std::vector<int64_t>> all;
      allFactorizations(size, n, size, prefix, all);
      const std::vector<int64_t> expected =
          *std::min_element(all.begin(), all.end());
      const std::vector<int64_t> got = detail::balancedDims(size, n);
      INFO("size " << size << " axes " << n);
      REQUIRE(got == expected);
      if (n == 2) {
        int64_t first = size;
        for (int64_t d = size; d * d >= size; --d)
          if (size % d == 0)
            first = d;
        CHECK(got[0] == first);
      }
    }
  // 72 on two axes, by hand.
  CHECK(detail::balancedDims(72, 2) == std::vector<int64_t>{9, 8});
  // The C entry point answers for the team's size, axis by axis.
  for (int64_t n = 1; n <= 3; ++n) {
    int64_t product = 1;
    for (int64_t axis = 0; axis < n; ++axis) {
      const int64_t size = distrt_dims_create(0, n, axis, "test");
      CHECK(size == detail::balancedDims(worldSize(), n)[axis]);
      product *= size;
    }
    CHECK(product == worldSize());
  }
}

TEST_CASE("a team with a handle not yet waited cannot be unregistered",
          "[team]") {
  // Unregistering frees the team's communicators and shared windows, which
  // a live handle still completes through: an error naming the op, until
  // the handle is waited.
  MPI_Comm dup = MPI_COMM_NULL;
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  REQUIRE(distrt_team_register(11, dup) == 0);
  std::vector<int64_t> value{worldRank() + 1};
  Request pending =
      allreduceAsync(Team(11), RedOp::Sum, std::span<int64_t>(value));
  CHECK(distrt_team_unregister(11) != 0); // and says so on stderr
  // Still registered, and the handle completes.
  CHECK(distrt_team_size(11, "TeamTest") == worldSize());
  pending.wait();
  CHECK(value[0] == worldSize() * (worldSize() + 1) / 2);
  CHECK(distrt_team_unregister(11) == 0);
  MPI_Comm_free(&dup);
}
