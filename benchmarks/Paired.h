//===- Paired.h - Alternating blocks, paired ratios -------------*- C++ -*-===//
//
// A benchmark's baseline and distrt run in alternating blocks, the order
// flipping every block: (baseline, distrt), (distrt, baseline), ... The
// ratio reported is the median, over consecutive groups of four blocks (one
// pair in each order, so that an advantage of running first or second
// cancels), of distrt's time over the baseline's. The machine's speed
// drifts and jumps between modes within a launch; the four blocks of a
// group see the same mode where two separate medians may not.
//
//===----------------------------------------------------------------------===//

#ifndef DISTRUNTIME_BENCHMARKS_PAIRED_H
#define DISTRUNTIME_BENCHMARKS_PAIRED_H

#include <algorithm>
#include <vector>

namespace distrt::bench {

struct Comparison {
  double baselineUs, distrtUs; // medians of the blocks
  double ratio;                // median of the groups' ratios
};

inline double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const size_t n = values.size();
  return n % 2 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

/// `blocks` (at least 2) alternating blocks of `baselineBlock()` and
/// `distrtBlock()`, each returning its block's seconds per iteration.
template <class Baseline, class Distrt>
Comparison alternate(Baseline &&baselineBlock, Distrt &&distrtBlock,
                     int blocks) {
  std::vector<double> base, ours, ratios;
  for (int b = 0; b < blocks; ++b) {
    if (b % 2 == 0) {
      base.push_back(baselineBlock());
      ours.push_back(distrtBlock());
    } else {
      ours.push_back(distrtBlock());
      base.push_back(baselineBlock());
    }
    if (b % 2 == 1)
      ratios.push_back((ours[b - 1] + ours[b]) / (base[b - 1] + base[b]));
  }
  return {median(base) * 1e6, median(ours) * 1e6, median(ratios)};
}

} // namespace distrt::bench

#endif // DISTRUNTIME_BENCHMARKS_PAIRED_H
