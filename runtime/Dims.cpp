//===- Dims.cpp - A balanced process grid for a team's size ---------------===//

#include "Dims.h"

#include <cstddef>

namespace distrt::detail {

/// Whether d^n >= size, without overflow.
static bool powerReaches(int64_t d, int64_t n, int64_t size) {
  int64_t p = 1;
  for (int64_t i = 0; i < n; ++i) {
    if (p >= (size + d - 1) / d)
      return true;
    p *= d;
  }
  return p >= size;
}

/// Appends the smallest (from the first on) non-increasing factors of
/// `size`, `n` of them, none above `cap`; false if there are none. A first
/// factor d needs d^n >= size, so the search starts near the n-th root.
static bool smallestFactors(int64_t size, int64_t n, int64_t cap,
                            std::vector<int64_t> &dims) {
  if (n == 1) {
    if (size > cap)
      return false;
    dims.push_back(size);
    return true;
  }
  for (int64_t d = 1; d <= size && d <= cap; ++d) {
    if (size % d != 0 || !powerReaches(d, n, size))
      continue;
    dims.push_back(d);
    if (smallestFactors(size / d, n - 1, d, dims))
      return true;
    dims.pop_back();
  }
  return false;
}

std::vector<int64_t> balancedDims(int64_t size, int64_t n) {
  std::vector<int64_t> dims;
  dims.reserve(static_cast<size_t>(n));
  smallestFactors(size, n, size, dims); // [size, 1, ...] always qualifies
  return dims;
}

} // namespace distrt::detail
