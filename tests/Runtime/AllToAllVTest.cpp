//===- AllToAllVTest.cpp - all_to_all_v -------------------------*- C++ -*-===//
//
// all_to_all_v over the whole team (position == rank) with counts in closed
// form: member i sends member j (i + 2 j + shift) % 3 rows, so counts are
// uneven, zero and odd. Inputs have rows to spare (not sent) and outputs
// rows past the received ones (zeroed). Input of process f at flat index
// i: 1000 f + i.
//
//===----------------------------------------------------------------------===//

#include "ArrayUtil.h"

#include <catch2/catch.hpp>

using namespace distrt;
using namespace distrt::test;
using Catch::Contains;

namespace {

/// The G x G tables of one exchange.
struct Counts {
  int64_t g;
  std::vector<int64_t> send, recv;

  Counts(int64_t g, int64_t shift) : g(g), send(g * g), recv(g * g) {
    for (int64_t i = 0; i < g; ++i)
      for (int64_t j = 0; j < g; ++j) {
        send[i * g + j] = (i + 2 * j + shift) % 3;
        recv[j * g + i] = send[i * g + j];
      }
  }
  int64_t sendCount(int64_t i, int64_t j) const { return send[i * g + j]; }
  /// The first row member i sends member j (or receives from it).
  int64_t sendDispl(int64_t i, int64_t j) const {
    int64_t d = 0;
    for (int64_t l = 0; l < j; ++l)
      d += send[i * g + l];
    return d;
  }
  int64_t recvDispl(int64_t i, int64_t j) const {
    int64_t d = 0;
    for (int64_t l = 0; l < j; ++l)
      d += recv[i * g + l];
    return d;
  }
  /// The most rows a member sends or receives.
  int64_t maxRows() const {
    int64_t most = 0;
    for (int64_t i = 0; i < g; ++i)
      most = std::max({most, sendDispl(i, g), recvDispl(i, g)});
    return most;
  }
};

/// The value member `i`'s output holds at (row, col) of `cols` columns.
int64_t expected(const Counts &c, int64_t i, int64_t row, int64_t col,
                 int64_t cols) {
  for (int64_t j = 0; j < c.g; ++j) {
    const int64_t from = c.recvDispl(i, j), n = c.sendCount(j, i);
    if (row >= from && row < from + n) {
      const int64_t sourceRow = c.sendDispl(j, i) + row - from;
      return 1000 * j + sourceRow * cols + col;
    }
  }
  return 0; // past the received rows
}

} // namespace

TEST_CASE("all_to_all_v: uneven, zero and odd counts, strided, mixed types",
          "[collectives]") {
  const int64_t N = worldSize(), f = worldRank();
  for (int64_t shift = 0; shift < 3; ++shift)
    for (int async = 0; async < 2; ++async)
      for (int variant = 0; variant < 4; ++variant) {
        // 0: one dense i32; 1: one strided f64; 2: both; 3: in place.
        const Counts counts(N, shift);
        const int64_t rows = counts.maxRows() + 1;
        std::vector<Array> ins, outs;
        if (variant != 1) {
          ins.emplace_back(Dtype::I32, std::vector<int64_t>{rows, 3});
          outs.emplace_back(Dtype::I32, std::vector<int64_t>{rows + 1, 3});
        }
        if (variant == 1 || variant == 2) {
          ins.emplace_back(Dtype::F64, std::vector<int64_t>{rows, 2}, true);
          outs.emplace_back(Dtype::F64, std::vector<int64_t>{rows, 2}, true);
        }
        std::vector<Operand> inOps, outOps;
        for (size_t k = 0; k < ins.size(); ++k) {
          ins[k].fill([&](int64_t i) { return 1000 * f + i; });
          outs[k].fill([](int64_t) { return -1; });
          inOps.push_back(ins[k].operand());
          outOps.push_back(outs[k].operand());
        }
        if (variant == 3)
          outOps = inOps;
        if (async)
          allToAllVAsync(world(), everyone(), counts.send, counts.recv, inOps,
                         outOps)
              .wait();
        else
          allToAllV(world(), everyone(), counts.send, counts.recv, inOps,
                    outOps);
        for (size_t k = 0; k < ins.size(); ++k) {
          const Array &out = variant == 3 ? ins[k] : outs[k];
          const int64_t cols = out.sizes[1];
          for (int64_t o = 0; o < out.count(); ++o) {
            INFO("rank " << f << " shift " << shift << " async " << async
                         << " variant " << variant << " operand " << k
                         << " flat index " << o);
            CHECK(out.get(o) == expected(counts, f, o / cols, o % cols, cols));
          }
          CHECK(out.touchedPadding() == 0);
        }
      }
}

TEST_CASE("all_to_all_v: a site follows tables changed in place",
          "[collectives]") {
  const int64_t N = worldSize(), f = worldRank();
  Counts counts(N, 0);
  const int64_t rows = 2 * N + 1;
  Array in(Dtype::I64, {rows, 1}), out(Dtype::I64, {rows, 1});
  in.fill([&](int64_t i) { return 1000 * f + i; });
  Site site;
  for (int64_t shift : {0, 1, 1, 2, 0}) {
    // Same addresses, other content: the memo compares the tables' values.
    const Counts next(N, shift);
    std::copy(next.send.begin(), next.send.end(), counts.send.begin());
    std::copy(next.recv.begin(), next.recv.end(), counts.recv.begin());
    allToAllV(world(), everyone(), counts.send, counts.recv, {{in.operand()}},
              {{out.operand()}}, &site);
    for (int64_t o = 0; o < rows; ++o) {
      INFO("rank " << f << " shift " << shift << " row " << o);
      CHECK(out.get(o) == expected(counts, f, o, 0, 1));
    }
  }
}

TEST_CASE("all_to_all_v: bad tables and shapes are clear errors",
          "[collectives]") {
  const int64_t N = worldSize();
  const Counts counts(N, 1);
  const int64_t rows = counts.maxRows();
  Array in(Dtype::F32, {rows, 2}), out(Dtype::F32, {rows, 2});
  Array narrow(Dtype::F32, {rows, 3}), scalar(Dtype::F32, {});
  auto call = [&](const std::vector<int64_t> &send,
                  const std::vector<int64_t> &recv, Array &i, Array &o) {
    allToAllV(world(), everyone(), send, recv, {{i.operand()}},
              {{o.operand()}});
  };
  const std::vector<int64_t> short_(counts.send.begin(), counts.send.end() - 1);
  CHECK_THROWS_WITH(call(short_, counts.recv, in, out),
                    Contains("all_to_all_v at ") &&
                        Contains(fmt::format("send_counts has {} values, "
                                             "expected {} x {}",
                                             N * N - 1, N, N)));
  std::vector<int64_t> negative = counts.recv;
  negative.back() = -1;
  CHECK_THROWS_WITH(call(counts.send, negative, in, out),
                    Contains(fmt::format("recv_counts has a negative count -1 "
                                         "at [{}, {}]",
                                         N - 1, N - 1)));
  std::vector<int64_t> skewed = counts.recv;
  skewed[0] += 1;
  CHECK_THROWS_WITH(call(counts.send, skewed, in, out),
                    Contains("recv_counts [0, 0] is ") &&
                        Contains("member 0 receives from member 0 what 0 "
                                 "sends it"));
  // Every member sends more rows than its input has (all ranks fail).
  const std::vector<int64_t> all(N * N, rows + 1);
  CHECK_THROWS_WITH(call(all, all, in, out),
                    Contains(fmt::format("operand 0: this member sends {} rows "
                                         "in all (its send_counts row) but "
                                         "the input has {}",
                                         (rows + 1) * N, rows)));
  CHECK_THROWS_WITH(call(counts.send, counts.recv, in, narrow),
                    Contains(fmt::format("operand 0: the output has shape "
                                         "[{0}, 3], expected [{0}, 2]",
                                         rows)));
  CHECK_THROWS_WITH(call(counts.send, counts.recv, scalar, scalar),
                    Contains("operand 0: the input has rank 0"));
  // Then a good call works.
  in.fill([&](int64_t i) { return 1000 * worldRank() + i; });
  call(counts.send, counts.recv, in, out);
  CHECK(out.get(1) == expected(counts, worldRank(), 0, 1, 2));
}

TEST_CASE("all_to_all_v: checked mode names a table that differs",
          "[collectives]") {
  const int64_t N = worldSize(), f = worldRank();
  const CheckedScope checked;
  // Rank 0 passes other (consistent) tables than the others.
  const Counts counts(N, f == 0 ? 1 : 0);
  const int64_t rows = std::max(Counts(N, 0).maxRows(), Counts(N, 1).maxRows());
  Array in(Dtype::I32, {rows}), out(Dtype::I32, {rows});
  auto call = [&] {
    allToAllV(world(), everyone(), counts.send, counts.recv, {{in.operand()}},
              {{out.operand()}});
  };
  if (N == 1)
    CHECK_NOTHROW(call());
  else
    CHECK_THROWS_WITH(call(), Contains("all_to_all_v at ") &&
                                  Contains("send_counts [") &&
                                  Contains(f == 0 ? "on rank 1" : "on rank 0"));
}
