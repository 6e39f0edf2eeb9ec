//===- CheckPairsTest.cpp - Checked mode: pairs and overlapping outputs ---===//
//
// Checked mode stops members that disagree on collective_permute's
// source_target_pairs (it agrees on them as on a collective's groups) and a
// recv whose pairs differ from those of the send it receives (the sender's
// header carries them). It also checks each call's buffers when it plans
// it: two outputs that overlap, or an output that overlaps an input other
// than its own, throw on every rank; in place does not. Input of process f
// at index i: 10 * f + i.
//
//===----------------------------------------------------------------------===//

#include "ArrayUtil.h"

#include <catch2/catch.hpp>

#include <string>

using namespace distrt;
using namespace distrt::test;
using Catch::Contains;

TEST_CASE("checked mode: members that disagree on collective_permute's pairs "
          "are named",
          "[check]") {
  const int f = worldRank();
  if (worldSize() < 2)
    return; // pairs of two processes
  const CheckedScope checked;
  // Rank 0 sends to 1, the others send to 0: unchecked nobody receives.
  const Groups pairs =
      f == 0 ? Groups::pairs({{0, 1}}) : Groups::pairs({{1, 0}});
  Array in(Dtype::I32, {3}), out(Dtype::I32, {3});
  in.fill([&](int64_t i) { return 10 * f + i; });
  auto permute = [&] {
    collectivePermute(world(), pairs, {{in.operand()}}, {{out.operand()}});
  };
  if (f == 0)
    CHECK_THROWS_WITH(permute(),
                      Contains("collective_permute at ") &&
                          Contains("team 0, rank 0: source_target_pairs "
                                   "[[0, 1]]") &&
                          Contains("here, [[1, 0]]") && Contains("on rank 1"));
  else
    CHECK_THROWS_WITH(
        permute(), Contains(fmt::format("team 0, rank {}: source_target_pairs "
                                        "[[1, 0]]",
                                        f)) &&
                       Contains("here, [[0, 1]]") && Contains("on rank 0"));
}

TEST_CASE("checked mode: members that agree on collective_permute's pairs get "
          "the unchecked results",
          "[check]") {
  const int f = worldRank();
  const int64_t N = worldSize();
  const CheckedScope checked;
  // A ring: f receives from f - 1.
  std::vector<std::pair<int64_t, int64_t>> ring;
  for (int64_t p = 0; p < N; ++p)
    ring.emplace_back(p, (p + 1) % N);
  const Groups pairs = Groups::pairs(ring);
  Array in(Dtype::I32, {3}), out(Dtype::I32, {3});
  in.fill([&](int64_t i) { return 10 * f + i; });
  collectivePermute(world(), pairs, {{in.operand()}}, {{out.operand()}});
  const int64_t source = (f + N - 1) % N;
  for (int64_t i = 0; i < 3; ++i) {
    INFO("rank " << f << " index " << i);
    CHECK(out.get(i) == static_cast<double>(10 * source + i));
  }
}

TEST_CASE("checked mode: a recv checks its pairs against its sender's",
          "[check]") {
  const int f = worldRank();
  if (worldSize() < 2)
    return; // a pair of two processes
  const Groups sent = Groups::pairs({{0, 1}});
  const Groups expected = Groups::pairs({{0, 1}, {1, 0}});
  Array in(Dtype::F32, {4}), out(Dtype::F32, {4});
  in.fill([](int64_t i) { return 20 + i; });
  {
    const CheckedScope checked;
    if (f == 0)
      send(world(), sent, 79, false, {{in.operand()}});
    else if (f == 1)
      CHECK_THROWS_WITH(recv(world(), expected, 79, false, {{out.operand()}}),
                        Contains("team 0, rank 1: source_target_pairs [[0, 1], "
                                 "[1, 0]] here, [[0, 1]] from rank 0 (send "
                                 "at "));
  }
  // The data the header announced is still there: take it as sent.
  if (f == 1) {
    Array drain(Dtype::F32, {4});
    recv(world(), sent, 79, false, {{drain.operand()}});
    for (int64_t i = 0; i < 4; ++i)
      CHECK(drain.get(i) == static_cast<double>(20 + i));
  }
}

TEST_CASE("checked mode: outputs that overlap are named on every rank",
          "[check]") {
  const int f = worldRank();
  const int64_t N = worldSize();
  const CheckedScope checked;
  Array a(Dtype::I64, {4}), b(Dtype::I64, {4}), c(Dtype::I64, {4});
  a.fill([&](int64_t i) { return 10 * f + i; });
  b.fill([&](int64_t i) { return 100 + i; });
  auto reduce = [&](Array &out0, Array &out1) {
    allReduce(world(), Groups::world(), RedOp::Sum,
              {{a.operand(), b.operand()}}, {{out0.operand(), out1.operand()}});
  };
  const std::string at = fmt::format("team 0, rank {}: ", f);
  CHECK_THROWS_WITH(reduce(c, c),
                    Contains(at + "outputs #0 and #1 overlap: the op writes "
                                  "both, and the last write wins"));
  CHECK_THROWS_WITH(reduce(b, a),
                    Contains(at + "output #0 overlaps input #1: the op may "
                                  "write the output before it reads the "
                                  "input"));
  // In place: each operand's own input and output are one buffer.
  reduce(a, b);
  for (int64_t i = 0; i < 4; ++i) {
    INFO("rank " << f << " index " << i);
    CHECK(a.get(i) == static_cast<double>(10 * N * (N - 1) / 2 + N * i));
    CHECK(b.get(i) == static_cast<double>(N * (100 + i)));
  }
}
