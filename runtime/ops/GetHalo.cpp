//===- GetHalo.cpp - get_halo -----------------------------------*- C++ -*-===//
//
// A global array is distributed along dimension 0: each rank owns the rows
// [lOffsets[0], lOffsets[0] + local.sizes[0]) and all columns. A rank asks for
// the rows of its bounding box that lie before (left halo) and after (right
// halo) its own rows, restricted to the bbox in dims >= 1.
//
// Planning allgathers every rank's rows and bbox over the team, checks them
// identically on every rank (so an inconsistent call fails everywhere instead
// of hanging), and derives this rank's sends (its rows that a peer's halo
// needs) and receives (its halo rows and who owns them). Exchanging then
// talks only to those peers: receives are posted first, straight into the
// halo at the right row when the halo is contiguous, then sends, straight
// from the local block when the rows are contiguous there. Plans are cached
// per (team, key) and reused while this rank's geometry is unchanged.
//
//===----------------------------------------------------------------------===//

#include "../Check.h"
#include "../Dtype.h"
#include "../Error.h"
#include "../Halo.h"
#include "../Memref.h"
#include "../Operands.h"
#include "../Request.h"
#include "../Team.h"

#include <fmt/ranges.h>

#include <algorithm>
#include <array>
#include <climits>

namespace distrt::detail {

namespace {

// Tags name the receiver's halo: an empty rank may get both halos from one
// sender.
constexpr int kLeftTag = 1;
constexpr int kRightTag = 2;

// The allgathered header of each rank.
enum HeaderField : int {
  kStatus,
  kRank,
  kGlobalRows,
  kRowBegin,
  kRowCount,
  kBoxBegin,
  kBoxEnd,
  kHeaderFields
};
// Per dimension d >= 1: global size, bbox offset, bbox size.
constexpr int kDimFields = 3;

struct Rows {
  int64_t begin, end;
  bool empty() const { return begin >= end; }
};

} // namespace

static Rows intersect(Rows a, Rows b) {
  return {std::max(a.begin, b.begin), std::min(a.end, b.end)};
}
static Rows leftHaloRows(int64_t rowBegin, int64_t boxBegin, int64_t boxEnd) {
  return {boxBegin, std::min(boxEnd, rowBegin)};
}
static Rows rightHaloRows(int64_t rowEnd, int64_t boxBegin, int64_t boxEnd) {
  return {std::max(boxBegin, rowEnd), boxEnd};
}
static int64_t length(Rows rows) {
  return std::max<int64_t>(0, rows.end - rows.begin);
}

/// The error for a halo whose shape differs from [rows, bbSizes[1..]], or "".
static std::string haloShapeError(const MemrefView &halo, const char *side,
                                  int64_t rank, int64_t rows,
                                  std::span<const int64_t> bbSizes) {
  bool ok = halo.rank == rank && rank >= 1 && halo.sizes[0] == rows;
  for (int64_t d = 1; ok && d < rank; ++d)
    ok = halo.sizes[d] == bbSizes[d];
  if (ok)
    return {};
  std::vector<int64_t> expected(bbSizes.begin(), bbSizes.end());
  if (!expected.empty())
    expected[0] = rows;
  return fmt::format("the {} halo has shape {} but the geometry implies {}",
                     side,
                     shapeText({halo.sizes, static_cast<size_t>(halo.rank)}),
                     shapeText(expected));
}

/// [offset, offset + size) is not within [0, extent) (size >= 0, extent
/// >= 0), compared without the sum, which may pass int64.
static bool outside(int64_t offset, int64_t size, int64_t extent) {
  return offset < 0 || offset > extent || size > extent - offset;
}

/// offset + size for a message, exact past int64.
static std::string end(int64_t offset, int64_t size) {
  return fmt::format("{}", static_cast<__int128>(offset) + size);
}

/// Everything this rank can check alone; returns the first error or "".
static std::string localError(int32_t dtype, const MemrefView &local,
                              const HaloGeometry &g, const MemrefView &left,
                              const MemrefView &right) {
  const int64_t r = local.rank;
  if (r < 1)
    return "the local block must have rank >= 1";
  const auto n = static_cast<size_t>(r);
  if (g.gShape.size() != n || g.lOffsets.size() != n ||
      g.bbOffsets.size() != n || g.bbSizes.size() != n)
    return fmt::format("geometry arrays have lengths {}, {}, {}, {} (gShape, "
                       "lOffsets, bbOffsets, bbSizes); expected {} each, the "
                       "rank of the local block",
                       g.gShape.size(), g.lOffsets.size(), g.bbOffsets.size(),
                       g.bbSizes.size(), r);
  if (dtype < 0 || dtype >= DISTRT_NUM_DTYPES)
    return fmt::format("invalid element type {}", dtype);
  for (int64_t d = 0; d < r; ++d) {
    if (local.sizes[d] < 0)
      return fmt::format("the local block has a negative size {} in "
                         "dimension {}",
                         local.sizes[d], d);
    if (g.gShape[d] < 0)
      return fmt::format("the global shape {} has a negative size",
                         shapeText(g.gShape));
  }
  for (int64_t d = 1; d < r; ++d) {
    if (g.lOffsets[d] != 0 || local.sizes[d] != g.gShape[d])
      return fmt::format(
          "only dimension 0 is distributed, but in dimension {} the local "
          "block has offset {} and size {} in a global extent of {}",
          d, g.lOffsets[d], local.sizes[d], g.gShape[d]);
  }
  if (outside(g.lOffsets[0], local.sizes[0], g.gShape[0]))
    return fmt::format("the local rows [{}, {}) lie outside the global array "
                       "of {} rows",
                       g.lOffsets[0], end(g.lOffsets[0], local.sizes[0]),
                       g.gShape[0]);
  for (int64_t d = 0; d < r; ++d) {
    if (g.bbSizes[d] < 0)
      return fmt::format("the bounding box has a negative size {} in "
                         "dimension {}",
                         g.bbSizes[d], d);
    if (outside(g.bbOffsets[d], g.bbSizes[d], g.gShape[d]))
      return fmt::format("the bounding box [{}, {}) in dimension {} lies "
                         "outside the global extent [0, {})",
                         g.bbOffsets[d], end(g.bbOffsets[d], g.bbSizes[d]), d,
                         g.gShape[d]);
  }
  const int64_t boxEnd = g.bbOffsets[0] + g.bbSizes[0];
  const int64_t rowEnd = g.lOffsets[0] + local.sizes[0];
  std::string error = haloShapeError(
      left, "left", r,
      length(leftHaloRows(g.lOffsets[0], g.bbOffsets[0], boxEnd)), g.bbSizes);
  if (error.empty())
    error = haloShapeError(
        right, "right", r,
        length(rightHaloRows(rowEnd, g.bbOffsets[0], boxEnd)), g.bbSizes);
  return error;
}

static bool sameGeometry(const HaloPlan &plan, const MemrefView &local,
                         const HaloGeometry &g) {
  const int64_t r = local.rank;
  const auto n = static_cast<size_t>(r);
  if (plan.rank != r || g.gShape.size() != n || g.lOffsets.size() != n ||
      g.bbOffsets.size() != n || g.bbSizes.size() != n)
    return false;
  const int64_t *p = plan.geometry.data();
  return std::equal(g.gShape.begin(), g.gShape.end(), p) &&
         std::equal(g.lOffsets.begin(), g.lOffsets.end(), p + r) &&
         std::equal(g.bbOffsets.begin(), g.bbOffsets.end(), p + 2 * r) &&
         std::equal(g.bbSizes.begin(), g.bbSizes.end(), p + 3 * r) &&
         std::equal(local.sizes, local.sizes + r, p + 4 * r);
}

static int checkedCount(int64_t count) {
  if (count > INT_MAX)
    raise("a halo message of {} elements exceeds MPI's int count", count);
  return static_cast<int>(count);
}

namespace {

struct Owner {
  Rows rows;
  int rank;
};

} // namespace

/// Collective over the team: gathers every rank's geometry, validates it the
/// same way on every rank and computes this rank's sends and receives.
static void makePlan(TeamState &team, HaloPlan &plan, int32_t dtype,
                     const MemrefView &local, const HaloGeometry &g,
                     const MemrefView &left, const MemrefView &right) {
  plan.valid = false;
  const std::string error = localError(dtype, local, g, left, right);
  const int64_t r = local.rank;
  const int ranks = team.size, me = team.rank;

  std::array<int64_t, kHeaderFields> header{};
  header[kStatus] = error.empty() ? 0 : 1;
  header[kRank] = r;
  if (error.empty()) {
    header[kGlobalRows] = g.gShape[0];
    header[kRowBegin] = g.lOffsets[0];
    header[kRowCount] = local.sizes[0];
    header[kBoxBegin] = g.bbOffsets[0];
    header[kBoxEnd] = g.bbOffsets[0] + g.bbSizes[0];
  }
  plan.gathered.resize(static_cast<size_t>(ranks) * kHeaderFields);
  checkMpi(MPI_Allgather(header.data(), kHeaderFields, MPI_INT64_T,
                         plan.gathered.data(), kHeaderFields, MPI_INT64_T,
                         team.comm),
           "MPI_Allgather");
  auto field = [&](int p, HeaderField f) {
    return plan.gathered[static_cast<size_t>(p) * kHeaderFields + f];
  };
  if (!error.empty())
    throw Failure(error);
  for (int p = 0; p < ranks; ++p)
    if (field(p, kStatus))
      raise("rank {} passed an invalid get_halo geometry (see its error)", p);
  for (int p = 0; p < ranks; ++p)
    if (field(p, kRank) != r)
      raise("rank {} passed a local block of rank {}, this rank one of rank {}",
            p, field(p, kRank), r);

  // Every rank now knows the others passed valid geometry of the same rank:
  // the second allgather happens on all of them or on none.
  const int dimFields = kDimFields * static_cast<int>(r - 1);
  plan.gatheredDims.resize(static_cast<size_t>(ranks) *
                           static_cast<size_t>(dimFields));
  if (dimFields > 0) {
    std::vector<int64_t> mine;
    mine.reserve(static_cast<size_t>(dimFields));
    for (int64_t d = 1; d < r; ++d)
      mine.insert(mine.end(), {g.gShape[d], g.bbOffsets[d], g.bbSizes[d]});
    checkMpi(MPI_Allgather(mine.data(), dimFields, MPI_INT64_T,
                           plan.gatheredDims.data(), dimFields, MPI_INT64_T,
                           team.comm),
             "MPI_Allgather");
  }
  auto dimField = [&](int p, int64_t d, int k) {
    return plan
        .gatheredDims[static_cast<size_t>(p) * static_cast<size_t>(dimFields) +
                      static_cast<size_t>((d - 1) * kDimFields + k)];
  };

  for (int p = 0; p < ranks; ++p) {
    bool same = field(p, kGlobalRows) == g.gShape[0];
    for (int64_t d = 1; same && d < r; ++d)
      same = dimField(p, d, 0) == g.gShape[d];
    if (!same) {
      std::vector<int64_t> theirs{field(p, kGlobalRows)};
      for (int64_t d = 1; d < r; ++d)
        theirs.push_back(dimField(p, d, 0));
      raise("rank {} has global shape {}, rank {} has {}", p, shapeText(theirs),
            me, shapeText(g.gShape));
    }
  }

  std::vector<Owner> owners;
  for (int p = 0; p < ranks; ++p)
    if (field(p, kRowCount) > 0)
      owners.push_back(
          {{field(p, kRowBegin), field(p, kRowBegin) + field(p, kRowCount)},
           p});
  std::sort(owners.begin(), owners.end(), [](const Owner &a, const Owner &b) {
    return a.rows.begin < b.rows.begin;
  });
  for (size_t i = 1; i < owners.size(); ++i) {
    const Rows both = intersect(owners[i - 1].rows, owners[i].rows);
    if (!both.empty())
      raise("rows [{}, {}) are owned by both rank {} and rank {}", both.begin,
            both.end, owners[i - 1].rank, owners[i].rank);
  }

  // Every requested row must have an owner; checked for all ranks so that all
  // fail together.
  auto checkCovered = [&](Rows wanted, int p) {
    int64_t next = wanted.begin;
    for (const Owner &owner : owners) {
      if (next >= wanted.end)
        break;
      if (owner.rows.end <= next)
        continue;
      if (owner.rows.begin > next)
        break;
      next = owner.rows.end;
    }
    if (next < wanted.end) {
      int64_t gapEnd = wanted.end;
      for (const Owner &owner : owners)
        if (owner.rows.begin > next) {
          gapEnd = std::min(gapEnd, owner.rows.begin);
          break;
        }
      raise("rows [{}, {}) requested by rank {} are owned by no rank", next,
            gapEnd, p);
    }
  };
  auto haloRowsOf = [&](int p, bool rightSide) {
    const int64_t begin = field(p, kRowBegin);
    const int64_t end = begin + field(p, kRowCount);
    return rightSide
               ? rightHaloRows(end, field(p, kBoxBegin), field(p, kBoxEnd))
               : leftHaloRows(begin, field(p, kBoxBegin), field(p, kBoxEnd));
  };
  for (int p = 0; p < ranks; ++p)
    for (bool rightSide : {false, true})
      if (Rows wanted = haloRowsOf(p, rightSide); !wanted.empty())
        checkCovered(wanted, p);

  // This rank's part of the exchange.
  plan.rank = r;
  plan.geometry.clear();
  for (std::span<const int64_t> part :
       {g.gShape, g.lOffsets, g.bbOffsets, g.bbSizes})
    plan.geometry.insert(plan.geometry.end(), part.begin(), part.end());
  plan.geometry.insert(plan.geometry.end(), local.sizes, local.sizes + r);
  plan.rowElements = 1;
  for (int64_t d = 1; d < r; ++d)
    plan.rowElements *= g.bbSizes[d];
  const Rows myLeft = haloRowsOf(me, false), myRight = haloRowsOf(me, true);
  plan.leftRows = length(myLeft);
  plan.rightRows = length(myRight);
  plan.recvs.clear();
  plan.sends.clear();
  plan.boxes.clear();

  for (const Owner &owner : owners) {
    if (owner.rank == me)
      continue;
    for (bool rightSide : {false, true}) {
      const Rows halo = rightSide ? myRight : myLeft;
      const Rows rows = intersect(halo, owner.rows);
      if (rows.empty() || plan.rowElements == 0)
        continue;
      plan.recvs.push_back({owner.rank, rightSide ? kRightTag : kLeftTag,
                            rightSide, rows.begin - halo.begin,
                            checkedCount(length(rows) * plan.rowElements)});
    }
  }

  const Rows myRows{g.lOffsets[0], g.lOffsets[0] + local.sizes[0]};
  for (int q = 0; q < ranks && !myRows.empty(); ++q) {
    if (q == me)
      continue;
    int64_t theirRowElements = 1;
    bool wholeRows = true;
    for (int64_t d = 1; d < r; ++d) {
      theirRowElements *= dimField(q, d, 2);
      wholeRows = wholeRows && dimField(q, d, 1) == 0 &&
                  dimField(q, d, 2) == g.gShape[d];
    }
    for (bool rightSide : {false, true}) {
      const Rows rows = intersect(haloRowsOf(q, rightSide), myRows);
      if (rows.empty() || theirRowElements == 0)
        continue;
      const size_t boxIndex = plan.boxes.size();
      plan.boxes.push_back(length(rows));
      for (int64_t d = 1; d < r; ++d)
        plan.boxes.push_back(dimField(q, d, 2));
      for (int64_t d = 1; d < r; ++d)
        plan.boxes.push_back(dimField(q, d, 1));
      plan.sends.push_back(
          {q, rightSide ? kRightTag : kLeftTag, rows.begin - myRows.begin,
           checkedCount(length(rows) * theirRowElements), wholeRows, boxIndex});
    }
  }
  plan.valid = true;
}

/// Posts the exchange of `plan`; the returned handle completes it.
static distrt_handle_t exchange(TeamState &team, const HaloPlan &plan,
                                const DtypeInfo &type, const MemrefView &local,
                                const MemrefView &left, const MemrefView &right,
                                const SourceLoc &loc) {
  MPI_Comm comm = haloComm(team);
  const size_t size = type.size;
  const int64_t r = plan.rank;
  return runInSlot(
      "get_halo", team.id, loc, /*async=*/true, [&](RequestSlot &slot) {
        const bool localDense = isContiguous(local);
        const StridedBytes localBytes = stridedBytes(local, size);
        const StridedBytes halo[2] = {stridedBytes(left, size),
                                      stridedBytes(right, size)};
        const int64_t haloRows[2] = {plan.leftRows, plan.rightRows};
        const bool haloDense[2] = {isContiguous(left), isContiguous(right)};

        // Staging: halos that are not dense receive here and are unpacked at
        // completion; sends whose rows are not dense in `local` are packed
        // here.
        size_t bytes = 0;
        size_t haloStaging[2] = {0, 0};
        for (int side = 0; side < 2; ++side)
          if (!haloDense[side] && haloRows[side] > 0) {
            haloStaging[side] = bytes;
            bytes += alignUp(
                static_cast<size_t>(haloRows[side] * plan.rowElements) * size);
          }
        const size_t sendStaging = bytes;
        for (const HaloSend &send : plan.sends)
          if (!(localDense && send.wholeRows))
            bytes += alignUp(static_cast<size_t>(send.count) * size);
        slot.stage(bytes);
        std::byte *staging = slot.staging.data();

        const size_t rowBytes = static_cast<size_t>(plan.rowElements) * size;
        for (const HaloRecv &recv : plan.recvs) {
          const int side = recv.right ? 1 : 0;
          std::byte *target = (haloDense[side] ? halo[side].base
                                               : staging + haloStaging[side]) +
                              static_cast<size_t>(recv.haloRow) * rowBytes;
          slot.checks.push_back({static_cast<int>(slot.requests.size()),
                                 recv.count, recv.peer, type.mpi,
                                 recv.right ? "right halo" : "left halo"});
          postRequest(slot, "MPI_Irecv", [&](MPI_Request *request) {
            return MPI_Irecv(target, recv.count, type.mpi, recv.peer, recv.tag,
                             comm, request);
          });
        }

        size_t packOffset = sendStaging;
        for (const HaloSend &send : plan.sends) {
          const int64_t *box = plan.boxes.data() + send.boxIndex;
          std::byte *first = localBytes.base + send.localRow *
                                                   local.strides[0] *
                                                   static_cast<int64_t>(size);
          const void *source = first;
          if (!(localDense && send.wholeRows)) {
            for (int64_t d = 1; d < r; ++d)
              first += box[r + d - 1] * local.strides[d] *
                       static_cast<int64_t>(size);
            std::byte *packed = staging + packOffset;
            pack(StridedBytes{first, r, box, local.strides, size}, packed);
            packOffset += alignUp(static_cast<size_t>(send.count) * size);
            source = packed;
          }
          postRequest(slot, "MPI_Isend", [&](MPI_Request *request) {
            return MPI_Isend(source, send.count, type.mpi, send.peer, send.tag,
                             comm, request);
          });
        }

        for (int side = 0; side < 2; ++side)
          if (!haloDense[side] && haloRows[side] > 0)
            slot.addUnpack(haloStaging[side], halo[side].base, r,
                           side ? right.sizes : left.sizes,
                           side ? right.strides : left.strides, size);
      });
}

/// get_halo of either API: plans unless the plan of `key` holds, then
/// posts the exchange.
static distrt_handle_t getHalo(int64_t teamId, int64_t key, int32_t dtype,
                               const MemrefView &local,
                               const HaloGeometry &geometry,
                               const MemrefView &left, const MemrefView &right,
                               const SourceLoc &loc) {
  return guarded("get_halo", teamId, loc, [&] {
    Watch watch("get_halo", loc, teamId, kWaitsForTeam);
    TeamState &team = lookupTeam(teamId);
    HaloPlan *plan = &cachedPlan(team.haloPlans, team.scratchPlan, key);
    const bool holds = plan->valid && sameGeometry(*plan, local, geometry);
    // A rank that replans while another does not would wait for it forever.
    if (gChecked) [[unlikely]]
      agreeOnHalo("get_halo", teamId, key, dtype, local.rank, !holds, loc,
                  watch.record());
    if (holds) [[likely]] {
      // Validated when planned; only the halos may differ.
      for (const auto &[halo, side, rows] :
           {std::tuple{&left, "left", plan->leftRows},
            std::tuple{&right, "right", plan->rightRows}}) {
        bool ok = halo->rank == plan->rank && halo->sizes[0] == rows;
        for (int64_t d = 1; ok && d < plan->rank; ++d)
          ok = halo->sizes[d] == geometry.bbSizes[d];
        if (!ok)
          throw Failure(
              haloShapeError(*halo, side, plan->rank, rows, geometry.bbSizes));
      }
    } else {
      if (BlockedCall *b = watch.record()) {
        b->waitsFor = "the other members of team {team} to exchange "
                      "get_halo's plan headers (key {channel})";
        b->channel = key;
      }
      makePlan(team, *plan, dtype, local, geometry, left, right);
    }
    if (BlockedCall *b = watch.record()) {
      b->waitsFor = "the halo rows of team ranks {peers} (key {channel})";
      b->channel = key;
      b->peerCount = 0;
      for (const HaloRecv &recv : plan->recvs)
        b->addPeer(recv.peer);
    }
    return exchange(team, *plan, dtypeInfo(dtype), local, left, right, loc);
  });
}
} // namespace distrt::detail

using namespace distrt;
using namespace distrt::detail;

distrt_handle_t distrt_get_halo(int64_t team, int64_t key, int32_t dtype,
                                int64_t localRank, void *local,
                                int64_t geometryRank, void *geometry,
                                int64_t leftRank, void *left, int64_t rightRank,
                                void *right, const char *loc) {
  try {
    const MemrefView geometryView =
        unrankedArg(geometryRank, geometry, "geometry");
    // The geometry travels as one strided i64 memref of 4 * r values.
    if (geometryRank != 1)
      throw Failure(fmt::format(
          "the geometry must be a 1-D memref, got rank {}", geometryRank));
    const int64_t values = geometryView.sizes[0];
    if (localRank < 1 || values != 4 * localRank)
      throw Failure(fmt::format("the geometry has {} values, expected 4 * {} "
                                "(four per dimension of the local block)",
                                values, localRank));
    static thread_local std::vector<int64_t> dense;
    const int64_t *g = i64Values(geometryView, dense).data();
    const auto r = static_cast<size_t>(localRank);
    const HaloGeometry halo{{g, r}, {g + r, r}, {g + 2 * r, r}, {g + 3 * r, r}};
    return getHalo(team, key, dtype, unrankedArg(localRank, local, "local"),
                   halo, unrankedArg(leftRank, left, "left halo"),
                   unrankedArg(rightRank, right, "right halo"), SourceLoc(loc));
  } catch (...) {
    failCurrent("get_halo", team, loc);
  }
}

namespace distrt {

HaloShapes haloShapes(const HaloGeometry &g, int64_t localRows) {
  const size_t r = g.gShape.size();
  if (r == 0 || g.lOffsets.size() != r || g.bbOffsets.size() != r ||
      g.bbSizes.size() != r)
    throw std::invalid_argument(
        "distrt::haloShapes: geometry arrays must have the same length >= 1");
  const int64_t boxEnd = g.bbOffsets[0] + g.bbSizes[0];
  HaloShapes shapes{{g.bbSizes.begin(), g.bbSizes.end()},
                    {g.bbSizes.begin(), g.bbSizes.end()}};
  shapes.left[0] = detail::length(
      detail::leftHaloRows(g.lOffsets[0], g.bbOffsets[0], boxEnd));
  shapes.right[0] = detail::length(
      detail::rightHaloRows(g.lOffsets[0] + localRows, g.bbOffsets[0], boxEnd));
  return shapes;
}

Request getHalo(const Team &team, int64_t key, Dtype dtype,
                const MemrefView &local, const HaloGeometry &geometry,
                const MemrefView &left, const MemrefView &right,
                SourceLoc loc) {
  return Request(detail::getHalo(team.id(), key, static_cast<int32_t>(dtype),
                                 local, geometry, left, right, loc));
}

} // namespace distrt
