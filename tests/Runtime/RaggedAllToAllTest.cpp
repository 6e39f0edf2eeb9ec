//===- RaggedAllToAllTest.cpp - ragged_all_to_all ---------------*- C++ -*-===//
//
// ragged_all_to_all over the whole team (position == rank) with sizes in
// closed form: member i sends member j s(i, j) = (i + 2 j + shift) % 3
// rows, consecutive from row 0 in peer order; its block lands on j after
// the blocks of the members after i (peer order reversed). Input of
// process f at flat index i: 1000 f + i; output rows nothing lands in keep
// -1.
//
//===----------------------------------------------------------------------===//

#include "ArrayUtil.h"

#include <catch2/catch.hpp>

using namespace distrt;
using namespace distrt::test;
using Catch::Contains;

namespace {

/// Member f's four sizes, and what it should hold.
struct Exchange {
  int64_t g, f, shift;
  std::vector<int64_t> inputOffsets, sendSizes, outputOffsets, recvSizes;

  Exchange(int64_t g, int64_t f, int64_t shift)
      : g(g), f(f), shift(shift), inputOffsets(g), sendSizes(g),
        outputOffsets(g), recvSizes(g) {
    for (int64_t j = 0; j < g; ++j) {
      inputOffsets[j] = firstRow(f, j);
      sendSizes[j] = rows(f, j);
      outputOffsets[j] = landsAt(f, j);
      recvSizes[j] = rows(j, f);
    }
  }
  int64_t rows(int64_t i, int64_t j) const { return (i + 2 * j + shift) % 3; }
  /// The first row member i sends member j.
  int64_t firstRow(int64_t i, int64_t j) const {
    int64_t at = 0;
    for (int64_t l = 0; l < j; ++l)
      at += rows(i, l);
    return at;
  }
  /// Where member i's block lands on j: after those of members i + 1...
  int64_t landsAt(int64_t i, int64_t j) const {
    int64_t at = 0;
    for (int64_t q = i + 1; q < g; ++q)
      at += rows(q, j);
    return at;
  }
  RaggedSizes sizes() const {
    return {inputOffsets, sendSizes, outputOffsets, recvSizes};
  }
  /// The value this member's output holds at (row, col) of `cols` columns.
  int64_t expected(int64_t row, int64_t col, int64_t cols) const {
    for (int64_t q = 0; q < g; ++q) {
      const int64_t from = landsAt(q, f), n = rows(q, f);
      if (row >= from && row < from + n)
        return 1000 * q + (firstRow(q, f) + row - from) * cols + col;
    }
    return -1; // nothing lands there
  }
};

} // namespace

TEST_CASE("ragged_all_to_all: sizes from data, strided, async",
          "[collectives]") {
  const int64_t N = worldSize(), f = worldRank();
  for (int64_t shift = 0; shift < 3; ++shift)
    for (int async = 0; async < 2; ++async)
      for (int strided = 0; strided < 2; ++strided) {
        const Exchange x(N, f, shift);
        const int64_t rows = 2 * N + 1;
        Array in(Dtype::I64, {rows, 2}, strided != 0);
        Array out(Dtype::I64, {rows + 1, 2}, strided != 0);
        in.fill([&](int64_t i) { return 1000 * f + i; });
        out.fill([](int64_t) { return -1; });
        if (async)
          raggedAllToAllAsync(world(), everyone(), x.sizes(), {{in.operand()}},
                              {{out.operand()}})
              .wait();
        else
          raggedAllToAll(world(), everyone(), x.sizes(), {{in.operand()}},
                         {{out.operand()}});
        for (int64_t o = 0; o < out.count(); ++o) {
          INFO("rank " << f << " shift " << shift << " async " << async
                       << " strided " << strided << " flat index " << o);
          CHECK(out.get(o) == x.expected(o / 2, o % 2, 2));
        }
        CHECK(out.touchedPadding() == 0);
      }
}

TEST_CASE("ragged_all_to_all: a site follows sizes changed in place",
          "[collectives]") {
  const int64_t N = worldSize(), f = worldRank();
  Exchange x(N, f, 0);
  const int64_t rows = 2 * N + 1;
  Array in(Dtype::F32, {rows}), out(Dtype::F32, {rows});
  in.fill([&](int64_t i) { return 1000 * f + i; });
  Site site;
  for (int64_t shift : {0, 1, 1, 2, 0}) {
    // Same addresses, other content: the memo compares the values.
    const Exchange next(N, f, shift);
    x.inputOffsets = next.inputOffsets;
    x.sendSizes = next.sendSizes;
    x.outputOffsets = next.outputOffsets;
    x.recvSizes = next.recvSizes;
    x.shift = shift;
    out.fill([](int64_t) { return -1; });
    raggedAllToAll(world(), everyone(), x.sizes(), {{in.operand()}},
                   {{out.operand()}}, &site);
    for (int64_t o = 0; o < rows; ++o) {
      INFO("rank " << f << " shift " << shift << " row " << o);
      CHECK(out.get(o) == x.expected(o, 0, 1));
    }
  }
}

TEST_CASE("ragged_all_to_all: bad sizes are clear errors", "[collectives]") {
  // Every member makes the same mistake, so that all fail alike.
  const int64_t N = worldSize(), f = worldRank();
  const Exchange x(N, f, 1);
  const int64_t rows = 2 * N + 1;
  Array in(Dtype::I32, {rows, 2}), out(Dtype::I32, {rows, 2});
  Array narrow(Dtype::I32, {rows, 3});
  auto call = [&](const Exchange &e, Array &o) {
    raggedAllToAll(world(), everyone(), e.sizes(), {{in.operand()}},
                   {{o.operand()}});
  };
  Exchange short_ = x;
  short_.sendSizes.pop_back();
  CHECK_THROWS_WITH(call(short_, out),
                    Contains("ragged_all_to_all at ") &&
                        Contains(fmt::format("send_sizes has {} values, "
                                             "expected {} (one per group "
                                             "member)",
                                             N - 1, N)));
  Exchange negative = x;
  negative.outputOffsets.back() = -2;
  CHECK_THROWS_WITH(call(negative, out),
                    Contains(fmt::format("output_offsets has a negative "
                                         "value -2 at index {}",
                                         N - 1)));
  Exchange past = x;
  past.inputOffsets[0] = rows;
  past.sendSizes[0] = 1;
  CHECK_THROWS_WITH(call(past, out),
                    Contains(fmt::format("sends rows [{}, {}) to member 0 "
                                         "(team rank 0; input_offsets and "
                                         "send_sizes at 0) but the input has "
                                         "{} rows",
                                         rows, rows + 1, rows)));
  CHECK_THROWS_WITH(call(x, narrow),
                    Contains(fmt::format("the output has shape [{0}, 3] but "
                                         "the input has [{0}, 2]",
                                         rows)));
  // Each member expects one row more from member 0 than it sends.
  Exchange expectsMore = x;
  expectsMore.recvSizes[0] += 1;
  CHECK_THROWS_WITH(call(expectsMore, out),
                    Contains(fmt::format("member 0 (team rank 0) sends this "
                                         "member {} rows (its send_sizes) but "
                                         "this member's recv_sizes at 0 is {}",
                                         x.rows(0, f), x.rows(0, f) + 1)));
  // Then a good call works.
  in.fill([&](int64_t i) { return 1000 * f + i; });
  out.fill([](int64_t) { return -1; });
  call(x, out);
  for (int64_t o = 0; o < out.count(); ++o) {
    INFO("rank " << f << " flat index " << o);
    CHECK(out.get(o) == x.expected(o / 2, o % 2, 2));
  }
}
