//===- Halo.h - get_halo communication plans --------------------*- C++ -*-===//

#ifndef DISTRUNTIME_RUNTIME_HALO_H
#define DISTRUNTIME_RUNTIME_HALO_H

#include <cstddef>
#include <cstdint>
#include <vector>

namespace distrt::detail {

/// Rows of this rank's block that one peer needs.
struct HaloSend {
  int peer;
  int tag;
  int64_t localRow; // first row, relative to the local block
  int count;        // elements
  /// The peer wants whole rows (its bbox spans every column), so in a
  /// contiguous local block the rows are one contiguous range.
  bool wholeRows;
  /// The sub-block's sizes (r values) and column offsets (r - 1 values).
  size_t boxIndex;
};

/// Rows of one of this rank's halos that one peer owns.
struct HaloRecv {
  int peer;
  int tag;
  bool right;
  int64_t haloRow; // first row, relative to the halo
  int count;       // elements
};

/// Who sends which rows to whom, for one geometry of this rank.
struct HaloPlan {
  bool valid = false;
  int64_t rank = 0;
  /// The geometry the plan was made for: gShape, lOffsets, bbOffsets,
  /// bbSizes, local sizes (r values each).
  std::vector<int64_t> geometry;
  int64_t leftRows = 0, rightRows = 0;
  /// Elements per halo row (product of the bbox sizes in dims >= 1).
  int64_t rowElements = 0;
  std::vector<HaloSend> sends;
  std::vector<HaloRecv> recvs;
  std::vector<int64_t> boxes;
  /// Scratch for the allgathered geometry of every rank.
  std::vector<int64_t> gathered, gatheredDims;
};

} // namespace distrt::detail

#endif // DISTRUNTIME_RUNTIME_HALO_H
