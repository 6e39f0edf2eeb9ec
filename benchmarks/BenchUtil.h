//===- BenchUtil.h - Timing baseline against distrt -------------*- C++ -*-===//
//
// On a shared, noisy machine only ratios mean something: the baseline (raw
// MPI doing the same work) and distrt run in alternating blocks inside one
// launch (Paired.h). A block's time is the slowest rank's, per iteration.
//
//===----------------------------------------------------------------------===//

#ifndef DISTRUNTIME_BENCHMARKS_BENCHUTIL_H
#define DISTRUNTIME_BENCHMARKS_BENCHUTIL_H

#include "Paired.h"

#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <vector>

namespace distrt::bench {

/// Seconds per iteration of `op` over `iterations`, the slowest rank's.
template <class Op> double timeBlock(Op &&op, int iterations, MPI_Comm comm) {
  MPI_Barrier(comm);
  const double start = MPI_Wtime();
  for (int i = 0; i < iterations; ++i)
    op();
  double elapsed = (MPI_Wtime() - start) / iterations;
  MPI_Allreduce(MPI_IN_PLACE, &elapsed, 1, MPI_DOUBLE, MPI_MAX, comm);
  return elapsed;
}

/// Runs `baseline` and `distrt` in `blocks` alternating blocks (the order
/// flips every block) sized to about `blockSeconds`, after a warm-up.
template <class Baseline, class Distrt>
Comparison compare(Baseline &&baseline, Distrt &&distrt, MPI_Comm comm,
                   int blocks = 42, double blockSeconds = 0.004) {
  // Warm-up (plans, caches, MPI connections) and calibration.
  for (int i = 0; i < 3; ++i) {
    baseline();
    distrt();
  }
  const double once =
      std::max(timeBlock(baseline, 5, comm), timeBlock(distrt, 5, comm));
  // At least 4 iterations per block: one multi-millisecond call per block
  // would leave the median to a handful of noisy samples.
  const int iterations = std::clamp(
      static_cast<int>(blockSeconds / std::max(once, 1e-9)), 4, 20000);
  return alternate([&] { return timeBlock(baseline, iterations, comm); },
                   [&] { return timeBlock(distrt, iterations, comm); }, blocks);
}

inline void printHeader(int rank) {
  if (rank == 0)
    std::printf("case,np,size,baseline_us,distrt_us,ratio\n");
}

inline void printRow(int rank, const char *name, int np, long long size,
                     const Comparison &c) {
  if (rank != 0)
    return;
  std::printf("%s,%d,%lld,%.3f,%.3f,%.3f\n", name, np, size, c.baselineUs,
              c.distrtUs, c.ratio);
  std::fflush(stdout);
}

} // namespace distrt::bench

#endif // DISTRUNTIME_BENCHMARKS_BENCHUTIL_H
