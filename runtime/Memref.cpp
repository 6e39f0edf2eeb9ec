//===- Memref.cpp - Strided memref helpers ----------------------*- C++ -*-===//

#include "Memref.h"
#include "Error.h"

#include <fmt/ranges.h>

#include <cstring>
#include <vector>

namespace distrt {

MemrefView::MemrefView(void *data, std::span<const int64_t> sizes,
                       std::span<const int64_t> strides, int64_t offset)
    : rank(static_cast<int64_t>(sizes.size())), allocated(data), aligned(data),
      offset(offset), sizes(sizes.data()), strides(strides.data()) {
  if (sizes.size() != strides.size())
    throw std::invalid_argument("distrt::MemrefView: sizes and strides "
                                "differ in length");
}

namespace detail {

void raiseBadSize(int64_t rank, const int64_t *sizes) {
  for (int64_t d = 0; d < rank; ++d)
    if (sizes[d] < 0)
      raise("memref has a negative size {} in dimension {}", sizes[d], d);
  raise("memref element count overflows int64");
}

namespace {

/// A memref reduced to outer dims plus one innermost run of `runLength`
/// elements `runStride` apart: size-1 dims are dropped and inner dims merged
/// while their strides line up.
struct Runs {
  static constexpr int kInline = 16;
  int64_t inlineDims[2 * kInline];
  std::vector<int64_t> heapDims;
  int64_t *outerSizes = nullptr, *outerStrides = nullptr;
  int64_t outerRank = 0;
  int64_t runLength = 1, runStride = 1;
  bool empty = false;

  Runs(int64_t rank, const int64_t *sizes, const int64_t *strides) {
    int64_t *dims = inlineDims;
    if (rank > kInline) {
      heapDims.resize(static_cast<size_t>(2 * rank));
      dims = heapDims.data();
    }
    outerSizes = dims;
    outerStrides = dims + (rank > kInline ? rank : kInline);
    int64_t kept = 0;
    for (int64_t d = 0; d < rank; ++d) {
      if (sizes[d] == 0)
        empty = true;
      if (sizes[d] == 1)
        continue;
      outerSizes[kept] = sizes[d];
      outerStrides[kept] = strides[d];
      ++kept;
    }
    if (empty || kept == 0)
      return;
    runLength = outerSizes[kept - 1];
    runStride = outerStrides[kept - 1];
    --kept;
    while (kept > 0 && outerStrides[kept - 1] == runLength * runStride) {
      runLength *= outerSizes[kept - 1];
      --kept;
    }
    outerRank = kept;
  }

  /// Calls visit(elementOffset) for the start of every run, in row-major
  /// order.
  template <class Visit> void forEach(Visit &&visit) const {
    if (empty)
      return;
    if (outerRank == 0) {
      visit(int64_t{0});
      return;
    }
    int64_t index[kInline] = {};
    std::vector<int64_t> heapIndex;
    int64_t *idx = index;
    if (outerRank > kInline) {
      heapIndex.assign(static_cast<size_t>(outerRank), 0);
      idx = heapIndex.data();
    }
    int64_t offset = 0;
    while (true) {
      visit(offset);
      int64_t d = outerRank - 1;
      for (; d >= 0; --d) {
        offset += outerStrides[d];
        if (++idx[d] < outerSizes[d])
          break;
        offset -= idx[d] * outerStrides[d];
        idx[d] = 0;
      }
      if (d < 0)
        return;
    }
  }
};

} // namespace

template <class T>
static void copyStrided(const std::byte *src, int64_t srcStride, std::byte *dst,
                        int64_t dstStride, int64_t count) {
  const T *s = reinterpret_cast<const T *>(src);
  T *t = reinterpret_cast<T *>(dst);
  for (int64_t i = 0; i < count; ++i)
    std::memcpy(t + i * dstStride, s + i * srcStride, sizeof(T));
}

/// Copies `count` elements `srcStride` and `dstStride` elements apart.
static void copyRun(const std::byte *src, int64_t srcStride, std::byte *dst,
                    int64_t dstStride, int64_t count, size_t elementSize) {
  if (srcStride == 1 && dstStride == 1) {
    std::memcpy(dst, src, static_cast<size_t>(count) * elementSize);
    return;
  }
  switch (elementSize) {
  case 1:
    return copyStrided<uint8_t>(src, srcStride, dst, dstStride, count);
  case 2:
    return copyStrided<uint16_t>(src, srcStride, dst, dstStride, count);
  case 4:
    return copyStrided<uint32_t>(src, srcStride, dst, dstStride, count);
  case 8:
    return copyStrided<uint64_t>(src, srcStride, dst, dstStride, count);
  default:
    for (int64_t i = 0; i < count; ++i)
      std::memcpy(dst + i * dstStride * static_cast<int64_t>(elementSize),
                  src + i * srcStride * static_cast<int64_t>(elementSize),
                  elementSize);
  }
}

void pack(const StridedBytes &src, std::byte *dst) {
  Runs runs(src.rank, src.sizes, src.strides);
  const auto size = static_cast<int64_t>(src.elementSize);
  runs.forEach([&](int64_t offset) {
    copyRun(src.base + offset * size, runs.runStride, dst, 1, runs.runLength,
            src.elementSize);
    dst += runs.runLength * size;
  });
}

void unpack(const std::byte *src, const StridedBytes &dst) {
  Runs runs(dst.rank, dst.sizes, dst.strides);
  const auto size = static_cast<int64_t>(dst.elementSize);
  runs.forEach([&](int64_t offset) {
    copyRun(src, 1, dst.base + offset * size, runs.runStride, runs.runLength,
            dst.elementSize);
    src += runs.runLength * size;
  });
}

void zero(const StridedBytes &dst) {
  Runs runs(dst.rank, dst.sizes, dst.strides);
  const auto size = static_cast<int64_t>(dst.elementSize);
  runs.forEach([&](int64_t offset) {
    std::byte *first = dst.base + offset * size;
    if (runs.runStride == 1) {
      std::memset(first, 0, static_cast<size_t>(runs.runLength * size));
      return;
    }
    for (int64_t i = 0; i < runs.runLength; ++i)
      std::memset(first + i * runs.runStride * size, 0, dst.elementSize);
  });
}

/// The lowest and one-past-the-highest byte of the elements, or (base, base)
/// when empty.
static std::pair<const std::byte *, const std::byte *>
extent(const StridedBytes &bytes) {
  int64_t low = 0, high = 0;
  for (int64_t d = 0; d < bytes.rank; ++d) {
    if (bytes.sizes[d] == 0)
      return {bytes.base, bytes.base};
    const int64_t reach = (bytes.sizes[d] - 1) * bytes.strides[d];
    (reach < 0 ? low : high) += reach;
  }
  const auto size = static_cast<int64_t>(bytes.elementSize);
  return {bytes.base + low * size, bytes.base + (high + 1) * size};
}

bool overlaps(const StridedBytes &a, const StridedBytes &b) {
  const auto [aBegin, aEnd] = extent(a);
  const auto [bBegin, bEnd] = extent(b);
  return aBegin < aEnd && bBegin < bEnd && aBegin < bEnd && bBegin < aEnd;
}

bool sameElements(const StridedBytes &a, const StridedBytes &b) {
  if (a.base != b.base || a.rank != b.rank || a.elementSize != b.elementSize)
    return false;
  for (int64_t d = 0; d < a.rank; ++d)
    if (a.sizes[d] != b.sizes[d] ||
        (a.sizes[d] != 1 && a.strides[d] != b.strides[d]))
      return false;
  return true;
}

void copy(const StridedBytes &src, const StridedBytes &dst,
          std::vector<std::byte> &scratch) {
  if (sameElements(src, dst))
    return;
  if (!overlaps(src, dst)) {
    if (isContiguous(dst))
      return pack(src, dst.base);
    if (isContiguous(src))
      return unpack(src.base, dst);
  }
  const auto bytes =
      static_cast<size_t>(numElements(src.rank, src.sizes)) * src.elementSize;
  if (scratch.size() < bytes)
    scratch.resize(bytes);
  pack(src, scratch.data());
  unpack(scratch.data(), dst);
}

std::string shapeText(std::span<const int64_t> shape) {
  return fmt::format("[{}]", fmt::join(shape, ", "));
}

void raiseBadArg(int64_t rank, const void *descriptor, const char *what) {
  raise("the {} memref is invalid (rank {}, descriptor {})", what, rank,
        descriptor ? "set" : "null");
}

std::span<const int64_t> gatherI64(const MemrefView &view,
                                   std::vector<int64_t> &scratch) {
  const int64_t n = view.sizes[0];
  const auto *base = static_cast<const int64_t *>(view.aligned) + view.offset;
  scratch.resize(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i)
    scratch[static_cast<size_t>(i)] = base[i * view.strides[0]];
  return scratch;
}

} // namespace detail
} // namespace distrt
