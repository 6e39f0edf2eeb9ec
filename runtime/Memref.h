//===- Memref.h - Strided memref helpers ------------------------*- C++ -*-===//
//
// Element counts, contiguity and packing of MLIR memrefs. Packing walks the
// innermost contiguous runs (dims merged where the strides allow), so a
// row-major block is one memcpy and a column is one strided loop.
//
//===----------------------------------------------------------------------===//

#ifndef DISTRUNTIME_RUNTIME_MEMREF_H
#define DISTRUNTIME_RUNTIME_MEMREF_H

#include "distruntime/Runtime/distrt.hpp"

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace distrt::detail {

/// A strided array of `elementSize`-byte elements: element (i0, ..., ik) is at
/// base + elementSize * sum_d i_d * strides[d].
struct StridedBytes {
  std::byte *base = nullptr;
  int64_t rank = 0;
  const int64_t *sizes = nullptr;
  const int64_t *strides = nullptr;
  size_t elementSize = 0;
};

/// The view's first element (aligned + offset).
inline StridedBytes stridedBytes(const MemrefView &view, size_t elementSize) {
  return {static_cast<std::byte *>(view.aligned) +
              view.offset * static_cast<int64_t>(elementSize),
          view.rank, view.sizes, view.strides, elementSize};
}

[[noreturn]] void raiseBadSize(int64_t rank, const int64_t *sizes);

/// The number of elements; throws Failure for a negative size or overflow.
inline int64_t numElements(int64_t rank, const int64_t *sizes) {
  int64_t count = 1;
  for (int64_t d = 0; d < rank; ++d)
    if (sizes[d] < 0 || __builtin_mul_overflow(count, sizes[d], &count))
        [[unlikely]]
      raiseBadSize(rank, sizes);
  return count;
}
inline int64_t numElements(const MemrefView &view) {
  return numElements(view.rank, view.sizes);
}

/// Row-major with identity strides, ignoring size-1 dims; an empty array is
/// contiguous.
inline bool isContiguous(int64_t rank, const int64_t *sizes,
                         const int64_t *strides) {
  int64_t expected = 1;
  for (int64_t d = rank - 1; d >= 0; --d) {
    if (sizes[d] == 0)
      return true;
    if (sizes[d] == 1)
      continue;
    if (strides[d] != expected)
      return false;
    expected *= sizes[d];
  }
  return true;
}
inline bool isContiguous(const MemrefView &view) {
  return isContiguous(view.rank, view.sizes, view.strides);
}

inline bool isContiguous(const StridedBytes &bytes) {
  return isContiguous(bytes.rank, bytes.sizes, bytes.strides);
}

/// The product of sizes[0..dim): 1 means that, in a contiguous array, the
/// blocks of dimension `dim` are consecutive byte ranges.
inline int64_t leadingElements(int64_t rank, const int64_t *sizes,
                               int64_t dim) {
  int64_t product = 1;
  for (int64_t d = 0; d < dim && d < rank; ++d)
    product *= sizes[d];
  return product;
}

/// The byte ranges of `a` and `b` intersect (neither is empty).
bool overlaps(const StridedBytes &a, const StridedBytes &b);

/// The same elements: same base, sizes and strides.
bool sameElements(const StridedBytes &a, const StridedBytes &b);

/// Copies the elements of `src` in row-major order to the dense `dst`.
void pack(const StridedBytes &src, std::byte *dst);
/// Copies the dense row-major `src` into the elements of `dst`.
void unpack(const std::byte *src, const StridedBytes &dst);
/// Copies `src` into `dst` (same shape), through `scratch` if they overlap.
void copy(const StridedBytes &src, const StridedBytes &dst,
          std::vector<std::byte> &scratch);
/// Sets every element of `dst` to zero bytes.
void zero(const StridedBytes &dst);

/// Raises the error of an unranked memref argument unrankedArg() rejects.
[[noreturn, gnu::cold]] void raiseBadArg(int64_t rank, const void *descriptor,
                                         const char *what);

/// The view of an unranked memref argument of the C ABI (`what` names it in
/// the error); rejects a null descriptor or a negative rank. Inline: a halo
/// call reads three or four.
inline MemrefView unrankedArg(int64_t rank, void *descriptor,
                              const char *what) {
  if (!descriptor || rank < 0) [[unlikely]]
    raiseBadArg(rank, descriptor, what);
  return MemrefView::fromUnranked(rank, descriptor);
}

/// Gathers the values of a strided 1-D i64 memref into `scratch`.
std::span<const int64_t> gatherI64(const MemrefView &view,
                                   std::vector<int64_t> &scratch);

/// The values of a 1-D i64 memref, read in place when dense (as generated
/// code passes them), else gathered into `scratch`.
inline std::span<const int64_t> i64Values(const MemrefView &view,
                                          std::vector<int64_t> &scratch) {
  const int64_t n = view.sizes[0];
  if (view.strides[0] == 1 || n <= 1) [[likely]]
    return {static_cast<const int64_t *>(view.aligned) + view.offset,
            static_cast<size_t>(n)};
  return gatherI64(view, scratch);
}

/// "[2, 3]": a shape for error messages.
std::string shapeText(std::span<const int64_t> shape);
inline std::string shapeText(int64_t rank, const int64_t *sizes) {
  return shapeText({sizes, static_cast<size_t>(rank)});
}

} // namespace distrt::detail

#endif // DISTRUNTIME_RUNTIME_MEMREF_H
