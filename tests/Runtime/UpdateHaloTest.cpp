//===- UpdateHaloTest.cpp - update_halo on Cartesian blocks -----*- C++ -*-===//
//
// A global array with element (i, j) = 1000 i + j (and 10^6 i + 1000 j + k
// in 3-D) is split into blocks over a process grid. Every rank fills its
// core with the closed form and its halo frame with a sentinel; after
// update_halo every frame cell inside the array must hold the closed form
// of its global index and every cell outside must still hold the sentinel.
//
//===----------------------------------------------------------------------===//

#include "TestUtil.h"

#include <catch2/catch.hpp>

#include <numeric>
#include <vector>

using namespace distrt;
using namespace distrt::test;
using Catch::Contains;

namespace {

constexpr int64_t kSentinel = -7;

/// One decomposition: the grid, and per array dimension its grid axes, the
/// core extent of each block index and the halo widths.
struct HaloGrid {
  std::vector<int64_t> grid;
  std::vector<std::vector<int64_t>> axes, cores;
  std::vector<int64_t> lo, hi;
  Dtype dtype = Dtype::F64;
  bool padded = false; // rows of the block padded: a strided memref
  bool async = false;
  int64_t key = -1;
  int64_t shift = 0; // added to every value, to tell calls apart

  int64_t rank() const { return static_cast<int64_t>(axes.size()); }

  std::vector<int64_t> spec() const {
    std::vector<int64_t> s{static_cast<int64_t>(grid.size())};
    s.insert(s.end(), grid.begin(), grid.end());
    for (int64_t d = 0; d < rank(); ++d) {
      const auto u = static_cast<size_t>(d);
      s.insert(s.end(), {lo[u], hi[u], static_cast<int64_t>(axes[u].size())});
      s.insert(s.end(), axes[u].begin(), axes[u].end());
    }
    return s;
  }

  /// This rank's block index along d: its coordinates (last axis fastest)
  /// on the dimension's axes, first listed slowest.
  int64_t blockIndex(int64_t d) const {
    std::vector<int64_t> coords(grid.size());
    int64_t rest = worldRank();
    for (size_t a = grid.size(); a-- > 0;) {
      coords[a] = rest % grid[a];
      rest /= grid[a];
    }
    int64_t b = 0;
    for (int64_t a : axes[static_cast<size_t>(d)])
      b = b * grid[static_cast<size_t>(a)] + coords[static_cast<size_t>(a)];
    return b;
  }
};

double value(const std::vector<int64_t> &global, int64_t shift) {
  double v = 0;
  for (int64_t i : global)
    v = v * 1000 + static_cast<double>(i);
  return v + static_cast<double>(shift);
}

/// Runs update_halo for `c` on this rank; "" when every cell is right, else
/// the first wrong cell.
std::string runCase(const HaloGrid &c) {
  const int64_t r = c.rank();
  const auto n = static_cast<size_t>(r);
  std::vector<int64_t> sizes(n), origin(n), extent(n), coreBegin(n), coreEnd(n);
  for (size_t d = 0; d < n; ++d) {
    const auto &cores = c.cores[d];
    const auto b = static_cast<size_t>(c.blockIndex(static_cast<int64_t>(d)));
    const int64_t before = std::accumulate(
        cores.begin(), cores.begin() + static_cast<ptrdiff_t>(b), int64_t{0});
    extent[d] = std::accumulate(cores.begin(), cores.end(), int64_t{0});
    sizes[d] = c.lo[d] + cores[b] + c.hi[d];
    origin[d] = before - c.lo[d];
    coreBegin[d] = before;
    coreEnd[d] = before + cores[b];
  }
  // Row-major strides; padded: every dimension but the first one longer.
  std::vector<int64_t> strides(n);
  int64_t stride = 1;
  for (size_t d = n; d-- > 0;) {
    strides[d] = stride;
    stride *= sizes[d] + (c.padded && d > 0 ? 1 : 0);
  }
  const size_t elementSize = dtypeSize(c.dtype);
  std::vector<std::byte> storage(
      static_cast<size_t>(std::max<int64_t>(stride, 1)) * elementSize);
  auto at = [&](const std::vector<int64_t> &index) {
    int64_t e = 0;
    for (size_t d = 0; d < n; ++d)
      e += index[d] * strides[d];
    return storage.data() + e * static_cast<int64_t>(elementSize);
  };
  // Walks every local index with its global index and its expected value.
  auto forEachCell = [&](auto f) {
    for (int64_t size : sizes)
      if (size == 0)
        return;
    std::vector<int64_t> index(n, 0), global(n);
    while (true) {
      bool inCore = true, inArray = true;
      for (size_t d = 0; d < n; ++d) {
        global[d] = origin[d] + index[d];
        inCore = inCore && global[d] >= coreBegin[d] && global[d] < coreEnd[d];
        inArray = inArray && global[d] >= 0 && global[d] < extent[d];
      }
      f(index, global, inCore, inArray);
      size_t d = n;
      while (d-- > 0) {
        if (++index[d] < sizes[d])
          break;
        index[d] = 0;
      }
      if (d == static_cast<size_t>(-1))
        return;
    }
  };
  // Values as the element type holds them (i8 wraps, bf16 rounds).
  std::vector<std::byte> scratch(elementSize);
  auto held = [&](double v) {
    store(c.dtype, scratch.data(), static_cast<int64_t>(v));
    return load(c.dtype, scratch.data());
  };
  forEachCell([&](const auto &index, const auto &global, bool inCore, bool) {
    store(c.dtype, at(index),
          inCore ? static_cast<int64_t>(value(global, c.shift)) : kSentinel);
  });

  const std::vector<int64_t> spec = c.spec();
  const MemrefView view(storage.data(), sizes, strides);
  if (c.async) {
    Request request = updateHaloAsync(Team(), c.key, c.dtype, view, spec);
    request.wait();
  } else {
    updateHalo(Team(), c.key, c.dtype, view, spec);
  }

  std::string error;
  forEachCell([&](const auto &index, const auto &global, bool, bool inArray) {
    if (!error.empty())
      return;
    const double expected = held(inArray ? value(global, c.shift) : kSentinel);
    const double got = load(c.dtype, at(index));
    if (got != expected)
      error = fmt::format("rank {}: local {} (global {}) holds {}, expected {}",
                          worldRank(), fmt::join(index, ","),
                          fmt::join(global, ","), got, expected);
  });
  return error;
}

/// The core extents of `blocks` blocks: even, uneven (1, 5, 2, 4, ...) or
/// with empty blocks (2, 0, 3, 0, ...).
enum class Split { Even, Uneven, Empty };
std::vector<int64_t> cores(int64_t blocks, Split split) {
  static const int64_t uneven[] = {1, 5, 2, 4}, empty[] = {2, 0, 3, 0};
  std::vector<int64_t> c(static_cast<size_t>(blocks));
  for (int64_t b = 0; b < blocks; ++b)
    c[static_cast<size_t>(b)] = split == Split::Even     ? 3
                                : split == Split::Uneven ? uneven[b % 4]
                                                         : empty[b % 4];
  return c;
}

/// The grids of `dims` axes with `P` processes, e.g. 1x4, 2x2, 4x1.
std::vector<std::vector<int64_t>> grids(int64_t P, int dims) {
  std::vector<std::vector<int64_t>> out;
  if (dims == 1)
    return {{P}};
  for (int64_t a = 1; a <= P; ++a)
    if (P % a == 0)
      for (auto &rest : grids(P / a, dims - 1)) {
        rest.insert(rest.begin(), a);
        out.push_back(rest);
      }
  return out;
}

/// Dimension d on grid axis d, cores split `split`, widths `lo`/`hi`.
HaloGrid onAxes(const std::vector<int64_t> &grid, Split split,
                std::vector<int64_t> lo, std::vector<int64_t> hi) {
  HaloGrid c;
  c.grid = grid;
  for (size_t d = 0; d < grid.size(); ++d) {
    c.axes.push_back({static_cast<int64_t>(d)});
    c.cores.push_back(cores(grid[d], split));
  }
  c.lo = std::move(lo);
  c.hi = std::move(hi);
  return c;
}

std::string describe(const HaloGrid &c) {
  return fmt::format("rank {}, grid {}, cores {}, lo {}, hi {}{}{}",
                     worldRank(), fmt::join(c.grid, "x"), c.cores, c.lo, c.hi,
                     c.padded ? ", padded" : "", c.async ? ", async" : "");
}

} // namespace

TEST_CASE("update_halo on 2-D grids", "[update_halo]") {
  const int64_t P = worldSize();
  for (const auto &grid : grids(P, 2))
    for (Split split : {Split::Even, Split::Uneven, Split::Empty})
      for (auto [lo, hi] :
           {std::pair<std::vector<int64_t>, std::vector<int64_t>>{{1, 1},
                                                                  {1, 1}},
            {{2, 0}, {1, 3}}, // asymmetric
            {{0, 0}, {0, 0}}, // nothing to do
            {{3, 3}, {3, 3}}, // past a neighbour's core of 1 or 0
            {{0, 1}, {2, 0}}})
        for (bool padded : {false, true}) {
          HaloGrid c = onAxes(grid, split, lo, hi);
          c.padded = padded;
          c.async = padded; // both paths, without doubling the cases
          INFO(describe(c));
          CHECK(runCase(c) == "");
        }
}

TEST_CASE("update_halo on 3-D grids", "[update_halo]") {
  const int64_t P = worldSize();
  for (const auto &grid : grids(P, 3))
    for (Split split : {Split::Even, Split::Uneven})
      for (bool padded : {false, true}) {
        HaloGrid c = onAxes(grid, split, {1, 2, 1}, {2, 1, 0});
        c.padded = padded;
        INFO(describe(c));
        CHECK(runCase(c) == "");
      }
}

TEST_CASE("update_halo with unsplit dimensions, unused and combined axes",
          "[update_halo]") {
  const int64_t P = worldSize();
  // Dimension 1 not split, with a halo outside the array.
  HaloGrid unsplit;
  unsplit.grid = {P};
  unsplit.axes = {{0}, {}};
  unsplit.cores = {cores(P, Split::Uneven), {4}};
  unsplit.lo = {2, 2};
  unsplit.hi = {1, 3};
  INFO(describe(unsplit));
  CHECK(runCase(unsplit) == "");

  if (P % 2 == 0) {
    // Grid axis 1 used by no dimension: both of its ranks hold each block.
    HaloGrid replicated;
    replicated.grid = {P / 2, 2};
    replicated.axes = {{0}, {}};
    replicated.cores = {cores(P / 2, Split::Uneven), {3}};
    replicated.lo = {2, 1};
    replicated.hi = {1, 1};
    INFO(describe(replicated));
    CHECK(runCase(replicated) == "");
    // Dimension 0 over both axes, listed slowest-first as (1, 0).
    HaloGrid combined;
    combined.grid = {P / 2, 2};
    combined.axes = {{1, 0}, {}};
    combined.cores = {cores(P, Split::Uneven), {2}};
    combined.lo = {3, 0};
    combined.hi = {2, 1};
    INFO(describe(combined));
    CHECK(runCase(combined) == "");
  }
}

TEST_CASE("update_halo on other element types", "[update_halo]") {
  for (Dtype dtype : {Dtype::I32, Dtype::I8, Dtype::BF16}) {
    HaloGrid c = onAxes({1, worldSize()}, Split::Even, {1, 1}, {1, 1});
    c.dtype = dtype;
    c.padded = true;
    INFO(describe(c) << ", " << dtypeName(dtype));
    CHECK(runCase(c) == "");
  }
}

TEST_CASE("update_halo reuses a cached plan and replans on a new shape",
          "[update_halo]") {
  const int64_t P = worldSize();
  HaloGrid c = onAxes(grids(P, 2).back(), Split::Uneven, {2, 1}, {1, 2});
  c.key = 42;
  for (int step = 0; step < 3; ++step) {
    c.shift = step;
    c.async = step == 1;
    INFO(describe(c) << ", step " << step);
    CHECK(runCase(c) == "");
  }
  // A new shape on every rank at the same call: planned again.
  c.cores = {cores(c.grid[0], Split::Empty), cores(c.grid[1], Split::Even)};
  for (int step = 3; step < 5; ++step) {
    c.shift = step;
    INFO(describe(c) << ", step " << step);
    CHECK(runCase(c) == "");
  }
}

TEST_CASE("update_halo rejects bad specs on every rank", "[update_halo]") {
  const int64_t P = worldSize(), me = worldRank();
  std::vector<double> data(64);
  const std::vector<int64_t> sizes{4, 4}, strides{4, 1};
  const MemrefView block(data.data(), sizes, strides);
  auto run = [&](std::vector<int64_t> spec) {
    updateHalo(Team(), -1, Dtype::F64, block, spec);
  };
  CHECK_THROWS_WITH(run({1, P + 1, 1, 1, 1, 0, 0, 0, 0}),
                    Contains(fmt::format("the grid [{}] has {} processes but "
                                         "the team has {}",
                                         P + 1, P + 1, P)));
  CHECK_THROWS_WITH(run({1, P, 1, 1, 1, 0, 0, 0, 1, 0}),
                    Contains("grid axis 0 is used by dimension 0 and "
                             "dimension 1"));
  CHECK_THROWS_WITH(run({1, P, 1, 1, 1, 2, 0, 0, 0}),
                    Contains("dimension 0 uses grid axis 2, outside the grid "
                             "of rank 1"));
  CHECK_THROWS_WITH(run({1, P, 3, 2, 1, 0, 0, 0, 0}),
                    Contains("dimension 0: the block's size 4 is smaller "
                             "than its halo widths 3 + 2"));
  CHECK_THROWS_WITH(run({1, P, 1, 1, 1, 0}),
                    Contains("the spec has 6 values, too few for dimension 1"));
  CHECK_THROWS_WITH(
      updateHalo(Team(), -1, Dtype::F64, block, std::vector<int64_t>{}),
      Contains("must start with the grid's rank"));
  // One rank wrong: it names its mistake, the others name it.
  if (me == 0)
    CHECK_THROWS_WITH(run({1, P, -1, 1, 1, 0, 0, 0, 0}),
                      Contains("dimension 0 has halo widths -1 and 1"));
  else
    CHECK_THROWS_WITH(run({1, P, 1, 1, 1, 0, 0, 0, 0}),
                      Contains("rank 0 passed an invalid update_halo block "
                               "or spec"));
  if (P > 1) {
    // Valid but different specs.
    CHECK_THROWS_WITH(run({1, P, me == 0 ? 1 : 0, 1, 1, 0, 0, 0, 0}),
                      Contains("the ranks pass different specs: rank ") &&
                          Contains(fmt::format("rank {} [1, {}, {}, 1, 1, 0, "
                                               "0, 0, 0]",
                                               me, P, me == 0 ? 1 : 0)));
    // Not Cartesian: dimension 1 is not split but the extents differ.
    const std::vector<int64_t> mySizes{4, 4 + (me == 1 ? 1 : 0)};
    CHECK_THROWS_WITH(
        updateHalo(Team(), -1, Dtype::F64,
                   MemrefView(data.data(), mySizes, strides),
                   std::vector<int64_t>{1, P, 1, 1, 1, 0, 0, 0, 0}),
        Contains("dimension 1 is not split, but rank 0 has a core extent of "
                 "4 along it and rank 1 one of 5"));
  }
  if (P == 4) {
    // 2x2, dimension 0 on axis 0: ranks 0 and 1 hold block 0.
    const std::vector<int64_t> mySizes{4 + (me == 1 ? 1 : 0), 4};
    CHECK_THROWS_WITH(
        updateHalo(Team(), -1, Dtype::F64,
                   MemrefView(data.data(), mySizes, strides),
                   std::vector<int64_t>{2, 2, 2, 1, 1, 1, 0, 0, 0, 1, 1}),
        Contains("dimension 0: ranks 0 and 1 hold block 0 (grid axes [0]) "
                 "but have core extents 2 and 3 along it"));
  }
  // Every rank is still in step: a valid call works.
  HaloGrid c = onAxes({P}, Split::Even, {1}, {1});
  CHECK(runCase(c) == "");
}

TEST_CASE("checked mode names a rank that replans update_halo alone",
          "[update_halo]") {
  const int64_t P = worldSize(), me = worldRank();
  HaloGrid c = onAxes({P}, Split::Even, {1}, {1});
  c.key = 7;
  CHECK(runCase(c) == "");
  if (P < 2)
    return;
  const CheckedScope checked;
  if (me == 0)
    c.cores = {std::vector<int64_t>(static_cast<size_t>(P), 4)};
  CHECK_THROWS_WITH(runCase(c),
                    Contains("update_halo") && Contains("replanned"));
}

TEST_CASE("update_halo with strided faces past the packing limit",
          "[update_halo]") {
  // Columns of 20000 f64 (160 KB) travel as derived types, not packed.
  HaloGrid c;
  c.grid = {1, worldSize()};
  c.axes = {{0}, {1}};
  c.cores = {{20000}, cores(worldSize(), Split::Uneven)};
  c.lo = {0, 2};
  c.hi = {1, 1};
  for (bool async : {false, true}) {
    c.async = async;
    INFO(describe(c));
    CHECK(runCase(c) == "");
  }
}

TEST_CASE("update_halo in a loop keeps every round's cells", "[update_halo]") {
  // From its second call a held plan's messages on this node travel through
  // shared memory (runtime/HaloChannel.h): every round must still deliver
  // that round's values, sync or async, dense or packed.
  const int64_t P = worldSize();
  int64_t key = 100;
  for (const auto &grid : grids(P, 2))
    for (bool padded : {false, true}) {
      HaloGrid c = onAxes(grid, Split::Uneven, {2, 1}, {1, 2});
      c.padded = padded;
      c.key = key++;
      for (int step = 0; step < 10; ++step) {
        c.shift = step * 7;
        c.async = step % 3 == 2;
        INFO(describe(c) << ", step " << step);
        CHECK(runCase(c) == "");
      }
    }
}

TEST_CASE("update_halo with many exchanges in flight, waited in any order",
          "[update_halo]") {
  // One key, one shape, kBuffers blocks: all started before any is waited,
  // more than a shared-memory message has slots, then waited last first.
  // A 1-D array of 3 cells per rank, halos of one cell on either side.
  const int64_t P = worldSize(), me = worldRank();
  constexpr int kBuffers = 9;
  constexpr double kOutside = -1;
  const std::vector<int64_t> spec{1, P, 1, 1, 1, 0};
  const std::vector<int64_t> sizes{5}, strides{1};
  auto expected = [&](int b, int64_t local) {
    const int64_t global = me * 3 + local - 1;
    return global < 0 || global >= 3 * P
               ? kOutside
               : static_cast<double>(global + 1000 * b);
  };
  for (int round = 0; round < 3; ++round) {
    std::vector<std::vector<double>> blocks(kBuffers);
    std::vector<Request> requests;
    for (int b = 0; b < kBuffers; ++b) {
      blocks[b].assign(5, kOutside);
      for (int64_t i = 1; i < 4; ++i)
        blocks[b][static_cast<size_t>(i)] = expected(b, i);
      requests.push_back(
          updateHaloAsync(Team(), /*key=*/77, Dtype::F64,
                          MemrefView(blocks[b].data(), sizes, strides), spec));
    }
    for (int b = kBuffers; b-- > 0;)
      requests[static_cast<size_t>(b)].wait();
    for (int b = 0; b < kBuffers; ++b)
      for (int64_t i = 0; i < 5; ++i) {
        INFO("rank " << me << ", round " << round << ", block " << b
                     << ", cell " << i);
        CHECK(blocks[b][static_cast<size_t>(i)] == expected(b, i));
      }
  }
}
