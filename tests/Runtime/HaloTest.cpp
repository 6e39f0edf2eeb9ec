//===- HaloTest.cpp - get_halo on distributed arrays ------------*- C++ -*-===//
//
// A global array with element (i, j, k) = i * 10000 + j * 100 + k is split
// along dimension 0. Each rank asks for a bounding box around its rows; its
// halos must hold exactly the global elements of the box outside its rows.
//
//===----------------------------------------------------------------------===//

#include "TestUtil.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <numeric>
#include <vector>

using namespace distrt;
using namespace distrt::test;

namespace {

int64_t globalValue(int64_t i, int64_t j, int64_t k) {
  return i * 10000 + j * 100 + k;
}

/// Rows per rank of a block distribution: the first n % P ranks get one more.
std::vector<int64_t> blockRows(int64_t n, int64_t P) {
  std::vector<int64_t> rows(static_cast<size_t>(P));
  for (int64_t p = 0; p < P; ++p)
    rows[static_cast<size_t>(p)] = n / P + (p < n % P ? 1 : 0);
  return rows;
}

/// A dense or padded array of `shape` holding `dtype` elements.
struct Array {
  std::vector<int64_t> shape, strides;
  int64_t offset = 0;
  std::vector<std::byte> storage;
  size_t elementSize;

  Array(Dtype dtype, std::vector<int64_t> shapeIn, bool padded)
      : shape(std::move(shapeIn)), strides(shape.size()),
        elementSize(dtypeSize(dtype)) {
    // Padded: every dim but the first is one longer and the innermost stride
    // is 2 for 1-D, so the view is not contiguous.
    int64_t stride = shape.size() == 1 && padded ? 2 : 1;
    for (size_t d = shape.size(); d-- > 0;) {
      strides[d] = stride;
      stride *= shape[d] + (padded && d > 0 ? 1 : 0);
    }
    offset = padded ? 3 : 0;
    storage.assign(static_cast<size_t>(offset + std::max<int64_t>(stride, 1)) *
                           elementSize +
                       16,
                   std::byte{0x5A});
  }
  MemrefView view() {
    return MemrefView(storage.data(), shape, strides, offset);
  }
  std::byte *at(const std::vector<int64_t> &index) {
    int64_t e = offset;
    for (size_t d = 0; d < shape.size(); ++d)
      e += index[d] * strides[d];
    return storage.data() + e * static_cast<int64_t>(elementSize);
  }
};

/// Calls f(index) for every index of `shape` in row-major order.
template <class F> void forEachIndex(const std::vector<int64_t> &shape, F f) {
  for (int64_t size : shape)
    if (size == 0)
      return;
  std::vector<int64_t> index(shape.size(), 0);
  while (true) {
    f(index);
    size_t d = shape.size();
    for (; d-- > 0;) {
      if (++index[d] < shape[d])
        break;
      index[d] = 0;
    }
    if (d == static_cast<size_t>(-1))
      return;
  }
}

struct HaloCase {
  std::vector<int64_t> globalShape;
  std::vector<int64_t> rowsPerRank; // empty: block distribution
  int64_t leftWidth = 1, rightWidth = 1;
  /// bbox in dims >= 1 as [begin, end) per dim; empty means the full extent.
  std::vector<std::pair<int64_t, int64_t>> columns;
  Dtype dtype = Dtype::F64;
  bool paddedLocal = false, paddedHalos = false;
  int64_t key = -1;
  int64_t shift = 0; // added to every value, to tell calls apart
};

/// Runs one get_halo and checks halos and local block; returns the first
/// problem found or "".
std::string runHalo(const HaloCase &c) {
  const int64_t P = worldSize(), me = worldRank();
  const int64_t r = static_cast<int64_t>(c.globalShape.size());
  const int64_t n = c.globalShape[0];
  const std::vector<int64_t> rows =
      c.rowsPerRank.empty() ? blockRows(n, P) : c.rowsPerRank;
  const int64_t rowBegin =
      std::accumulate(rows.begin(), rows.begin() + me, int64_t{0});
  const int64_t rowCount = rows[static_cast<size_t>(me)];

  std::vector<int64_t> lOffsets(static_cast<size_t>(r), 0),
      bbOffsets(static_cast<size_t>(r)), bbSizes(static_cast<size_t>(r));
  lOffsets[0] = rowBegin;
  const int64_t boxBegin = std::clamp<int64_t>(rowBegin - c.leftWidth, 0, n);
  const int64_t boxEnd =
      std::clamp<int64_t>(rowBegin + rowCount + c.rightWidth, boxBegin, n);
  bbOffsets[0] = boxBegin;
  bbSizes[0] = boxEnd - boxBegin;
  for (int64_t d = 1; d < r; ++d) {
    const auto [begin, end] =
        c.columns.empty() ? std::pair<int64_t, int64_t>{0, c.globalShape[d]}
                          : c.columns[static_cast<size_t>(d - 1)];
    bbOffsets[d] = begin;
    bbSizes[d] = end - begin;
  }
  const HaloGeometry geometry{c.globalShape, lOffsets, bbOffsets, bbSizes};

  std::vector<int64_t> localShape = c.globalShape;
  localShape[0] = rowCount;
  Array local(c.dtype, localShape, c.paddedLocal);
  forEachIndex(localShape, [&](std::vector<int64_t> index) {
    std::byte *p = local.at(index);
    index[0] += rowBegin;
    store(c.dtype, p,
          c.shift + globalValue(index[0], r > 1 ? index[1] : 0,
                                r > 2 ? index[2] : 0));
  });
  const std::vector<std::byte> localBefore = local.storage;

  const HaloShapes shapes = haloShapes(geometry, rowCount);
  Array left(c.dtype, shapes.left, c.paddedHalos);
  Array right(c.dtype, shapes.right, c.paddedHalos);
  Request request = getHalo(Team(), c.key, c.dtype, local.view(), geometry,
                            left.view(), right.view());
  request.wait();

  if (local.storage != localBefore)
    return fmt::format("rank {}: the local block was modified", me);
  const int64_t rightBegin = std::max(boxBegin, rowBegin + rowCount);
  for (auto [halo, side, firstRow] :
       {std::tuple{&left, "left", boxBegin},
        std::tuple{&right, "right", rightBegin}}) {
    std::string problem;
    forEachIndex(halo->shape, [&](const std::vector<int64_t> &index) {
      if (!problem.empty())
        return;
      std::vector<int64_t> global = index;
      global[0] += firstRow;
      for (int64_t d = 1; d < r; ++d)
        global[static_cast<size_t>(d)] += bbOffsets[static_cast<size_t>(d)];
      const double want = static_cast<double>(
          c.shift +
          globalValue(global[0], r > 1 ? global[1] : 0, r > 2 ? global[2] : 0));
      const double got = load(c.dtype, halo->at(index));
      if (got != want)
        problem = fmt::format("rank {}: {} halo element [{}] (global [{}]) is "
                              "{}, expected {}",
                              me, side, fmt::join(index, ", "),
                              fmt::join(global, ", "), got, want);
    });
    if (!problem.empty())
      return problem;
  }
  return {};
}

} // namespace

TEST_CASE("get_halo on 1-D arrays with uneven blocks", "[halo]") {
  const int64_t P = worldSize();
  for (int64_t n : {int64_t{10}, int64_t{7}, int64_t{2}, P})
    for (auto [wl, wr] : {std::pair{0, 0}, std::pair{1, 1}, std::pair{4, 4},
                          std::pair{0, 3}, std::pair{2, 0}, std::pair{-1, 2}})
      for (bool padded : {false, true}) {
        HaloCase c;
        c.globalShape = {n};
        c.leftWidth = wl;
        c.rightWidth = wr;
        c.paddedLocal = padded;
        c.paddedHalos = padded;
        INFO("rank " << worldRank() << ", n " << n << ", widths " << wl << "/"
                     << wr << (padded ? ", padded" : ""));
        CHECK(runHalo(c) == "");
      }
}

TEST_CASE("get_halo on 2-D arrays, full and narrower column boxes", "[halo]") {
  for (auto [wl, wr] : {std::pair{1, 1}, std::pair{4, 4}, std::pair{0, 0}})
    for (bool narrow : {false, true})
      for (bool paddedLocal : {false, true})
        for (bool paddedHalos : {false, true}) {
          HaloCase c;
          c.globalShape = {11, 6};
          c.leftWidth = wl;
          c.rightWidth = wr;
          if (narrow)
            c.columns = {{1, 5}};
          c.paddedLocal = paddedLocal;
          c.paddedHalos = paddedHalos;
          INFO("rank " << worldRank() << ", widths " << wl << "/" << wr
                       << (narrow ? ", columns [1, 5)" : ", all columns")
                       << (paddedLocal ? ", padded local" : "")
                       << (paddedHalos ? ", padded halos" : ""));
          CHECK(runHalo(c) == "");
        }
}

TEST_CASE("get_halo on 3-D arrays", "[halo]") {
  for (bool narrow : {false, true})
    for (bool padded : {false, true}) {
      HaloCase c;
      c.globalShape = {9, 4, 3};
      c.leftWidth = 2;
      c.rightWidth = 3;
      if (narrow)
        c.columns = {{1, 3}, {0, 2}};
      c.paddedLocal = padded;
      INFO("rank " << worldRank() << (narrow ? ", narrow box" : "")
                   << (padded ? ", padded local" : ""));
      CHECK(runHalo(c) == "");
    }
}

TEST_CASE("get_halo with empty ranks and halos wider than a neighbour",
          "[halo]") {
  const int64_t P = worldSize();
  // Everything on the last rank: the others are empty and get both halos
  // from it.
  std::vector<int64_t> lastOwnsAll(static_cast<size_t>(P), 0);
  lastOwnsAll.back() = 5;
  // Alternating empty ranks.
  std::vector<int64_t> alternating(static_cast<size_t>(P));
  for (int64_t p = 0; p < P; ++p)
    alternating[static_cast<size_t>(p)] = p % 2 ? 0 : 2;
  for (const auto &rows : {lastOwnsAll, alternating})
    for (int64_t width : {1, 3, 6}) {
      HaloCase c;
      c.globalShape = {std::accumulate(rows.begin(), rows.end(), int64_t{0}),
                       3};
      c.rowsPerRank = rows;
      c.leftWidth = c.rightWidth = width;
      INFO("rank " << worldRank() << ", rows "
                   << fmt::format("{}", fmt::join(rows, ",")) << ", width "
                   << width);
      CHECK(runHalo(c) == "");
    }
}

TEST_CASE("get_halo moves every element width", "[halo]") {
  // Values up to 8 * 10000 + 200 are exact in each of these types.
  for (Dtype dtype : {Dtype::I32, Dtype::I64, Dtype::F32, Dtype::UI32}) {
    HaloCase c;
    c.globalShape = {8, 3};
    c.dtype = dtype;
    c.leftWidth = c.rightWidth = 2;
    INFO("rank " << worldRank() << ", " << dtypeName(dtype));
    CHECK(runHalo(c) == "");
  }
}

TEST_CASE("a cached plan is reused and follows a change of geometry",
          "[halo]") {
  const int64_t P = worldSize();
  HaloCase c;
  c.globalShape = {12, 5};
  c.key = 42;
  c.leftWidth = c.rightWidth = 2;
  for (int64_t call = 0; call < 3; ++call) {
    c.shift = call * 1000000;
    INFO("rank " << worldRank() << ", call " << call);
    CHECK(runHalo(c) == "");
  }
  // The same key with another distribution, widths and column box: every
  // rank re-plans at the same call.
  std::vector<int64_t> rows = blockRows(12, P);
  std::reverse(rows.begin(), rows.end());
  c.rowsPerRank = rows;
  c.leftWidth = 1;
  c.rightWidth = 4;
  c.columns = {{2, 4}};
  for (int64_t call = 3; call < 5; ++call) {
    c.shift = call * 1000000;
    INFO("rank " << worldRank() << ", call " << call << " after the change");
    CHECK(runHalo(c) == "");
  }
  // And back, with a strided local this time.
  c = HaloCase{};
  c.globalShape = {12, 5};
  c.key = 42;
  c.paddedLocal = true;
  c.shift = 7000000;
  INFO("rank " << worldRank() << ", back to the first geometry");
  CHECK(runHalo(c) == "");
}

TEST_CASE("get_halo in a loop keeps every round's rows", "[halo]") {
  // From its second call a held plan's messages on this node travel through
  // shared memory (runtime/HaloChannel.h): every round must still deliver
  // that round's values, whole rows or packed column boxes, into dense or
  // strided halos, with uneven and empty ranks.
  const int64_t P = worldSize();
  std::vector<int64_t> withEmpty = blockRows(9, P);
  if (P > 1)
    withEmpty = std::vector<int64_t>(static_cast<size_t>(P), 3),
    withEmpty[1] = 0;
  int64_t key = 200;
  for (const auto &rows : {blockRows(11, P), withEmpty})
    for (int variant = 0; variant < 3; ++variant) {
      HaloCase c;
      c.globalShape = {std::accumulate(rows.begin(), rows.end(), int64_t{0}),
                       6};
      c.rowsPerRank = rows;
      c.leftWidth = 2;
      c.rightWidth = 1;
      c.paddedLocal = variant == 1;
      c.paddedHalos = variant == 2;
      if (variant == 2)
        c.columns = {{1, 4}};
      c.key = key++;
      for (int64_t call = 0; call < 10; ++call) {
        c.shift = call * 1000000;
        INFO("rank " << worldRank() << ", variant " << variant << ", call "
                     << call);
        CHECK(runHalo(c) == "");
      }
    }
}

TEST_CASE("get_halo through the C ABI with memref descriptors", "[halo][abi]") {
  const int64_t P = worldSize(), me = worldRank();
  struct Descriptor1D {
    int64_t *allocated, *aligned;
    int64_t offset, sizes[1], strides[1];
  };
  struct Descriptor2D {
    double *allocated, *aligned;
    int64_t offset, sizes[2], strides[2];
  };
  // A 2P x 3 array, two rows per rank, halo width 1.
  const int64_t n = 2 * P, cols = 3, rowBegin = 2 * me;
  std::vector<double> local(2 * cols);
  for (int64_t i = 0; i < 2; ++i)
    for (int64_t j = 0; j < cols; ++j)
      local[static_cast<size_t>(i * cols + j)] =
          static_cast<double>(globalValue(rowBegin + i, j, 0));
  const int64_t boxBegin = std::max<int64_t>(0, rowBegin - 1);
  const int64_t boxEnd = std::min<int64_t>(n, rowBegin + 3);
  std::vector<int64_t> geometry = {n,        cols, rowBegin,          0,
                                   boxBegin, 0,    boxEnd - boxBegin, cols};
  const int64_t leftRows = rowBegin - boxBegin;
  const int64_t rightRows = boxEnd - (rowBegin + 2);
  std::vector<double> left(static_cast<size_t>(leftRows * cols) + 1, -1),
      right(static_cast<size_t>(rightRows * cols) + 1, -1);
  Descriptor2D localDesc{local.data(), local.data(), 0, {2, cols}, {cols, 1}};
  Descriptor1D geometryDesc{geometry.data(), geometry.data(), 0, {8}, {1}};
  Descriptor2D leftDesc{
      left.data(), left.data(), 0, {leftRows, cols}, {cols, 1}};
  Descriptor2D rightDesc{
      right.data(), right.data(), 0, {rightRows, cols}, {cols, 1}};
  for (int call = 0; call < 2; ++call) {
    const distrt_handle_t handle = distrt_get_halo(
        0, /*key=*/7, DISTRT_F64, 2, &localDesc, 1, &geometryDesc, 2, &leftDesc,
        2, &rightDesc, "HaloTest:abi");
    REQUIRE(handle != 0);
    distrt_wait(handle, "HaloTest:abi");
    INFO("rank " << me << ", call " << call);
    for (int64_t j = 0; j < cols; ++j) {
      if (leftRows)
        CHECK(left[static_cast<size_t>(j)] ==
              static_cast<double>(globalValue(rowBegin - 1, j, 0)));
      if (rightRows)
        CHECK(right[static_cast<size_t>(j)] ==
              static_cast<double>(globalValue(rowBegin + 2, j, 0)));
    }
    CHECK(left.back() == -1);
    CHECK(right.back() == -1);
  }
}
