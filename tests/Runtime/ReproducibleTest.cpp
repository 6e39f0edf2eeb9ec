//===- ReproducibleTest.cpp - ordered and exact reductions ------*- C++ -*-===//
//
// The reproducibility levels (runtime/Reproducible.h) checked against
// references written here, independently of the runtime:
//  - ordered: each element is the fold of the members' values over the
//    tree of their positions (extra pairs first, then balanced halves),
//    written here as its recursive definition;
//  - exact: each sum is the correctly rounded sum of the members' values,
//    computed here by Shewchuk's exact partials (the algorithm of Python's
//    math.fsum), not by the runtime's TwoSum cascade or fixed-point digits.
// Element i's member values depend on i % 61 only, so that every size and
// every position in the buffer must give the same bits for them; sizes run
// from 1 element past the gathered and the tree limits (64 KiB), sync and
// async, in place and strided, alone and packed with other operands, in the
// whole team and a group in reversed order. Over five members, mpi mode gives
// other bits somewhere, else the test would prove nothing.
//
//===----------------------------------------------------------------------===//

#include "ArrayUtil.h"
#include "ExactSum.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdlib>
#include <functional>

using namespace distrt;
using namespace distrt::test;

namespace {

/// The correctly rounded double sum of `xs` (finite): Shewchuk's partials
/// and the half-way correction of Python's math.fsum.
double fsum(std::vector<double> xs) {
  std::vector<double> partials;
  for (double x : xs) {
    size_t kept = 0;
    for (double y : partials) {
      if (std::fabs(x) < std::fabs(y))
        std::swap(x, y);
      const double hi = x + y, lo = y - (hi - x);
      if (lo != 0.0)
        partials[kept++] = lo;
      x = hi;
    }
    partials.resize(kept);
    partials.push_back(x);
  }
  if (partials.empty())
    return 0.0;
  size_t n = partials.size();
  double hi = partials[--n], lo = 0.0;
  while (n > 0) {
    const double x = hi, y = partials[--n];
    hi = x + y;
    lo = y - (hi - x);
    if (lo != 0.0)
      break;
  }
  if (n > 0 && ((lo < 0.0 && partials[n - 1] < 0.0) ||
                (lo > 0.0 && partials[n - 1] > 0.0))) {
    const double y = lo * 2.0, x = hi + y;
    if (y == x - hi)
      hi = x;
  }
  return hi;
}

/// `v` rounded to nearest (ties to even) with `bits` significand bits, the
/// least step 2^minExp (finite, in range).
double roundBits(double v, int bits, int minExp) {
  if (v == 0)
    return v;
  const double step =
      std::ldexp(1.0, std::max(std::ilogb(v) - bits + 1, minExp));
  return std::nearbyint(v / step) * step;
}

/// `v` rounded once to `dtype`.
double roundTo(Dtype dtype, double v) {
  switch (dtype) {
  case Dtype::F64:
    return v;
  case Dtype::F32:
    return static_cast<float>(v);
  case Dtype::BF16:
    return roundBits(v, 8, -133);
  default:
    return roundBits(v, 11, -24);
  }
}

/// Member p's value of element class j (of 61): k * 2^e, k of the type's
/// precision, e in a range where every exact sum of four is a float (f16,
/// bf16) or a double (f32), so that rounding it once is the reference.
double valueOf(Dtype dtype, int64_t p, int64_t j) {
  uint64_t h = static_cast<uint64_t>(p * 1000003 + j * 7919 + 17) *
               0x9E3779B97F4A7C15ull;
  h ^= h >> 31;
  struct Range {
    int bits, low, high;
  };
  const Range r = dtype == Dtype::F64    ? Range{53, -60, 60}
                  : dtype == Dtype::F32  ? Range{24, -24, 0}
                  : dtype == Dtype::BF16 ? Range{8, -8, 2}
                                         : Range{11, -14, -6};
  const auto k = static_cast<double>(h % (uint64_t{1} << r.bits));
  const int e = r.low + static_cast<int>((h >> 53) % (r.high - r.low + 1));
  const double v = std::ldexp(k, e);
  return (h >> 40) & 1 ? -v : v;
}

/// a op b in `dtype`'s arithmetic (a narrow float's in float, rounded).
double apply(Dtype dtype, double a, double b, bool product) {
  if (dtype == Dtype::F64)
    return product ? a * b : a + b;
  const auto fa = static_cast<float>(a), fb = static_cast<float>(b);
  return roundTo(dtype, product ? fa * fb : fa + fb);
}

/// The balanced fold of w[lo, lo + n), n a power of two: each half's, the
/// lower first.
double foldHalves(Dtype dtype, const std::vector<double> &w, size_t lo,
                  size_t n, bool product) {
  if (n == 1)
    return w[lo];
  return apply(dtype, foldHalves(dtype, w, lo, n / 2, product),
               foldHalves(dtype, w, lo + n / 2, n / 2, product), product);
}

/// The ordered fold of `values` (docs/guide.md): with P' the largest power
/// of two not above their number and e = the rest, values 2i and 2i + 1
/// (i < e) are combined first, then the P' results and remaining values
/// are folded in balanced halves.
double foldOrdered(Dtype dtype, const std::vector<double> &values,
                   bool product) {
  size_t power = 1;
  while (power * 2 <= values.size())
    power *= 2;
  const size_t extra = values.size() - power;
  std::vector<double> w;
  for (size_t i = 0; i < power; ++i)
    w.push_back(i < extra
                    ? apply(dtype, values[2 * i], values[2 * i + 1], product)
                    : values[i + extra]);
  return foldHalves(dtype, w, 0, power, product);
}

/// What element class j reduces to over `members` (team ranks in group
/// order).
double expected(Dtype dtype, Reproducibility level, RedOp op,
                const std::vector<int64_t> &members, int64_t j) {
  std::vector<double> values;
  for (int64_t rank : members)
    values.push_back(valueOf(dtype, rank, j));
  if (level == Reproducibility::Exact && op == RedOp::Sum)
    return roundTo(dtype, fsum(values));
  return foldOrdered(dtype, values, op == RedOp::Prod);
}

/// Elements of `got` that differ from their reference, bit for bit.
int64_t mismatches(const Array &got, Dtype dtype,
                   const std::vector<double> &ref, int64_t firstClass = 0) {
  std::vector<std::byte> want(dtypeSize(dtype));
  int64_t differ = 0;
  for (int64_t i = 0; i < got.count(); ++i) {
    storeFloat(dtype, want.data(),
               ref[static_cast<size_t>((firstClass + i) % 61)]);
    differ += std::memcmp(got.element(i), want.data(), want.size()) != 0;
  }
  return differ;
}

std::vector<int64_t> reversedTeam() {
  std::vector<int64_t> members;
  for (int64_t r = worldSize(); r-- > 0;)
    members.push_back(r);
  return members;
}

/// The team ranks in order.
std::vector<int64_t> team() {
  const std::vector<int64_t> reversed = reversedTeam();
  return {reversed.rbegin(), reversed.rend()};
}

/// What each of the 61 element classes reduces to over `members`.
std::vector<double> references(Dtype dtype, Reproducibility level, RedOp op,
                               const std::vector<int64_t> &members) {
  std::vector<double> ref(61);
  for (int64_t j = 0; j < 61; ++j)
    ref[j] = expected(dtype, level, op, members, j);
  return ref;
}

} // namespace

TEST_CASE("ordered and exact all_reduce give the reference bits at any size",
          "[repro]") {
  const int64_t p = worldRank();
  const std::vector<int64_t> reversed = reversedTeam();
  std::vector<int64_t> inOrder(reversed.rbegin(), reversed.rend());
  const GroupTable reversedGroup(DISTRT_FLATTENED_IDS, {reversed});
  struct Grouping {
    const GroupTable &table;
    const std::vector<int64_t> &members;
  };
  const Grouping groupings[] = {{everyone(), inOrder},
                                {reversedGroup, reversed}};
  for (const Grouping &g : groupings)
    for (Dtype dtype : {Dtype::F64, Dtype::F32, Dtype::BF16, Dtype::F16})
      for (Reproducibility level :
           {Reproducibility::Ordered, Reproducibility::Exact})
        for (RedOp op : {RedOp::Sum, RedOp::Prod}) {
          if (op == RedOp::Prod && dtype != Dtype::F64)
            continue; // products of these ranges leave the type
          const std::vector<double> ref =
              references(dtype, level, op, g.members);
          for (int64_t size : {1, 5, 61, 64, 65, 1000, 9000, 40000})
            for (bool async : {false, true})
              for (bool inPlace : {false, true}) {
                Array in(dtype, {size}), out(dtype, {size}, size % 2 == 1);
                for (int64_t i = 0; i < size; ++i)
                  storeFloat(dtype, in.element(i), valueOf(dtype, p, i % 61));
                Array &result = inPlace ? in : out;
                const Operand ins[] = {in.operand()};
                const Operand outs[] = {result.operand()};
                if (async)
                  allReduceAsync(world(), g.table, op | level, ins, outs)
                      .wait();
                else
                  allReduce(world(), g.table, op | level, ins, outs);
                INFO("rank " << p << " " << g.table.str() << " "
                             << dtypeName(dtype) << " level "
                             << static_cast<int>(level) << " op "
                             << static_cast<int>(op) << " size " << size
                             << (async ? " async" : "")
                             << (inPlace ? " in place" : ""));
                CHECK(mismatches(result, dtype, ref) == 0);
                CHECK(result.touchedPadding() == 0);
              }
        }
}

TEST_CASE("packed ordered and exact operands give their own bits", "[repro]") {
  // Operand k of 12 starts at element class k: packing places its elements
  // elsewhere in the message than a call of its own would.
  const int64_t p = worldRank();
  const std::vector<int64_t> members = team();
  for (Reproducibility level :
       {Reproducibility::Ordered, Reproducibility::Exact})
    for (bool async : {false, true}) {
      const std::vector<double> ref =
          references(Dtype::F32, level, RedOp::Sum, members);
      std::vector<Array> ins, outs;
      std::vector<Operand> inOps, outOps;
      for (int64_t k = 0; k < 12; ++k) {
        const int64_t size = 1 + k * k * 40;
        ins.emplace_back(Dtype::F32, std::vector<int64_t>{size});
        outs.emplace_back(Dtype::F32, std::vector<int64_t>{size}, k % 3 == 1);
        for (int64_t i = 0; i < size; ++i)
          storeFloat(Dtype::F32, ins.back().element(i),
                     valueOf(Dtype::F32, p, (k + i) % 61));
      }
      for (size_t k = 0; k < ins.size(); ++k) {
        inOps.push_back(ins[k].operand());
        outOps.push_back(outs[k].operand());
      }
      if (async)
        allReduceAsync(world(), everyone(), RedOp::Sum | level, inOps, outOps)
            .wait();
      else
        allReduce(world(), everyone(), RedOp::Sum | level, inOps, outOps);
      for (int64_t k = 0; k < 12; ++k) {
        INFO("rank " << p << " level " << static_cast<int>(level) << " operand "
                     << k << (async ? " async" : ""));
        CHECK(mismatches(outs[k], Dtype::F32, ref, k) == 0);
      }
    }
}

TEST_CASE("ordered and exact reduce_scatter give the reference bits",
          "[repro]") {
  const int64_t ranks = worldSize(), p = worldRank();
  const std::vector<int64_t> members = team();
  for (Dtype dtype : {Dtype::F64, Dtype::F32})
    for (Reproducibility level :
         {Reproducibility::Ordered, Reproducibility::Exact})
      for (int64_t block : {1, 61, 3000})
        for (bool async : {false, true}) {
          const std::vector<double> ref =
              references(dtype, level, RedOp::Sum, members);
          // Block q's element i is of class (q + i) % 61.
          Array in(dtype, {ranks * block}), out(dtype, {block}, true);
          for (int64_t q = 0; q < ranks; ++q)
            for (int64_t i = 0; i < block; ++i)
              storeFloat(dtype, in.element(q * block + i),
                         valueOf(dtype, p, (q + i) % 61));
          const Operand ins[] = {in.operand()};
          const Operand outs[] = {out.operand()};
          if (async)
            reduceScatterAsync(world(), everyone(), RedOp::Sum | level, 0, ins,
                               outs)
                .wait();
          else
            reduceScatter(world(), everyone(), RedOp::Sum | level, 0, ins,
                          outs);
          INFO("rank " << p << " " << dtypeName(dtype) << " level "
                       << static_cast<int>(level) << " block " << block
                       << (async ? " async" : ""));
          CHECK(mismatches(out, dtype, ref, p) == 0);
          CHECK(out.touchedPadding() == 0);
        }
}

TEST_CASE("the RFC allreduce takes the level too", "[repro]") {
  const int64_t p = worldRank();
  const std::vector<int64_t> members = team();
  const std::vector<double> ref =
      references(Dtype::F64, Reproducibility::Exact, RedOp::Sum, members);
  for (int64_t size : {3, 9000}) {
    Array data(Dtype::F64, {size});
    for (int64_t i = 0; i < size; ++i)
      storeFloat(Dtype::F64, data.element(i), valueOf(Dtype::F64, p, i % 61));
    allreduce(world(), RedOp::Sum | Reproducibility::Exact, Dtype::F64,
              data.view());
    INFO("rank " << p << " size " << size);
    CHECK(mismatches(data, Dtype::F64, ref) == 0);
  }
}

TEST_CASE("the default level is DISTRT_REPRODUCIBLE's", "[repro]") {
  // Run with DISTRT_REPRODUCIBLE=exact too (tests/Runtime/CMakeLists.txt).
  const char *env = std::getenv("DISTRT_REPRODUCIBLE");
  if (!env || std::string_view(env) != "exact" || worldSize() < 3)
    return;
  const int64_t p = worldRank();
  const std::vector<int64_t> members = team();
  Array data(Dtype::F64, {61});
  for (int64_t i = 0; i < 61; ++i)
    storeFloat(Dtype::F64, data.element(i), valueOf(Dtype::F64, p, i));
  const std::vector<double> ref =
      references(Dtype::F64, Reproducibility::Exact, RedOp::Sum, members);
  const Operand ops[] = {data.operand()};
  allReduce(world(), everyone(), RedOp::Sum, ops, ops);
  CHECK(mismatches(data, Dtype::F64, ref) == 0);
}

TEST_CASE("mpi mode gives other bits than ordered somewhere", "[repro-mpi]") {
  // MPI picks its order by message size, algorithm and group size: some
  // element, at some size, differs from the ordered fold. Over two members
  // each element is one addition either way, and the algorithms MPIs
  // usually pick (recursive doubling, Rabenseifner's halving) fold in the
  // ordered tree's order; a ring does not, its order following an
  // element's place in the buffer. tests/Runtime/CMakeLists.txt runs this
  // at np 4 with Open MPI's ring all-reduce forced, as its tuning picks it
  // for large messages on larger machines.
  REQUIRE(worldSize() >= 3);
  const int64_t p = worldRank();
  const std::vector<int64_t> members = team();
  const std::vector<double> ref =
      references(Dtype::F64, Reproducibility::Ordered, RedOp::Sum, members);
  int64_t differ = 0;
  for (int64_t size : {61, 100000, 1 << 20}) {
    Array data(Dtype::F64, {size});
    for (int64_t i = 0; i < size; ++i)
      storeFloat(Dtype::F64, data.element(i), valueOf(Dtype::F64, p, i % 61));
    const Operand ops[] = {data.operand()};
    allReduce(world(), everyone(), RedOp::Sum | Reproducibility::Mpi, ops, ops);
    differ += mismatches(data, Dtype::F64, ref);
  }
  INFO("rank " << p);
  CHECK(differ > 0);
}

TEST_CASE("exact sums are correctly rounded", "[repro]") {
  using detail::exactSum;
  using detail::kF32Format;
  using detail::kF64Format;
  // Ties to even, cancellation, subnormals, and values far apart.
  const double tiny = std::ldexp(1.0, -1074);
  const std::vector<std::vector<double>> cases = {
      {1.0, std::ldexp(1.0, -53)},
      {1.0, std::ldexp(1.0, -53), std::ldexp(1.0, -106)},
      {std::ldexp(1.0, 60), 1.5, -std::ldexp(1.0, 60)},
      {tiny, tiny, -tiny * 3, tiny * 7},
      {1.0, -1.0, std::ldexp(1.0, -1000), std::ldexp(1.0, 1000),
       -std::ldexp(1.0, 1000)},
      {0.1, 0.2, 0.3, -0.6},
  };
  for (const std::vector<double> &values : cases) {
    INFO("case of " << values.size() << " starting " << values[0]);
    CHECK(exactSum(values.data(), static_cast<int>(values.size()),
                   kF64Format) == fsum(values));
  }
  // Random values, 2 to 9 at a time, within 2^20 or 2^70 of each other
  // around an exponent anywhere from the subnormals up; some cancel half
  // of another.
  uint64_t state = 12345;
  auto next = [&] {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return state >> 11;
  };
  // Within 2^20 the sum of the values' rounding errors is exact (the
  // TwoSum path); within 2^70 often not (the fixed-point window).
  for (int trial = 0; trial < 40000; ++trial) {
    std::vector<double> values(2 + next() % 8);
    const int base = static_cast<int>(next() % 1900);
    const int spread = trial % 2 ? 20 : 70;
    for (size_t i = 0; i < values.size(); ++i) {
      const int field = std::clamp(
          base + static_cast<int>(next() % (2 * spread)) - spread, 0, 2046);
      const uint64_t bits = (next() & 1) << 63 |
                            static_cast<uint64_t>(field) << 52 |
                            (next() & ((uint64_t{1} << 52) - 1));
      values[i] = std::bit_cast<double>(bits);
      if (i > 0 && next() % 4 == 0)
        values[i] = -values[i - 1] * 0.5;
    }
    const double want = fsum(values);
    const double got =
        exactSum(values.data(), static_cast<int>(values.size()), kF64Format);
    INFO("trial " << trial);
    CHECK(std::bit_cast<uint64_t>(got) == std::bit_cast<uint64_t>(want));
  }
  // Past the largest double on the way, 1e308 in the end (where partials
  // overflow).
  const std::vector<double> big = {1e308, 1e308, -1e308};
  CHECK(exactSum(big.data(), 3, kF64Format) == 1e308);
  // f32: 1 + 2^-24 is a tie (to even, 1); with 2^-60 more it rounds up.
  const std::vector<double> tie = {1.0, std::ldexp(1.0, -24)};
  CHECK(exactSum(tie.data(), 2, kF32Format) == 1.0);
  const std::vector<double> above = {1.0, std::ldexp(1.0, -24),
                                     std::ldexp(1.0, -60)};
  CHECK(exactSum(above.data(), 3, kF32Format) ==
        static_cast<double>(std::nextafter(1.0f, 2.0f)));
  // Specials and zeros.
  const double inf = std::numeric_limits<double>::infinity();
  const std::vector<double> negZeros = {-0.0, -0.0};
  CHECK(std::signbit(exactSum(negZeros.data(), 2, kF64Format)));
  const std::vector<double> mixedZeros = {-0.0, 0.0};
  CHECK(!std::signbit(exactSum(mixedZeros.data(), 2, kF64Format)));
  const std::vector<double> infs = {inf, 1.0};
  CHECK(exactSum(infs.data(), 2, kF64Format) == inf);
  const std::vector<double> bothInfs = {inf, -inf};
  CHECK(std::isnan(exactSum(bothInfs.data(), 2, kF64Format)));
  const std::vector<double> overflow = {std::ldexp(1.0, 127),
                                        std::ldexp(1.0, 127)};
  CHECK(exactSum(overflow.data(), 2, kF32Format) == inf);
}

namespace {

/// Team rank p's block of `total` elements: [first, first + count), the
/// first total % P ranks one more, ranks past `total` empty.
std::pair<int64_t, int64_t> blockOf(int64_t total, int64_t p, int64_t ranks) {
  const int64_t base = total / ranks, extra = total % ranks;
  return {p * base + std::min(p, extra), base + (p < extra)};
}

} // namespace

TEST_CASE("an exact global_reduce sum is the same at any number of members",
          "[repro]") {
  // One array of `total` values split over the team: the correctly rounded
  // sum of them all, at every np, whatever the split (empty ranks too).
  const int64_t ranks = worldSize(), p = worldRank();
  for (Dtype dtype : {Dtype::F64, Dtype::F32, Dtype::BF16})
    for (int64_t total : {int64_t{2}, int64_t{61}, int64_t{5000}})
      for (bool async : {false, true}) {
        std::vector<double> all;
        for (int64_t i = 0; i < total; ++i)
          all.push_back(
              roundTo(dtype, valueOf(dtype == Dtype::F64 ? dtype : Dtype::F16,
                                     i % 7, i)));
        const auto [first, count] = blockOf(total, p, ranks);
        Array in(dtype, {count}, true), out(dtype, {1});
        for (int64_t i = 0; i < count; ++i)
          storeFloat(dtype, in.element(i), all[first + i]);
        const RedOp op = RedOp::Sum | Reproducibility::Exact;
        if (async)
          globalReduceAsync(world(), op, in.operand(), out.operand()).wait();
        else
          globalReduce(world(), op, in.operand(), out.operand());
        const std::vector<double> want = {roundTo(dtype, fsum(all))};
        INFO("rank " << p << " " << dtypeName(dtype) << " total " << total
                     << (async ? " async" : ""));
        CHECK(mismatches(out, dtype, want) == 0);
      }
}

TEST_CASE("global_reduce folds locally, then as all_reduce does", "[repro]") {
  const int64_t ranks = worldSize(), p = worldRank();
  // Integers: closed forms. Rank q holds q + 1 elements 1..q+1.
  Array ints(Dtype::I64, {p + 1}), sum(Dtype::I64, {1}), max(Dtype::I64, {1});
  ints.fill([](int64_t i) { return i + 1; });
  globalReduce(world(), RedOp::Sum, ints.operand(), sum.operand());
  globalReduce(world(), RedOp::Max, ints.operand(), max.operand());
  int64_t want = 0;
  for (int64_t q = 0; q < ranks; ++q)
    want += (q + 1) * (q + 2) / 2;
  CHECK(sum.get(0) == static_cast<double>(want));
  CHECK(max.get(0) == static_cast<double>(ranks));
  // Ordered f64: each member's left fold, then the tree over members.
  std::vector<double> partials;
  for (int64_t q : team()) {
    double acc = 0.0;
    for (int64_t i = 0; i < 40; ++i)
      acc += valueOf(Dtype::F64, q, i);
    partials.push_back(acc);
  }
  Array in(Dtype::F64, {40}), out(Dtype::F64, {1});
  for (int64_t i = 0; i < 40; ++i)
    storeFloat(Dtype::F64, in.element(i), valueOf(Dtype::F64, p, i));
  globalReduce(world(), RedOp::Sum | Reproducibility::Ordered, in.operand(),
               out.operand());
  const std::vector<double> ordered = {
      foldOrdered(Dtype::F64, partials, false)};
  CHECK(mismatches(out, Dtype::F64, ordered) == 0);
  // An empty member contributes the identity: the max of one member's -5.
  Array one(Dtype::F32, {p == 0 ? 1 : 0}), least(Dtype::F32, {1});
  if (p == 0)
    storeFloat(Dtype::F32, one.element(0), -5.0);
  globalReduce(world(), RedOp::Max | Reproducibility::Ordered, one.operand(),
               least.operand());
  CHECK(least.get(0) == -5.0);
}
