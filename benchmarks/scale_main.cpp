//===- scale_main.cpp - distrt against raw MPI as P grows -------*- C++ -*-===//
//
// The scaling study's benchmark (scripts/scale.sh, docs/scaling.md), run
// under SimGrid's SMPI at P = 4 ... 1024 simulated ranks. Every time is
// simulated time (MPI_Wtime under SMPI), the slowest rank's; the CPU time
// each rank spends between MPI calls (the runtime's own work included) is
// measured on this machine and added by SMPI (smpi/cpu-threshold:0 in
// scale.sh, so none is dropped).
//
//   collectives <bytes>  all_reduce, all_gather, all_to_all,
//       collective_broadcast, collective_permute (ring) over the world
//       group, f64, each against the raw MPI call doing the same work
//       (MPI_Allreduce, MPI_Allgather, MPI_Alltoall, MPI_Bcast,
//       MPI_Sendrecv). <bytes> is each rank's input, except all_gather's
//       and all_to_all's: there it is each rank's output (a rank's share
//       is <bytes> / P, at least 8 B), so that 1,024 ranks fit in memory.
//       Alternating blocks (Paired.h) of 4 calls after one warm-up call.
//   teams  the first all_reduce (8 B) over a grid axis: the rows of an
//       R x C grid (R*C = P, R = 2^floor(log2(P)/2)), so the runtime
//       splits a communicator for the layout; against MPI_Comm_split plus
//       MPI_Allreduce. The creation cost is the first call minus a cached
//       one (the median of 8), after a call over the whole team has set up
//       the runtime's own communicators.
//   halo <n>  weak scaling on 2-D arrays of f64: update_halo of an n x n
//       core with a frame of 1 on an R x C process grid (both dimensions
//       split), and get_halo of n rows of n columns split along rows, a
//       bbox of one row either side. Plan time: the first call minus a
//       cached one, after a call over the whole team has set up the
//       runtime's communicators; exchange time: the median of 8 cached
//       calls; plan bytes: the rank's halo plan caches after the calls (the
//       largest over the ranks). Baseline: MPI_Irecv/MPI_Isend/MPI_Waitall
//       of the same faces (update_halo's 4 faces: no corners, so the
//       runtime's 8 boxes are a little more work).
//   repro <bytes>  all_reduce of <bytes> of f64 at reproducibility ordered
//       and exact, each against MPI_Allreduce; up to 4 KiB also the
//       gradient sync: 64 f32 tensors of <bytes> in one all_reduce at
//       ordered (packed: ReducePlan.h) against 64 MPI_Allreduce calls.
//   checked  all_reduce of 8 B with DISTRT_CHECK=1 semantics (agreement
//       before the call) and with the watchdog (120 s timeout) alone,
//       each against unchecked distrt.
// --network-only (last): the run simulates no computation, so every time is
// exact and one pair of single calls is enough.
// CSV on stdout (rank 0): case,P,bytes,baseline_us,distrt_us,ratio;
// halo rows: case,P,n,plan_us,exchange_us,baseline_us,plan_bytes,
// plan_baseline_us (raw MPI making the plan's two allgathers).
//
//===----------------------------------------------------------------------===//

#include "BenchUtil.h"
#include "MemrefDescriptor.h"

#include "distruntime/Runtime/distrt.h"

#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

// The runtime's own count of its halo plan caches (runtime/Halo.h): under
// SMPI libdistrt is linked statically, so the benchmark reaches it.
namespace distrt::detail {
size_t haloPlanBytes(int64_t id);
} // namespace distrt::detail

using namespace distrt::bench;

namespace {

template <int Rank> using Descriptor = MemrefDescriptor<double, Rank>;

const int64_t kEveryoneIds[1] = {0};
const distrt_groups_t kEveryone{DISTRT_FLATTENED_IDS, -1, -1, 0, 0,
                                kEveryoneIds};
const char *const kLoc = "scale_main";

/// Paired blocks of 4 calls, 6 blocks: SMPI's time is deterministic but
/// for the measured CPU bursts. With --network-only (scale.sh's
/// smpi/simulate-computation:no, where the time is exact), two blocks of one
/// call: at P = 1,024 a ring all_gather is a million simulated messages per
/// call.
int gBlocks = 6, gCalls = 4;

template <class Baseline, class Ours>
Comparison pairedCompare(Baseline &&baseline, Ours &&ours, MPI_Comm comm) {
  baseline();
  ours();
  return alternate([&] { return timeBlock(baseline, gCalls, comm); },
                   [&] { return timeBlock(ours, gCalls, comm); }, gBlocks);
}

void row(int rank, const char *name, int size, int64_t bytes,
         const Comparison &c) {
  if (rank == 0)
    std::printf("%s,%d,%lld,%.3f,%.3f,%.4f\n", name, size,
                static_cast<long long>(bytes), c.baselineUs, c.distrtUs,
                c.ratio);
  std::fflush(stdout);
}

/// One collective: `in` of n doubles, `out` of outN doubles.
template <class Baseline, class Ours>
void collective(const char *name, int64_t bytes, int64_t n, int64_t outN,
                MPI_Comm comm, int rank, int size, Baseline &&baseline,
                Ours &&ours) {
  std::vector<double> in(static_cast<size_t>(n), 1.0 + rank),
      out(static_cast<size_t>(std::max<int64_t>(outN, 1)), 0.0);
  Descriptor<1> inDesc{in.data(), in.data(), 0, {n}, {1}};
  Descriptor<1> outDesc{out.data(), out.data(), 0, {outN}, {1}};
  const distrt_operand_t inOp{1, &inDesc, DISTRT_F64},
      outOp{1, &outDesc, DISTRT_F64};
  const Comparison c = pairedCompare([&] { baseline(in.data(), out.data()); },
                                     [&] { ours(&inOp, &outOp); }, comm);
  row(rank, name, size, bytes, c);
}

void benchCollectives(int64_t bytes, MPI_Comm comm, int rank, int size) {
  const int64_t n = std::max<int64_t>(bytes / 8, 1);
  const int count = static_cast<int>(n);
  distrt_site_t sites[5];
  for (distrt_site_t &site : sites)
    site = {DISTRT_SITE_STATIC, nullptr, nullptr};
  collective(
      "all_reduce", bytes, n, n, comm, rank, size,
      [&](double *in, double *out) {
        MPI_Allreduce(in, out, count, MPI_DOUBLE, MPI_SUM, comm);
      },
      [&](const distrt_operand_t *in, const distrt_operand_t *out) {
        distrt_all_reduce(0, &kEveryone, DISTRT_SUM, 1, in, out, 0, &sites[0],
                          kLoc);
      });
  // A rank's share of the gathered output.
  const int64_t share = std::max<int64_t>(n / size, 1);
  collective(
      "all_gather", bytes, share, share * size, comm, rank, size,
      [&](double *in, double *out) {
        MPI_Allgather(in, static_cast<int>(share), MPI_DOUBLE, out,
                      static_cast<int>(share), MPI_DOUBLE, comm);
      },
      [&](const distrt_operand_t *in, const distrt_operand_t *out) {
        distrt_all_gather(0, &kEveryone, 0, 1, in, out, 0, &sites[1], kLoc);
      });
  collective(
      "all_to_all", bytes, share * size, share * size, comm, rank, size,
      [&](double *in, double *out) {
        MPI_Alltoall(in, static_cast<int>(share), MPI_DOUBLE, out,
                     static_cast<int>(share), MPI_DOUBLE, comm);
      },
      [&](const distrt_operand_t *in, const distrt_operand_t *out) {
        distrt_all_to_all(0, &kEveryone, 0, 0, size, 1, in, out, 0, &sites[2],
                          kLoc);
      });
  collective(
      "collective_broadcast", bytes, n, n, comm, rank, size,
      [&](double *in, double *) { MPI_Bcast(in, count, MPI_DOUBLE, 0, comm); },
      [&](const distrt_operand_t *in, const distrt_operand_t *) {
        distrt_collective_broadcast(0, &kEveryone, nullptr, 1, in, in, 0,
                                    &sites[3], kLoc);
      });
  std::vector<int64_t> ring;
  for (int i = 0; i < size; ++i)
    ring.insert(ring.end(), {i, (i + 1) % size});
  const distrt_groups_t pairs{DISTRT_CROSS_REPLICA, -1, -1, size, 2,
                              ring.data()};
  const int next = (rank + 1) % size, previous = (rank + size - 1) % size;
  collective(
      "collective_permute", bytes, n, n, comm, rank, size,
      [&](double *in, double *out) {
        MPI_Sendrecv(in, count, MPI_DOUBLE, next, 0, out, count, MPI_DOUBLE,
                     previous, 0, comm, MPI_STATUS_IGNORE);
      },
      [&](const distrt_operand_t *in, const distrt_operand_t *out) {
        distrt_collective_permute(0, &pairs, 1, in, out, 0, &sites[4], kLoc);
      });
}

/// One f64 in and one out, as the lowering passes memref<1xf64> operands.
struct ScalarOperands {
  double x, y = 0;
  Descriptor<1> inDesc{&x, &x, 0, {1}, {1}}, outDesc{&y, &y, 0, {1}, {1}};
  const distrt_operand_t in{1, &inDesc, DISTRT_F64},
      out{1, &outDesc, DISTRT_F64};

  explicit ScalarOperands(double value) : x(value) {}
  ScalarOperands(const ScalarOperands &) = delete;
  ScalarOperands &operator=(const ScalarOperands &) = delete;
};

/// Sets up team 0 (the runtime's communicators: its own and its
/// subsystems') by a first call over the whole team, so that a first call
/// timed afterwards times its own layout or plan alone.
void setUpTeam() {
  ScalarOperands s(0);
  distrt_site_t site{DISTRT_SITE_STATIC, nullptr, nullptr};
  distrt_all_reduce(0, &kEveryone, DISTRT_SUM, 1, &s.in, &s.out, 0, &site,
                    kLoc);
}

/// The R x C grid of P ranks: R = 2^floor(log2(P) / 2).
std::pair<int, int> gridOf(int size) {
  int rows = 1;
  while (rows * rows * 4 <= size)
    rows *= 2;
  return {rows, size / rows};
}

/// Simulated seconds of one call of `op`, the slowest rank's.
template <class Op> double once(Op &&op, MPI_Comm comm) {
  return timeBlock(op, 1, comm);
}

/// The median of `k` single calls.
template <class Op> double steady(Op &&op, MPI_Comm comm, int k = 8) {
  std::vector<double> t;
  for (int i = 0; i < k; ++i)
    t.push_back(once(op, comm));
  return median(t);
}

void benchTeams(MPI_Comm comm, int rank, int size) {
  const auto [rows, cols] = gridOf(size);
  // Grid rows as flattened-id groups: row i is ranks i*C ... i*C + C - 1.
  std::vector<int64_t> ids;
  for (int i = 0; i < rows * cols; ++i)
    ids.push_back(i);
  const distrt_groups_t axis{
      DISTRT_FLATTENED_IDS, -1, -1, rows, cols, ids.data()};
  ScalarOperands s(rank);
  distrt_site_t site{DISTRT_SITE_STATIC, nullptr, nullptr};
  auto ours = [&] {
    distrt_all_reduce(0, &axis, DISTRT_SUM, 1, &s.in, &s.out, 0, &site, kLoc);
  };
  setUpTeam();
  const double first = once(ours, comm);
  const double cached = steady(ours, comm);
  MPI_Comm split = MPI_COMM_NULL;
  const double mpiFirst = once(
      [&] {
        MPI_Comm_split(comm, rank / cols, rank, &split);
        MPI_Allreduce(&s.x, &s.y, 1, MPI_DOUBLE, MPI_SUM, split);
      },
      comm);
  const double mpiCached = steady(
      [&] { MPI_Allreduce(&s.x, &s.y, 1, MPI_DOUBLE, MPI_SUM, split); }, comm);
  MPI_Comm_free(&split);
  const Comparison c{(mpiFirst - mpiCached) * 1e6, (first - cached) * 1e6,
                     (first - cached) / (mpiFirst - mpiCached)};
  row(rank, "grid_axis_creation", size, 8, c);
  row(rank, "grid_axis_cached", size, 8,
      {mpiCached * 1e6, cached * 1e6, cached / mpiCached});
}

size_t maxPlanBytes(MPI_Comm comm) {
  auto mine = static_cast<unsigned long long>(distrt::detail::haloPlanBytes(0));
  unsigned long long most = 0;
  MPI_Allreduce(&mine, &most, 1, MPI_UNSIGNED_LONG_LONG, MPI_MAX, comm);
  return most;
}

void haloRow(int rank, const char *name, int size, int64_t n, double first,
             double cached, double baseline, size_t bytes,
             double planBaseline) {
  if (rank == 0)
    std::printf("%s,%d,%lld,%.3f,%.3f,%.3f,%zu,%.3f\n", name, size,
                static_cast<long long>(n), (first - cached) * 1e6, cached * 1e6,
                baseline * 1e6, bytes, planBaseline * 1e6);
  std::fflush(stdout);
}

/// Raw MPI's share of a halo plan: its allgathers, of `header` and then of
/// `extents` int64 words per rank (the runtime's plan makes these two and
/// no other collective when every rank's call is valid).
double planCollectives(int header, int extents, MPI_Comm comm, int size) {
  std::vector<int64_t> mine(static_cast<size_t>(std::max(header, extents)));
  std::vector<int64_t> all(mine.size() * static_cast<size_t>(size));
  return once(
      [&] {
        MPI_Allgather(mine.data(), header, MPI_INT64_T, all.data(), header,
                      MPI_INT64_T, comm);
        MPI_Allgather(mine.data(), extents, MPI_INT64_T, all.data(), extents,
                      MPI_INT64_T, comm);
      },
      comm);
}

void benchUpdateHalo(int64_t n, MPI_Comm comm, int rank, int size) {
  const auto [rows, cols] = gridOf(size);
  const int i = rank / cols, j = rank % cols;
  const int64_t m = n + 2; // the block with its frame
  std::vector<double> block(static_cast<size_t>(m * m), 1.0 + rank);
  Descriptor<2> desc{block.data(), block.data(), 0, {m, m}, {m, 1}};
  // g = 2, grid R x C; dim 0 split over axis 0, dim 1 over axis 1.
  std::vector<int64_t> spec{2, rows, cols, 1, 1, 1, 0, 1, 1, 1, 1};
  MemrefDescriptor<int64_t, 1> specDesc{
      spec.data(), spec.data(), 0, {static_cast<int64_t>(spec.size())}, {1}};
  auto ours = [&] {
    distrt_update_halo(0, 1, DISTRT_F64, 2, &desc, 1, &specDesc, 0, kLoc);
  };
  const double first = once(ours, comm);
  const double cached = steady(ours, comm);
  // Raw MPI: the 4 faces (a column face through a vector type).
  MPI_Datatype column;
  MPI_Type_vector(static_cast<int>(n), 1, static_cast<int>(m), MPI_DOUBLE,
                  &column);
  MPI_Type_commit(&column);
  auto at = [&](int64_t r, int64_t c) { return block.data() + r * m + c; };
  auto baseline = [&] {
    MPI_Request req[8];
    int k = 0;
    const int count = static_cast<int>(n);
    if (i > 0) {
      MPI_Irecv(at(0, 1), count, MPI_DOUBLE, rank - cols, 0, comm, &req[k++]);
      MPI_Isend(at(1, 1), count, MPI_DOUBLE, rank - cols, 1, comm, &req[k++]);
    }
    if (i + 1 < rows) {
      MPI_Irecv(at(m - 1, 1), count, MPI_DOUBLE, rank + cols, 1, comm,
                &req[k++]);
      MPI_Isend(at(m - 2, 1), count, MPI_DOUBLE, rank + cols, 0, comm,
                &req[k++]);
    }
    if (j > 0) {
      MPI_Irecv(at(1, 0), 1, column, rank - 1, 2, comm, &req[k++]);
      MPI_Isend(at(1, 1), 1, column, rank - 1, 3, comm, &req[k++]);
    }
    if (j + 1 < cols) {
      MPI_Irecv(at(1, m - 1), 1, column, rank + 1, 3, comm, &req[k++]);
      MPI_Isend(at(1, m - 2), 1, column, rank + 1, 2, comm, &req[k++]);
    }
    MPI_Waitall(k, req, MPI_STATUSES_IGNORE);
  };
  const double base = steady(baseline, comm);
  MPI_Type_free(&column);
  // Its header (5 words) and core extents (2).
  const double plan = planCollectives(5, 2, comm, size);
  haloRow(rank, "update_halo_2d", size, n, first, cached, base,
          maxPlanBytes(comm), plan);
}

void benchGetHalo(int64_t n, MPI_Comm comm, int rank, int size) {
  const int64_t total = n * size, begin = n * rank;
  const int64_t boxBegin = std::max<int64_t>(0, begin - 1);
  const int64_t boxEnd = std::min<int64_t>(total, begin + n + 1);
  const int64_t leftRows = begin - boxBegin, rightRows = boxEnd - (begin + n);
  std::vector<double> local(static_cast<size_t>(n * n), 1.0 + rank);
  std::vector<double> left(static_cast<size_t>(n)),
      right(static_cast<size_t>(n));
  std::vector<int64_t> geometry{
      total, n, begin, 0, boxBegin, 0, boxEnd - boxBegin, n};
  Descriptor<2> localDesc{local.data(), local.data(), 0, {n, n}, {n, 1}};
  Descriptor<2> leftDesc{left.data(), left.data(), 0, {leftRows, n}, {n, 1}};
  Descriptor<2> rightDesc{
      right.data(), right.data(), 0, {rightRows, n}, {n, 1}};
  MemrefDescriptor<int64_t, 1> geometryDesc{
      geometry.data(), geometry.data(), 0, {8}, {1}};
  auto ours = [&] {
    distrt_wait(distrt_get_halo(0, 2, DISTRT_F64, 2, &localDesc, 1,
                                &geometryDesc, 2, &leftDesc, 2, &rightDesc,
                                kLoc),
                kLoc);
  };
  const double first = once(ours, comm);
  const double cached = steady(ours, comm);
  auto baseline = [&] {
    MPI_Request req[4];
    int k = 0;
    const int count = static_cast<int>(n);
    if (leftRows > 0) {
      MPI_Irecv(left.data(), count, MPI_DOUBLE, rank - 1, 0, comm, &req[k++]);
      MPI_Isend(local.data(), count, MPI_DOUBLE, rank - 1, 1, comm, &req[k++]);
    }
    if (rightRows > 0) {
      MPI_Irecv(right.data(), count, MPI_DOUBLE, rank + 1, 1, comm, &req[k++]);
      MPI_Isend(local.data() + (n - 1) * n, count, MPI_DOUBLE, rank + 1, 0,
                comm, &req[k++]);
    }
    MPI_Waitall(k, req, MPI_STATUSES_IGNORE);
  };
  const double base = steady(baseline, comm);
  // Its header (7 words) and extents past dimension 0 (3).
  const double plan = planCollectives(7, 3, comm, size);
  haloRow(rank, "get_halo_rows", size, n, first, cached, base,
          maxPlanBytes(comm), plan);
}

constexpr int kWatchdogRanks = 64;

void benchChecked(MPI_Comm comm, int rank, int size) {
  ScalarOperands s(rank);
  distrt_site_t sites[3];
  for (distrt_site_t &site : sites)
    site = {DISTRT_SITE_STATIC, nullptr, nullptr};
  auto reduce = [&](int check, double timeout, distrt_site_t *site) {
    distrt_set_check(check);
    distrt_set_timeout(timeout);
    distrt_all_reduce(0, &kEveryone, DISTRT_SUM, 1, &s.in, &s.out, 0, site,
                      kLoc);
  };
  row(rank, "checked_vs_unchecked_all_reduce", size, 8,
      pairedCompare([&] { reduce(0, 0, &sites[0]); },
                    [&] { reduce(1, 0, &sites[1]); }, comm));
  // A watched call is a nonblocking collective and a polling wait; SMPI
  // implements nonblocking collectives with linear algorithms (P^2
  // messages), whose waits cost O(P^2) of simulation: past 64 ranks the
  // simulation would take hours (docs/scaling.md).
  if (size <= kWatchdogRanks)
    row(rank, "watchdog_vs_unchecked_all_reduce", size, 8,
        pairedCompare([&] { reduce(0, 0, &sites[0]); },
                      [&] { reduce(0, 120, &sites[2]); }, comm));
  else if (rank == 0)
    std::fprintf(stderr,
                 "distrt_scale: the watchdog is measured up to %d ranks\n",
                 kWatchdogRanks);
  distrt_set_check(0);
  distrt_set_timeout(0);
}

} // namespace

/// Reproducible all_reduces of `bytes` and, up to 4 KiB, the gradient sync
/// of 64 tensors of `bytes` at ordered.
void benchReproducible(int64_t bytes, MPI_Comm comm, int rank, int size) {
  const int64_t n = std::max<int64_t>(bytes / 8, 1);
  const int count = static_cast<int>(n);
  distrt_site_t sites[3];
  for (distrt_site_t &site : sites)
    site = {DISTRT_SITE_STATIC, nullptr, nullptr};
  int k = 0;
  for (int32_t level : {DISTRT_REPRO_ORDERED, DISTRT_REPRO_EXACT}) {
    distrt_site_t *site = &sites[k++];
    collective(
        level == DISTRT_REPRO_EXACT ? "all_reduce_exact" : "all_reduce_ordered",
        bytes, n, n, comm, rank, size,
        [&](double *in, double *out) {
          MPI_Allreduce(in, out, count, MPI_DOUBLE, MPI_SUM, comm);
        },
        [&](const distrt_operand_t *in, const distrt_operand_t *out) {
          distrt_all_reduce(0, &kEveryone,
                            DISTRT_SUM | level << DISTRT_REPRO_SHIFT, 1, in,
                            out, 0, site, kLoc);
        });
  }
  if (bytes > 4096)
    return;
  constexpr int kTensors = 64;
  const int64_t m = std::max<int64_t>(bytes / 4, 1);
  std::vector<std::vector<float>> grads(kTensors,
                                        std::vector<float>(m, 1.0f + rank));
  std::vector<MemrefDescriptor<float, 1>> descs;
  std::vector<distrt_operand_t> operands;
  descs.reserve(kTensors);
  for (std::vector<float> &g : grads) {
    descs.push_back({g.data(), g.data(), 0, {m}, {1}});
    operands.push_back({1, &descs.back(), DISTRT_F32});
  }
  const Comparison c = pairedCompare(
      [&] {
        for (std::vector<float> &g : grads)
          MPI_Allreduce(MPI_IN_PLACE, g.data(), static_cast<int>(m), MPI_FLOAT,
                        MPI_SUM, comm);
      },
      [&] {
        distrt_all_reduce(
            0, &kEveryone,
            DISTRT_SUM | DISTRT_REPRO_ORDERED << DISTRT_REPRO_SHIFT, kTensors,
            operands.data(), operands.data(), 0, &sites[2], kLoc);
      },
      comm);
  row(rank, "gradient_sync_64_ordered", size, bytes, c);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm comm;
  MPI_Comm_dup(MPI_COMM_WORLD, &comm);
  std::vector<std::string> args(argv + 1, argv + argc);
  if (!args.empty() && args.back() == "--network-only") {
    args.pop_back();
    gBlocks = 2;
    gCalls = 1;
  }
  const std::string what = args.empty() ? "" : args[0];
  const int64_t arg = args.size() > 1 ? std::stoll(args[1]) : 8;
  if (what == "collectives") {
    benchCollectives(arg, comm, rank, size);
  } else if (what == "teams") {
    benchTeams(comm, rank, size);
  } else if (what == "halo") {
    setUpTeam();
    benchUpdateHalo(arg, comm, rank, size);
    benchGetHalo(arg, comm, rank, size);
  } else if (what == "checked") {
    benchChecked(comm, rank, size);
  } else if (what == "repro") {
    benchReproducible(arg, comm, rank, size);
  } else {
    if (rank == 0)
      std::fprintf(stderr, "usage: distrt_scale collectives <bytes> | teams | "
                           "halo <n> | checked | repro <bytes> "
                           "[--network-only]\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  MPI_Comm_free(&comm);
  distrt_finalize();
  MPI_Finalize();
  return 0;
}
