//===- Half.h - f16 and bf16 conversions ------------------------*- C++ -*-===//
//
// IEEE binary16 and bfloat16 <-> float with round-to-nearest-even, correct for
// normals, subnormals, infinities and NaN (kept quiet, payload truncated).
//
//===----------------------------------------------------------------------===//

#ifndef DISTRUNTIME_RUNTIME_HALF_H
#define DISTRUNTIME_RUNTIME_HALF_H

#include <bit>
#include <cstdint>

namespace distrt::detail {

inline float halfToFloat(uint16_t h) {
  const uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
  const uint32_t exponent = (h >> 10) & 0x1Fu;
  const uint32_t mantissa = h & 0x3FFu;
  if (exponent == 0) {
    // Zero or subnormal: mantissa * 2^-24, exact in float.
    float magnitude = static_cast<float>(mantissa) * 0x1p-24f;
    return sign ? -magnitude : magnitude;
  }
  if (exponent == 0x1F)
    return std::bit_cast<float>(sign | 0x7F800000u | (mantissa << 13));
  return std::bit_cast<float>(sign | ((exponent + 112) << 23) |
                              (mantissa << 13));
}

inline uint16_t floatToHalf(float f) {
  const uint32_t bits = std::bit_cast<uint32_t>(f);
  const auto sign = static_cast<uint16_t>((bits >> 16) & 0x8000u);
  const uint32_t magnitude = bits & 0x7FFFFFFFu;
  if (magnitude >= 0x7F800000u) {
    if (magnitude == 0x7F800000u)
      return sign | 0x7C00u;
    return sign | 0x7E00u | ((magnitude >> 13) & 0x3FFu); // quiet NaN
  }
  // 65520 is halfway between the largest half (65504) and 2^16: it and
  // everything above round to infinity.
  if (magnitude >= 0x477FF000u)
    return sign | 0x7C00u;
  if (magnitude < 0x38800000u) {
    // Below 2^-14: a half subnormal (units of 2^-24) or zero.
    const uint32_t exponent = magnitude >> 23;
    const uint32_t shift = 126 - exponent; // >= 14
    if (shift > 24)
      return sign; // below 2^-25: rounds to zero
    const uint32_t mantissa = (magnitude & 0x7FFFFFu) | 0x800000u;
    uint32_t q = mantissa >> shift;
    const uint32_t rest = mantissa & ((1u << shift) - 1);
    const uint32_t halfway = 1u << (shift - 1);
    if (rest > halfway || (rest == halfway && (q & 1u)))
      ++q; // may carry into the smallest normal, which encodes correctly
    return static_cast<uint16_t>(sign | q);
  }
  // Normal: rebias the exponent (127 -> 15) and round away 13 bits; a carry
  // out of the mantissa correctly increments the exponent.
  const uint32_t rebiased = magnitude - 0x38000000u;
  uint32_t q = rebiased >> 13;
  const uint32_t rest = rebiased & 0x1FFFu;
  if (rest > 0x1000u || (rest == 0x1000u && (q & 1u)))
    ++q;
  return static_cast<uint16_t>(sign | q);
}

inline float bfloat16ToFloat(uint16_t b) {
  return std::bit_cast<float>(static_cast<uint32_t>(b) << 16);
}

inline uint16_t floatToBfloat16(float f) {
  const uint32_t bits = std::bit_cast<uint32_t>(f);
  if ((bits & 0x7FFFFFFFu) > 0x7F800000u)
    return static_cast<uint16_t>((bits >> 16) | 0x40u); // quiet NaN
  // Round to nearest even on the 16 dropped bits; overflow to infinity and
  // subnormals fall out of the integer addition.
  const uint32_t rounding = 0x7FFFu + ((bits >> 16) & 1u);
  return static_cast<uint16_t>((bits + rounding) >> 16);
}

} // namespace distrt::detail

#endif // DISTRUNTIME_RUNTIME_HALF_H
