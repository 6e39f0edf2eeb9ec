//===- ReductionKindsTest.cpp - umin/umax, IEEE minimum/maximum -*- C++ -*-===//
//
// The reductions MPI has no built-in op for: unsigned comparisons of
// signless integers, and IEEE 754-2019 minimum/maximum (NaN propagates,
// -0 < +0) and minimumNumber/maximumNumber (NaN is ignored) of floats.
// Expected values are closed forms over the ranks' contributions.
//
//===----------------------------------------------------------------------===//

#include "Half.h"
#include "TestUtil.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <type_traits>
#include <vector>

using namespace distrt;
using namespace distrt::test;

namespace {

/// Rank p contributes {p - 1, p + 1, p even ? -5 : 3}.
template <class T> void checkUnsigned() {
  const int64_t P = worldSize(), p = worldRank();
  using U = std::make_unsigned_t<T>;
  const T all = static_cast<T>(-1); // the largest unsigned value
  for (RedOp op : {RedOp::UMin, RedOp::UMax}) {
    std::vector<T> data = {static_cast<T>(p - 1), static_cast<T>(p + 1),
                           static_cast<T>(p % 2 == 0 ? -5 : 3)};
    allreduce(Team(), op, std::span<T>(data));
    const std::vector<T> want =
        op == RedOp::UMin
            ? std::vector<T>{P > 1 ? T(0) : all, T(1), T(P > 1 ? 3 : -5)}
            : std::vector<T>{all, static_cast<T>(P), T(-5)};
    INFO("rank " << p << ", " << sizeof(T) << "-byte signless, "
                 << (op == RedOp::UMin ? "umin" : "umax"));
    for (size_t i = 0; i < want.size(); ++i)
      CHECK(static_cast<U>(data[i]) == static_cast<U>(want[i]));
  }
}

/// Rank p contributes {rank 0 ? NaN : p + 1, p even ? +0 : -0, p - 1.5}.
std::vector<float> contribution() {
  const int p = worldRank();
  return {p == 0 ? std::numeric_limits<float>::quiet_NaN()
                 : static_cast<float>(p + 1),
          p % 2 == 0 ? 0.0f : -0.0f, static_cast<float>(p) - 1.5f};
}

/// The reduction of contribution() over every rank, in closed form.
std::vector<float> expected(RedOp op) {
  const int P = worldSize();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float zero =
      P > 1 && (op == RedOp::Minimum || op == RedOp::MinNum) ? -0.0f : 0.0f;
  switch (op) {
  case RedOp::Minimum:
    return {nan, zero, -1.5f};
  case RedOp::Maximum:
    return {nan, zero, static_cast<float>(P) - 2.5f};
  case RedOp::MinNum:
    return {P > 1 ? 2.0f : nan, zero, -1.5f};
  default:
    return {P > 1 ? static_cast<float>(P) : nan, zero,
            static_cast<float>(P) - 2.5f};
  }
}

/// Same value, NaN and the sign of zero included.
bool same(float got, float want) {
  if (std::isnan(want))
    return std::isnan(got);
  return got == want && std::signbit(got) == std::signbit(want);
}

template <class T, class From, class To>
void checkFloat(Dtype dtype, From fromFloat, To toFloat) {
  for (RedOp op :
       {RedOp::Minimum, RedOp::Maximum, RedOp::MinNum, RedOp::MaxNum}) {
    std::vector<T> data;
    for (float v : contribution())
      data.push_back(fromFloat(v));
    const int64_t size = static_cast<int64_t>(data.size()), stride = 1;
    allreduce(Team(), op, dtype,
              MemrefView(data.data(), {&size, 1}, {&stride, 1}));
    const std::vector<float> want = expected(op);
    for (size_t i = 0; i < want.size(); ++i) {
      INFO("rank " << worldRank() << ", dtype " << static_cast<int>(dtype)
                   << ", redop " << static_cast<int>(op) << ", element " << i
                   << ": " << toFloat(data[i]) << " vs " << want[i]);
      CHECK(same(toFloat(data[i]), want[i]));
    }
  }
}

} // namespace

TEST_CASE("umin and umax compare signless integers as unsigned",
          "[allreduce]") {
  checkUnsigned<int8_t>();
  checkUnsigned<int16_t>();
  checkUnsigned<int32_t>();
  checkUnsigned<int64_t>();
  // ui* already compare as unsigned; 2^63 + p is the largest at rank P - 1.
  const int64_t P = worldSize(), p = worldRank();
  const uint64_t top = uint64_t{1} << 63;
  std::vector<uint64_t> big = {top + static_cast<uint64_t>(p)}, small = big;
  allreduce(Team(), RedOp::UMax, std::span<uint64_t>(big));
  allreduce(Team(), RedOp::UMin, std::span<uint64_t>(small));
  CHECK(big[0] == top + static_cast<uint64_t>(P - 1));
  CHECK(small[0] == top);
  // i1: umin is `and`, umax is `or`; rank p contributes p % 2 == 0.
  for (RedOp op : {RedOp::UMin, RedOp::UMax}) {
    std::vector<uint8_t> flag = {static_cast<uint8_t>(p % 2 == 0)};
    const int64_t size = 1, stride = 1;
    allreduce(Team(), op, Dtype::I1,
              MemrefView(flag.data(), {&size, 1}, {&stride, 1}));
    INFO("rank " << p << (op == RedOp::UMin ? " umin" : " umax") << " on i1");
    CHECK(flag[0] == (op == RedOp::UMax || P == 1 ? 1 : 0));
  }
}

TEST_CASE("minimum, maximum, minnum and maxnum follow IEEE 754-2019",
          "[allreduce]") {
  auto id = [](float v) { return v; };
  checkFloat<float>(Dtype::F32, id, id);
  checkFloat<double>(
      Dtype::F64, [](float v) { return static_cast<double>(v); },
      [](double v) { return static_cast<float>(v); });
  checkFloat<uint16_t>(Dtype::F16, detail::floatToHalf, detail::halfToFloat);
  checkFloat<uint16_t>(Dtype::BF16, detail::floatToBfloat16,
                       detail::bfloat16ToFloat);
}

TEST_CASE("reductions a type does not have are errors", "[allreduce]") {
  std::vector<float> f = {1.0f};
  std::vector<int32_t> i = {1};
  CHECK_THROWS_WITH(allreduce(Team(), RedOp::UMin, std::span<float>(f)),
                    Catch::Contains("reduction 'umin' is not defined on "
                                    "floating-point type f32"));
  CHECK_THROWS_WITH(allreduce(Team(), RedOp::Minimum, std::span<int32_t>(i)),
                    Catch::Contains("reduction 'minimum' needs a "
                                    "floating-point type, got i32"));
  CHECK_THROWS_WITH(allreduce(Team(), RedOp::Xor, std::span<float>(f)),
                    Catch::Contains("reduction 'xor' is not defined on "
                                    "floating-point type f32"));
}
