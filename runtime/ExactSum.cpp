//===- ExactSum.cpp - Correctly rounded sums --------------------*- C++ -*-===//

#include "ExactSum.h"

#include <algorithm>
#include <bit>
#include <climits>
#include <cmath>
#include <limits>

namespace distrt::detail {

using U128 = unsigned __int128;

constexpr int kNaNs = WideSum::kDigits, kPosInfs = kNaNs + 1,
              kNegInfs = kNaNs + 2, kValues = kNaNs + 3, kNegZeros = kNaNs + 4;
constexpr uint64_t kFraction = (uint64_t{1} << 52) - 1;
constexpr uint64_t kInfinityBits = uint64_t{0x7ff} << 52;

static int bitLength(U128 x) {
  const auto hi = static_cast<uint64_t>(x >> 64);
  return hi ? 128 - std::countl_zero(hi)
            : 64 - std::countl_zero(static_cast<uint64_t>(x));
}

namespace {
/// A finite non-zero double's integer significand and exponent: the value
/// is significand * 2^exponent.
struct Decomposed {
  uint64_t significand;
  int exponent;
  bool negative;
};
} // namespace

static Decomposed decompose(uint64_t bits) {
  const auto field = static_cast<int>((bits >> 52) & 0x7ff);
  const uint64_t fraction = bits & kFraction;
  return {field ? fraction | (kFraction + 1) : fraction,
          field ? field - 1075 : -1074, (bits >> 63) != 0};
}

/// (mag + sticky) * 2^scale, rounded to nearest (ties to even) in `format`;
/// `sticky` stands for bits below mag's that are not all zero.
static double roundScaled(U128 mag, int scale, bool sticky, bool negative,
                          FloatFormat format) {
  const int bits = bitLength(mag);
  const int lsb = std::max(scale + bits - format.precision, format.minExp);
  const int drop = lsb - scale;
  U128 q = 0;
  if (drop <= 0) {
    q = mag << -drop;
  } else if (drop <= 128) {
    q = drop == 128 ? 0 : mag >> drop;
    const U128 rest = drop == 128 ? mag : mag & ((U128{1} << drop) - 1);
    const U128 half = U128{1} << (drop - 1);
    if (rest > half || (rest == half && (sticky || (q & 1))))
      ++q;
  } // else below half the least step: zero
  const uint64_t sign = uint64_t{negative} << 63;
  if (q == 0)
    return std::bit_cast<double>(sign);
  const int top = lsb + bitLength(q) - 1; // the exponent of q's top bit
  if (top >= format.maxExp)
    return std::bit_cast<double>(sign | kInfinityBits);
  // q * 2^lsb as a double's bits (every format's values are doubles): an
  // f64 subnormal as is, else q's top bit moved to bit 52, the implicit one.
  if (top < -1022)
    return std::bit_cast<double>(sign | static_cast<uint64_t>(q));
  const int span = top - lsb; // q may be 2^precision after rounding up
  const auto significand = span <= 52 ? static_cast<uint64_t>(q) << (52 - span)
                                      : static_cast<uint64_t>(q >> (span - 52));
  return std::bit_cast<double>(sign | static_cast<uint64_t>(top + 1023) << 52 |
                               (significand & kFraction));
}

static double signedZero(int64_t values, int64_t negativeZeros) {
  return values > 0 && negativeZeros == values ? -0.0 : 0.0;
}

void WideSum::add(double x) {
  const auto bits = std::bit_cast<uint64_t>(x);
  ++words_[kValues];
  if (((bits >> 52) & 0x7ff) == 0x7ff) {
    ++words_[(bits & kFraction) ? kNaNs : (bits >> 63) ? kNegInfs : kPosInfs];
    return;
  }
  if ((bits << 1) == 0) {
    words_[kNegZeros] += static_cast<int64_t>(bits >> 63);
    return;
  }
  addFinite(bits);
}

void WideSum::addFinite(uint64_t bits) {
  const Decomposed d = decompose(bits);
  const int position = d.exponent + 1074;
  const int digit = position >> 5;
  const U128 v = static_cast<U128>(d.significand) << (position & 31);
  const int64_t parts[] = {static_cast<int64_t>(v & 0xffffffffu),
                           static_cast<int64_t>((v >> 32) & 0xffffffffu),
                           static_cast<int64_t>(v >> 64)};
  for (int i = 0; i < 3; ++i)
    words_[digit + i] += d.negative ? -parts[i] : parts[i];
  // Each digit grows by less than 2^32 per value: normalize well before
  // 2^63.
  if (++pending_ == (uint32_t{1} << 30))
    normalize();
}

void WideSum::normalize() {
  for (int i = 0; i + 1 < kDigits; ++i) {
    const int64_t carry = words_[i] >> 32;
    words_[i] -= carry * (int64_t{1} << 32);
    words_[i + 1] += carry;
  }
  pending_ = 0;
}

double WideSum::round(FloatFormat format) {
  if (words_[kNaNs] || (words_[kPosInfs] && words_[kNegInfs]))
    return std::numeric_limits<double>::quiet_NaN();
  if (words_[kPosInfs] || words_[kNegInfs])
    return words_[kPosInfs] ? std::numeric_limits<double>::infinity()
                            : -std::numeric_limits<double>::infinity();
  normalize();
  const bool negative = words_[kDigits - 1] < 0;
  if (negative) {
    for (int i = 0; i < kDigits; ++i)
      words_[i] = -words_[i];
    normalize();
  }
  int top = kDigits - 1;
  while (top >= 0 && words_[top] == 0)
    --top;
  if (top < 0)
    return signedZero(words_[kValues], words_[kNegZeros]);
  auto digit = [&](int i) {
    return i >= 0 ? static_cast<U128>(words_[i]) : U128{0};
  };
  const U128 mag = digit(top) << 64 | digit(top - 1) << 32 | digit(top - 2);
  const bool sticky =
      top > 2 && std::any_of(words_.begin(), words_.begin() + (top - 2),
                             [](int64_t w) { return w != 0; });
  return roundScaled(mag, 32 * (top - 2) - 1074, sticky, negative, format);
}

/// The common case, in a few additions: the values summed left to right,
/// each addition's error kept exactly (TwoSum), and the errors summed. If
/// that sum is exact too, the values' sum is exactly s + E: one rounded
/// addition of the two doubles is the correctly rounded sum (for f64; a
/// narrower format needs E == 0, s rounded once). False where that does
/// not hold (errors spanning more than 53 bits, an overflow, a special
/// value): the window decides then.
static bool sumByErrors(const double *values, int n, FloatFormat format,
                        double &out) {
  double sum = values[0];
  double errors = -0.0; // -0: s + E keeps s's sign when nothing is lost
  for (int i = 1; i < n; ++i) {
    double error, lost;
    twoSumOf(sum, values[i], sum, error);
    if (error == 0) // a +0 error would turn a -0 sum into +0
      continue;
    twoSumOf(errors, error, errors, lost);
    if (lost != 0)
      return false;
  }
  if (!std::isfinite(sum) || !std::isfinite(errors))
    return false;
  if (format.precision == kF64Format.precision) {
    out = sum + errors;
    return true;
  }
  if (errors != 0)
    return false;
  const auto bits = std::bit_cast<uint64_t>(sum);
  if ((bits << 1) == 0) {
    out = sum;
    return true;
  }
  const Decomposed d = decompose(bits);
  out = roundScaled(d.significand, d.exponent, false, d.negative, format);
  return true;
}

double exactSum(const double *values, int n, FloatFormat format) {
  double fast;
  if (n > 0 && n <= 64 && sumByErrors(values, n, format, fast))
    return fast;
  // Within 60 bits under the largest exponent, each value's significand
  // fits 113 bits and 2^14 of them fit 127.
  constexpr int kWindow = 60, kMostValues = 1 << 14;
  int largest = INT_MIN;
  int64_t negativeZeros = 0;
  bool special = n > kMostValues;
  for (int i = 0; i < n && !special; ++i) {
    const auto bits = std::bit_cast<uint64_t>(values[i]);
    const auto field = static_cast<int>((bits >> 52) & 0x7ff);
    special = field == 0x7ff;
    if ((bits << 1) == 0)
      negativeZeros += static_cast<int64_t>(bits >> 63);
    else
      largest = std::max(largest, field ? field - 1075 : -1074);
  }
  bool exact = !special;
  __int128 sum = 0;
  const int base = largest - kWindow;
  for (int i = 0; i < n && exact && largest != INT_MIN; ++i) {
    const auto bits = std::bit_cast<uint64_t>(values[i]);
    if ((bits << 1) == 0)
      continue;
    const Decomposed d = decompose(bits);
    const int shift = d.exponent - base;
    U128 part;
    if (shift >= 0) {
      part = static_cast<U128>(d.significand) << shift;
    } else {
      exact =
          -shift < 64 && (d.significand & ((uint64_t{1} << -shift) - 1)) == 0;
      part = exact ? d.significand >> -shift : 0;
    }
    sum +=
        d.negative ? -static_cast<__int128>(part) : static_cast<__int128>(part);
  }
  if (!exact) {
    WideSum wide;
    for (int i = 0; i < n; ++i)
      wide.add(values[i]);
    return wide.round(format);
  }
  if (sum == 0)
    return signedZero(n, negativeZeros);
  const bool negative = sum < 0;
  return roundScaled(negative ? -static_cast<U128>(sum)
                              : static_cast<U128>(sum),
                     base, false, negative, format);
}

} // namespace distrt::detail
