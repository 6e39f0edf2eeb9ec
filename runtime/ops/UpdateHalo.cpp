//===- UpdateHalo.cpp - update_halo -----------------------------*- C++ -*-===//
//
// An array is split into Cartesian blocks over a process grid; each rank
// holds its block inside a halo frame (lo[d] cells before and hi[d] after
// its core along each dimension d). update_halo fills the frame in place
// from the cores of the ranks that own those cells.
//
// Planning allgathers every rank's header (status, element type, rank and
// a hash of the spec) and then its core extents, validates them identically
// on every rank (so bad input fails everywhere instead of hanging), and
// derives this rank's boxes. Along each dimension the frame, clipped to the
// array, splits into segments owned by consecutive blocks (a width past a
// neighbour's core reaches the next one); the product of the dimensions'
// segments, minus this rank's own core, is the receive boxes (faces, edges,
// corners). The send boxes are the same product seen from the other side:
// the blocks whose frames reach into this rank's core. Ranks that differ
// only on grid axes no dimension uses hold the same block; each exchanges
// with the owners that share its coordinates on those axes.
//
// A box contiguous in the block travels as a plain count from the block
// itself. A strided one up to kPackedBoxLimit bytes is packed through staging;
// a larger one travels as one element of a derived type the plan commits
// once (np 2, one f64 column: packing takes 0.6-0.75 of the derived type's
// time up to 128 KiB, 1.1 at 256 KiB and 1.4 at 512 KiB, where Open MPI
// pipelines its own packing with the transfer).
// Receives are posted first, then sends, on the team's halo communicator;
// the tag names the box's direction as the receiver sees it.
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
#include <type_traits>

namespace distrt::detail {

namespace {

/// Tags past get_halo's (1 and 2): kTagBase + the receiver's direction in
/// base 3 (0: before, 1: same block, 2: after, per dimension), or kTagBase
/// alone when 3^r would pass the tags every MPI offers (32767).
constexpr int kTagBase = 16;
constexpr int64_t kDirectionTags = 16384;
/// Strided boxes up to this many bytes are packed through staging and sent
/// contiguous; larger ones go as derived types. Measured at np 2 against
/// the datatype engines: Open MPI's wins past 128 KiB; MPICH's is 1.4x
/// slower than packing at 256 KiB and ahead at 1 MiB.
#ifdef MPICH_VERSION
constexpr int64_t kPackedBoxLimit = int64_t{512} << 10;
#else
constexpr int64_t kPackedBoxLimit = int64_t{128} << 10;
#endif

enum HeaderField : int {
  kStatus,
  kDtype,
  kBlockRank,
  kSpecLength,
  kSpecHash,
  kHeaderFields
};

/// The spec, parsed: the grid, then per dimension its widths and axes.
struct Spec {
  std::vector<int64_t> grid;
  std::vector<int64_t> lo, hi;
  std::vector<std::vector<int64_t>> axes;
};

/// A stretch [begin, end) of global indices along one dimension that one
/// block index owns.
struct Segment {
  int64_t block, begin, end;
};

/// The ranks' places on the grid (last axis fastest) and the blocks they
/// hold.
struct GridMap {
  const Spec &spec;

  std::vector<int64_t> coordsOf(int p) const {
    std::vector<int64_t> c(spec.grid.size());
    int64_t rest = p;
    for (size_t a = c.size(); a-- > 0;) {
      c[a] = rest % spec.grid[a];
      rest /= spec.grid[a];
    }
    return c;
  }
  int rankAt(const std::vector<int64_t> &c) const {
    int64_t p = 0;
    for (size_t a = 0; a < c.size(); ++a)
      p = p * spec.grid[a] + c[a];
    return static_cast<int>(p);
  }
  /// The number of blocks along dimension d.
  int64_t blocks(int64_t d) const {
    int64_t n = 1;
    for (int64_t a : spec.axes[static_cast<size_t>(d)])
      n *= spec.grid[static_cast<size_t>(a)];
    return n;
  }
  /// The index along d of the block at coordinates c.
  int64_t blockAlong(const std::vector<int64_t> &c, int64_t d) const {
    int64_t b = 0;
    for (int64_t a : spec.axes[static_cast<size_t>(d)])
      b = b * spec.grid[static_cast<size_t>(a)] + c[static_cast<size_t>(a)];
    return b;
  }
  /// Sets the coordinates in c of d's axes to those of block b along d.
  void placeBlock(std::vector<int64_t> &c, int64_t d, int64_t b) const {
    const auto &axes = spec.axes[static_cast<size_t>(d)];
    for (size_t i = axes.size(); i-- > 0;) {
      const auto a = static_cast<size_t>(axes[i]);
      c[a] = b % spec.grid[a];
      b /= spec.grid[a];
    }
  }
};

/// This rank's place in the decomposition: its grid coordinates and, per
/// dimension, its block, the global index of its local index 0, and the
/// segments its frame receives and its core sends.
struct FrameSegments {
  std::vector<int64_t> coords, block, origin;
  std::vector<std::vector<Segment>> recvs, sends;
};

} // namespace

static int64_t headerField(const std::vector<int64_t> &all, int p,
                           HeaderField f) {
  return all[static_cast<size_t>(p) * kHeaderFields + f];
}

/// Parses `v` for a block of rank `r` into `s`; the first error or "".
static std::string parseSpec(std::span<const int64_t> v, int64_t r, Spec &s) {
  size_t i = 0;
  auto left = [&] { return v.size() - i; };
  if (v.empty() || v[0] < 0 || static_cast<uint64_t>(v[0]) >= v.size())
    return fmt::format("the spec {} must start with the grid's rank g >= 0 "
                       "and its g sizes",
                       shapeText(v));
  const auto g = static_cast<size_t>(v[i++]);
  s.grid.assign(v.begin() + 1, v.begin() + 1 + static_cast<ptrdiff_t>(g));
  i += g;
  for (size_t a = 0; a < g; ++a)
    if (s.grid[a] < 1)
      return fmt::format("grid axis {} has size {}; sizes must be >= 1", a,
                         s.grid[a]);
  std::vector<int64_t> user(g, -1);
  for (int64_t d = 0; d < r; ++d) {
    if (left() < 3)
      return fmt::format("the spec has {} values, too few for dimension {} "
                         "of a block of rank {}",
                         v.size(), d, r);
    const int64_t lo = v[i], hi = v[i + 1], k = v[i + 2];
    i += 3;
    if (lo < 0 || hi < 0)
      return fmt::format("dimension {} has halo widths {} and {}; widths "
                         "must be >= 0",
                         d, lo, hi);
    if (k < 0 || static_cast<uint64_t>(k) > g ||
        left() < static_cast<size_t>(k))
      return fmt::format("dimension {} lists {} grid axes (the grid has {}, "
                         "the spec {} values left)",
                         d, k, g, left());
    std::vector<int64_t> axes(v.begin() + static_cast<ptrdiff_t>(i),
                              v.begin() + static_cast<ptrdiff_t>(i) + k);
    i += static_cast<size_t>(k);
    for (int64_t a : axes) {
      if (a < 0 || static_cast<uint64_t>(a) >= g)
        return fmt::format("dimension {} uses grid axis {}, outside the grid "
                           "of rank {}",
                           d, a, g);
      int64_t &owner = user[static_cast<size_t>(a)];
      if (owner >= 0)
        return fmt::format("grid axis {} is used by dimension {} and "
                           "dimension {}",
                           a, owner, d);
      owner = d;
    }
    s.lo.push_back(lo);
    s.hi.push_back(hi);
    s.axes.push_back(std::move(axes));
  }
  if (left() != 0)
    return fmt::format("the spec has {} values past the {} dimensions of the "
                       "block",
                       left(), r);
  return {};
}

/// Everything this rank can check alone; the first error or "".
static std::string localError(int32_t dtype, const MemrefView &block,
                              std::span<const int64_t> specValues, int ranks,
                              Spec &spec) {
  if (dtype < 0 || dtype >= DISTRT_NUM_DTYPES)
    return fmt::format("invalid element type {}", dtype);
  if (std::string e = parseSpec(specValues, block.rank, spec); !e.empty())
    return e;
  int64_t processes = 1;
  for (int64_t size : spec.grid)
    if (__builtin_mul_overflow(processes, size, &processes))
      processes = -1;
  if (processes != ranks)
    return fmt::format(
        "the grid {} has {} processes but the team has {}",
        shapeText(spec.grid),
        processes < 0 ? "too many" : fmt::format("{}", processes), ranks);
  for (int64_t d = 0; d < block.rank; ++d) {
    const size_t u = static_cast<size_t>(d);
    if (block.sizes[d] < 0 || block.sizes[d] - spec.lo[u] < spec.hi[u])
      return fmt::format("dimension {}: the block's size {} is smaller than "
                         "its halo widths {} + {}",
                         d, block.sizes[d], spec.lo[u], spec.hi[u]);
  }
  return {};
}

/// FNV-1a over the element type, the block's rank and the spec.
static int64_t specHash(int32_t dtype, int64_t rank,
                        std::span<const int64_t> spec) {
  uint64_t h = 14695981039346656037ull;
  auto mix = [&](int64_t value) {
    h = (h ^ static_cast<uint64_t>(value)) * 1099511628211ull;
  };
  mix(dtype);
  mix(rank);
  for (int64_t value : spec)
    mix(value);
  return static_cast<int64_t>(h);
}

/// What a plan is keyed by: dtype, rank, sizes, strides, spec.
static void planKey(std::vector<int64_t> &key, int32_t dtype,
                    const MemrefView &block, std::span<const int64_t> spec) {
  key.assign({dtype, block.rank});
  key.insert(key.end(), block.sizes, block.sizes + block.rank);
  key.insert(key.end(), block.strides, block.strides + block.rank);
  key.insert(key.end(), spec.begin(), spec.end());
}

static bool samePlanKey(const std::vector<int64_t> &key, int32_t dtype,
                        const MemrefView &block,
                        std::span<const int64_t> spec) {
  const auto r = static_cast<size_t>(block.rank);
  if (key.size() != 2 + 2 * r + spec.size() || key[0] != dtype ||
      key[1] != block.rank)
    return false;
  const int64_t *p = key.data() + 2;
  return std::equal(block.sizes, block.sizes + r, p) &&
         std::equal(block.strides, block.strides + r, p + r) &&
         std::equal(spec.begin(), spec.end(), p + 2 * r);
}

void UpdateHaloPlan::clear() noexcept {
  int finalized = 1;
  MPI_Finalized(&finalized);
  for (auto *boxes : {&recvs, &sends}) {
    for (HaloBox &box : *boxes)
      if (box.ownsType && !finalized)
        MPI_Type_free(&box.type);
    boxes->clear();
  }
  shapes.clear();
  stagingBytes = mpiStagingBytes = 0;
  channel = nullptr; // the team keeps it until pending rounds are done
  shareTried = false;
  valid = false;
}

static int checkedCount(int64_t count) {
  if (count > INT_MAX)
    raise("a halo box of {} elements along one dimension exceeds MPI's int "
          "count",
          count);
  return static_cast<int>(count);
}

/// The box of `sizes` starting at `starts` in a block of `strides`, as
/// MPI sees it: a count of `element` when contiguous or packed (its sizes
/// then kept in `plan`), else one element of a derived type (the innermost
/// contiguous run as its block length).
static HaloBox makeBox(UpdateHaloPlan &plan, int peer, int tag,
                       std::span<const int64_t> starts,
                       std::span<const int64_t> sizes, const int64_t *strides,
                       const DtypeInfo &element) {
  const auto r = static_cast<int64_t>(sizes.size());
  const auto bytes = static_cast<int64_t>(element.size);
  HaloBox box{peer, tag, 0, 1, element.mpi};
  for (int64_t d = 0; d < r; ++d)
    box.byteOffset += starts[static_cast<size_t>(d)] * strides[d] * bytes;
  const int64_t elements = numElements(r, sizes.data());
  if (isContiguous(r, sizes.data(), strides)) {
    box.count = checkedCount(elements);
    return box;
  }
  if (elements * bytes <= kPackedBoxLimit) {
    box.count = checkedCount(elements);
    box.packed = true;
    box.shapeIndex = plan.shapes.size();
    plan.shapes.insert(plan.shapes.end(), sizes.begin(), sizes.end());
    plan.stagingBytes += alignUp(static_cast<size_t>(elements * bytes));
    return box;
  }
  int64_t run = 1, d = r - 1;
  for (; d >= 0; --d) {
    const int64_t size = sizes[static_cast<size_t>(d)];
    if (size != 1 && strides[d] != run)
      break;
    run *= size;
  }
  // Not contiguous: some dimension d >= 0 breaks the run.
  MPI_Datatype type = MPI_DATATYPE_NULL;
  checkMpi(MPI_Type_create_hvector(checkedCount(sizes[static_cast<size_t>(d)]),
                                   checkedCount(run), strides[d] * bytes,
                                   element.mpi, &type),
           "MPI_Type_create_hvector");
  for (int64_t e = d - 1; e >= 0; --e) {
    if (sizes[static_cast<size_t>(e)] == 1)
      continue;
    MPI_Datatype outer = MPI_DATATYPE_NULL;
    const int code =
        MPI_Type_create_hvector(checkedCount(sizes[static_cast<size_t>(e)]), 1,
                                strides[e] * bytes, type, &outer);
    MPI_Type_free(&type);
    checkMpi(code, "MPI_Type_create_hvector");
    type = outer;
  }
  if (const int code = MPI_Type_commit(&type); code != MPI_SUCCESS) {
    MPI_Type_free(&type);
    raiseMpi(code, "MPI_Type_commit");
  }
  box.type = type;
  box.ownsType = true;
  return box;
}

/// Calls f(choice) for every choice of one segment per dimension.
template <class F>
static void forEachProduct(const std::vector<std::vector<Segment>> &segments,
                           F f) {
  const size_t r = segments.size();
  for (const auto &list : segments)
    if (list.empty())
      return;
  std::vector<size_t> choice(r, 0);
  while (true) {
    f(choice);
    size_t d = r;
    while (d-- > 0) {
      if (++choice[d] < segments[d].size())
        break;
      choice[d] = 0;
    }
    if (d == static_cast<size_t>(-1))
      return;
  }
}

/// Allgathers every rank's header and checks that every rank passed a valid
/// spec of the same element type and rank; throws this rank's own `error`
/// after the allgather, so that no rank hangs.
static void gatherHeaders(const TeamState &team, UpdateHaloPlan &plan,
                          int32_t dtype, int64_t r,
                          std::span<const int64_t> specValues,
                          const std::string &error) {
  std::array<int64_t, kHeaderFields> header{};
  header[kStatus] = error.empty() ? 0 : 1;
  header[kDtype] = dtype;
  header[kBlockRank] = r;
  header[kSpecLength] = static_cast<int64_t>(specValues.size());
  header[kSpecHash] = specHash(dtype, r, specValues);
  std::vector<int64_t> &all = plan.gathered;
  all.resize(static_cast<size_t>(team.size) * kHeaderFields);
  checkMpi(MPI_Allgather(header.data(), kHeaderFields, MPI_INT64_T, all.data(),
                         kHeaderFields, MPI_INT64_T, team.comm),
           "MPI_Allgather");
  if (!error.empty())
    throw Failure(error);
  for (int p = 0; p < team.size; ++p)
    if (headerField(all, p, kStatus))
      raise("rank {} passed an invalid update_halo block or spec (see its "
            "error)",
            p);
  for (int p = 0; p < team.size; ++p) {
    if (headerField(all, p, kDtype) != dtype)
      raise("rank {} passed element type {}, rank {} {}", p,
            dtypeInfo(static_cast<int32_t>(headerField(all, p, kDtype))).name,
            team.rank, dtypeInfo(dtype).name);
    if (headerField(all, p, kBlockRank) != r)
      raise("rank {} passed a block of rank {}, rank {} one of rank {}", p,
            headerField(all, p, kBlockRank), team.rank, r);
  }
}

/// Every rank saw the same headers `all`: if their specs differ, all of
/// them gather the specs and name the first rank whose spec differs from
/// this one's.
static void checkSameSpecs(const TeamState &team,
                           const std::vector<int64_t> &all,
                           std::span<const int64_t> specValues) {
  bool anyDiffers = false;
  for (int p = 1; p < team.size; ++p)
    anyDiffers =
        anyDiffers ||
        headerField(all, p, kSpecLength) != headerField(all, 0, kSpecLength) ||
        headerField(all, p, kSpecHash) != headerField(all, 0, kSpecHash);
  if (!anyDiffers)
    return;
  const auto ranks = static_cast<size_t>(team.size);
  std::vector<int> counts(ranks), displs(ranks);
  int total = 0;
  for (size_t p = 0; p < ranks; ++p) {
    counts[p] =
        checkedCount(headerField(all, static_cast<int>(p), kSpecLength));
    displs[p] = total;
    total += counts[p];
  }
  std::vector<int64_t> specs(static_cast<size_t>(total));
  const std::vector<int64_t> mine(specValues.begin(), specValues.end());
  checkMpi(MPI_Allgatherv(mine.data(), static_cast<int>(mine.size()),
                          MPI_INT64_T, specs.data(), counts.data(),
                          displs.data(), MPI_INT64_T, team.comm),
           "MPI_Allgatherv");
  auto specOf = [&](int p) {
    return std::span<const int64_t>(
        specs.data() + displs[static_cast<size_t>(p)],
        static_cast<size_t>(counts[static_cast<size_t>(p)]));
  };
  int other = 0;
  while (other + 1 < team.size && std::ranges::equal(specOf(other), mine))
    ++other;
  raise("the ranks pass different specs: rank {} {}, rank {} {}", other,
        shapeText(specOf(other)), team.rank, shapeText(mine));
}

/// Allgathers every rank's core extents (its block minus the halo widths)
/// into plan.gathered: rank p's along d at p * r + d.
static void gatherCores(const TeamState &team, UpdateHaloPlan &plan,
                        const MemrefView &block, const Spec &spec) {
  const int64_t r = block.rank;
  plan.gathered.resize(static_cast<size_t>(team.size) * static_cast<size_t>(r));
  std::vector<int64_t> cores(static_cast<size_t>(r));
  for (size_t d = 0; d < cores.size(); ++d)
    cores[d] = block.sizes[d] - spec.lo[d] - spec.hi[d];
  if (r > 0)
    checkMpi(MPI_Allgather(cores.data(), static_cast<int>(r), MPI_INT64_T,
                           plan.gathered.data(), static_cast<int>(r),
                           MPI_INT64_T, team.comm),
             "MPI_Allgather");
}

/// The global offset of each block's core along `d` (one past the last
/// block: the dimension's extent), from the ranks' core extents `cores`;
/// the ranks holding one block must agree on its extent.
static std::vector<int64_t> blockOffsets(const GridMap &grid,
                                         const std::vector<int64_t> &cores,
                                         int ranks, int64_t d) {
  const auto r = static_cast<size_t>(grid.spec.lo.size());
  auto core = [&](int p) {
    return cores[static_cast<size_t>(p) * r + static_cast<size_t>(d)];
  };
  const auto &axes = grid.spec.axes[static_cast<size_t>(d)];
  const auto blocks = static_cast<size_t>(grid.blocks(d));
  std::vector<int64_t> extent(blocks, -1);
  std::vector<int> holder(blocks, -1);
  for (int p = 0; p < ranks; ++p) {
    const int64_t b = grid.blockAlong(grid.coordsOf(p), d);
    const auto u = static_cast<size_t>(b);
    if (holder[u] < 0) {
      holder[u] = p;
      extent[u] = core(p);
    } else if (extent[u] != core(p)) {
      if (axes.empty())
        raise("dimension {} is not split, but rank {} has a core extent of "
              "{} along it and rank {} one of {}",
              d, holder[u], extent[u], p, core(p));
      raise("dimension {}: ranks {} and {} hold block {} (grid axes {}) but "
            "have core extents {} and {} along it",
            d, holder[u], p, b, shapeText(axes), extent[u], core(p));
    }
  }
  std::vector<int64_t> offset(blocks + 1, 0);
  for (size_t b = 0; b < blocks; ++b)
    if (__builtin_add_overflow(offset[b], extent[b], &offset[b + 1]))
      raise("dimension {}: the cores' extents overflow int64", d);
  return offset;
}

/// This rank's block along d, where its local index 0 lies, and the
/// segments its frame receives and its core sends (FrameSegments).
static FrameSegments frameSegments(const GridMap &grid,
                                   const std::vector<int64_t> &cores, int ranks,
                                   int me, const MemrefView &block) {
  const Spec &spec = grid.spec;
  const auto r = static_cast<size_t>(block.rank);
  FrameSegments f{grid.coordsOf(me), std::vector<int64_t>(r),
                  std::vector<int64_t>(r), std::vector<std::vector<Segment>>(r),
                  std::vector<std::vector<Segment>>(r)};
  for (size_t u = 0; u < r; ++u) {
    const auto d = static_cast<int64_t>(u);
    const std::vector<int64_t> off = blockOffsets(grid, cores, ranks, d);
    const int64_t b = grid.blockAlong(f.coords, d), n = off.back();
    const auto ub = static_cast<size_t>(b);
    f.block[u] = b;
    f.origin[u] = off[ub] - spec.lo[u];
    const int64_t frameBegin = std::max<int64_t>(0, f.origin[u]);
    const int64_t frameEnd = std::min(n, f.origin[u] + block.sizes[d]);
    for (size_t q = 0; q + 1 < off.size(); ++q) {
      const auto beta = static_cast<int64_t>(q);
      // Cells of this frame that block beta owns.
      const int64_t rb = std::max(frameBegin, off[q]),
                    re = std::min(frameEnd, off[q + 1]);
      if (rb < re)
        f.recvs[u].push_back({beta, rb, re});
      // Cells of this core in block beta's frame.
      const int64_t sb = std::max(off[ub], off[q] - spec.lo[u]),
                    se = std::min(off[ub + 1], off[q + 1] + spec.hi[u]);
      if (sb < se)
        f.sends[u].push_back({beta, sb, se});
    }
  }
  return f;
}

/// Whether the receiver's direction of a box fits in a tag (3^r of them).
static bool directionTagsFit(int64_t r) {
  int64_t directions = 1;
  for (int64_t d = 0; d < r && directions <= kDirectionTags; ++d)
    directions *= 3;
  return directions <= kDirectionTags;
}

namespace {

/// Makes the boxes of the products of one segment per dimension.
class BoxMaker {
public:
  BoxMaker(UpdateHaloPlan &plan, const GridMap &grid, const FrameSegments &f,
           const MemrefView &block, const DtypeInfo &element)
      : plan_(plan), grid_(grid), f_(f), block_(block), element_(element),
        directionTags_(directionTagsFit(block.rank)), starts_(f.block.size()),
        sizes_(f.block.size()), coords_(f.coords) {}

  /// One box per choice of `segments` that is not this rank's own core;
  /// `send` flips the direction to the receiver's view.
  void add(const std::vector<std::vector<Segment>> &segments, bool send,
           std::vector<HaloBox> &boxes) {
    forEachProduct(segments, [&](const std::vector<size_t> &choice) {
      bool own = true;
      int64_t tag = 0;
      for (size_t u = segments.size(); u-- > 0;) {
        const Segment &s = segments[u][choice[u]];
        own = own && s.block == f_.block[u];
        const int64_t step =
            send ? f_.block[u] - s.block : s.block - f_.block[u];
        tag = tag * 3 + (step < 0 ? 0 : step == 0 ? 1 : 2);
        starts_[u] = s.begin - f_.origin[u];
        sizes_[u] = s.end - s.begin;
        grid_.placeBlock(coords_, static_cast<int64_t>(u), s.block);
      }
      if (own)
        return;
      boxes.push_back(makeBox(plan_, grid_.rankAt(coords_),
                              kTagBase + (directionTags_ ? int(tag) : 0),
                              starts_, sizes_, block_.strides, element_));
    });
  }

private:
  UpdateHaloPlan &plan_;
  const GridMap &grid_;
  const FrameSegments &f_;
  const MemrefView &block_;
  const DtypeInfo &element_;
  bool directionTags_;
  /// The box being made, and the grid coordinates of its peer.
  std::vector<int64_t> starts_, sizes_, coords_;
};

} // namespace

/// Collective over the team: gathers every rank's header and core extents,
/// validates them the same way on every rank and computes this rank's
/// receive and send boxes.
static void makePlan(TeamState &team, UpdateHaloPlan &plan, int32_t dtype,
                     const MemrefView &block,
                     std::span<const int64_t> specValues) {
  plan.clear();
  Spec spec;
  const std::string error =
      localError(dtype, block, specValues, team.size, spec);
  gatherHeaders(team, plan, dtype, block.rank, specValues, error);
  // Every rank saw the same headers: all or none gather the specs.
  checkSameSpecs(team, plan.gathered, specValues);
  // Every rank passed a valid spec, the same: the core extents.
  gatherCores(team, plan, block, spec);
  const GridMap grid{spec};
  const FrameSegments f =
      frameSegments(grid, plan.gathered, team.size, team.rank, block);
  BoxMaker boxes(plan, grid, f, block, dtypeInfo(dtype));
  boxes.add(f.recvs, false, plan.recvs);
  boxes.add(f.sends, true, plan.sends);
  planKey(plan.key, dtype, block, specValues);
  // Every rank's header and extents are O(P): a cached plan keeps only its
  // own boxes (docs/scaling.md, the audit).
  releaseStorage(plan.gathered);
  plan.mpiStagingBytes = plan.stagingBytes;
  plan.valid = true;
}

namespace {

/// Where the exchange of `plan` on `block` runs: the block's first element,
/// its element size, the staging of packed boxes, the halo communicator
/// and the plan's channel (null: every box on MPI).
struct ExchangeSite {
  const UpdateHaloPlan &plan;
  const MemrefView &block;
  std::byte *base;
  size_t elementSize;
  std::byte *staging;
  MPI_Comm comm;
  HaloChannel *channel;

  StridedBytes strided(const HaloBox &box) const {
    return {base + box.byteOffset, block.rank,
            plan.shapes.data() + box.shapeIndex, block.strides, elementSize};
  }
  size_t boxBytes(const HaloBox &box) const {
    return static_cast<size_t>(box.count) * elementSize;
  }
};

} // namespace

/// Receive `i` of `x` through its channel: straight into the block, else
/// (packed) unpacked from the slot by a sync exchange or through staging
/// at `at` by an async one.
template <class Requests>
static void expectShared(Requests &into, const ExchangeSite &x, size_t i,
                         size_t at) {
  const HaloBox &box = x.plan.recvs[i];
  if (!box.packed) {
    x.channel->expect(i, x.base + box.byteOffset);
  } else if constexpr (std::is_same_v<Requests, RequestSlot>) {
    into.addUnpack(at, x.base + box.byteOffset, x.block.rank,
                   x.plan.shapes.data() + box.shapeIndex, x.block.strides,
                   x.elementSize);
    x.channel->expect(i, x.staging + at);
  } else {
    x.channel->expect(i, x.strided(box));
  }
}

/// Posts the receives, then the sends of `x`'s plan into `into`, a
/// RequestSlot or, when no box packed through staging travels on MPI,
/// SyncRequests. Packed receives on MPI unpack at completion; boxes the
/// channel shares are written into and read from its slots.
template <class Requests>
static void postBoxes(Requests &into, const ExchangeSite &x) {
  size_t packOffset = 0;
  // A packed box's place in staging (boxes take theirs in plan order).
  auto stagingFor = [&](const HaloBox &box) {
    const size_t at = packOffset;
    packOffset += alignUp(x.boxBytes(box));
    return at;
  };
  const std::vector<HaloBox> &recvs = x.plan.recvs, &sends = x.plan.sends;
  for (size_t i = 0; i < recvs.size(); ++i) {
    const HaloBox &box = recvs[i];
    if (x.channel && x.channel->recvShared(i)) {
      expectShared(into, x, i, box.packed ? stagingFor(box) : 0);
      continue;
    }
    std::byte *target = x.base + box.byteOffset;
    if constexpr (std::is_same_v<Requests, RequestSlot>) {
      if (box.packed) {
        const size_t at = stagingFor(box);
        target = x.staging + at;
        into.addUnpack(at, x.base + box.byteOffset, x.block.rank,
                       x.plan.shapes.data() + box.shapeIndex, x.block.strides,
                       x.elementSize);
      }
    }
    // A derived type's size is MPI's to say.
    const int64_t bytes =
        box.ownsType ? -1 : static_cast<int64_t>(x.boxBytes(box));
    into.checks.push_back({static_cast<int>(into.requests.size()), box.count,
                           box.peer, box.type, "halo", bytes});
    postRequest(into, "MPI_Irecv", [&](MPI_Request *request) {
      return MPI_Irecv(target, box.count, box.type, box.peer, box.tag, x.comm,
                       request);
    });
  }
  for (size_t i = 0; i < sends.size(); ++i) {
    const HaloBox &box = sends[i];
    if (x.channel && x.channel->sendShared(i)) {
      std::byte *slot = x.channel->sendBuffer(i);
      if (box.packed)
        pack(x.strided(box), slot);
      else
        std::memcpy(slot, x.base + box.byteOffset, x.boxBytes(box));
      x.channel->sent(i);
      continue;
    }
    const std::byte *source = x.base + box.byteOffset;
    if (box.packed) {
      std::byte *packed = x.staging + stagingFor(box);
      pack(x.strided(box), packed);
      source = packed;
    }
    postRequest(into, "MPI_Isend", [&](MPI_Request *request) {
      return MPI_Isend(source, box.count, box.type, box.peer, box.tag, x.comm,
                       request);
    });
  }
}

/// Posts the exchange of `plan` on `block`; completes it unless `async`.
/// A sync exchange that packs nothing through staging on MPI needs no
/// handle: it runs in the runtime's SyncRequests.
static distrt_handle_t postExchange(TeamState &team, const UpdateHaloPlan &plan,
                                    const MemrefView &block, size_t elementSize,
                                    bool async, const SourceLoc &loc) {
  if (plan.recvs.empty() && plan.sends.empty())
    return done("update_halo", team.id, loc, async);
  ExchangeSite x{plan,        block,   stridedBytes(block, elementSize).base,
                 elementSize, nullptr, team.halos->comm,
                 plan.channel};
  const uint64_t round = x.channel ? x.channel->begin() : 0;
  if (!async && plan.mpiStagingBytes == 0) {
    runSync("update_halo", [&](SyncRequests &sync) {
      postBoxes(sync, x);
      if (x.channel)
        x.channel->complete(round);
    });
    return 0;
  }
  return runInSlot("update_halo", team.id, loc, async, [&](RequestSlot &slot) {
    x.staging = slot.stage(plan.stagingBytes);
    slot.channel = x.channel;
    slot.channelRound = round;
    postBoxes(slot, x);
  });
}

/// The messages of `plan`'s boxes, for its channel.
static std::vector<HaloMessage> messagesOf(const std::vector<HaloBox> &boxes,
                                           size_t elementSize) {
  std::vector<HaloMessage> messages;
  messages.reserve(boxes.size());
  for (const HaloBox &box : boxes) {
    int typeBytes = static_cast<int>(elementSize);
    if (box.ownsType)
      MPI_Type_size(box.type, &typeBytes);
    messages.push_back(
        {box.peer, box.tag,
         static_cast<size_t>(box.count) * static_cast<size_t>(typeBytes)});
  }
  return messages;
}

/// Shares `plan`'s messages on this node (collective over the team); the
/// staging its packed boxes on MPI still need.
static HaloChannel *sharePlan(TeamState &team, UpdateHaloPlan &plan,
                              size_t elementSize) {
  HaloChannel *channel = shareHalo(team, messagesOf(plan.sends, elementSize),
                                   messagesOf(plan.recvs, elementSize));
  if (!channel)
    return nullptr;
  plan.mpiStagingBytes = 0;
  for (size_t i = 0; i < plan.recvs.size(); ++i)
    if (plan.recvs[i].packed && !channel->recvShared(i))
      plan.mpiStagingBytes +=
          alignUp(static_cast<size_t>(plan.recvs[i].count) * elementSize);
  for (size_t i = 0; i < plan.sends.size(); ++i)
    if (plan.sends[i].packed && !channel->sendShared(i))
      plan.mpiStagingBytes +=
          alignUp(static_cast<size_t>(plan.sends[i].count) * elementSize);
  return channel;
}

namespace {

struct UpdateHaloArgs {
  const MemrefView &block;
  std::span<const int64_t> spec;
};

/// update_halo's kind for performHalo (HaloDriver.h).
struct UpdateHaloOp {
  using Plan = UpdateHaloPlan;
  using Args = UpdateHaloArgs;
  static constexpr const char *kName = "update_halo";
  static constexpr const char *kWaitsForHeaders =
      "the other members of team {team} to exchange update_halo's plan "
      "headers (key {channel})";
  static constexpr const char *kWaitsForPeers =
      "the halo cells of team ranks {peers} (key {channel})";

  static PlanCache<UpdateHaloPlan> &plans(TeamHalos &halos) {
    return halos.updateHalo;
  }
  static bool holds(const UpdateHaloPlan &plan, const HaloCall &c,
                    const Args &a) {
    return samePlanKey(plan.key, c.dtype, a.block, a.spec);
  }
  /// The plan's key is the whole call.
  static void checkHeld(const UpdateHaloPlan &, const Args &) {}
  static void plan(TeamState &team, UpdateHaloPlan &plan, const HaloCall &c,
                   const Args &a) {
    makePlan(team, plan, c.dtype, a.block, a.spec);
  }
  static distrt_handle_t exchange(TeamState &team, const UpdateHaloPlan &plan,
                                  const HaloCall &c, const Args &a) {
    return postExchange(team, plan, a.block, dtypeInfo(c.dtype).size, c.async,
                        c.loc);
  }
  static HaloChannel *share(TeamState &team, UpdateHaloPlan &plan,
                            const HaloCall &c) {
    return sharePlan(team, plan, dtypeInfo(c.dtype).size);
  }
};

} // namespace

/// update_halo of either API; `proven`: the compiler proved its agreement.
[[gnu::noinline]] static distrt_handle_t
updateHalo(int64_t team, int64_t key, int32_t dtype, const MemrefView &block,
           std::span<const int64_t> spec, bool async, const SourceLoc &loc,
           bool proven = false) {
  return performHalo<UpdateHaloOp>(
      {team, key, dtype, block.rank, async, loc, proven}, {block, spec});
}

} // namespace distrt::detail

using namespace distrt;
using namespace distrt::detail;

distrt_handle_t distrt_update_halo(int64_t team, int64_t key, int32_t dtype,
                                   int64_t blockRank, void *block,
                                   int64_t specRank, void *spec, int32_t async,
                                   const char *loc) {
  try {
    const MemrefView specView = unrankedArg(specRank, spec, "spec");
    if (specRank != 1)
      raise("the spec must be a 1-D memref, got rank {}", specRank);
    // The runtime is single-threaded (MPI_THREAD_FUNNELED).
    static std::vector<int64_t> dense;
    // Bit 0: async; DISTRT_SITE_PROVEN: the compiler proved its agreement.
    return updateHalo(team, key, dtype, unrankedArg(blockRank, block, "block"),
                      i64Values(specView, dense), (async & 1) != 0,
                      SourceLoc(loc), (async & DISTRT_SITE_PROVEN) != 0);
  } catch (...) {
    failCurrent("update_halo", team, loc);
  }
}

namespace distrt {

void updateHalo(const Team &team, int64_t key, Dtype dtype,
                const MemrefView &block, std::span<const int64_t> spec,
                SourceLoc loc) {
  detail::updateHalo(team.id(), key, static_cast<int32_t>(dtype), block, spec,
                     false, loc);
}

Request updateHaloAsync(const Team &team, int64_t key, Dtype dtype,
                        const MemrefView &block, std::span<const int64_t> spec,
                        SourceLoc loc) {
  return Request(detail::updateHalo(team.id(), key, static_cast<int32_t>(dtype),
                                    block, spec, true, loc));
}

} // namespace distrt
