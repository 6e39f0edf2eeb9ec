//===- LargeCountTest.cpp - Messages past MPI's int count -------*- C++ -*-===//
//
// Every op past the largest count of one MPI call. runtime.largecount runs
// the [largecount] cases with DISTRT_TEST_MAX_COUNT=1000 (a test-only knob,
// LargeCount.h): messages of more than 1000 bytes travel as wide datatypes
// and reductions of more than 1000 elements are split, on buffers of a few
// KB, with sizes that do not divide the 1000-byte chunk. Without the knob
// the same cases pass by the ordinary paths. runtime.largecount.real sends
// 2^31 + 8 bytes at np 2 ([largecount-real], hidden from default runs).
// Input of process f at flat index i: value(f, i) (exact in every type
// used), or (f + 1) + i % 7 for the reductions.
//
//===----------------------------------------------------------------------===//

#include "ArrayUtil.h"

#include <catch2/catch.hpp>

#include <cstdlib>
#include <memory>
#include <optional>

using namespace distrt;
using namespace distrt::test;
using Catch::Contains;

namespace {

/// The knob the [largecount] cases are meant to run with.
constexpr int64_t kLimit = 1000;

int64_t value(int64_t f, int64_t i) { return (f * 37 + i) % 101; }

/// Input of process f at flat index i of a reduction, and the sum and the
/// maximum over `n` processes.
int64_t term(int64_t f, int64_t i) { return (f + 1) + i % 7; }
int64_t sumOver(int64_t n, int64_t i) { return n * (n + 1) / 2 + n * (i % 7); }
int64_t maxOver(int64_t n, int64_t i) { return n + i % 7; }

struct Spec {
  Dtype dtype;
  std::vector<int64_t> shape;
  bool stridedIn = false, stridedOut = false;
};

/// Inputs of `specs` holding value(f, i) and outputs of the same shapes,
/// filled with `outFill` if given (a value the op must replace).
struct SameShape {
  std::vector<Array> ins, outs;
};
SameShape sameShapeArrays(const std::vector<Spec> &specs, int64_t f,
                          std::optional<int64_t> outFill) {
  SameShape a;
  for (const Spec &s : specs) {
    a.ins.emplace_back(s.dtype, s.shape, s.stridedIn);
    a.ins.back().fill([&](int64_t i) { return value(f, i); });
    a.outs.emplace_back(s.dtype, s.shape, s.stridedOut);
    if (outFill)
      a.outs.back().fill([&](int64_t) { return *outFill; });
  }
  return a;
}

std::vector<Operand> operandsOf(std::vector<Array> &arrays) {
  std::vector<Operand> operands;
  for (Array &array : arrays)
    operands.push_back(array.operand());
  return operands;
}

/// Operand sets of the byte-counting ops: one operand past the limit
/// (dense, strided), several packed in one message past it (under 2 KiB
/// together), several each in a call of its own, and both sides of the
/// limit itself.
std::vector<std::vector<Spec>> byteSets() {
  return {{{Dtype::I8, {3001}}},
          {{Dtype::I16, {3, 401}, true, true}},
          {{Dtype::F32, {150}}, {Dtype::I16, {251}, true, false}},
          {{Dtype::F64, {401}, false, true}, {Dtype::I8, {1999}, true, false}},
          {{Dtype::I8, {kLimit}}},
          {{Dtype::I8, {kLimit + 1}}}};
}

} // namespace

TEST_CASE("large counts: the knob is set", "[largecount]") {
  if (!std::getenv("DISTRT_TEST_MAX_COUNT"))
    WARN("DISTRT_TEST_MAX_COUNT is not set: the [largecount] cases run by "
         "the ordinary paths");
  SUCCEED();
}

TEST_CASE("large counts: all_gather", "[largecount]") {
  const int64_t N = worldSize(), f = worldRank();
  for (const std::vector<Spec> &specs : byteSets())
    for (int async = 0; async < 2; ++async)
      for (int64_t dim = 0; dim < static_cast<int64_t>(specs[0].shape.size());
           ++dim) {
        std::vector<Array> ins, outs;
        for (const Spec &s : specs) {
          if (dim >= static_cast<int64_t>(s.shape.size()))
            continue;
          ins.emplace_back(s.dtype, s.shape, s.stridedIn);
          ins.back().fill([&](int64_t i) { return value(f, i); });
          outs.emplace_back(s.dtype, scaled(s.shape, dim, N), s.stridedOut);
        }
        const std::vector<Operand> inOps = operandsOf(ins),
                                   outOps = operandsOf(outs);
        if (async)
          allGatherAsync(world(), everyone(), dim, inOps, outOps).wait();
        else
          allGather(world(), everyone(), dim, inOps, outOps);
        for (size_t k = 0; k < ins.size(); ++k) {
          const Array &out = outs[k];
          int64_t wrong = 0, first = -1;
          for (int64_t o = 0; o < out.count(); ++o) {
            auto index = unflatten(out.sizes, o);
            const int64_t member = index[dim] / ins[k].sizes[dim];
            index[dim] %= ins[k].sizes[dim];
            if (out.get(o) != value(member, flatten(ins[k].sizes, index)) &&
                wrong++ == 0)
              first = o;
          }
          INFO("rank " << f << " async " << async << " dim " << dim
                       << " operand " << k << " of " << ins.size() << " ("
                       << dtypeName(out.dtype) << ", " << out.count()
                       << " elements), first wrong index " << first);
          CHECK(wrong == 0);
          CHECK(out.touchedPadding() == 0);
        }
      }
}

TEST_CASE("large counts: all_to_all", "[largecount]") {
  const int64_t N = worldSize(), f = worldRank();
  // Blocks per member: i32 [301] (1204 bytes); i16 [2, 3, 167] (2004 bytes)
  // along every split/concat pair; i8 [600] + i16 [250] packed (1100
  // bytes); i32 [301] + strided f64 [301] one call each.
  struct Case {
    std::vector<Spec> blocks;
    int64_t split, concat;
  };
  std::vector<Case> cases{
      {{{Dtype::I32, {301}}}, 0, 0},
      {{{Dtype::I8, {600}}, {Dtype::I16, {250}}}, 0, 0},
      {{{Dtype::I32, {301}}, {Dtype::F64, {301}, true, true}}, 0, 0}};
  for (int64_t split = 0; split < 3; ++split)
    for (int64_t concat = 0; concat < 3; ++concat)
      cases.push_back({{{Dtype::I16, {2, 3, 167}, split == 1, concat == 2}},
                       split,
                       concat});
  for (const Case &c : cases)
    for (int async = 0; async < 2; ++async) {
      std::vector<Array> ins, outs;
      for (const Spec &s : c.blocks) {
        ins.emplace_back(s.dtype, scaled(s.shape, c.split, N), s.stridedIn);
        ins.back().fill([&](int64_t i) { return value(f, i); });
        outs.emplace_back(s.dtype, scaled(s.shape, c.concat, N), s.stridedOut);
      }
      const std::vector<Operand> inOps = operandsOf(ins),
                                 outOps = operandsOf(outs);
      if (async)
        allToAllAsync(world(), everyone(), c.split, c.concat, N, inOps, outOps)
            .wait();
      else
        allToAll(world(), everyone(), c.split, c.concat, N, inOps, outOps);
      for (size_t k = 0; k < ins.size(); ++k) {
        const Array &out = outs[k];
        const std::vector<int64_t> &block = c.blocks[k].shape;
        int64_t wrong = 0, first = -1;
        for (int64_t o = 0; o < out.count(); ++o) {
          auto index = unflatten(out.sizes, o);
          const int64_t member = index[c.concat] / block[c.concat];
          index[c.concat] %= block[c.concat];
          index[c.split] += f * block[c.split];
          if (out.get(o) != value(member, flatten(ins[k].sizes, index)) &&
              wrong++ == 0)
            first = o;
        }
        INFO("rank " << f << " async " << async << " split " << c.split
                     << " concat " << c.concat << " operand " << k
                     << ", first wrong index " << first);
        CHECK(wrong == 0);
        CHECK(out.touchedPadding() == 0);
      }
    }
}

TEST_CASE("large counts: collective_broadcast", "[largecount]") {
  const int64_t N = worldSize(), f = worldRank();
  // Every process from rank 0; every process but 0 from the last (when
  // N > 1); ranks 1 and 0 from 1 (a group of two: one message).
  std::vector<int64_t> reversed;
  for (int64_t p = N - 1; p >= (N > 1 ? 1 : 0); --p)
    reversed.push_back(p);
  std::vector<GroupTable> tables{everyone(),
                                 GroupTable(DISTRT_FLATTENED_IDS, {reversed})};
  if (N >= 2)
    tables.emplace_back(DISTRT_FLATTENED_IDS,
                        std::vector<std::vector<int64_t>>{{1, 0}});
  for (size_t t = 0; t < tables.size(); ++t) {
    const GroupTable &groups = tables[t];
    const std::vector<int64_t> &members = groups.ids; // empty: everyone
    const int64_t root = members.empty() ? 0 : members[0];
    const bool member =
        members.empty() ||
        std::find(members.begin(), members.end(), f) != members.end();
    for (const std::vector<Spec> &specs : byteSets())
      for (int async = 0; async < 2; ++async) {
        auto [ins, outs] = sameShapeArrays(specs, f, 1);
        const std::vector<Operand> inOps = operandsOf(ins),
                                   outOps = operandsOf(outs);
        if (async)
          collectiveBroadcastAsync(world(), groups, inOps, outOps).wait();
        else
          collectiveBroadcast(world(), groups, inOps, outOps);
        for (size_t k = 0; k < ins.size(); ++k) {
          int64_t wrong = 0, first = -1;
          for (int64_t i = 0; i < outs[k].count(); ++i)
            if (outs[k].get(i) != (member ? value(root, i) : 0) && wrong++ == 0)
              first = i;
          INFO("rank " << f << " groups " << groups.str() << " async " << async
                       << " operand " << k << " of " << ins.size()
                       << ", first wrong index " << first);
          CHECK(wrong == 0);
          CHECK(outs[k].touchedPadding() == 0);
        }
      }
    // In place: the output aliases the input (4000 bytes).
    Array data(Dtype::I64, {500});
    data.fill([&](int64_t i) { return value(f, i); });
    collectiveBroadcast(world(), groups, {{data.operand()}},
                        {{data.operand()}});
    for (int64_t i = 0; i < 500; i += 37) {
      INFO("rank " << f << " groups " << groups.str() << " index " << i);
      CHECK(data.get(i) == (member ? value(root, i) : 0));
    }
  }
}

TEST_CASE("large counts: collective_permute", "[largecount]") {
  const int64_t N = worldSize(), f = worldRank();
  using Table = std::vector<std::vector<int64_t>>;
  Table ring;
  for (int64_t i = 0; i < N; ++i)
    ring.push_back({i, (i + 1) % N});
  std::vector<Table> tables{ring};
  if (N >= 3)
    tables.push_back({{2, 1}, {1, 0}}); // 2 gets zeros; a chain
  for (const Table &table : tables) {
    int64_t source = -1;
    for (const auto &pair : table)
      if (pair[1] == f)
        source = pair[0];
    const GroupTable pairs(DISTRT_CROSS_REPLICA, table);
    for (const std::vector<Spec> &specs : byteSets())
      for (int async = 0; async < 2; ++async) {
        auto [ins, outs] = sameShapeArrays(specs, f, 7);
        const std::vector<Operand> inOps = operandsOf(ins),
                                   outOps = operandsOf(outs);
        if (async)
          collectivePermuteAsync(world(), pairs, inOps, outOps).wait();
        else
          collectivePermute(world(), pairs, inOps, outOps);
        for (size_t k = 0; k < outs.size(); ++k) {
          int64_t wrong = 0, first = -1;
          for (int64_t i = 0; i < outs[k].count(); ++i)
            if (outs[k].get(i) != (source < 0 ? 0 : value(source, i)) &&
                wrong++ == 0)
              first = i;
          INFO("rank " << f << " " << pairs.str() << " async " << async
                       << " operand " << k << ", first wrong index " << first);
          CHECK(wrong == 0);
          CHECK(outs[k].touchedPadding() == 0);
        }
      }
  }
  // In place on a ring: the output aliases the input (4000 bytes).
  Array data(Dtype::I64, {500});
  data.fill([&](int64_t i) { return value(f, i); });
  collectivePermute(world(), GroupTable(DISTRT_CROSS_REPLICA, ring),
                    {{data.operand()}}, {{data.operand()}});
  for (int64_t i = 0; i < 500; i += 37)
    CHECK(data.get(i) == value((f + N - 1) % N, i));
}

TEST_CASE("large counts: send/recv", "[largecount]") {
  const int64_t N = worldSize(), f = worldRank();
  const int64_t source = (f + N - 1) % N;
  std::vector<std::vector<int64_t>> ring;
  for (int64_t i = 0; i < N; ++i)
    ring.push_back({i, (i + 1) % N});
  const GroupTable pairs(DISTRT_CROSS_REPLICA, ring);
  for (const std::vector<Spec> &specs : byteSets())
    for (int mode = 0; mode < 3; ++mode) {
      // 0: sync send, sync recv; 1: async recv posted first, async send;
      // 2: host transfer (never through MPI), sync.
      auto [ins, outs] = sameShapeArrays(specs, f, std::nullopt);
      const std::vector<Operand> inOps = operandsOf(ins),
                                 outOps = operandsOf(outs);
      int64_t from = source;
      if (mode == 0) {
        send(world(), pairs, 11, false, inOps);
        recv(world(), pairs, 11, false, outOps);
      } else if (mode == 1) {
        Request received = recvAsync(world(), pairs, 12, false, outOps);
        Request sent = sendAsync(world(), pairs, 12, false, inOps);
        received.wait();
        sent.wait();
      } else {
        send(world(), Groups::pairs({}), 13, true, inOps);
        recv(world(), Groups::pairs({}), 13, true, outOps);
        from = f;
      }
      for (size_t k = 0; k < outs.size(); ++k) {
        int64_t wrong = 0, first = -1;
        for (int64_t i = 0; i < outs[k].count(); ++i)
          if (outs[k].get(i) != value(from, i) && wrong++ == 0)
            first = i;
        INFO("rank " << f << " mode " << mode << " operand " << k << " of "
                     << outs.size() << " (" << dtypeName(outs[k].dtype)
                     << "), first wrong index " << first);
        CHECK(wrong == 0);
        CHECK(outs[k].touchedPadding() == 0);
      }
    }
}

TEST_CASE("large counts: a message of another size than the outputs is an "
          "error",
          "[largecount]") {
  // Every process receives [3008] i8 while its source sends [3000] (too
  // short) or [3016] (too long), sync and async: the receive-size checks
  // work on wide types too.
  const int64_t N = worldSize(), f = worldRank();
  const int64_t source = (f + N - 1) % N;
  std::vector<std::vector<int64_t>> ring;
  for (int64_t i = 0; i < N; ++i)
    ring.push_back({i, (i + 1) % N});
  const GroupTable pairs(DISTRT_CROSS_REPLICA, ring);
  Array out(Dtype::I8, {3008});
  for (int async = 0; async < 2; ++async)
    for (const int64_t sent : {3000, 3016}) {
      Array in(Dtype::I8, {sent});
      in.fill([&](int64_t i) { return value(f, i); });
      send(world(), pairs, 14, false, {{in.operand()}});
      auto receive = [&] {
        if (async)
          recvAsync(world(), pairs, 14, false, {{out.operand()}}).wait();
        else
          recv(world(), pairs, 14, false, {{out.operand()}});
      };
      INFO("rank " << f << " async " << async << " sent " << sent);
      if (sent < 3008)
        CHECK_THROWS_WITH(receive(),
                          Contains(fmt::format("received 3000 bytes from rank "
                                               "{} for the recv operands",
                                               source)) &&
                              Contains("(3008 bytes)"));
      else
        CHECK_THROWS_WITH(
            receive(),
            Contains(fmt::format("rank {} sent more than the", source)) &&
                Contains("expected for the recv operands"));
    }
  // The right size works after the errors.
  Array in(Dtype::I8, {3008});
  in.fill([&](int64_t i) { return value(f, i); });
  send(world(), pairs, 14, false, {{in.operand()}});
  recv(world(), pairs, 14, false, {{out.operand()}});
  CHECK(out.get(3007) == value(source, 3007));
}

TEST_CASE("large counts: all_reduce splits long operands", "[largecount]") {
  const int64_t N = worldSize(), f = worldRank();
  // f32 [2501] (3 calls), i8 [2501] promoted to i32 (converted into the
  // output once, before the first call), f64 strided [5, 301], the limit
  // itself and one past it.
  struct Case {
    Dtype in, out;
    std::vector<int64_t> shape;
    bool stridedIn, stridedOut;
  };
  const std::vector<Case> cases{
      {Dtype::F32, Dtype::F32, {2501}, false, false},
      {Dtype::I8, Dtype::I32, {2501}, false, false},
      {Dtype::F64, Dtype::F64, {5, 301}, true, false},
      {Dtype::I16, Dtype::I16, {5, 301}, false, true},
      {Dtype::I64, Dtype::I64, {kLimit}, false, false},
      {Dtype::UI8, Dtype::UI8, {kLimit + 1}, false, false}};
  for (const RedOp op : {RedOp::Sum, RedOp::Max})
    for (int async = 0; async < 2; ++async)
      for (int together = 0; together < 2; ++together)
        for (size_t alone = 0; alone < (together ? 1 : cases.size()); ++alone) {
          std::vector<Array> ins, outs;
          for (size_t k = 0; k < cases.size(); ++k) {
            if (!together && k != alone)
              continue;
            const Case &c = cases[k];
            ins.emplace_back(c.in, c.shape, c.stridedIn);
            ins.back().fill([&](int64_t i) { return term(f, i); });
            outs.emplace_back(c.out, c.shape, c.stridedOut);
          }
          const std::vector<Operand> inOps = operandsOf(ins),
                                     outOps = operandsOf(outs);
          if (async)
            allReduceAsync(world(), everyone(), op, inOps, outOps).wait();
          else
            allReduce(world(), everyone(), op, inOps, outOps);
          for (size_t k = 0; k < outs.size(); ++k) {
            int64_t wrong = 0, first = -1;
            for (int64_t i = 0; i < outs[k].count(); ++i)
              if (outs[k].get(i) !=
                      (op == RedOp::Sum ? sumOver(N, i) : maxOver(N, i)) &&
                  wrong++ == 0)
                first = i;
            INFO("rank " << f << (op == RedOp::Sum ? " sum" : " max")
                         << " async " << async << " operand " << k << " of "
                         << outs.size() << " (" << dtypeName(outs[k].dtype)
                         << "), first wrong index " << first);
            CHECK(wrong == 0);
            CHECK(outs[k].touchedPadding() == 0);
            CHECK(ins[k].get(2) == term(f, 2)); // the input is unchanged
          }
        }
  // In place: the output aliases the input, dense and strided; and the
  // RFC allreduce.
  for (const bool strided : {false, true}) {
    Array data(Dtype::I32, {2501}, strided);
    data.fill([&](int64_t i) { return term(f, i); });
    allReduce(world(), everyone(), RedOp::Sum, {{data.operand()}},
              {{data.operand()}});
    int64_t wrong = 0;
    for (int64_t i = 0; i < data.count(); ++i)
      wrong += data.get(i) != sumOver(N, i);
    INFO("rank " << f << " in place, strided " << strided);
    CHECK(wrong == 0);
  }
  Array data(Dtype::F64, {3001});
  data.fill([&](int64_t i) { return term(f, i); });
  allreduce(world(), RedOp::Sum, Dtype::F64, data.view());
  int64_t wrong = 0;
  for (int64_t i = 0; i < data.count(); ++i)
    wrong += data.get(i) != sumOver(N, i);
  CHECK(wrong == 0);
}

TEST_CASE("large counts: reduce_scatter of long operands", "[largecount]") {
  const int64_t N = worldSize(), f = worldRank();
  // Inputs past the limit (rooted reductions): i32 [1201 N] along dim 0
  // (sent as is), f32 [3, 401 N] along dim 1 (packed), i8 [1100 N]
  // promoted to i32, a strided output; and an input at most the limit next
  // to them in one call.
  struct Case {
    Dtype in, out;
    std::vector<int64_t> block;
    int64_t dim;
    bool stridedIn, stridedOut;
  };
  const std::vector<Case> cases{
      {Dtype::I32, Dtype::I32, {1201}, 0, false, false},
      {Dtype::F32, Dtype::F32, {3, 401}, 1, false, false},
      {Dtype::I8, Dtype::I32, {1100}, 0, false, false},
      {Dtype::F64, Dtype::F64, {1201}, 0, true, true},
      {Dtype::I16, Dtype::I16, {kLimit / N}, 0, false, false},
      {Dtype::I16, Dtype::I16, {kLimit / N + 1}, 0, false, false}};
  for (int async = 0; async < 2; ++async)
    for (int together = 0; together < 2; ++together)
      for (size_t alone = 0; alone < (together ? 1 : cases.size()); ++alone) {
        // Together: the cases along dim 0 in one call.
        std::vector<Array> ins, outs;
        std::vector<const Case *> used;
        int64_t dim = 0;
        for (size_t k = 0; k < cases.size(); ++k) {
          const Case &c = cases[k];
          if (together ? c.dim != 0 : k != alone)
            continue;
          dim = c.dim;
          used.push_back(&c);
          ins.emplace_back(c.in, scaled(c.block, c.dim, N), c.stridedIn);
          ins.back().fill([&](int64_t i) { return term(f, i); });
          outs.emplace_back(c.out, c.block, c.stridedOut);
        }
        const std::vector<Operand> inOps = operandsOf(ins),
                                   outOps = operandsOf(outs);
        if (async)
          reduceScatterAsync(world(), everyone(), RedOp::Sum, dim, inOps,
                             outOps)
              .wait();
        else
          reduceScatter(world(), everyone(), RedOp::Sum, dim, inOps, outOps);
        for (size_t k = 0; k < outs.size(); ++k) {
          const std::vector<int64_t> &block = used[k]->block;
          int64_t wrong = 0, first = -1;
          for (int64_t o = 0; o < outs[k].count(); ++o) {
            auto index = unflatten(block, o);
            index[dim] += f * block[dim];
            if (outs[k].get(o) != sumOver(N, flatten(ins[k].sizes, index)) &&
                wrong++ == 0)
              first = o;
          }
          INFO("rank " << f << " async " << async << " dim " << dim
                       << " operand " << k << " of " << outs.size() << " ("
                       << dtypeName(outs[k].dtype) << " " << outs[k].count()
                       << " elements), first wrong index " << first);
          CHECK(wrong == 0);
          CHECK(outs[k].touchedPadding() == 0);
        }
      }
}

TEST_CASE("large counts: send/recv of 2^31 + 8 bytes", "[.][largecount-real]") {
  // Rank 0 sends to rank 1 from its buffer (async: the sync send's buffered
  // copy of 2 GiB takes seconds more); rank 1 receives sync, then async.
  // Sampled positions are checked: both ends, 1 MiB chunk boundaries, the
  // 8 bytes past 2^31 (the type's tail), and untouched filler.
  if (worldSize() != 2) {
    SUCCEED("runs at np 2");
    return;
  }
  const int64_t f = worldRank();
  const int64_t bytes = (int64_t{1} << 31) + 8;
  const std::unique_ptr<int8_t[]> data(new int8_t[bytes]);
  const int64_t sizes[] = {bytes}, strides[] = {1};
  const Operand operand[] = {
      {MemrefView(data.get(), sizes, strides), Dtype::I8}};
  const GroupTable pairs(DISTRT_FLATTENED_IDS, {{0, 1}});
  std::vector<int64_t> samples{0,
                               1,
                               4095,
                               (int64_t{1} << 20) - 1,
                               int64_t{1} << 20,
                               bytes / 2 + 12345,
                               (int64_t{1} << 31) - 1};
  for (int64_t i = int64_t{1} << 31; i < bytes; ++i)
    samples.push_back(i);
  auto mark = [](int64_t i, int round) {
    return static_cast<int8_t>((i * 7 + 3 * round) % 101 + 1);
  };
  for (int round = 0; round < 2; ++round) {
    if (f == 0) {
      std::memset(data.get(), 0x11, static_cast<size_t>(bytes));
      for (const int64_t i : samples)
        data[i] = mark(i, round);
      sendAsync(world(), pairs, 1, false, operand).wait();
    } else {
      std::memset(data.get(), 0, static_cast<size_t>(bytes));
      if (round == 0)
        recv(world(), pairs, 1, false, operand);
      else
        recvAsync(world(), pairs, 1, false, operand).wait();
      int64_t wrong = 0;
      for (const int64_t i : samples)
        wrong += data[i] != mark(i, round);
      for (const int64_t i :
           {int64_t{2}, int64_t{1} << 30, (int64_t{1} << 31) - 2})
        wrong += data[i] != 0x11;
      INFO("round " << round);
      CHECK(wrong == 0);
    }
  }
}
