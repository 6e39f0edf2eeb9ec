//===- Dims.h - A balanced process grid for a team's size -------*- C++ -*-===//
//
// dims_create's grid: the sizes of an n-D grid of `size` processes, as close
// to each other as possible, largest first, what MPI_Dims_create is meant to
// choose, computed here so that every MPI gives the same grid (MPICH's
// agrees; Open MPI 4.1's gives 12 x 6 for 72 processes on 2 axes, not
// 9 x 8).
//
//===----------------------------------------------------------------------===//

#ifndef DISTRUNTIME_RUNTIME_DIMS_H
#define DISTRUNTIME_RUNTIME_DIMS_H

#include <cstdint>
#include <vector>

namespace distrt::detail {

/// Of the factorizations of `size` (>= 1) into `n` (>= 1) non-increasing
/// factors, the one whose factors are smallest from the first on.
std::vector<int64_t> balancedDims(int64_t size, int64_t n);

} // namespace distrt::detail

#endif // DISTRUNTIME_RUNTIME_DIMS_H
