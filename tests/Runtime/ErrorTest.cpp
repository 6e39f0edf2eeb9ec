//===- ErrorTest.cpp - Bad input gives a clear distrt::Error ----*- C++ -*-===//
//
// Every case fails the same way on every rank (or, where only some ranks are
// wrong, every rank still throws), so no rank is left waiting in a collective.
//
//===----------------------------------------------------------------------===//

#include "TestUtil.h"

#include <catch2/catch.hpp>

#include <vector>

using namespace distrt;
using namespace distrt::test;
using Catch::Contains;

namespace {

/// A 1-D f64 block distribution of n = 2P rows, two per rank, for get_halo.
struct Halo1D {
  int64_t P = worldSize(), me = worldRank();
  std::vector<int64_t> gShape{2 * P}, lOffsets{2 * me}, bbOffsets{2 * me},
      bbSizes{2};
  std::vector<double> local = std::vector<double>(2, 1.0);
  std::vector<double> left = std::vector<double>(8),
                      right = std::vector<double>(8);
  std::vector<int64_t> localSize{2}, leftSize{0}, rightSize{0}, unit{1};

  HaloGeometry geometry() const {
    return {gShape, lOffsets, bbOffsets, bbSizes};
  }
  Request run(int64_t key = -1, Dtype dtype = Dtype::F64) {
    return getHalo(Team(), key, dtype,
                   MemrefView(local.data(), localSize, unit), geometry(),
                   MemrefView(left.data(), leftSize, unit),
                   MemrefView(right.data(), rightSize, unit));
  }
};

} // namespace

TEST_CASE("an unknown team is a clear error", "[error]") {
  try {
    Team team(7);
    FAIL("no error for team 7");
  } catch (const Error &error) {
    CHECK(error.team() == 7);
    CHECK(error.rank() == worldRank());
    // Which teams there are, and how to add one.
    CHECK_THAT(error.message(),
               Catch::StartsWith("unknown team 7; registered teams: 0") &&
                   Contains("with distrt_team_register or "
                            "distrt::Team::registerComm)"));
    CHECK_THAT(error.what(), Contains("team 7, rank ") &&
                                 Contains(": unknown team 7") &&
                                 Contains("ErrorTest.cpp:"));
  }
  CHECK_THROWS_WITH(distrt::Team(-3), Contains("unknown team -3"));
}

TEST_CASE("waiting twice or on a made-up handle is a clear error", "[error]") {
  std::vector<int32_t> data{1, 2, 3};
  Request request =
      allreduceAsync(Team(), RedOp::Sum, std::span<int32_t>(data));
  const distrt_handle_t handle = request.release();
  distrt::wait(handle);
  CHECK(data[2] == 3 * worldSize());
  CHECK_THROWS_WITH(distrt::wait(handle),
                    Contains("was already waited or is invalid"));
  CHECK_THROWS_WITH(distrt::wait(0), Contains("was already waited"));
  CHECK_THROWS_WITH(distrt::wait(0x12345678), Contains("or is invalid"));
  // A Request waited by hand is empty afterwards; waiting again is a no-op.
  Request again = allreduceAsync(Team(), RedOp::Sum, std::span<int32_t>(data));
  again.wait();
  CHECK_FALSE(again.pending());
  CHECK_NOTHROW(again.wait());
}

TEST_CASE("invalid element types and reductions are clear errors", "[error]") {
  std::vector<double> data(3, 1.0);
  const int64_t size = 3, stride = 1;
  const MemrefView view(data.data(), {&size, 1}, {&stride, 1});
  CHECK_THROWS_WITH(allreduce(Team(), RedOp::Sum, static_cast<Dtype>(99), view),
                    Contains("invalid element type 99"));
  CHECK_THROWS_WITH(allreduce(Team(), static_cast<RedOp>(13), Dtype::F64, view),
                    Contains("invalid reduction 13 (expected 0..12)"));
  CHECK_THROWS_WITH(allreduce(Team(), RedOp::Xor, Dtype::F64, view),
                    Contains("reduction 'xor' is not defined on "
                             "floating-point type f64"));
  const int64_t negative = -1;
  CHECK_THROWS_WITH(
      allreduce(Team(), RedOp::Sum, Dtype::F64,
                MemrefView(data.data(), {&negative, 1}, {&stride, 1})),
      Contains("negative size -1"));
}

TEST_CASE("get_halo rejects a bounding box outside the array", "[error]") {
  Halo1D h;
  h.bbSizes = {h.gShape[0] + 1};
  h.bbOffsets = {0};
  CHECK_THROWS_WITH(h.run(), Contains("bounding box [0, " +
                                      std::to_string(h.gShape[0] + 1) +
                                      ") in dimension 0 lies outside the "
                                      "global extent [0, " +
                                      std::to_string(h.gShape[0]) + ")"));
  Halo1D negative;
  negative.bbSizes = {-2};
  CHECK_THROWS_WITH(negative.run(), Contains("negative size -2"));
  // An end past int64 is outside, never wrapped back into the array.
  Halo1D huge;
  huge.bbOffsets = {1};
  huge.bbSizes = {INT64_MAX};
  CHECK_THROWS_WITH(huge.run(),
                    Contains("bounding box [1, 9223372036854775808) in "
                             "dimension 0 lies outside the global extent"));
  Halo1D far;
  far.lOffsets = {INT64_MAX - 1};
  CHECK_THROWS_WITH(far.run(), Contains("the local rows [9223372036854775806, "
                                        "9223372036854775808) lie outside"));
}

TEST_CASE("a mistake on one rank fails get_halo on every rank", "[error]") {
  Halo1D h;
  if (h.me == 0)
    h.bbOffsets = {-1};
  if (h.me == 0)
    CHECK_THROWS_WITH(h.run(), Contains("bounding box [-1, 1)"));
  else
    CHECK_THROWS_WITH(h.run(), Contains("rank 0 passed an invalid get_halo "
                                        "geometry"));
}

TEST_CASE("get_halo checks the local block against the global array",
          "[error]") {
  Halo1D outside;
  outside.lOffsets = {outside.gShape[0] - 1};
  outside.bbOffsets = {outside.gShape[0] - 1};
  outside.bbSizes = {1};
  CHECK_THROWS_WITH(outside.run(), Contains("lie outside the global array"));

  // Everyone claims rows [0, 2).
  Halo1D overlap;
  overlap.lOffsets = {0};
  overlap.bbOffsets = {0};
  if (overlap.P > 1)
    CHECK_THROWS_WITH(overlap.run(),
                      Contains("rows [0, 2) are owned by both rank"));

  // A global array one row longer than the ranks own: the last rank's box
  // reaches the unowned row.
  Halo1D gap;
  gap.gShape = {2 * gap.P + 1};
  if (gap.me == gap.P - 1) {
    gap.bbSizes = {3};
    gap.rightSize = {1};
  }
  CHECK_THROWS_WITH(
      gap.run(),
      Contains("rows [" + std::to_string(2 * gap.P) + ", " +
               std::to_string(2 * gap.P + 1) + ") requested by rank " +
               std::to_string(gap.P - 1) + " are owned by no rank"));

  // A row between two owners (rank 0 owns [0, 2), rank k > 0 rows
  // [2k + 1, 2k + 3)): the requester's box starts at row 2, owned by no
  // rank; the gap ends where the next owner begins, before the halo does
  // when the halo also covers rank 1's rows (P > 2).
  if (gap.P > 1) {
    Halo1D middle;
    const int64_t requester = middle.P > 2 ? 2 : 1;
    middle.gShape = {2 * middle.P + 1};
    if (middle.me > 0) {
      middle.lOffsets = {2 * middle.me + 1};
      middle.bbOffsets = {2 * middle.me + 1};
    }
    if (middle.me == requester) {
      middle.bbOffsets = {2};
      middle.bbSizes = {2 * requester + 1};
      middle.leftSize = {2 * requester - 1};
    }
    CHECK_THROWS_WITH(middle.run(), Contains("rows [2, 3) requested by rank " +
                                             std::to_string(requester) +
                                             " are owned by no rank"));
  }

  // Dimension 1 must not be distributed.
  std::vector<double> local(4), halo(4);
  const std::vector<int64_t> shape{2, 2}, strides{2, 1}, empty{0, 2};
  const std::vector<int64_t> gShape{2, 4}, lOffsets{0, 0}, bbOffsets{0, 0},
      bbSizes{2, 2};
  CHECK_THROWS_WITH(getHalo(Team(), -1, Dtype::F64,
                            MemrefView(local.data(), shape, strides),
                            {gShape, lOffsets, bbOffsets, bbSizes},
                            MemrefView(halo.data(), empty, strides),
                            MemrefView(halo.data(), empty, strides)),
                    Contains("only dimension 0 is distributed"));
}

TEST_CASE("get_halo checks the halo shapes and geometry lengths", "[error]") {
  Halo1D wrongHalo;
  wrongHalo.leftSize = {3};
  CHECK_THROWS_WITH(wrongHalo.run(),
                    Contains("the left halo has shape [3] but the geometry "
                             "implies [0]"));
  // Also when the plan is cached.
  Halo1D cached;
  cached.run(5).wait();
  cached.rightSize = {1};
  CHECK_THROWS_WITH(cached.run(5), Contains("the right halo has shape [1] but "
                                            "the geometry implies [0]"));

  std::vector<double> local(2), halo(2);
  const std::vector<int64_t> size{2}, unit{1}, zero{0};
  const std::vector<int64_t> three{1, 2, 3};
  const int64_t me = worldRank();
  const std::vector<int64_t> gShape{2 * worldSize()}, offset{2 * me};
  CHECK_THROWS_WITH(getHalo(Team(), -1, Dtype::F64,
                            MemrefView(local.data(), size, unit),
                            {gShape, offset, offset, three},
                            MemrefView(halo.data(), zero, unit),
                            MemrefView(halo.data(), zero, unit)),
                    Contains("geometry arrays have lengths 1, 1, 1, 3"));
}

TEST_CASE("ranks that disagree on the element type get a size error",
          "[error]") {
  // Rank 0 exchanges f64, the others i16: rank 0 receives too few bytes from
  // rank 1 and rank 1 too many from rank 0. Ranks >= 2 talk only to ranks of
  // their own kind and succeed.
  Halo1D h;
  if (h.P < 2)
    return;
  h.bbOffsets = {std::max<int64_t>(0, 2 * h.me - 1)};
  h.bbSizes = {std::min<int64_t>(2 * h.P, 2 * h.me + 3) - h.bbOffsets[0]};
  h.leftSize = {h.me > 0 ? 1 : 0};
  h.rightSize = {h.me < h.P - 1 ? 1 : 0};
  const Dtype dtype = h.me == 0 ? Dtype::F64 : Dtype::I16;
  if (h.me == 0)
    CHECK_THROWS_WITH(h.run(3, dtype).wait(),
                      Contains("from rank 1 for the right halo") &&
                          Contains("the ranks disagree"));
  else if (h.me == 1)
    CHECK_THROWS_WITH(h.run(3, dtype).wait(),
                      Contains("rank 0 sent more than the 1 elements expected "
                               "for the left halo"));
  else
    CHECK_NOTHROW(h.run(3, dtype).wait());
}
