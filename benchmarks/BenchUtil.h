//===- BenchUtil.h - Timing baseline against distrt -------------*- C++ -*-===//
//
// On a shared, noisy machine only ratios mean something: the baseline (raw
// MPI doing the same work) and distrt run in alternating blocks inside one
// launch (Paired.h). A block's time is the slowest rank's, per iteration.
//
// Under callgrind with DISTRT_BENCH_COST=n, a comparison is not timed: it
// runs n calls of each side between two dumps of callgrind's counts
// ("distrt k", "baseline k": comparison k, after the warm-up), and the row
// names k. scripts/call-cost.sh reads the instructions spent in libdistrt
// per call from them: the runtime's own cost, MPI's excluded.
//
//===----------------------------------------------------------------------===//

#ifndef DISTRUNTIME_BENCHMARKS_BENCHUTIL_H
#define DISTRUNTIME_BENCHMARKS_BENCHUTIL_H

#include "Paired.h"

#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#define DISTRT_BENCH_CALLGRIND 1
#endif

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

/// DISTRT_BENCH_COST: calls per side of a counted comparison (0: timed).
inline int costCalls() {
  static const int calls = [] {
    const char *value = std::getenv("DISTRT_BENCH_COST");
    return value ? std::atoi(value) : 0;
  }();
  return calls;
}

/// The comparisons counted so far (DISTRT_BENCH_COST).
inline int &costCases() {
  static int cases = 0;
  return cases;
}

/// Counts `calls` calls of `op` between callgrind's dumps, as `label`.
template <class Op>
void countCalls(Op &&op, int calls, MPI_Comm comm, const std::string &label) {
  MPI_Barrier(comm);
#ifdef DISTRT_BENCH_CALLGRIND
  CALLGRIND_ZERO_STATS;
  for (int i = 0; i < calls; ++i)
    op();
  CALLGRIND_DUMP_STATS_AT(label.c_str());
#else
  (void)op, (void)calls, (void)label;
  std::fprintf(stderr, "DISTRT_BENCH_COST: built without callgrind.h\n");
  MPI_Abort(MPI_COMM_WORLD, 1);
#endif
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
  if (const int calls = costCalls()) {
    const std::string k = std::to_string(++costCases());
    countCalls(distrt, calls, comm, "distrt " + k);
    countCalls(baseline, calls, comm, "baseline " + k);
    return {0, 0, static_cast<double>(costCases())};
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
  if (costCalls()) // the comparison's number, for scripts/call-cost.sh
    std::printf("%s,%d,%lld,cost,%d,%d\n", name, np, size, costCases(),
                costCalls());
  else
    std::printf("%s,%d,%lld,%.3f,%.3f,%.3f\n", name, np, size, c.baselineUs,
                c.distrtUs, c.ratio);
  std::fflush(stdout);
}

} // namespace distrt::bench

#endif // DISTRUNTIME_BENCHMARKS_BENCHUTIL_H
