//===- ExactSum.h - Correctly rounded sums ----------------------*- C++ -*-===//
//
// The `exact` reproducibility level's arithmetic: the sum of any number of
// floating-point values, computed without error and rounded once (to
// nearest, ties to even) into the result's format. A correctly rounded sum
// is a function of the values alone, so no order, grouping or count of
// members can change a bit of it.
//
// Every f16, bf16, f32 and f64 value is a double exactly; a sum is kept as a
// fixed-point integer over 32-bit digits from 2^-1074 (the least f64
// subnormal) up, each digit in an int64 so that digits add without carries
// (WideSum). Such integers also add exactly over MPI (MPI_SUM on int64), in
// any order, which is how global_reduce combines its members' sums. The
// elementwise reductions sum a few values per element: a window of 128 bits
// under their largest exponent holds them exactly in almost every case
// (exactSum), and WideSum takes the rest.
//
//===----------------------------------------------------------------------===//

#ifndef DISTRUNTIME_RUNTIME_EXACTSUM_H
#define DISTRUNTIME_RUNTIME_EXACTSUM_H

#include <array>
#include <cstdint>

namespace distrt::detail {

/// A binary floating-point format: `precision` significand bits; the least
/// subnormal is 2^minExp; values from 2^maxExp on overflow.
struct FloatFormat {
  int precision;
  int minExp;
  int maxExp;
};

inline constexpr FloatFormat kF64Format{53, -1074, 1024};
inline constexpr FloatFormat kF32Format{24, -149, 128};
inline constexpr FloatFormat kF16Format{11, -24, 16};
inline constexpr FloatFormat kBF16Format{8, -133, 128};

/// The exact sum of doubles as an integer of 32-bit digits. Any number of
/// values may be added; two WideSums add digit by digit (merge), and so do
/// their words over MPI_SUM once each is normalized (words()).
class WideSum {
public:
  /// Digits from 2^-1074 to past 2^1024, with room for the carries of
  /// 2^63 values of the largest magnitude.
  static constexpr int kDigits = 68;
  /// The digits, then the counts of NaNs, +infs, -infs, values and -0s.
  static constexpr int kWords = kDigits + 5;

  void add(double x);
  void merge(const WideSum &other);
  /// Carries each digit's excess into the next, so that every digit but the
  /// top one is in [0, 2^32): after it, 2^31 sums add without overflow.
  void normalize();
  /// The sum rounded to nearest (ties to even) in `format`: NaN if a value
  /// was NaN or infinities of both signs met, an infinity if one sign did,
  /// -0 only if every value was -0.
  double round(FloatFormat format);

  std::array<int64_t, kWords> &words() { return words_; }

private:
  void addFinite(uint64_t bits);
  std::array<int64_t, kWords> words_{};
  /// Values added since the last normalize().
  uint32_t pending_ = 0;
};

/// Knuth's TwoSum: s = fl(a + b) and s + e == a + b exactly (no overflow).
inline void twoSumOf(double a, double b, double &s, double &e) {
  s = a + b;
  const double bb = s - a;
  e = (a - (s - bb)) + (b - bb);
}

/// The correctly rounded sum of values[0, n) in `format` (each a value of
/// it, as a double), as WideSum::round() gives it.
double exactSum(const double *values, int n, FloatFormat format);

} // namespace distrt::detail

#endif // DISTRUNTIME_RUNTIME_EXACTSUM_H
