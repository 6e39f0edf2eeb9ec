//===- GroupsTest.cpp - Process groups of the StableHLO grid ----*- C++ -*-===//
//
// Every group function (cross_replica, cross_partition,
// cross_replica_and_partition, flattened_ids) on every grid that fits the
// rank count (1 x N, N x 1, 2 x N/2, N/2 x 2, and 2x2 at np 4, 2x3 and 3x2
// at np 6), with default, reordered, size-1 and interleaved groups. Each
// process's group is computed here independently (per process, from the
// spec's definition) and checked through all_gather (membership and order),
// collective_broadcast (root = first member), reduce_scatter (the kept
// block follows the position), all_to_all and all_reduce; source_target_pairs
// (rings, partial chains, single pairs, self-pairs) through
// collective_permute and send/recv. Ragged replica_groups (groups of
// different sizes, -1 padding) through all_reduce and collective_broadcast,
// from the C++ factory and from C tables, and malformed padding. Input of
// process f at index i: 1000 * f + i.
//
//===----------------------------------------------------------------------===//

#include "ArrayUtil.h"

#include <catch2/catch.hpp>

using namespace distrt;
using namespace distrt::test;
using Catch::Contains;

namespace {

using Table = std::vector<std::vector<int64_t>>;

/// Process f's group, straight from the StableHLO definitions.
std::vector<int64_t> expectedGroup(int32_t mode, int64_t R, int64_t P,
                                   Table groups, int64_t f) {
  const int64_t r = f / P, p = f % P;
  if (groups.empty()) {
    const int64_t ids = mode == DISTRT_CROSS_PARTITION ? P
                        : mode == DISTRT_FLATTENED_IDS ? R * P
                                                       : R;
    groups.emplace_back(static_cast<size_t>(ids));
    std::iota(groups[0].begin(), groups[0].end(), int64_t{0});
  }
  auto has = [](const std::vector<int64_t> &g, int64_t id) {
    return std::find(g.begin(), g.end(), id) != g.end();
  };
  for (const auto &g : groups) {
    std::vector<int64_t> members;
    switch (mode) {
    case DISTRT_CROSS_REPLICA:
      if (has(g, r))
        for (int64_t q : g)
          members.push_back(q * P + p);
      break;
    case DISTRT_CROSS_PARTITION:
      if (has(g, p))
        for (int64_t q : g)
          members.push_back(r * P + q);
      break;
    case DISTRT_CROSS_REPLICA_AND_PARTITION:
      if (has(g, r))
        for (int64_t q = 0; q < P; ++q)
          for (int64_t s : g)
            members.push_back(s * P + q);
      break;
    default:
      if (has(g, f))
        members = g;
    }
    if (!members.empty())
      return members;
  }
  return {};
}

/// Group tables over `ids` ids that cover every id once.
std::vector<Table> tables(int64_t ids) {
  std::vector<Table> all{{}};
  Table reversed(1);
  for (int64_t i = ids; i-- > 0;)
    reversed[0].push_back(i);
  all.push_back(reversed);
  Table singletons;
  for (int64_t i = 0; i < ids; ++i)
    singletons.push_back({i});
  all.push_back(singletons);
  if (ids % 2 == 0 && ids >= 4) {
    Table interleaved(2);
    for (int64_t i = ids; i-- > 0;)
      interleaved[static_cast<size_t>(i % 2 ? 0 : 1)].push_back(i);
    all.push_back(interleaved);
  }
  return all;
}

struct Grid {
  int64_t replicas, partitions; // as passed (-1 allowed)
  int64_t R, P;                 // resolved
};

std::vector<Grid> grids(int64_t N) {
  std::vector<Grid> all{{-1, -1, N, 1}, {N, -1, N, 1}, {1, N, 1, N}};
  if (N % 2 == 0 && N >= 4) {
    all.push_back({-1, 2, N / 2, 2});
    all.push_back({2, N / 2, 2, N / 2});
  }
  if (N == 6)
    all.push_back({3, 2, 3, 2});
  return all;
}

const char *modeName(int32_t mode) {
  static const char *names[] = {"cross_replica", "cross_partition",
                                "cross_replica_and_partition", "flattened_ids"};
  return names[mode];
}

} // namespace

TEST_CASE("group functions follow StableHLO on every grid", "[groups]") {
  const int64_t N = worldSize(), f = worldRank();
  if (N == 4 || N == 6)
    WARN("checking the 2 x " << N / 2 << " grid");
  int cases = 0;
  for (const Grid &grid : grids(N))
    for (int32_t mode = 0; mode < 4; ++mode) {
      const int64_t ids = mode == DISTRT_CROSS_PARTITION ? grid.P
                          : mode == DISTRT_FLATTENED_IDS ? N
                                                         : grid.R;
      for (const Table &table : tables(ids)) {
        const GroupTable groups(mode, table, grid.replicas, grid.partitions);
        const auto members = expectedGroup(mode, grid.R, grid.P, table, f);
        const int64_t G = static_cast<int64_t>(members.size());
        const int64_t pos =
            std::find(members.begin(), members.end(), f) - members.begin();
        INFO("rank " << f << ", " << modeName(mode) << ", " << groups.str());
        REQUIRE(G > 0);
        ++cases;

        // all_gather: block j is member j's input.
        Array in(Dtype::I32, {2}), out(Dtype::I32, {2 * G});
        in.fill([&](int64_t i) { return 1000 * f + i; });
        allGather(world(), groups, 0, {{in.operand()}}, {{out.operand()}});
        for (int64_t j = 0; j < G; ++j)
          for (int64_t i = 0; i < 2; ++i) {
            INFO("all_gather block " << j << " index " << i);
            CHECK(out.get(j * 2 + i) == 1000 * members[j] + i);
          }

        // collective_broadcast: the first member's input.
        Array bout(Dtype::I32, {2});
        collectiveBroadcast(world(), groups, {{in.operand()}},
                            {{bout.operand()}});
        for (int64_t i = 0; i < 2; ++i) {
          INFO("collective_broadcast index " << i);
          CHECK(bout.get(i) == 1000 * members[0] + i);
        }

        // reduce_scatter: position pos keeps block pos of the sum.
        Array rin(Dtype::I64, {G, 2}), rout(Dtype::I64, {1, 2});
        rin.fill([&](int64_t i) { return 1000 * f + i; });
        reduceScatter(world(), groups, RedOp::Sum, 0, {{rin.operand()}},
                      {{rout.operand()}});
        int64_t memberSum = 0;
        for (int64_t m : members)
          memberSum += 1000 * m;
        for (int64_t i = 0; i < 2; ++i) {
          INFO("reduce_scatter index " << i);
          CHECK(rout.get(i) == memberSum + G * (pos * 2 + i));
        }

        // all_to_all: block j from member j is its split number pos.
        Array ain(Dtype::F64, {2 * G}), aout(Dtype::F64, {2 * G});
        ain.fill([&](int64_t i) { return 1000 * f + i; });
        allToAll(world(), groups, 0, 0, G, {{ain.operand()}},
                 {{aout.operand()}});
        for (int64_t j = 0; j < G; ++j)
          for (int64_t i = 0; i < 2; ++i) {
            INFO("all_to_all block " << j << " index " << i);
            CHECK(aout.get(j * 2 + i) == 1000 * members[j] + pos * 2 + i);
          }

        // all_reduce: the members' sum.
        Array sum(Dtype::I32, {2});
        allReduce(world(), groups, RedOp::Sum, {{in.operand()}},
                  {{sum.operand()}});
        for (int64_t i = 0; i < 2; ++i) {
          INFO("all_reduce index " << i);
          CHECK(sum.get(i) == memberSum + G * i);
        }
      }
    }
  CHECK(cases > 0);
}

/// Pair tables over `ids` ids: ring, reversed ring, partial chain
/// (0 -> 1 -> ... -> ids - 1: the first is nobody's target), one pair
/// ids - 1 -> 0, and self-pairs.
std::vector<Table> pairTables(int64_t ids) {
  Table ring, reversed, chain, self;
  for (int64_t i = 0; i < ids; ++i) {
    ring.push_back({i, (i + 1) % ids});
    reversed.push_back({(i + 1) % ids, i});
    if (i + 1 < ids)
      chain.push_back({i, i + 1});
    self.push_back({i, i});
  }
  std::vector<Table> all{ring, reversed, {{ids - 1, 0}}, self};
  if (!chain.empty())
    all.push_back(chain);
  return all;
}

TEST_CASE("source_target_pairs follow StableHLO on every grid", "[groups]") {
  const int64_t N = worldSize(), f = worldRank();
  int cases = 0;
  for (const Grid &grid : grids(N))
    for (int32_t mode :
         {DISTRT_CROSS_REPLICA, DISTRT_CROSS_PARTITION, DISTRT_FLATTENED_IDS}) {
      const int64_t ids = mode == DISTRT_CROSS_PARTITION ? grid.P
                          : mode == DISTRT_FLATTENED_IDS ? N
                                                         : grid.R;
      // This process's id in the mode, and the process of an id (the other
      // coordinate stays this process's).
      const int64_t r = f / grid.P, p = f % grid.P;
      const int64_t me = mode == DISTRT_CROSS_REPLICA     ? r
                         : mode == DISTRT_CROSS_PARTITION ? p
                                                          : f;
      auto process = [&](int64_t id) {
        return mode == DISTRT_CROSS_REPLICA     ? id * grid.P + p
               : mode == DISTRT_CROSS_PARTITION ? r * grid.P + id
                                                : id;
      };
      for (const Table &table : pairTables(ids)) {
        const GroupTable pairs(mode, table, grid.replicas, grid.partitions);
        int64_t source = -1;
        for (const auto &pair : table)
          if (pair[1] == me)
            source = process(pair[0]);
        INFO("rank " << f << ", " << modeName(mode) << ", " << pairs.str());
        ++cases;
        auto want = [&](int64_t i) {
          return source < 0 ? 0 : 1000 * source + i;
        };

        Array in(Dtype::I32, {3}), out(Dtype::I32, {3});
        in.fill([&](int64_t i) { return 1000 * f + i; });
        out.fill([](int64_t) { return -7; });
        collectivePermute(world(), pairs.spec, {{in.operand()}},
                          {{out.operand()}});
        for (int64_t i = 0; i < 3; ++i) {
          INFO("collective_permute index " << i);
          CHECK(out.get(i) == want(i));
        }

        // send/recv on a channel: posted receive, async send, both waited.
        Array got(Dtype::I32, {3});
        got.fill([](int64_t) { return -7; });
        Request received =
            recvAsync(world(), pairs, 3, false, {{got.operand()}});
        Request sent = sendAsync(world(), pairs, 3, false, {{in.operand()}});
        received.wait();
        sent.wait();
        for (int64_t i = 0; i < 3; ++i) {
          INFO("send/recv index " << i);
          CHECK(got.get(i) == want(i));
        }
      }
    }
  CHECK(cases > 0);
}

TEST_CASE("one communicator per group layout, shared by equal specs",
          "[groups]") {
  const int64_t N = worldSize(), f = worldRank();
  // A team of its own, so that no earlier case has split it.
  const Team team = Team::registerComm(41, MPI_COMM_WORLD);
  const size_t before = team.groupCommunicators();
  CHECK(before == 0);
  const size_t split = N > 1 ? 1 : 0; // at N = 1 every layout is the team
  Table reversed(1), singles, singlesReversed;
  for (int64_t i = N; i-- > 0;) {
    reversed[0].push_back(i);
    singlesReversed.push_back({i});
  }
  for (int64_t i = 0; i < N; ++i)
    singles.push_back({i});
  Array in(Dtype::I32, {1}), out(Dtype::I32, {N}), one(Dtype::I32, {1});
  in.set(0, 7 + f);

  // The reversed team, described in three modes (on 1 x N, N x 1 grids).
  const GroupTable flat(DISTRT_FLATTENED_IDS, reversed),
      replicas(DISTRT_CROSS_REPLICA, reversed, N, 1),
      partitions(DISTRT_CROSS_PARTITION, reversed, 1, N);
  for (const GroupTable *groups : {&flat, &replicas, &partitions}) {
    allGather(team, *groups, 0, {{in.operand()}}, {{out.operand()}});
    for (int64_t j = 0; j < N; ++j)
      CHECK(out.get(j) == 7 + N - 1 - j);
    CHECK(team.groupCommunicators() == before + split);
  }
  // Singletons, listed in either order: the same partition of the team.
  const GroupTable up(DISTRT_FLATTENED_IDS, singles),
      down(DISTRT_FLATTENED_IDS, singlesReversed);
  for (const GroupTable *groups : {&up, &down}) {
    allGather(team, *groups, 0, {{in.operand()}}, {{one.operand()}});
    CHECK(one.get(0) == 7 + f);
    CHECK(team.groupCommunicators() == before + 2 * split);
  }

  // One address whose content flips between reversed and identity: results
  // follow the content, and neither layout splits again.
  GroupTable changing(DISTRT_FLATTENED_IDS, reversed);
  for (int round = 0; round < 3; ++round) {
    allGather(team, changing, 0, {{in.operand()}}, {{out.operand()}});
    for (int64_t j = 0; j < N; ++j)
      CHECK(out.get(j) == 7 + (round % 2 ? j : N - 1 - j));
    for (int64_t j = 0; j < N; ++j)
      changing.ids[static_cast<size_t>(j)] = round % 2 ? N - 1 - j : j;
  }
  CHECK(team.groupCommunicators() == before + 2 * split);
}

TEST_CASE("seed example: all_gather along dimension 1", "[groups]") {
  if (worldSize() != 2) {
    SUCCEED("the seed example needs 2 replicas; runs at np 2");
    return;
  }
  // Through the C ABI, as compiled code calls it.
  const int64_t ids[] = {0, 1};
  static const distrt_groups_t groups{DISTRT_CROSS_REPLICA, 2, 1, 1, 2, ids};
  std::vector<int64_t> operand = worldRank() == 0
                                     ? std::vector<int64_t>{1, 2, 3, 4}
                                     : std::vector<int64_t>{5, 6, 7, 8};
  std::vector<int64_t> result(8, -1);
  struct {
    int64_t *allocated, *aligned;
    int64_t offset, sizes[2], strides[2];
  } inDesc{operand.data(), operand.data(), 0, {2, 2}, {2, 1}},
      outDesc{result.data(), result.data(), 0, {2, 4}, {4, 1}};
  const distrt_operand_t in{2, &inDesc, DISTRT_I64},
      out{2, &outDesc, DISTRT_I64};
  CHECK(distrt_all_gather(0, &groups, 1, 1, &in, &out, 0, nullptr,
                          "seed.mlir:1:1") == 0);
  CHECK(result == std::vector<int64_t>{1, 2, 5, 6, 3, 4, 7, 8});
}

TEST_CASE("seed example: collective_broadcast with replica_groups [[2, 1]]",
          "[groups]") {
  if (worldSize() != 4) {
    SUCCEED("the seed example needs 4 replicas; runs at np 4");
    return;
  }
  const int64_t ids[] = {2, 1};
  static const distrt_groups_t groups{DISTRT_CROSS_REPLICA, 4, 1, 1, 2, ids};
  const int r = worldRank();
  std::vector<int64_t> operand{2 * r + 1, 2 * r + 2}, result(2, -1);
  struct {
    int64_t *allocated, *aligned;
    int64_t offset, sizes[2], strides[2];
  } inDesc{operand.data(), operand.data(), 0, {1, 2}, {2, 1}},
      outDesc{result.data(), result.data(), 0, {1, 2}, {2, 1}};
  const distrt_operand_t in{2, &inDesc, DISTRT_I64},
      out{2, &outDesc, DISTRT_I64};
  CHECK(distrt_collective_broadcast(0, &groups, nullptr, 1, &in, &out, 0,
                                    nullptr, "seed.mlir:2:1") == 0);
  const std::vector<std::vector<int64_t>> expected{
      {0, 0}, {5, 6}, {5, 6}, {0, 0}};
  INFO("rank " << r);
  CHECK(result == expected[static_cast<size_t>(r)]);
}

TEST_CASE("bad groups are clear errors on every rank", "[groups]") {
  const int64_t N = worldSize();
  Array in(Dtype::F32, {2}), out(Dtype::F32, {2 * N});
  auto gather = [&](const GroupTable &groups) {
    allGather(world(), groups, 0, {{in.operand()}}, {{out.operand()}});
  };
  CHECK_THROWS_WITH(
      gather(GroupTable(DISTRT_CROSS_REPLICA, {}, N + 1, 1)),
      Contains("the process grid num_replicas " + std::to_string(N + 1) +
               " x num_partitions 1 does not match the team size " +
               std::to_string(N)) &&
          Contains("all_gather at ") && Contains("team 0, rank "));
  CHECK_THROWS_WITH(gather(GroupTable(DISTRT_CROSS_REPLICA, {{N}})),
                    Contains("replica id " + std::to_string(N) +
                             " in replica_groups [[" + std::to_string(N) +
                             "]]") &&
                        Contains("is out of range"));
  CHECK_THROWS_WITH(gather(GroupTable(DISTRT_FLATTENED_IDS, {{0}, {0}})),
                    Contains("process 0 (replica 0, partition 0) is in two "
                             "groups (0 and 1) of replica_groups [[0], [0]]"));
  CHECK_THROWS_WITH(gather(GroupTable(DISTRT_CROSS_REPLICA, {{0, 0}})),
                    Contains("appears twice in group 0"));
  CHECK_THROWS_WITH(gather(GroupTable(7, {})),
                    Contains("invalid group mode 7"));
  if (N >= 2) {
    CHECK_THROWS_WITH(
        gather(GroupTable(DISTRT_CROSS_REPLICA, {{0}})),
        Contains("process 1 (replica 1, partition 0) is in no group of "
                 "replica_groups [[0]] (cross_replica, " +
                 std::to_string(N) + " replicas x 1 partitions)"));
    // collective_broadcast allows non-members.
    Array bin(Dtype::F32, {2}), bout(Dtype::F32, {2});
    bin.fill([](int64_t i) { return 3 + i; });
    collectiveBroadcast(world(), GroupTable(DISTRT_CROSS_REPLICA, {{0}}),
                        {{bin.operand()}}, {{bout.operand()}});
    CHECK(bout.get(1) == (worldRank() == 0 ? 4 : 0));
  }
  CHECK_THROWS_WITH(distrt::allGather(world(),
                                      GroupTable(DISTRT_CROSS_REPLICA, {}), 0,
                                      {{in.operand()}}, {}),
                    Contains("1 inputs but 0 outputs"));
}

//===----------------------------------------------------------------------===//
// Ragged groups: replica_groups of different sizes, padded with -1
//===----------------------------------------------------------------------===//

namespace {

/// Ragged tables over `ids` ids that cover every id once (unpadded; none
/// below 2 ids): a long group then a singleton, a singleton then the rest
/// reversed, and (from 4 ids) three groups of sizes 1, 2 and the rest.
std::vector<Table> raggedTables(int64_t ids) {
  std::vector<Table> all;
  if (ids < 2)
    return all;
  Table longFirst(2), shortFirst(2);
  for (int64_t i = 0; i + 1 < ids; ++i)
    longFirst[0].push_back(i);
  longFirst[1].push_back(ids - 1);
  shortFirst[0].push_back(ids - 1);
  for (int64_t i = ids - 1; i-- > 0;)
    shortFirst[1].push_back(i);
  all.push_back(longFirst);
  all.push_back(shortFirst);
  if (ids >= 4) {
    Table three{{2}, {0, ids - 1}, {}};
    for (int64_t i = 1; i + 1 < ids; ++i)
      if (i != 2)
        three[2].push_back(i);
    all.push_back(three);
  }
  return all;
}

/// `table` as a C table: each row padded with -1 to the longest.
GroupTable padded(int32_t mode, const Table &table, int64_t replicas,
                  int64_t partitions) {
  size_t width = 0;
  for (const auto &group : table)
    width = std::max(width, group.size());
  Table rows = table;
  for (auto &row : rows)
    row.resize(width, -1);
  return GroupTable(mode, rows, replicas, partitions);
}

} // namespace

TEST_CASE("ragged replica_groups: -1 pads a group, all_reduce and "
          "collective_broadcast follow StableHLO",
          "[groups]") {
  const int64_t N = worldSize(), f = worldRank();
  int cases = 0;
  for (const Grid &grid : grids(N))
    for (int32_t mode = 0; mode < 4; ++mode) {
      const int64_t ids = mode == DISTRT_CROSS_PARTITION ? grid.P
                          : mode == DISTRT_FLATTENED_IDS ? N
                                                         : grid.R;
      for (const Table &table : raggedTables(ids)) {
        // The same groups from the C++ factory (which pads) and from a C
        // table padded by hand.
        const Groups made =
            Groups::replicas(table, static_cast<GroupMode>(mode), grid.replicas,
                             grid.partitions);
        const GroupTable byHand =
            padded(mode, table, grid.replicas, grid.partitions);
        REQUIRE(made.spec().group_size == byHand.spec.group_size);
        REQUIRE(
            std::equal(byHand.ids.begin(), byHand.ids.end(), made.spec().ids));
        const auto members = expectedGroup(mode, grid.R, grid.P, table, f);
        const int64_t G = static_cast<int64_t>(members.size());
        INFO("rank " << f << ", " << modeName(mode) << ", " << made.str());
        REQUIRE(G > 0);
        ++cases;
        int64_t memberSum = 0;
        for (int64_t m : members)
          memberSum += 1000 * m;

        Array in(Dtype::I32, {2});
        in.fill([&](int64_t i) { return 1000 * f + i; });
        for (const Groups &groups : {made, Groups(byHand.spec)}) {
          // all_reduce: the members' sum.
          Array sum(Dtype::I32, {2});
          allReduce(world(), groups, RedOp::Sum, {{in.operand()}},
                    {{sum.operand()}});
          for (int64_t i = 0; i < 2; ++i) {
            INFO("all_reduce index " << i);
            CHECK(sum.get(i) == memberSum + G * i);
          }
          // collective_broadcast: the first member's input.
          Array bout(Dtype::I32, {2});
          collectiveBroadcast(world(), groups, {{in.operand()}},
                              {{bout.operand()}});
          for (int64_t i = 0; i < 2; ++i) {
            INFO("collective_broadcast index " << i);
            CHECK(bout.get(i) == 1000 * members[0] + i);
          }
        }
      }
    }
  if (N >= 2)
    CHECK(cases > 0);
}

TEST_CASE("ragged replica_groups: a process in no group", "[groups]") {
  const int64_t N = worldSize(), f = worldRank();
  if (N < 3) {
    SUCCEED("needs 3 processes: two groups of different sizes and one left");
    return;
  }
  // {N - 1} and {0, 1}: processes 2 .. N - 2 are in none.
  const GroupTable groups(DISTRT_FLATTENED_IDS, {{N - 1, -1}, {0, 1}});
  Array in(Dtype::I64, {1}), out(Dtype::I64, {1});
  in.set(0, 10 + f);
  // collective_broadcast: non-members get zeros.
  collectiveBroadcast(world(), groups, {{in.operand()}}, {{out.operand()}});
  CHECK(out.get(0) == (f == N - 1 ? 10 + N - 1 : f < 2 ? 10 : 0));
  // all_reduce needs every process in a group (only at N > 3 is one left).
  if (N > 3)
    CHECK_THROWS_WITH(allReduce(world(), groups, RedOp::Sum, {{in.operand()}},
                                {{out.operand()}}),
                      Contains("process 2 (replica 2, partition 0) is in no "
                               "group of replica_groups [[" +
                               std::to_string(N - 1) + ", -1], [0, 1]]"));
}

TEST_CASE("ragged replica_groups: malformed -1 padding is a clear error on "
          "every rank",
          "[groups]") {
  const int64_t N = worldSize();
  Array in(Dtype::F32, {2}), out(Dtype::F32, {2});
  auto reduce = [&](const Groups &groups) {
    allReduce(world(), groups, RedOp::Sum, {{in.operand()}}, {{out.operand()}});
  };
  const std::string grid =
      " (cross_replica, " + std::to_string(N) + " replicas x 1 partitions)";
  // -1 pads the end of a group only.
  CHECK_THROWS_WITH(
      reduce(GroupTable(DISTRT_CROSS_REPLICA, {{-1, 0}})),
      Contains("group 0 of replica_groups [[-1, 0]]" + grid +
               " has replica id 0 after a -1 (-1 pads a group at its end "
               "only)") &&
          Contains("all_reduce at ") && Contains("team 0, rank "));
  // A group needs a process, from a C table or the C++ factory.
  CHECK_THROWS_WITH(reduce(GroupTable(DISTRT_CROSS_REPLICA, {{0}, {-1}})),
                    Contains("group 1 of replica_groups [[0], [-1]]" + grid +
                             " is only -1 padding (a group needs at least one "
                             "process)"));
  CHECK_THROWS_WITH(
      reduce(Groups::replicas({{}, {0}})),
      Contains("group 0 of replica_groups [[-1], [0]] (cross_replica") &&
          Contains("is only -1 padding"));
  // Only -1 is padding; source_target_pairs have none.
  CHECK_THROWS_WITH(reduce(GroupTable(DISTRT_CROSS_REPLICA, {{0, -2}})),
                    Contains("replica id -2 in replica_groups [[0, -2]]" +
                             grid + " is out of range [0, " +
                             std::to_string(N) + ")"));
  CHECK_THROWS_WITH(
      collectivePermute(world(), GroupTable(DISTRT_CROSS_REPLICA, {{0, -1}}),
                        {{in.operand()}}, {{out.operand()}}),
      Contains("replica id -1 in source_target_pairs [[0, -1]]") &&
          Contains("is out of range"));
}
