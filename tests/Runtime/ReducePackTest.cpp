//===- ReducePackTest.cpp - all_reduce packs small operands -----*- C++ -*-===//
//
// all_reduce reduces small operands of one element type in one MPI call
// where that gives the bits of one call per operand (runtime/ReducePlan.h:
// integers always, floating-point reductions in groups of at most two).
// Many operands of mixed sizes, types and layouts (strided, in place,
// promoted) in one call must give, bit for bit, what one call per operand
// gives, in groups of the whole team and in pairs, sync and async; integer
// sums also match their closed form. Run with DISTRT_TEST_MAX_COUNT too
// ([largecount]), where packs are cut at 1000 elements.
//
//===----------------------------------------------------------------------===//

#include "ArrayUtil.h"
#include "Half.h"
#include "PackLimit.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstring>
#include <utility>

using namespace distrt;
using namespace distrt::test;

/// A reproducible value of rank `p`, operand `k`, index `i`, of widely
/// varying magnitude so that floating-point sums round; every 17th is a
/// zero of the rank's sign (min/max of -0 and +0).
static double noise(int64_t p, int64_t k, int64_t i) {
  if (i % 17 == 0)
    return p % 2 ? -0.0 : 0.0;
  uint64_t h =
      static_cast<uint64_t>(p * 1000003 + k * 7919 + i) * 0x9E3779B97F4A7C15ull;
  h ^= h >> 29;
  const double mantissa = static_cast<double>(h % 20001) / 10000.0 - 1.0;
  const int exponent = static_cast<int>((h >> 20) % 41) - 20;
  return std::ldexp(mantissa, exponent);
}

namespace {

/// One operand of the test: its input, the packed call's output and the
/// reference output of a call of its own.
struct Case {
  Array in, out, reference;
  bool inPlace;
};

} // namespace

/// Operand k: sizes from 1 to a few hundred elements (times `scale`), one
/// past the pack limit (64 KiB), every third strided, every fifth in place;
/// i8 inputs of i32 outputs are promoted. At scale 30 a pack is exchanged
/// in several messages in a group of two (kReduceChunkBytes).
static std::vector<Case> makeCases(Dtype dtype, int64_t p, int64_t scale) {
  std::vector<Case> cases;
  std::vector<int64_t> sizes = {1, 7, 64, 3, 250, 1, 33, 17000, 5, 128, 2, 90};
  for (int64_t &size : sizes)
    size = size == 17000 ? size : size * scale;
  for (int64_t k = 0; k < static_cast<int64_t>(std::size(sizes)); ++k) {
    const bool strided = k % 3 == 1, inPlace = k % 5 == 4;
    const Dtype inType =
        dtype == Dtype::I32 && k % 4 == 2 && !inPlace ? Dtype::I8 : dtype;
    Case c{Array(inType, {sizes[k]}, strided),
           Array(dtype, {sizes[k]}, k % 3 == 2), Array(dtype, {sizes[k]}),
           inPlace};
    for (int64_t i = 0; i < sizes[k]; ++i) {
      if (isFloat(inType))
        storeFloat(inType, c.in.element(i), noise(p, k, i));
      else
        c.in.set(i, inType == Dtype::I8 ? (p * 3 + k + i) % 50
                                        : (p + 1) * (k + 1) + i % 11);
    }
    cases.push_back(std::move(c));
  }
  return cases;
}

/// The reductions of `dtype`.
static std::vector<RedOp> reductionsOf(Dtype dtype) {
  if (isFloat(dtype))
    return {RedOp::Sum,     RedOp::Prod,    RedOp::Min,    RedOp::Max,
            RedOp::Minimum, RedOp::Maximum, RedOp::MinNum, RedOp::MaxNum};
  return {RedOp::Sum, RedOp::Prod, RedOp::Min,  RedOp::Max, RedOp::And,
          RedOp::Or,  RedOp::Xor,  RedOp::UMin, RedOp::UMax};
}

/// Pairs of consecutive ranks (the last alone when the team is odd: a
/// ragged group padded with -1).
static GroupTable pairs(int64_t size) {
  std::vector<std::vector<int64_t>> groups;
  for (int64_t r = 0; r < size; r += 2)
    groups.push_back({r, r + 1 < size ? r + 1 : -1});
  return GroupTable(DISTRT_FLATTENED_IDS, groups);
}

TEST_CASE("all_reduce of many operands gives the bits of one call each",
          "[allreduce][largecount]") {
  const int64_t ranks = worldSize(), p = worldRank();
  const GroupTable groupings[] = {everyone(), pairs(ranks)};
  for (int64_t scale : {1, 30})
    for (const GroupTable &groups : groupings)
      for (Dtype dtype : {Dtype::F32, Dtype::F64, Dtype::BF16, Dtype::I32,
                          Dtype::UI64, Dtype::I16})
        for (RedOp op : reductionsOf(dtype))
          for (bool async : {false, true}) {
            std::vector<Case> cases = makeCases(dtype, p, scale);
            std::vector<Operand> ins, outs;
            for (Case &c : cases) {
              c.reference.fill([](int64_t) { return 0; });
              // The same form (sync or async): Open MPI's MPI_Iallreduce and
              // MPI_Allreduce may return different zeros for MPI_MIN/MPI_MAX
              // of -0 and +0 (seen at np 2).
              const Operand in = c.in.operand(), ref = c.reference.operand();
              if (async)
                allReduceAsync(world(), groups, op, {{in}}, {{ref}}).wait();
              else
                allReduce(world(), groups, op, {{in}}, {{ref}});
              ins.push_back(c.in.operand());
              outs.push_back(c.inPlace ? c.in.operand() : c.out.operand());
            }
            if (async)
              allReduceAsync(world(), groups, op, ins, outs).wait();
            else
              allReduce(world(), groups, op, ins, outs);
            for (size_t k = 0; k < cases.size(); ++k) {
              const Case &c = cases[k];
              const Array &got = c.inPlace ? c.in : c.out;
              const size_t size = dtypeSize(dtype);
              int64_t differ = 0;
              for (int64_t i = 0; i < got.count(); ++i)
                differ += std::memcmp(got.element(i), c.reference.element(i),
                                      size) != 0;
              INFO("rank " << p << " " << groups.str() << " scale " << scale
                           << " " << dtypeName(dtype) << " reduction "
                           << static_cast<int>(op) << (async ? " async" : "")
                           << " operand " << k);
              CHECK(differ == 0);
              CHECK(got.touchedPadding() == 0);
            }
          }
}

TEST_CASE("a member proposes the bytes whose two copies cost one call",
          "[allreduce]") {
  // alpha / (2 x seconds per byte), within [64 B, 64 KiB].
  CHECK(detail::proposePackLimit(2e-6, 1e-10) == 10000);
  CHECK(detail::proposePackLimit(1e-6, 5e-11) == 10000);
  CHECK(detail::proposePackLimit(1.0, 1e-10) == 65536);
  CHECK(detail::proposePackLimit(1e-12, 1e-9) == 64);
  // A clock that did not move proposes the fixed limit.
  CHECK(detail::proposePackLimit(0.0, 1e-10) == 65536);
  CHECK(detail::proposePackLimit(1e-6, 0.0) == 65536);
}

TEST_CASE("packed integer sums match their closed form",
          "[allreduce][largecount]") {
  // Rank q contributes (q + 1) * (k + 1) + i % 11 to operand k of 40, each
  // of 1 to 40 elements: over P ranks the sum is P (P + 1) / 2 (k + 1) +
  // P (i % 11).
  const int64_t ranks = worldSize(), p = worldRank();
  for (bool async : {false, true}) {
    std::vector<Array> ins, outs;
    std::vector<Operand> inOps, outOps;
    for (int64_t k = 0; k < 40; ++k) {
      ins.emplace_back(Dtype::I64, std::vector<int64_t>{k + 1});
      outs.emplace_back(Dtype::I64, std::vector<int64_t>{k + 1}, k % 2 == 1);
      ins.back().fill([&](int64_t i) { return (p + 1) * (k + 1) + i % 11; });
    }
    for (size_t k = 0; k < ins.size(); ++k) {
      inOps.push_back(ins[k].operand());
      outOps.push_back(outs[k].operand());
    }
    if (async)
      allReduceAsync(world(), everyone(), RedOp::Sum, inOps, outOps).wait();
    else
      allReduce(world(), everyone(), RedOp::Sum, inOps, outOps);
    for (int64_t k = 0; k < 40; ++k)
      for (int64_t i = 0; i <= k; ++i) {
        INFO("rank " << p << " operand " << k << " index " << i
                     << (async ? " async" : ""));
        CHECK(outs[static_cast<size_t>(k)].get(i) ==
              static_cast<double>(ranks * (ranks + 1) / 2 * (k + 1) +
                                  ranks * (i % 11)));
      }
  }
}

TEST_CASE("packs of many messages and past the exchange limit match their "
          "closed form",
          "[allreduce]") {
  // 30 operands cycling through five output types (i32 fed by i8 inputs
  // at times), sized so that a type's pack is one message, several (a
  // group of two exchanges it in kReduceChunkBytes pieces, members
  // straddling them), or several packs (each at most kReducePackLimit
  // bytes), some operands past the 64 KiB packing limit. Rank q contributes
  // (q + 1) * (k % 4 + 1) + i % 7 to element i of operand k: over the
  // members m of its group, the sum is (k % 4 + 1) * sum(m + 1) +
  // |group| * (i % 7) and the max (k % 4 + 1) * (max m + 1) + i % 7, exact
  // in every type here.
  const int64_t ranks = worldSize(), p = worldRank();
  const Dtype types[] = {Dtype::F32, Dtype::F64, Dtype::I32, Dtype::I16,
                         Dtype::BF16};
  const int64_t base[] = {1, 1009, 37, 2500, 513, 4096, 3, 777, 1500, 64};
  const GroupTable groupings[] = {everyone(), pairs(ranks)};
  for (int64_t scale : {1, 8, 40})
    for (int g = 0; g < 2; ++g)
      for (RedOp op : {RedOp::Sum, RedOp::Max})
        for (bool async : {false, true}) {
          // This process's group: the team, or its pair.
          std::vector<int64_t> members;
          for (int64_t q = 0; q < ranks; ++q)
            if (g == 0 || q / 2 == p / 2)
              members.push_back(q);
          int64_t memberSum = 0, memberMax = 0;
          for (int64_t q : members) {
            memberSum += q + 1;
            memberMax = std::max(memberMax, q + 1);
          }
          const auto group = static_cast<int64_t>(members.size());
          std::vector<Array> ins, outs;
          std::vector<bool> inPlace;
          for (int64_t k = 0; k < 30; ++k) {
            const Dtype dtype = types[k % 5];
            const int64_t size = base[k % 10] * scale;
            const bool place = k % 7 == 3;
            const Dtype inType =
                dtype == Dtype::I32 && k % 3 == 0 && !place ? Dtype::I8 : dtype;
            ins.emplace_back(inType, std::vector<int64_t>{size}, k % 6 == 1);
            outs.emplace_back(dtype, std::vector<int64_t>{size}, k % 4 == 2);
            inPlace.push_back(place);
            ins.back().fill(
                [&](int64_t i) { return (p + 1) * (k % 4 + 1) + i % 7; });
          }
          std::vector<Operand> inOps, outOps;
          for (size_t k = 0; k < ins.size(); ++k) {
            inOps.push_back(ins[k].operand());
            outOps.push_back(inPlace[k] ? ins[k].operand() : outs[k].operand());
          }
          if (async)
            allReduceAsync(world(), groupings[g], op, inOps, outOps).wait();
          else
            allReduce(world(), groupings[g], op, inOps, outOps);
          for (int64_t k = 0; k < 30; ++k) {
            const auto kk = static_cast<size_t>(k);
            const Array &got = inPlace[kk] ? ins[kk] : outs[kk];
            int64_t wrong = 0, firstWrong = -1;
            for (int64_t i = 0; i < got.count(); ++i) {
              const int64_t expected =
                  op == RedOp::Sum ? (k % 4 + 1) * memberSum + group * (i % 7)
                                   : (k % 4 + 1) * memberMax + i % 7;
              if (got.get(i) != static_cast<double>(expected)) {
                ++wrong;
                if (firstWrong < 0)
                  firstWrong = i;
              }
            }
            INFO("rank " << p << " " << groupings[g].str() << " scale " << scale
                         << " reduction " << static_cast<int>(op)
                         << (async ? " async" : "") << " operand " << k << " ("
                         << dtypeName(types[k % 5]) << ", " << got.count()
                         << " elements) first wrong index " << firstWrong);
            CHECK(wrong == 0);
            CHECK(got.touchedPadding() == 0);
          }
        }
}

/// Over the members of this process's group, the team (`whole`) or its
/// pair {2 (p / 2), 2 (p / 2) + 1}: the sum of their ranks + 1, and their
/// number.
static std::pair<int64_t, int64_t> groupSums(bool whole, int64_t ranks,
                                             int64_t p) {
  int64_t sum = 0, members = 0;
  for (int64_t q = 0; q < ranks; ++q)
    if (whole || q / 2 == p / 2) {
      sum += q + 1;
      ++members;
    }
  return {sum, members};
}

TEST_CASE("async packs in flight in any number and waited in any order "
          "match their closed form",
          "[allreduce]") {
  // Calls 0-6 on one group, each of three packed operands (f32 and i32, a
  // strided output among them): all async but call 3, sync, between them,
  // so more rounds are in flight than a pair has segments (SharedPair.h),
  // then waited last to first or first to last; the same site starts calls
  // 4-6 (one memoized plan for rounds still in flight). Rank q contributes
  // (q + 1) * (c + 1) + i % 5 to element i of call c, summing over the
  // group's members m to (c + 1) * sum(m + 1) + |group| * (i % 5), exact
  // in f32.
  constexpr int kCalls = 7, kOperands = 3;
  const int64_t sizes[kOperands] = {5, 300, 64};
  const Dtype types[kOperands] = {Dtype::F32, Dtype::F32, Dtype::I32};
  const int64_t ranks = worldSize(), p = worldRank();
  const GroupTable groupings[] = {everyone(), pairs(ranks)};
  for (int g = 0; g < 2; ++g)
    for (bool lastFirst : {true, false}) {
      const auto [memberSum, group] = groupSums(g == 0, ranks, p);
      std::vector<Array> ins, outs;
      ins.reserve(kCalls * kOperands);
      outs.reserve(kCalls * kOperands);
      std::vector<Request> requests;
      Site site;
      for (int64_t c = 0; c < kCalls; ++c) {
        std::vector<Operand> inOps, outOps;
        for (int k = 0; k < kOperands; ++k) {
          ins.emplace_back(types[k], std::vector<int64_t>{sizes[k]});
          outs.emplace_back(types[k], std::vector<int64_t>{sizes[k]}, k == 1);
          ins.back().fill([&](int64_t i) { return (p + 1) * (c + 1) + i % 5; });
          inOps.push_back(ins.back().operand());
          outOps.push_back(outs.back().operand());
        }
        if (c == 3)
          allReduce(world(), groupings[g], RedOp::Sum, inOps, outOps);
        else
          requests.push_back(allReduceAsync(world(), groupings[g], RedOp::Sum,
                                            inOps, outOps,
                                            c >= 4 ? &site : nullptr));
      }
      if (lastFirst)
        std::reverse(requests.begin(), requests.end());
      for (Request &request : requests)
        request.wait();
      for (int64_t c = 0; c < kCalls; ++c)
        for (int k = 0; k < kOperands; ++k) {
          const Array &got = outs[static_cast<size_t>(c * kOperands + k)];
          int64_t wrong = 0;
          for (int64_t i = 0; i < got.count(); ++i)
            wrong += got.get(i) !=
                     static_cast<double>((c + 1) * memberSum + group * (i % 5));
          INFO("rank " << p << " " << groupings[g].str() << " call " << c
                       << " operand " << k
                       << (lastFirst ? " waited last to first" : ""));
          CHECK(wrong == 0);
          CHECK(got.touchedPadding() == 0);
        }
    }
}

TEST_CASE("members whose outputs differ in layout meet in one exchange",
          "[allreduce]") {
  // A pair (or the team) where even ranks give a large unpacked operand a
  // strided output and odd ranks a dense one: the odd ranks' call is all
  // blocking calls and packs, the even ranks' is not, and both must still
  // exchange their packs alike (it used to hang in a group of two). Rank q
  // contributes (q + 1) * (k + 1) + i % 5 to element i of operand k.
  const int64_t ranks = worldSize(), p = worldRank();
  const GroupTable groupings[] = {everyone(), pairs(ranks)};
  const int64_t sizes[] = {20000, 3, 40, 7};
  for (int g = 0; g < 2; ++g)
    for (bool async : {false, true}) {
      const auto [memberSum, group] = groupSums(g == 0, ranks, p);
      std::vector<Array> ins, outs;
      std::vector<Operand> inOps, outOps;
      for (int64_t k = 0; k < 4; ++k) {
        ins.emplace_back(Dtype::I32, std::vector<int64_t>{sizes[k]});
        outs.emplace_back(Dtype::I32, std::vector<int64_t>{sizes[k]},
                          k == 0 && p % 2 == 0);
        ins.back().fill([&](int64_t i) { return (p + 1) * (k + 1) + i % 5; });
      }
      for (size_t k = 0; k < ins.size(); ++k) {
        inOps.push_back(ins[k].operand());
        outOps.push_back(outs[k].operand());
      }
      if (async)
        allReduceAsync(world(), groupings[g], RedOp::Sum, inOps, outOps).wait();
      else
        allReduce(world(), groupings[g], RedOp::Sum, inOps, outOps);
      for (int64_t k = 0; k < 4; ++k) {
        const Array &got = outs[static_cast<size_t>(k)];
        int64_t wrong = 0;
        for (int64_t i = 0; i < got.count(); ++i)
          wrong += got.get(i) !=
                   static_cast<double>((k + 1) * memberSum + group * (i % 5));
        INFO("rank " << p << " " << groupings[g].str() << " operand " << k
                     << (async ? " async" : ""));
        CHECK(wrong == 0);
      }
    }
}

TEST_CASE("members that disagree on an async pack's size get an error at "
          "its wait",
          "[allreduce]") {
  // In pairs, the first member packs 3 + 2 i32 and the second 3 + 3: each
  // member's wait says which rank packed how many bytes. A second async
  // call started before that wait (so the first pack is read at its start,
  // not at the wait) raises at the first call's wait all the same, and the
  // pair goes on.
  const int64_t P = worldSize(), p = worldRank();
  if (P % 2 != 0)
    return;
  const GroupTable groups = pairs(P);
  const bool first = p % 2 == 0;
  Array a(Dtype::I32, {3}), b(Dtype::I32, {first ? 2 : 3});
  a.fill([](int64_t) { return 1; });
  b.fill([](int64_t) { return 1; });
  const std::vector<Operand> ops{a.operand(), b.operand()};
  Array c(Dtype::I32, {4}), d(Dtype::I32, {5});
  c.fill([](int64_t) { return 1; });
  d.fill([](int64_t) { return 1; });
  const std::vector<Operand> agreed{c.operand(), d.operand()};
  Array e(Dtype::I32, {4}), f(Dtype::I32, {5});
  e.fill([](int64_t) { return 1; });
  f.fill([](int64_t) { return 1; });
  const std::vector<Operand> others{e.operand(), f.operand()};
  for (int round = 0; round < 2; ++round)
    for (bool later : {false, true}) {
      Request bad = allReduceAsync(world(), groups, RedOp::Sum, ops, ops);
      Request next, after;
      if (later) {
        next = allReduceAsync(world(), groups, RedOp::Sum, agreed, agreed);
        after = allReduceAsync(world(), groups, RedOp::Sum, others, others);
      }
      INFO("rank " << p << (later ? " with calls after it" : ""));
      CHECK_THROWS_WITH(bad.wait(),
                        Catch::Contains("packed") &&
                            Catch::Contains(first ? "packed 24 bytes of "
                                                    "operands where this "
                                                    "process packed 20"
                                                  : "packed 20 bytes of "
                                                    "operands where this "
                                                    "process packed 24"));
      if (later) {
        next.wait();
        after.wait();
      }
    }
  // The calls after the failed ones summed (each in place: doubled twice),
  // and the pair goes on.
  CHECK(e.get(3) == 4);
  CHECK(f.get(4) == 4);
  allReduce(world(), groups, RedOp::Sum, agreed, agreed);
  CHECK(c.get(0) == 8);
  CHECK(d.get(4) == 8);
}

TEST_CASE("a site's exchange stays exact across new buffers and new shapes",
          "[allreduce]") {
  // A group of two exchanges a pack over persistent requests that its plan
  // keeps while a new plan (new buffers, or the same shapes again) makes
  // the same. One site, six calls: shapes A, A on other buffers, B, A, B
  // in place, A. Operand k has f64 elements if k % 3 == 2, else f32 (two
  // packs, so two sets of requests), 1,000 of them in A (messages of 4,032
  // bytes end inside operands), fewer and more in B. Rank q contributes
  // (q + 1) * (k + 1) + i % 7 + c (call c): over the members m of its
  // group the sum is (k + 1) * sum(m + 1) + |group| * (i % 7 + c), exact
  // in f32.
  const int64_t ranks = worldSize(), p = worldRank();
  const GroupTable groups = pairs(ranks);
  const int64_t partner = p % 2 == 0 ? p + 1 : p - 1;
  const int64_t group = partner < ranks ? 2 : 1;
  const int64_t memberSum = (p + 1) + (partner < ranks ? partner + 1 : 0);
  const std::vector<int64_t> shapeA(12, 1000),
      shapeB = {5, 1000, 3000, 17, 4032, 8, 1008, 2, 700};
  Site site;
  struct Shape {
    const std::vector<int64_t> *counts;
    bool inPlace;
  };
  const Shape calls[] = {{&shapeA, false}, {&shapeA, false}, {&shapeB, false},
                         {&shapeA, false}, {&shapeB, true},  {&shapeA, false}};
  for (int64_t c = 0; c < static_cast<int64_t>(std::size(calls)); ++c) {
    const std::vector<int64_t> &counts = *calls[c].counts;
    std::vector<Array> ins, outs;
    std::vector<Operand> inOps, outOps;
    for (size_t k = 0; k < counts.size(); ++k) {
      const auto kk = static_cast<int64_t>(k);
      const Dtype dtype = k % 3 == 2 ? Dtype::F64 : Dtype::F32;
      ins.emplace_back(dtype, std::vector<int64_t>{counts[k]});
      outs.emplace_back(dtype, std::vector<int64_t>{counts[k]});
      ins.back().fill(
          [&](int64_t i) { return (p + 1) * (kk + 1) + i % 7 + c; });
    }
    for (size_t k = 0; k < counts.size(); ++k) {
      inOps.push_back(ins[k].operand());
      outOps.push_back(calls[c].inPlace ? ins[k].operand() : outs[k].operand());
    }
    allReduce(world(), groups, RedOp::Sum, inOps, outOps, &site);
    for (size_t k = 0; k < counts.size(); ++k) {
      const Array &got = calls[c].inPlace ? ins[k] : outs[k];
      const auto kk = static_cast<int64_t>(k);
      int64_t wrong = 0, firstWrong = -1;
      for (int64_t i = 0; i < got.count(); ++i)
        if (got.get(i) !=
            static_cast<double>((kk + 1) * memberSum + group * (i % 7 + c))) {
          ++wrong;
          firstWrong = firstWrong < 0 ? i : firstWrong;
        }
      INFO("rank " << p << " call " << c << " operand " << k << " ("
                   << counts[k] << " elements) first wrong index "
                   << firstWrong);
      CHECK(wrong == 0);
    }
  }
}

TEST_CASE("a registered team's pairs exchange packs until unregistered",
          "[allreduce]") {
  // A team registered three times over: its groups of two exchange their
  // packs (through memory they share when on one node) and release what
  // they made with the team. Two packs (f32 and i32, 3,000 elements each,
  // one in place), several calls each time; rank q contributes (q + 1) *
  // (k + 1) + i % 5 + t + c (registration t, call c), so its pair's sum is
  // (k + 1) * sum(m + 1) + |group| * (i % 5 + t + c).
  const int64_t ranks = worldSize(), p = worldRank();
  const int64_t partner = p % 2 == 0 ? p + 1 : p - 1;
  const int64_t group = partner < ranks ? 2 : 1;
  const int64_t memberSum = (p + 1) + (partner < ranks ? partner + 1 : 0);
  const GroupTable groups = pairs(ranks);
  for (int64_t t = 0; t < 3; ++t) {
    Team team = Team::registerComm(11, MPI_COMM_WORLD);
    for (int64_t c = 0; c < 3; ++c) {
      const Dtype types[] = {Dtype::F32, Dtype::I32, Dtype::F32, Dtype::I32};
      std::vector<Array> ins, outs;
      std::vector<Operand> inOps, outOps;
      for (int64_t k = 0; k < 4; ++k) {
        ins.emplace_back(types[k], std::vector<int64_t>{3000});
        outs.emplace_back(types[k], std::vector<int64_t>{3000});
        ins.back().fill(
            [&](int64_t i) { return (p + 1) * (k + 1) + i % 5 + t + c; });
      }
      for (size_t k = 0; k < ins.size(); ++k) {
        inOps.push_back(ins[k].operand());
        outOps.push_back(k == 1 ? ins[k].operand() : outs[k].operand());
      }
      allReduce(team, groups, RedOp::Sum, inOps, outOps);
      for (int64_t k = 0; k < 4; ++k) {
        const Array &got = k == 1 ? ins[1] : outs[static_cast<size_t>(k)];
        int64_t wrong = 0;
        for (int64_t i = 0; i < got.count(); ++i)
          wrong += got.get(i) != static_cast<double>((k + 1) * memberSum +
                                                     group * (i % 5 + t + c));
        INFO("rank " << p << " registration " << t << " call " << c
                     << " operand " << k);
        CHECK(wrong == 0);
      }
    }
  }
}

TEST_CASE("a packed operand whose output overlaps its input reads the input "
          "first",
          "[allreduce]") {
  // Operand 1's output is its input shifted by 500 elements in one buffer
  // (an operand's own input and output may share memory), packed with two
  // others. Rank q contributes (q + 1) * (k + 1) + i % 9 to element i of
  // operand k: the group's sum is (k + 1) * sum(m + 1) + |group| * (i % 9).
  const int64_t ranks = worldSize(), p = worldRank();
  const GroupTable groupings[] = {everyone(), pairs(ranks)};
  for (int g = 0; g < 2; ++g) {
    int64_t memberSum = 0, group = 0;
    for (int64_t q = 0; q < ranks; ++q)
      if (g == 0 || q / 2 == p / 2) {
        memberSum += q + 1;
        ++group;
      }
    const int64_t n = 1500, shift = 500, sizes[] = {n}, strides[] = {1};
    std::vector<int32_t> shared(static_cast<size_t>(n + shift));
    std::vector<Array> ins, outs;
    for (int64_t k : {0, 2}) {
      ins.emplace_back(Dtype::I32, std::vector<int64_t>{1000});
      outs.emplace_back(Dtype::I32, std::vector<int64_t>{1000});
      ins.back().fill([&](int64_t i) { return (p + 1) * (k + 1) + i % 9; });
    }
    for (int64_t i = 0; i < n; ++i)
      shared[static_cast<size_t>(i)] =
          static_cast<int32_t>(2 * (p + 1) + i % 9);
    const Operand in{MemrefView(shared.data(), sizes, strides), Dtype::I32};
    const Operand out{MemrefView(shared.data() + shift, sizes, strides),
                      Dtype::I32};
    const std::vector<Operand> inOps = {ins[0].operand(), in, ins[1].operand()},
                               outOps = {outs[0].operand(), out,
                                         outs[1].operand()};
    allReduce(world(), groupings[g], RedOp::Sum, inOps, outOps);
    int64_t wrong = 0;
    for (int64_t i = 0; i < n; ++i)
      wrong += shared[static_cast<size_t>(shift + i)] !=
               2 * memberSum + group * (i % 9);
    for (size_t j = 0; j < 2; ++j)
      for (int64_t i = 0; i < 1000; ++i)
        wrong +=
            outs[j].get(i) !=
            static_cast<double>(static_cast<int64_t>(2 * j + 1) * memberSum +
                                group * (i % 9));
    INFO("rank " << p << " " << groupings[g].str());
    CHECK(wrong == 0);
  }
}
