//===- TeamTest.cpp - Teams and host-registered communicators ---*- C++ -*-===//

#include "TestUtil.h"

#include "distruntime/Runtime/distrt_mpi.h"

#include <catch2/catch.hpp>

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
