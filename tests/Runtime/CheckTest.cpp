//===- CheckTest.cpp - Checked mode through the C++ API switch --*- C++ -*-===//
//
// distrt::setChecked turns checked mode on and off (the environment's
// DISTRT_CHECK is covered by tests/lit/Integration/misuse). Ranks that agree
// get the unchecked results; ranks that disagree on a collective all throw,
// each naming the first differing field with both values; a recv checks the
// element type its sender's header announces. Selective checked mode
// (distrt_set_check(DISTRT_CHECK_UNPROVEN), DISTRT_CHECK=1) skips the sites
// marked DISTRT_SITE_PROVEN, which DISTRT_CHECK_ALL checks. Input of
// process f at index i: 10 * f + i.
//
//===----------------------------------------------------------------------===//

#include "ArrayUtil.h"

#include <catch2/catch.hpp>

#include <bit>
#include <string>

using namespace distrt;
using namespace distrt::test;
using Catch::Contains;

TEST_CASE("checked mode: ranks that agree get the unchecked results",
          "[check]") {
  const CheckedScope checked;
  const int64_t N = worldSize();
  Array x(Dtype::F64, {4});
  x.fill([&](int64_t i) { return 10.0 * worldRank() + i; });
  const Operand operand[] = {x.operand()};
  allReduce(world(), Groups::world(), RedOp::Sum, operand, operand);
  for (int64_t i = 0; i < 4; ++i)
    CHECK(x.get(i) == 10.0 * N * (N - 1) / 2 + static_cast<double>(N * i));
}

TEST_CASE("checked mode: a differing element type is named on every rank",
          "[check]") {
  const CheckedScope checked;
  const int f = worldRank();
  // Rank 0 reduces f32, the others i32: the same bytes, other bits.
  Array x(f == 0 ? Dtype::F32 : Dtype::I32, {4});
  x.fill([&](int64_t i) { return 10 * f + i; });
  const Operand operand[] = {x.operand()};
  auto call = [&] {
    allReduce(world(), Groups::world(), RedOp::Sum, operand, operand);
  };
  if (worldSize() == 1)
    CHECK_NOTHROW(call());
  else if (f == 0)
    CHECK_THROWS_WITH(call(), Contains("all_reduce at ") &&
                                  Contains("team 0, rank 0: element type f32 "
                                           "here, i32 on rank 1"));
  else
    CHECK_THROWS_WITH(call(), Contains(fmt::format("team 0, rank {}: element "
                                                   "type i32 here, f32 on "
                                                   "rank 0",
                                                   f)));
}

TEST_CASE("checked mode: a differing shape or reduction is named", "[check]") {
  const CheckedScope checked;
  const int f = worldRank();
  const int64_t N = worldSize();
  // The last rank has 2 elements where the others have 3.
  Array x(Dtype::I64, {f == N - 1 && N > 1 ? 2 : 3});
  x.fill([&](int64_t i) { return 10 * f + i; });
  const Operand operand[] = {x.operand()};
  auto reduce = [&](RedOp op) {
    allReduce(world(), Groups::world(), op, operand, operand);
  };
  if (N == 1) {
    CHECK_NOTHROW(reduce(RedOp::Max));
    return;
  }
  CHECK_THROWS_WITH(reduce(RedOp::Sum),
                    Contains(f == N - 1 ? fmt::format("shape 2 here, 3 on "
                                                      "rank 0")
                                        : fmt::format("shape 3 here, 2 on "
                                                      "rank {}",
                                                      N - 1)));
  // Equal shapes, rank 0 takes the maximum where the others sum.
  Array y(Dtype::I64, {3});
  const Operand same[] = {y.operand()};
  const RedOp op = f == 0 ? RedOp::Max : RedOp::Sum;
  CHECK_THROWS_WITH(allReduce(world(), Groups::world(), op, same, same),
                    Contains(f == 0 ? "reduction max here, sum on rank 1"
                                    : "reduction sum here, max on rank 0"));
}

TEST_CASE("checked mode: a recv checks the element type sent", "[check]") {
  const int f = worldRank();
  if (worldSize() < 2) {
    // One process: a self-pair, checked as any other.
    const CheckedScope checked;
    Array out(Dtype::I32, {4}), in(Dtype::F32, {4});
    const Groups self = Groups::pairs({{0, 0}});
    send(world(), self, 77, false, {{in.operand()}});
    CHECK_THROWS_WITH(recv(world(), self, 77, false, {{out.operand()}}),
                      Contains("element type i32 here, f32 from rank 0 (send "
                               "at "));
    setChecked(false);
    Array drain(Dtype::F32, {4});
    recv(world(), self, 77, false, {{drain.operand()}});
    return;
  }
  const Groups pairs = Groups::pairs({{0, 1}});
  Array in(Dtype::F32, {4}), out(Dtype::I32, {4});
  in.fill([](int64_t i) { return 10 + i; });
  {
    const CheckedScope checked;
    if (f == 0)
      send(world(), pairs, 77, false, {{in.operand()}});
    else if (f == 1)
      CHECK_THROWS_WITH(recv(world(), pairs, 77, false, {{out.operand()}}),
                        Contains("team 0, rank 1: element type i32 here, f32 "
                                 "from rank 0 (send at "));
  }
  // The data the header announced is still there: take it as sent.
  if (f == 1) {
    Array drain(Dtype::F32, {4});
    recv(world(), pairs, 77, false, {{drain.operand()}});
    for (int64_t i = 0; i < 4; ++i)
      CHECK(drain.get(i) == static_cast<double>(10 + i));
  }
}

namespace {

/// A checked mode level (distrt_check_level_t) for the scope of a test.
struct LevelScope {
  explicit LevelScope(int32_t level) { distrt_set_check(level); }
  ~LevelScope() { distrt_set_check(DISTRT_CHECK_OFF); }
};

/// A call site as the lowering emits it for an op marked
/// `distruntime.proven` (flags DISTRT_SITE_PROVEN), or without the mark.
Site markedSite(bool proven) {
  Site site;
  site.get()->flags = proven ? DISTRT_SITE_PROVEN : 0;
  return site;
}

} // namespace

TEST_CASE("checked mode: one all_reduce written at two sites matches",
          "[check]") {
  const int f = worldRank();
  const int64_t N = worldSize();
  // Rank 0 reduces at one place, the others at another (the two sides of a
  // branch): MPI matches the calls, so checked mode must let them run.
  Site here = markedSite(false), there = markedSite(false);
  Array x(Dtype::F64, {4});
  x.fill([&](int64_t i) { return 10.0 * f + i; });
  const Operand operand[] = {x.operand()};
  const LevelScope level(DISTRT_CHECK_ALL);
  if (f == 0)
    CHECK_NOTHROW(allReduce(world(), Groups::world(), RedOp::Sum, operand,
                            operand, &here, SourceLoc("sites.mlir:1:1")));
  else
    CHECK_NOTHROW(allReduce(world(), Groups::world(), RedOp::Sum, operand,
                            operand, &there, SourceLoc("sites.mlir:2:2")));
  for (int64_t i = 0; i < 4; ++i) {
    INFO("rank " << f << " index " << i);
    CHECK(x.get(i) == 10.0 * N * (N - 1) / 2 + static_cast<double>(N * i));
  }
}

TEST_CASE("selective checked mode: level 1 skips proven sites, all checks "
          "them",
          "[check]") {
  const int f = worldRank();
  const int64_t N = worldSize();
  // Rank 0 sums, the others take the maximum: a real disagreement, which a
  // (wrong) proof hides from level 1.
  auto reduce = [&](bool proven) {
    Site here = markedSite(proven), there = markedSite(proven);
    Array x(Dtype::F64, {4});
    x.fill([&](int64_t i) { return 10.0 * f + i; });
    const Operand operand[] = {x.operand()};
    if (f == 0)
      allReduce(world(), Groups::world(), RedOp::Sum, operand, operand, &here,
                SourceLoc("proven.mlir:1:1"));
    else
      allReduce(world(), Groups::world(), RedOp::Max, operand, operand, &there,
                SourceLoc("proven.mlir:2:2"));
    return x;
  };
  const std::string differs = f == 0 ? "reduction sum here, max on rank 1"
                                     : "reduction max here, sum on rank 0";
  {
    // DISTRT_CHECK=1: proven sites run unchecked (MPI then mixes the two
    // reductions, which is what the proof vouched against); sites without
    // the mark are checked as ever.
    const LevelScope level(DISTRT_CHECK_UNPROVEN);
    if (N == 1)
      CHECK_NOTHROW(reduce(/*proven=*/true));
    if (N > 1)
      CHECK_THROWS_WITH(reduce(/*proven=*/false), Contains(differs));
  }
  // DISTRT_CHECK=all: the proven sites are checked too.
  const LevelScope level(DISTRT_CHECK_ALL);
  if (N == 1)
    CHECK_NOTHROW(reduce(/*proven=*/true));
  else
    CHECK_THROWS_WITH(reduce(/*proven=*/true), Contains(differs));
}

TEST_CASE("selective checked mode: a proven send and recv pair sends no "
          "header",
          "[check]") {
  const int f = worldRank();
  if (worldSize() < 2)
    return; // a pair of two processes
  const Groups pairs = Groups::pairs({{0, 1}});
  // Rank 0 sends f32, rank 1 expects i32 of the same size: only a header
  // tells.
  Array in(Dtype::F32, {4}), out(Dtype::I32, {4});
  in.fill([](int64_t i) { return 10 + i; });
  Site sendSite = markedSite(true), recvSite = markedSite(true);
  auto exchange = [&] {
    if (f == 0)
      send(world(), pairs, 78, false, {{in.operand()}}, &sendSite);
    else if (f == 1)
      recv(world(), pairs, 78, false, {{out.operand()}}, &recvSite);
  };
  {
    // DISTRT_CHECK=1: no header; the receiver gets the sender's bits.
    const LevelScope level(DISTRT_CHECK_UNPROVEN);
    CHECK_NOTHROW(exchange());
    if (f == 1)
      for (int64_t i = 0; i < 4; ++i) {
        INFO("index " << i);
        CHECK(out.get(i) == static_cast<double>(std::bit_cast<int32_t>(
                                static_cast<float>(10 + i))));
      }
  }
  {
    // DISTRT_CHECK=all: the receiver checks the sender's header.
    const LevelScope level(DISTRT_CHECK_ALL);
    if (f == 0)
      exchange();
    else if (f == 1)
      CHECK_THROWS_WITH(exchange(),
                        Contains("team 0, rank 1: element type i32 here, f32 "
                                 "from rank 0 (send at "));
  }
  // The data the header announced is still there.
  if (f == 1) {
    Array drain(Dtype::F32, {4});
    recv(world(), pairs, 78, false, {{drain.operand()}});
    for (int64_t i = 0; i < 4; ++i)
      CHECK(drain.get(i) == static_cast<double>(10 + i));
  }
}

TEST_CASE("checked mode: the watchdog's timeout is set and checked",
          "[check]") {
  CHECK_NOTHROW(setTimeout(30));
  CHECK_NOTHROW(setTimeout(0));
  CHECK_THROWS_WITH(setTimeout(-1),
                    Contains("the timeout must be between 0 and 1e9 seconds"));
}

TEST_CASE("checked mode: a grouped collective that one group runs agrees "
          "within the group",
          "[check]") {
  const int f = worldRank();
  const int64_t N = worldSize();
  if (N < 2)
    return; // two groups
  // Groups [0, h) and [h, N): ragged at odd N.
  const int64_t h = N / 2;
  std::vector<std::vector<int64_t>> split(2);
  for (int64_t r = 0; r < N; ++r)
    split[r < h ? 0 : 1].push_back(r);
  const Groups groups = Groups::replicas(split);
  const bool first = f < h;
  const LevelScope level(DISTRT_CHECK_ALL);
  Array x(Dtype::I64, {2});
  x.fill([&](int64_t i) { return f + i; });
  const Operand operand[] = {x.operand()};
  // The first use splits the team: every member runs it.
  CHECK_NOTHROW(allReduce(world(), groups, RedOp::Sum, operand, operand,
                          nullptr, SourceLoc("groups.mlir:1:1")));
  // Then the first group only (a branch on a value uniform in the groups):
  // the second group has no reason to meet it, and MPI matches it apart.
  if (first) {
    Array y(Dtype::I64, {2});
    y.fill([&](int64_t i) { return f * 10 + i; });
    const Operand in[] = {y.operand()};
    CHECK_NOTHROW(allReduce(world(), groups, RedOp::Sum, in, in, nullptr,
                            SourceLoc("groups.mlir:2:2")));
    // Sum over r < h of 10 r + i.
    for (int64_t i = 0; i < 2; ++i)
      CHECK(y.get(i) == static_cast<double>(10 * h * (h - 1) / 2 + h * i));
  }
  // A difference within the first group is still named, by team rank.
  if (first && h > 1) {
    Array z(Dtype::I64, {2});
    const Operand in[] = {z.operand()};
    const RedOp op = f == 0 ? RedOp::Sum : RedOp::Max;
    CHECK_THROWS_WITH(allReduce(world(), groups, op, in, in, nullptr,
                                SourceLoc("groups.mlir:3:3")),
                      Contains(f == 0 ? "reduction sum here, max on rank 1 "
                                        "of this process group"
                                      : "reduction max here, sum on rank 0 "
                                        "of this process group"));
  }
}
