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

/// Tags past get_halo's (1 and 2): kTagBase + the receiver's direction in
/// base 3 (0: before, 1: same block, 2: after, per dimension), or kTagBase
/// alone when 3^r would pass the tags every MPI offers (32767).
constexpr int kTagBase = 16;
constexpr int64_t kDirectionTags = 16384;
constexpr int64_t kPackedBoxLimit = int64_t{128} << 10;

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

} // namespace

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
  stagingBytes = 0;
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

/// Collective over the team: gathers every rank's header and core extents,
/// validates them the same way on every rank and computes this rank's
/// receive and send boxes.
static void makePlan(TeamState &team, UpdateHaloPlan &plan, int32_t dtype,
                     const MemrefView &block,
                     std::span<const int64_t> specValues) {
  plan.clear();
  const int ranks = team.size, me = team.rank;
  const int64_t r = block.rank;
  Spec spec;
  const std::string error = localError(dtype, block, specValues, ranks, spec);

  std::array<int64_t, kHeaderFields> header{};
  header[kStatus] = error.empty() ? 0 : 1;
  header[kDtype] = dtype;
  header[kBlockRank] = r;
  header[kSpecLength] = static_cast<int64_t>(specValues.size());
  header[kSpecHash] = specHash(dtype, r, specValues);
  std::vector<int64_t> &all = plan.gathered;
  all.resize(static_cast<size_t>(ranks) * kHeaderFields);
  checkMpi(MPI_Allgather(header.data(), kHeaderFields, MPI_INT64_T, all.data(),
                         kHeaderFields, MPI_INT64_T, team.comm),
           "MPI_Allgather");
  auto field = [&](int p, HeaderField f) {
    return all[static_cast<size_t>(p) * kHeaderFields + f];
  };
  if (!error.empty())
    throw Failure(error);
  for (int p = 0; p < ranks; ++p)
    if (field(p, kStatus))
      raise("rank {} passed an invalid update_halo block or spec (see its "
            "error)",
            p);
  for (int p = 0; p < ranks; ++p) {
    if (field(p, kDtype) != dtype)
      raise("rank {} passed element type {}, rank {} {}", p,
            dtypeInfo(static_cast<int32_t>(field(p, kDtype))).name, me,
            dtypeInfo(dtype).name);
    if (field(p, kBlockRank) != r)
      raise("rank {} passed a block of rank {}, rank {} one of rank {}", p,
            field(p, kBlockRank), me, r);
  }
  // Every rank saw the same headers: all or none gather the specs.
  bool anyDiffers = false;
  for (int p = 1; p < ranks; ++p)
    anyDiffers = anyDiffers || field(p, kSpecLength) != field(0, kSpecLength) ||
                 field(p, kSpecHash) != field(0, kSpecHash);
  if (anyDiffers) {
    std::vector<int> counts(static_cast<size_t>(ranks)),
        displs(static_cast<size_t>(ranks));
    int total = 0;
    for (int p = 0; p < ranks; ++p) {
      counts[static_cast<size_t>(p)] = checkedCount(field(p, kSpecLength));
      displs[static_cast<size_t>(p)] = total;
      total += counts[static_cast<size_t>(p)];
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
    while (other + 1 < ranks && std::ranges::equal(specOf(other), mine))
      ++other;
    raise("the ranks pass different specs: rank {} {}, rank {} {}", other,
          shapeText(specOf(other)), me, shapeText(mine));
  }

  // Every rank passed a valid spec, the same: the core extents.
  all.resize(static_cast<size_t>(ranks) * static_cast<size_t>(r));
  std::vector<int64_t> cores(static_cast<size_t>(r));
  for (int64_t d = 0; d < r; ++d)
    cores[static_cast<size_t>(d)] = block.sizes[d] -
                                    spec.lo[static_cast<size_t>(d)] -
                                    spec.hi[static_cast<size_t>(d)];
  if (r > 0)
    checkMpi(MPI_Allgather(cores.data(), static_cast<int>(r), MPI_INT64_T,
                           all.data(), static_cast<int>(r), MPI_INT64_T,
                           team.comm),
             "MPI_Allgather");
  auto core = [&](int p, int64_t d) {
    return all[static_cast<size_t>(p) * static_cast<size_t>(r) +
               static_cast<size_t>(d)];
  };

  // A rank's coordinates on the grid (last axis fastest), its block index
  // along d, and the rank at given coordinates.
  const size_t g = spec.grid.size();
  auto coordsOf = [&](int p) {
    std::vector<int64_t> c(g);
    int64_t rest = p;
    for (size_t a = g; a-- > 0;) {
      c[a] = rest % spec.grid[a];
      rest /= spec.grid[a];
    }
    return c;
  };
  auto blockAlong = [&](const std::vector<int64_t> &c, int64_t d) {
    int64_t b = 0;
    for (int64_t a : spec.axes[static_cast<size_t>(d)])
      b = b * spec.grid[static_cast<size_t>(a)] + c[static_cast<size_t>(a)];
    return b;
  };
  auto rankAt = [&](const std::vector<int64_t> &c) {
    int64_t p = 0;
    for (size_t a = 0; a < g; ++a)
      p = p * spec.grid[a] + c[a];
    return static_cast<int>(p);
  };

  // Per dimension: each block's core extent (the same for every rank of
  // the block) and global offset.
  std::vector<std::vector<int64_t>> extent(static_cast<size_t>(r)),
      offset(static_cast<size_t>(r));
  for (int64_t d = 0; d < r; ++d) {
    const auto &axes = spec.axes[static_cast<size_t>(d)];
    int64_t blocks = 1;
    for (int64_t a : axes)
      blocks *= spec.grid[static_cast<size_t>(a)];
    auto &ext = extent[static_cast<size_t>(d)];
    ext.assign(static_cast<size_t>(blocks), -1);
    std::vector<int> holder(static_cast<size_t>(blocks), -1);
    for (int p = 0; p < ranks; ++p) {
      const int64_t b = blockAlong(coordsOf(p), d);
      const auto u = static_cast<size_t>(b);
      if (holder[u] < 0) {
        holder[u] = p;
        ext[u] = core(p, d);
      } else if (ext[u] != core(p, d)) {
        if (axes.empty())
          raise("dimension {} is not split, but rank {} has a core extent of "
                "{} along it and rank {} one of {}",
                d, holder[u], ext[u], p, core(p, d));
        raise("dimension {}: ranks {} and {} hold block {} (grid axes {}) but "
              "have core extents {} and {} along it",
              d, holder[u], p, b, shapeText(axes), ext[u], core(p, d));
      }
    }
    auto &off = offset[static_cast<size_t>(d)];
    off.assign(static_cast<size_t>(blocks) + 1, 0);
    for (size_t b = 0; b < ext.size(); ++b)
      if (__builtin_add_overflow(off[b], ext[b], &off[b + 1]))
        raise("dimension {}: the cores' extents overflow int64", d);
  }

  // This rank's block: its index and where its local index 0 lies.
  const std::vector<int64_t> myCoords = coordsOf(me);
  std::vector<int64_t> mine(static_cast<size_t>(r)), origin(mine.size());
  std::vector<std::vector<Segment>> recvSegs(mine.size()),
      sendSegs(mine.size());
  for (int64_t d = 0; d < r; ++d) {
    const auto u = static_cast<size_t>(d);
    const auto &off = offset[u];
    const int64_t b = blockAlong(myCoords, d), n = off.back();
    mine[u] = b;
    origin[u] = off[static_cast<size_t>(b)] - spec.lo[u];
    const int64_t frameBegin = std::max<int64_t>(0, origin[u]);
    const int64_t frameEnd = std::min(n, origin[u] + block.sizes[d]);
    const int64_t coreBegin = off[static_cast<size_t>(b)],
                  coreEnd = off[static_cast<size_t>(b) + 1];
    for (size_t q = 0; q + 1 < off.size(); ++q) {
      const auto beta = static_cast<int64_t>(q);
      // Cells of this frame that block beta owns.
      const int64_t rb = std::max(frameBegin, off[q]),
                    re = std::min(frameEnd, off[q + 1]);
      if (rb < re)
        recvSegs[u].push_back({beta, rb, re});
      // Cells of this core in block beta's frame.
      const int64_t sb = std::max(coreBegin, off[q] - spec.lo[u]),
                    se = std::min(coreEnd, off[q + 1] + spec.hi[u]);
      if (sb < se)
        sendSegs[u].push_back({beta, sb, se});
    }
  }

  const DtypeInfo &element = dtypeInfo(dtype);
  int64_t directions = 1;
  for (int64_t d = 0; d < r && directions <= kDirectionTags; ++d)
    directions *= 3;
  const bool directionTags = directions <= kDirectionTags;
  std::vector<int64_t> starts(mine.size()), sizes(mine.size()),
      coords(myCoords);
  // One box per choice of segments that is not this rank's own core; `send`
  // flips the direction to the receiver's view.
  auto addBoxes = [&](const std::vector<std::vector<Segment>> &segments,
                      bool send, std::vector<HaloBox> &boxes) {
    forEachProduct(segments, [&](const std::vector<size_t> &choice) {
      bool own = true;
      int64_t tag = 0;
      for (int64_t d = r - 1; d >= 0; --d) {
        const auto u = static_cast<size_t>(d);
        const Segment &s = segments[u][choice[u]];
        own = own && s.block == mine[u];
        const int64_t step = send ? mine[u] - s.block : s.block - mine[u];
        tag = tag * 3 + (step < 0 ? 0 : step == 0 ? 1 : 2);
        starts[u] = s.begin - origin[u];
        sizes[u] = s.end - s.begin;
        // The block's index along d, spread over its axes.
        int64_t rest = s.block;
        const auto &axes = spec.axes[u];
        for (size_t i = axes.size(); i-- > 0;) {
          const auto a = static_cast<size_t>(axes[i]);
          coords[a] = rest % spec.grid[a];
          rest /= spec.grid[a];
        }
      }
      if (own)
        return;
      boxes.push_back(makeBox(plan, rankAt(coords),
                              kTagBase + (directionTags ? int(tag) : 0), starts,
                              sizes, block.strides, element));
    });
  };
  addBoxes(recvSegs, false, plan.recvs);
  addBoxes(sendSegs, true, plan.sends);
  planKey(plan.key, dtype, block, specValues);
  plan.valid = true;
}

/// Posts the exchange of `plan` on `block`; completes it unless `async`.
static distrt_handle_t exchange(TeamState &team, const UpdateHaloPlan &plan,
                                const MemrefView &block, size_t elementSize,
                                bool async, const SourceLoc &loc) {
  if (plan.recvs.empty() && plan.sends.empty())
    return done("update_halo", team.id, loc, async);
  MPI_Comm comm = haloComm(team);
  std::byte *base = stridedBytes(block, elementSize).base;
  const int64_t r = block.rank;
  return runInSlot("update_halo", team.id, loc, async, [&](RequestSlot &slot) {
    std::byte *staging = slot.stage(plan.stagingBytes);
    size_t packOffset = 0;
    // A packed box's place in staging (boxes take theirs in plan order).
    auto stagingFor = [&](const HaloBox &box) {
      const size_t at = packOffset;
      packOffset += alignUp(static_cast<size_t>(box.count) * elementSize);
      return at;
    };
    for (const HaloBox &box : plan.recvs) {
      std::byte *target = base + box.byteOffset;
      if (box.packed) {
        const size_t at = stagingFor(box);
        target = staging + at;
        slot.addUnpack(at, base + box.byteOffset, r,
                       plan.shapes.data() + box.shapeIndex, block.strides,
                       elementSize);
      }
      slot.checks.push_back({static_cast<int>(slot.requests.size()), box.count,
                             box.peer, box.type, "halo"});
      postRequest(slot, "MPI_Irecv", [&](MPI_Request *request) {
        return MPI_Irecv(target, box.count, box.type, box.peer, box.tag, comm,
                         request);
      });
    }
    for (const HaloBox &box : plan.sends) {
      const std::byte *source = base + box.byteOffset;
      if (box.packed) {
        std::byte *packed = staging + stagingFor(box);
        pack(StridedBytes{base + box.byteOffset, r,
                          plan.shapes.data() + box.shapeIndex, block.strides,
                          elementSize},
             packed);
        source = packed;
      }
      postRequest(slot, "MPI_Isend", [&](MPI_Request *request) {
        return MPI_Isend(source, box.count, box.type, box.peer, box.tag, comm,
                         request);
      });
    }
  });
}

/// update_halo of either API: plans unless the plan of `key` holds, then
/// exchanges.
static distrt_handle_t updateHalo(int64_t teamId, int64_t key, int32_t dtype,
                                  const MemrefView &block,
                                  std::span<const int64_t> spec, bool async,
                                  const SourceLoc &loc) {
  return guarded("update_halo", teamId, loc, [&] {
    Watch watch("update_halo", loc, teamId, kWaitsForTeam);
    TeamState &team = lookupTeam(teamId);
    UpdateHaloPlan &plan =
        cachedPlan(team.updateHaloPlans, team.updateHaloScratch, key);
    const bool holds = plan.valid && samePlanKey(plan.key, dtype, block, spec);
    // A rank that replans while another does not would wait for it forever.
    if (gChecked) [[unlikely]]
      agreeOnHalo("update_halo", teamId, key, dtype, block.rank, !holds, loc,
                  watch.record());
    if (!holds) {
      if (BlockedCall *b = watch.record()) {
        b->waitsFor = "the other members of team {team} to exchange "
                      "update_halo's plan headers (key {channel})";
        b->channel = key;
      }
      makePlan(team, plan, dtype, block, spec);
    }
    if (BlockedCall *b = watch.record()) {
      b->waitsFor = "the halo cells of team ranks {peers} (key {channel})";
      b->channel = key;
      b->peerCount = 0;
      for (const HaloBox &box : plan.recvs)
        b->addPeer(box.peer);
    }
    return exchange(team, plan, block, dtypeInfo(dtype).size, async, loc);
  });
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
    static thread_local std::vector<int64_t> dense;
    return updateHalo(team, key, dtype, unrankedArg(blockRank, block, "block"),
                      i64Values(specView, dense), async != 0, SourceLoc(loc));
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
