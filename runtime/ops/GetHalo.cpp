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
// per (team, key) and reused while this rank's geometry is unchanged
// (HaloDriver.h).
//
//===----------------------------------------------------------------------===//

#include "../Dtype.h"
#include "../Error.h"
#include "../HaloChannel.h"
#include "../HaloDriver.h"
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
// The allgathered extents of each rank per dimension d >= 1.
enum DimField : int { kDimGlobal, kDimBoxOffset, kDimBoxSize, kDimFields };

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

/// The headers every rank allgathered into a plan, read by rank.
class Gathered {
public:
  Gathered(const HaloPlan &plan, int64_t rank)
      : plan_(plan), dimFields_(static_cast<size_t>(kDimFields * (rank - 1))) {}
  int64_t field(int p, HeaderField f) const {
    return plan_.gathered[static_cast<size_t>(p) * kHeaderFields + f];
  }
  /// Rank p's field k (DimField) of dimension d >= 1.
  int64_t dim(int p, int64_t d, int k) const {
    return plan_.gatheredDims[static_cast<size_t>(p) * dimFields_ +
                              static_cast<size_t>((d - 1) * kDimFields + k)];
  }
  /// The rows of rank p's left or right halo.
  Rows haloRows(int p, bool rightSide) const {
    const int64_t begin = field(p, kRowBegin);
    const int64_t end = begin + field(p, kRowCount);
    return rightSide
               ? rightHaloRows(end, field(p, kBoxBegin), field(p, kBoxEnd))
               : leftHaloRows(begin, field(p, kBoxBegin), field(p, kBoxEnd));
  }

private:
  const HaloPlan &plan_;
  size_t dimFields_;
};

} // namespace

/// Allgathers every rank's header (status, rank, rows, bbox rows) and
/// checks that every rank passed valid geometry of the same rank; throws
/// this rank's own `error` after the allgather, so that no rank hangs.
static void gatherHeaders(const TeamState &team, HaloPlan &plan,
                          const std::string &error, const MemrefView &local,
                          const HaloGeometry &g) {
  const int64_t r = local.rank;
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
  plan.gathered.resize(static_cast<size_t>(team.size) * kHeaderFields);
  checkMpi(MPI_Allgather(header.data(), kHeaderFields, MPI_INT64_T,
                         plan.gathered.data(), kHeaderFields, MPI_INT64_T,
                         team.comm),
           "MPI_Allgather");
  if (!error.empty())
    throw Failure(error);
  const Gathered all(plan, r);
  for (int p = 0; p < team.size; ++p)
    if (all.field(p, kStatus))
      raise("rank {} passed an invalid get_halo geometry (see its error)", p);
  for (int p = 0; p < team.size; ++p)
    if (all.field(p, kRank) != r)
      raise("rank {} passed a local block of rank {}, this rank one of rank {}",
            p, all.field(p, kRank), r);
}

/// Allgathers every rank's extents in dimensions >= 1 (DimField).
static void gatherDims(const TeamState &team, HaloPlan &plan, int64_t r,
                       const HaloGeometry &g) {
  const int dimFields = kDimFields * static_cast<int>(r - 1);
  plan.gatheredDims.resize(static_cast<size_t>(team.size) *
                           static_cast<size_t>(dimFields));
  if (dimFields == 0)
    return;
  std::vector<int64_t> mine;
  mine.reserve(static_cast<size_t>(dimFields));
  for (int64_t d = 1; d < r; ++d)
    mine.insert(mine.end(), {g.gShape[d], g.bbOffsets[d], g.bbSizes[d]});
  checkMpi(MPI_Allgather(mine.data(), dimFields, MPI_INT64_T,
                         plan.gatheredDims.data(), dimFields, MPI_INT64_T,
                         team.comm),
           "MPI_Allgather");
}

static void checkGlobalShapes(const Gathered &all, const TeamState &team,
                              const HaloGeometry &g) {
  const auto r = static_cast<int64_t>(g.gShape.size());
  for (int p = 0; p < team.size; ++p) {
    bool same = all.field(p, kGlobalRows) == g.gShape[0];
    for (int64_t d = 1; same && d < r; ++d)
      same = all.dim(p, d, kDimGlobal) == g.gShape[d];
    if (same)
      continue;
    std::vector<int64_t> theirs{all.field(p, kGlobalRows)};
    for (int64_t d = 1; d < r; ++d)
      theirs.push_back(all.dim(p, d, kDimGlobal));
    raise("rank {} has global shape {}, rank {} has {}", p, shapeText(theirs),
          team.rank, shapeText(g.gShape));
  }
}

/// The ranks that own rows, by their first row; no row owned twice.
static std::vector<Owner> ownersOf(const Gathered &all, int ranks) {
  std::vector<Owner> owners;
  for (int p = 0; p < ranks; ++p)
    if (const int64_t begin = all.field(p, kRowBegin),
        count = all.field(p, kRowCount);
        count > 0)
      owners.push_back({{begin, begin + count}, p});
  std::sort(owners.begin(), owners.end(), [](const Owner &a, const Owner &b) {
    return a.rows.begin < b.rows.begin;
  });
  for (size_t i = 1; i < owners.size(); ++i) {
    const Rows both = intersect(owners[i - 1].rows, owners[i].rows);
    if (!both.empty())
      raise("rows [{}, {}) are owned by both rank {} and rank {}", both.begin,
            both.end, owners[i - 1].rank, owners[i].rank);
  }
  return owners;
}

/// Checks that rows `wanted` of rank p's halo have an owner. The owners are
/// sorted and disjoint: the search starts at the first that ends past
/// wanted.begin, so checking every rank's halos is O(P log P), not O(P^2).
static void checkCovered(const std::vector<Owner> &owners, Rows wanted, int p) {
  int64_t next = wanted.begin;
  auto it = std::ranges::partition_point(
      owners, [&](const Owner &owner) { return owner.rows.end <= next; });
  for (; it != owners.end() && next < wanted.end; ++it) {
    if (it->rows.begin > next)
      break;
    next = it->rows.end;
  }
  if (next >= wanted.end)
    return;
  // The gap ends where the next owner begins (`it`), or at the halo's end.
  const int64_t gapEnd =
      it == owners.end() ? wanted.end : std::min(wanted.end, it->rows.begin);
  raise("rows [{}, {}) requested by rank {} are owned by no rank", next, gapEnd,
        p);
}

/// Keeps the geometry the plan is made for, and the size of a halo row.
static void recordGeometry(HaloPlan &plan, const MemrefView &local,
                           const HaloGeometry &g) {
  const int64_t r = local.rank;
  plan.rank = r;
  plan.geometry.clear();
  for (std::span<const int64_t> part :
       {g.gShape, g.lOffsets, g.bbOffsets, g.bbSizes})
    plan.geometry.insert(plan.geometry.end(), part.begin(), part.end());
  plan.geometry.insert(plan.geometry.end(), local.sizes, local.sizes + r);
  plan.rowElements = 1;
  for (int64_t d = 1; d < r; ++d)
    plan.rowElements *= g.bbSizes[d];
}

/// This rank's receives: the rows of its halos `mine` (left, right) that
/// each other owner holds.
static void planReceives(HaloPlan &plan, const std::vector<Owner> &owners,
                         int me, const std::array<Rows, 2> &mine) {
  plan.leftRows = length(mine[0]);
  plan.rightRows = length(mine[1]);
  plan.recvs.clear();
  for (const Owner &owner : owners) {
    if (owner.rank == me)
      continue;
    for (bool rightSide : {false, true}) {
      const Rows halo = mine[rightSide ? 1 : 0];
      const Rows rows = intersect(halo, owner.rows);
      if (rows.empty() || plan.rowElements == 0)
        continue;
      plan.recvs.push_back({owner.rank, rightSide ? kRightTag : kLeftTag,
                            rightSide, rows.begin - halo.begin,
                            checkedCount(length(rows) * plan.rowElements)});
    }
  }
}

/// This rank's sends: the rows `myRows` it owns that each other rank's
/// halos need, restricted to that rank's bbox (its sizes, then its column
/// offsets, kept in plan.boxes).
static void planSends(HaloPlan &plan, const Gathered &all,
                      const TeamState &team, const HaloGeometry &g,
                      Rows myRows) {
  const int64_t r = plan.rank;
  plan.sends.clear();
  plan.boxes.clear();
  for (int q = 0; q < team.size && !myRows.empty(); ++q) {
    if (q == team.rank)
      continue;
    int64_t theirRowElements = 1;
    bool wholeRows = true;
    for (int64_t d = 1; d < r; ++d) {
      theirRowElements *= all.dim(q, d, kDimBoxSize);
      wholeRows = wholeRows && all.dim(q, d, kDimBoxOffset) == 0 &&
                  all.dim(q, d, kDimBoxSize) == g.gShape[d];
    }
    for (bool rightSide : {false, true}) {
      const Rows rows = intersect(all.haloRows(q, rightSide), myRows);
      if (rows.empty() || theirRowElements == 0)
        continue;
      const size_t boxIndex = plan.boxes.size();
      plan.boxes.push_back(length(rows));
      for (int64_t d = 1; d < r; ++d)
        plan.boxes.push_back(all.dim(q, d, kDimBoxSize));
      for (int64_t d = 1; d < r; ++d)
        plan.boxes.push_back(all.dim(q, d, kDimBoxOffset));
      plan.sends.push_back(
          {q, rightSide ? kRightTag : kLeftTag, rows.begin - myRows.begin,
           checkedCount(length(rows) * theirRowElements), wholeRows, boxIndex});
    }
  }
}

/// Collective over the team: gathers every rank's geometry, validates it the
/// same way on every rank and computes this rank's sends and receives.
static void makePlan(TeamState &team, HaloPlan &plan, int32_t dtype,
                     const MemrefView &local, const HaloGeometry &g,
                     const MemrefView &left, const MemrefView &right) {
  plan.valid = false;
  plan.channel = nullptr; // the team keeps it until pending rounds are done
  plan.shareTried = false;
  gatherHeaders(team, plan, localError(dtype, local, g, left, right), local, g);
  // Every rank now knows the others passed valid geometry of the same rank:
  // the second allgather happens on all of them or on none.
  gatherDims(team, plan, local.rank, g);
  const Gathered all(plan, local.rank);
  checkGlobalShapes(all, team, g);
  const std::vector<Owner> owners = ownersOf(all, team.size);
  // Every requested row must have an owner; checked for all ranks so that
  // all fail together.
  for (int p = 0; p < team.size; ++p)
    for (bool rightSide : {false, true})
      if (Rows wanted = all.haloRows(p, rightSide); !wanted.empty())
        checkCovered(owners, wanted, p);

  // This rank's part of the exchange.
  recordGeometry(plan, local, g);
  planReceives(plan, owners, team.rank,
               {all.haloRows(team.rank, false), all.haloRows(team.rank, true)});
  planSends(plan, all, team, g,
            {g.lOffsets[0], g.lOffsets[0] + local.sizes[0]});
  // The geometry of every rank is O(P): a cached plan keeps only its own
  // peers' (docs/scaling.md, the audit).
  releaseStorage(plan.gathered);
  releaseStorage(plan.gatheredDims);
  plan.valid = true;
}

/// Posts the sends of `plan` from `local`: straight from it when it is
/// dense and the peer wants whole rows, else packed into `staging`, one
/// send after another. Those `channel` shares are copied or packed into
/// its slots.
static void postSends(RequestSlot &slot, const HaloPlan &plan,
                      const DtypeInfo &type, const MemrefView &local,
                      bool localDense, std::byte *staging, MPI_Comm comm,
                      HaloChannel *channel) {
  const size_t size = type.size;
  const int64_t r = plan.rank;
  std::byte *base = stridedBytes(local, size).base;
  for (size_t i = 0; i < plan.sends.size(); ++i) {
    const HaloSend &send = plan.sends[i];
    const int64_t *box = plan.boxes.data() + send.boxIndex;
    std::byte *first =
        base + send.localRow * local.strides[0] * static_cast<int64_t>(size);
    const bool shared = channel && channel->sendShared(i);
    const bool dense = localDense && send.wholeRows;
    const void *source = first;
    if (shared && dense) {
      std::memcpy(channel->sendBuffer(i), first,
                  static_cast<size_t>(send.count) * size);
    } else if (!dense) {
      for (int64_t d = 1; d < r; ++d)
        first += box[r + d - 1] * local.strides[d] * static_cast<int64_t>(size);
      std::byte *packed = shared ? channel->sendBuffer(i) : staging;
      pack(StridedBytes{first, r, box, local.strides, size}, packed);
      source = packed;
      staging += shared ? 0 : alignUp(static_cast<size_t>(send.count) * size);
    }
    if (shared) {
      channel->sent(i);
      continue;
    }
    postRequest(slot, "MPI_Isend", [&](MPI_Request *request) {
      return MPI_Isend(source, send.count, type.mpi, send.peer, send.tag, comm,
                       request);
    });
  }
}

/// Posts the exchange of `plan`; the returned handle completes it.
static distrt_handle_t
postExchange(TeamState &team, const HaloPlan &plan, const DtypeInfo &type,
             const MemrefView &local, const MemrefView &left,
             const MemrefView &right, const SourceLoc &loc) {
  MPI_Comm comm = team.halos->comm;
  const size_t size = type.size;
  const int64_t r = plan.rank;
  return runInSlot(
      "get_halo", team.id, loc, /*async=*/true, [&](RequestSlot &slot) {
        const bool localDense = isContiguous(local);
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

        HaloChannel *channel = plan.channel;
        if (channel) {
          slot.channel = channel;
          slot.channelRound = channel->begin();
        }
        const size_t rowBytes = static_cast<size_t>(plan.rowElements) * size;
        for (size_t i = 0; i < plan.recvs.size(); ++i) {
          const HaloRecv &recv = plan.recvs[i];
          const int side = recv.right ? 1 : 0;
          std::byte *target = (haloDense[side] ? halo[side].base
                                               : staging + haloStaging[side]) +
                              static_cast<size_t>(recv.haloRow) * rowBytes;
          if (channel && channel->recvShared(i)) {
            channel->expect(i, target);
            continue;
          }
          slot.checks.push_back({static_cast<int>(slot.requests.size()),
                                 recv.count, recv.peer, type.mpi,
                                 recv.right ? "right halo" : "left halo",
                                 recv.count * static_cast<int64_t>(size)});
          postRequest(slot, "MPI_Irecv", [&](MPI_Request *request) {
            return MPI_Irecv(target, recv.count, type.mpi, recv.peer, recv.tag,
                             comm, request);
          });
        }

        postSends(slot, plan, type, local, localDense, staging + sendStaging,
                  comm, channel);

        for (int side = 0; side < 2; ++side)
          if (!haloDense[side] && haloRows[side] > 0)
            slot.addUnpack(haloStaging[side], halo[side].base, r,
                           side ? right.sizes : left.sizes,
                           side ? right.strides : left.strides, size);
      });
}

/// A held plan was validated when made; only the halos may differ.
static void checkHalos(const HaloPlan &plan, const HaloGeometry &geometry,
                       const MemrefView &left, const MemrefView &right) {
  for (const auto &[halo, side, rows] :
       {std::tuple{&left, "left", plan.leftRows},
        std::tuple{&right, "right", plan.rightRows}}) {
    bool ok = halo->rank == plan.rank && halo->sizes[0] == rows;
    for (int64_t d = 1; ok && d < plan.rank; ++d)
      ok = halo->sizes[d] == geometry.bbSizes[d];
    if (!ok)
      throw Failure(
          haloShapeError(*halo, side, plan.rank, rows, geometry.bbSizes));
  }
}

namespace {

struct GetHaloArgs {
  const MemrefView &local;
  const HaloGeometry &geometry;
  const MemrefView &left, &right;
};

/// get_halo's kind for performHalo (HaloDriver.h).
struct GetHaloOp {
  using Plan = HaloPlan;
  using Args = GetHaloArgs;
  static constexpr const char *kName = "get_halo";
  static constexpr const char *kWaitsForHeaders =
      "the other members of team {team} to exchange get_halo's plan headers "
      "(key {channel})";
  static constexpr const char *kWaitsForPeers =
      "the halo rows of team ranks {peers} (key {channel})";

  static PlanCache<HaloPlan> &plans(TeamHalos &halos) { return halos.getHalo; }
  static bool holds(const HaloPlan &plan, const HaloCall &, const Args &a) {
    return sameGeometry(plan, a.local, a.geometry);
  }
  static void checkHeld(const HaloPlan &plan, const Args &a) {
    checkHalos(plan, a.geometry, a.left, a.right);
  }
  static void plan(TeamState &team, HaloPlan &plan, const HaloCall &c,
                   const Args &a) {
    makePlan(team, plan, c.dtype, a.local, a.geometry, a.left, a.right);
  }
  static distrt_handle_t exchange(TeamState &team, const HaloPlan &plan,
                                  const HaloCall &c, const Args &a) {
    return postExchange(team, plan, dtypeInfo(c.dtype), a.local, a.left,
                        a.right, c.loc);
  }
  static HaloChannel *share(TeamState &team, HaloPlan &plan,
                            const HaloCall &c) {
    const size_t size = dtypeInfo(c.dtype).size;
    std::vector<HaloMessage> sends, recvs;
    for (const HaloSend &send : plan.sends)
      sends.push_back(
          {send.peer, send.tag, static_cast<size_t>(send.count) * size});
    for (const HaloRecv &recv : plan.recvs)
      recvs.push_back(
          {recv.peer, recv.tag, static_cast<size_t>(recv.count) * size});
    return shareHalo(team, sends, recvs);
  }
};

} // namespace

/// get_halo of either API (always async).
[[gnu::noinline]] static distrt_handle_t
getHalo(int64_t team, int64_t key, int32_t dtype, const MemrefView &local,
        const HaloGeometry &geometry, const MemrefView &left,
        const MemrefView &right, const SourceLoc &loc) {
  return performHalo<GetHaloOp>({team, key, dtype, local.rank, true, loc},
                                {local, geometry, left, right});
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
    // The runtime is single-threaded (MPI_THREAD_FUNNELED).
    static std::vector<int64_t> dense;
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
