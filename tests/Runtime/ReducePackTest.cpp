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

#include <catch2/catch.hpp>

#include <cstring>

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

/// Stores `v` into a floating-point element of `dtype`.
static void storeFloat(Dtype dtype, std::byte *at, double v) {
  switch (dtype) {
  case Dtype::F64:
    std::memcpy(at, &v, 8);
    return;
  case Dtype::F32: {
    const auto f = static_cast<float>(v);
    std::memcpy(at, &f, 4);
    return;
  }
  case Dtype::BF16: {
    const uint16_t bits = detail::floatToBfloat16(static_cast<float>(v));
    std::memcpy(at, &bits, 2);
    return;
  }
  default: {
    const uint16_t bits = detail::floatToHalf(static_cast<float>(v));
    std::memcpy(at, &bits, 2);
    return;
  }
  }
}

namespace {

/// One operand of the test: its input, the packed call's output and the
/// reference output of a call of its own.
struct Case {
  Array in, out, reference;
  bool inPlace;
};

} // namespace

/// Operand k: sizes from 1 to a few hundred elements, one past the pack
/// limit (64 KiB), every third strided, every fifth in place; i8 inputs of
/// i32 outputs are promoted.
static std::vector<Case> makeCases(Dtype dtype, int64_t p) {
  std::vector<Case> cases;
  const int64_t sizes[] = {1, 7, 64, 3, 250, 1, 33, 17000, 5, 128, 2, 90};
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
  for (const GroupTable &groups : groupings)
    for (Dtype dtype : {Dtype::F32, Dtype::F64, Dtype::BF16, Dtype::I32,
                        Dtype::UI64, Dtype::I16})
      for (RedOp op : reductionsOf(dtype))
        for (bool async : {false, true}) {
          std::vector<Case> cases = makeCases(dtype, p);
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
            INFO("rank " << p << " " << groups.str() << " " << dtypeName(dtype)
                         << " reduction " << static_cast<int>(op)
                         << (async ? " async" : "") << " operand " << k);
            CHECK(differ == 0);
            CHECK(got.touchedPadding() == 0);
          }
        }
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
