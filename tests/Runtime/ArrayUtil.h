//===- ArrayUtil.h - Test arrays for the variadic collectives ---*- C++ -*-===//
//
// An owning memref of any element type, dense or strided (every other
// element of a larger buffer, at an offset, with sentinel bytes between),
// addressed by its row-major flat index; and StableHLO group specs.
//
//===----------------------------------------------------------------------===//

#ifndef DISTRUNTIME_TESTS_RUNTIME_ARRAYUTIL_H
#define DISTRUNTIME_TESTS_RUNTIME_ARRAYUTIL_H

#include "Half.h"
#include "TestUtil.h"

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <numeric>
#include <string>
#include <vector>

namespace distrt::test {

inline constexpr std::byte kSentinel{0x5A};

struct Array {
  Dtype dtype = Dtype::I32;
  std::vector<int64_t> sizes, strides;
  int64_t offset = 0;
  std::vector<std::byte> storage;

  Array() = default;
  Array(Dtype dtype, std::vector<int64_t> shape, bool strided = false)
      : dtype(dtype), sizes(std::move(shape)), strides(sizes.size()) {
    // Strided: every other element in the innermost dim, rows padded by 3.
    int64_t stride = strided ? 2 : 1;
    for (size_t d = sizes.size(); d-- > 0;) {
      strides[d] = stride;
      stride *= std::max<int64_t>(sizes[d], 1);
      if (strided)
        stride += 3;
    }
    offset = strided ? 1 : 0;
    storage.assign(static_cast<size_t>(stride + offset + 1) * dtypeSize(dtype),
                   kSentinel);
  }

  int64_t count() const {
    return std::accumulate(sizes.begin(), sizes.end(), int64_t{1},
                           std::multiplies<>());
  }
  /// The element offset of row-major flat index `flat`.
  int64_t at(int64_t flat) const {
    int64_t result = offset;
    for (size_t d = sizes.size(); d-- > 0;) {
      result += (flat % sizes[d]) * strides[d];
      flat /= sizes[d];
    }
    return result;
  }
  std::byte *element(int64_t flat) {
    return storage.data() + at(flat) * static_cast<int64_t>(dtypeSize(dtype));
  }
  const std::byte *element(int64_t flat) const {
    return storage.data() + at(flat) * static_cast<int64_t>(dtypeSize(dtype));
  }
  void set(int64_t flat, int64_t value) { store(dtype, element(flat), value); }
  double get(int64_t flat) const { return load(dtype, element(flat)); }
  template <class F> void fill(F &&value) {
    for (int64_t i = 0; i < count(); ++i)
      set(i, value(i));
  }
  MemrefView view() {
    return MemrefView(storage.data(), sizes, strides, offset);
  }
  Operand operand() { return {view(), dtype}; }
  /// Bytes outside the view that are no longer the sentinel (strided only).
  int64_t touchedPadding() const {
    std::vector<bool> inside(storage.size());
    const size_t size = dtypeSize(dtype);
    for (int64_t i = 0; i < count(); ++i)
      for (size_t b = 0; b < size; ++b)
        inside[static_cast<size_t>(at(i)) * size + b] = true;
    int64_t touched = 0;
    for (size_t b = 0; b < storage.size(); ++b)
      touched += !inside[b] && storage[b] != kSentinel;
    return touched;
  }
};

/// Stores `v` into a floating-point element of `dtype`.
inline void storeFloat(Dtype dtype, std::byte *at, double v) {
  switch (dtype) {
  case Dtype::F64:
    std::memcpy(at, &v, 8);
    return;
  case Dtype::F32: {
    const auto f = static_cast<float>(v);
    std::memcpy(at, &f, 4);
    return;
  }
  case Dtype::BF16: {
    const uint16_t bits = detail::floatToBfloat16(static_cast<float>(v));
    std::memcpy(at, &bits, 2);
    return;
  }
  default: {
    const uint16_t bits = detail::floatToHalf(static_cast<float>(v));
    std::memcpy(at, &bits, 2);
    return;
  }
  }
}

/// A distrt_groups_t owning its ids, changed in place by some tests (the
/// API's distrt::Groups borrows it).
struct GroupTable {
  std::vector<int64_t> ids;
  distrt_groups_t spec{};

  GroupTable(int32_t mode, std::vector<std::vector<int64_t>> groups,
             int64_t replicas = -1, int64_t partitions = -1) {
    spec.mode = mode;
    spec.num_replicas = replicas;
    spec.num_partitions = partitions;
    spec.num_groups = static_cast<int64_t>(groups.size());
    spec.group_size =
        groups.empty() ? 0 : static_cast<int64_t>(groups[0].size());
    for (const auto &group : groups)
      ids.insert(ids.end(), group.begin(), group.end());
    spec.ids = ids.data();
  }
  GroupTable(const GroupTable &other) : ids(other.ids), spec(other.spec) {
    spec.ids = ids.data();
  }
  operator const distrt_groups_t &() const { return spec; }
  operator distrt::Groups() const { return distrt::Groups(spec); }
  std::string str() const {
    std::string text = fmt::format("mode {} grid {}x{} [", spec.mode,
                                   spec.num_replicas, spec.num_partitions);
    for (int64_t g = 0; g < spec.num_groups; ++g) {
      text += g ? ", [" : "[";
      for (int64_t k = 0; k < spec.group_size; ++k)
        text += fmt::format("{}{}", k ? ", " : "",
                            ids[static_cast<size_t>(g * spec.group_size + k)]);
      text += "]";
    }
    return text + "]";
  }
};

/// The world as a team.
inline const Team &world() {
  static Team team;
  return team;
}

/// Row-major index <-> flat index of `shape`.
inline std::vector<int64_t> unflatten(const std::vector<int64_t> &shape,
                                      int64_t flat) {
  std::vector<int64_t> index(shape.size());
  for (size_t d = shape.size(); d-- > 0;) {
    index[d] = flat % shape[d];
    flat /= shape[d];
  }
  return index;
}

inline int64_t flatten(const std::vector<int64_t> &shape,
                       const std::vector<int64_t> &index) {
  int64_t flat = 0;
  for (size_t d = 0; d < shape.size(); ++d)
    flat = flat * shape[d] + index[d];
  return flat;
}

/// `shape` with dimension `dim` times `factor`.
inline std::vector<int64_t> scaled(std::vector<int64_t> shape, int64_t dim,
                                   int64_t factor) {
  shape[static_cast<size_t>(dim)] *= factor;
  return shape;
}

/// One group of the whole team in rank order (flattened ids).
inline const GroupTable &everyone() {
  static const GroupTable groups(DISTRT_FLATTENED_IDS, {});
  return groups;
}

} // namespace distrt::test

#endif // DISTRUNTIME_TESTS_RUNTIME_ARRAYUTIL_H
