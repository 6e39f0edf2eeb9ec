//===- HalfTest.cpp - f16 and bf16 conversions ------------------*- C++ -*-===//
//
// Exact bit patterns for the special cases, round trips of every 16-bit
// pattern, and (where the compiler has _Float16) agreement with the
// compiler's own round-to-nearest-even conversion.
//
//===----------------------------------------------------------------------===//

#include "Half.h"

#include <catch2/catch.hpp>

#include <bit>
#include <cmath>
#include <cstring>

using namespace distrt::detail;

TEST_CASE("f16 conversion of special values", "[half]") {
  CHECK(floatToHalf(1.0f) == 0x3C00);
  CHECK(floatToHalf(-2.0f) == 0xC000);
  CHECK(floatToHalf(0.0f) == 0x0000);
  CHECK(floatToHalf(-0.0f) == 0x8000);
  CHECK(floatToHalf(65504.0f) == 0x7BFF);
  CHECK(floatToHalf(65519.0f) == 0x7BFF); // below the halfway point
  CHECK(floatToHalf(65520.0f) == 0x7C00); // halfway: to even = infinity
  CHECK(floatToHalf(INFINITY) == 0x7C00);
  CHECK(floatToHalf(-INFINITY) == 0xFC00);
  CHECK(floatToHalf(0x1p-14f) == 0x0400);     // smallest normal
  CHECK(floatToHalf(0x1p-24f) == 0x0001);     // smallest subnormal
  CHECK(floatToHalf(0x1p-25f) == 0x0000);     // halfway to 0: even
  CHECK(floatToHalf(0x1.8p-24f) == 0x0002);   // 1.5 units: even
  CHECK(floatToHalf(0x1.8p-25f) == 0x0001);   // above halfway
  CHECK(floatToHalf(0x1.ffcp-15f) == 0x0400); // rounds up into the normals
  CHECK((floatToHalf(NAN) & 0x7C00) == 0x7C00);
  CHECK((floatToHalf(NAN) & 0x03FF) != 0);
  CHECK(halfToFloat(0x0001) == 0x1p-24f);
  CHECK(halfToFloat(0x03FF) == 0x1.ff8p-15f);
  CHECK(std::isinf(halfToFloat(0x7C00)));
  CHECK(std::isnan(halfToFloat(0x7E00)));
  CHECK(std::signbit(halfToFloat(0x8000)));
}

TEST_CASE("bf16 conversion of special values", "[half]") {
  CHECK(floatToBfloat16(1.0f) == 0x3F80);
  CHECK(floatToBfloat16(1.0f + 0x1p-8f) == 0x3F80);           // halfway: even
  CHECK(floatToBfloat16(1.0f + 0x1p-8f + 0x1p-9f) == 0x3F81); // above
  CHECK(floatToBfloat16(1.0f + 0x3p-8f) == 0x3F82);           // halfway: even
  CHECK(floatToBfloat16(std::bit_cast<float>(0x7F7FFFFFu)) == 0x7F80);
  CHECK(floatToBfloat16(std::bit_cast<float>(0x00010000u)) == 0x0001);
  CHECK(std::isnan(bfloat16ToFloat(floatToBfloat16(NAN))));
  CHECK(floatToBfloat16(-INFINITY) == 0xFF80);
}

TEST_CASE("every f16 and bf16 value survives a round trip", "[half]") {
  int halfMismatches = 0, bfloatMismatches = 0;
  for (uint32_t bits = 0; bits <= 0xFFFF; ++bits) {
    const auto h = static_cast<uint16_t>(bits);
    const bool halfNan = (h & 0x7C00) == 0x7C00 && (h & 0x3FF);
    if (!halfNan && floatToHalf(halfToFloat(h)) != h)
      ++halfMismatches;
    const bool bfloatNan = (h & 0x7F80) == 0x7F80 && (h & 0x7F);
    if (!bfloatNan && floatToBfloat16(bfloat16ToFloat(h)) != h)
      ++bfloatMismatches;
  }
  CHECK(halfMismatches == 0);
  CHECK(bfloatMismatches == 0);
}

#ifdef __FLT16_MAX__
TEST_CASE("f16 rounding agrees with the compiler's _Float16", "[half]") {
  // Every float whose low 9 mantissa bits are a fixed pattern: covers all
  // exponents and every rounding case of the 13 dropped bits' top bits.
  int mismatches = 0;
  uint32_t firstBad = 0;
  for (uint64_t high = 0; high < (uint64_t{1} << 23); ++high)
    for (uint32_t low : {0x000u, 0x001u, 0x100u, 0x0FFu}) {
      const auto bits = static_cast<uint32_t>((high << 9) | low);
      const float f = std::bit_cast<float>(bits);
      if (std::isnan(f))
        continue;
      const _Float16 reference = static_cast<_Float16>(f);
      uint16_t want;
      std::memcpy(&want, &reference, 2);
      if (floatToHalf(f) != want && mismatches++ == 0)
        firstBad = bits;
    }
  INFO("first mismatch at float bits 0x" << std::hex << firstBad);
  CHECK(mismatches == 0);
}
#endif
