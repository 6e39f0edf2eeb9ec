//===- bench_stencil.cpp - the stencil example against hand-written MPI ---===//
//
// Application benchmark: one Jacobi step of an N x N f64 grid split along
// rows over the ranks (examples/stencil.mlir), the step compiled from .mlir
// (its C interfaces jacobi_step_blocking / jacobi_step_overlap: get_halo,
// then the rows; or get_halo posted, interior rows, wait, edge rows)
// against a hand-written C++/MPI step doing the same work on its own arrays
// with ghost rows (built at -O3, where GCC vectorizes its rows):
//   hand blocking  MPI_Irecv/MPI_Isend of the neighbour rows, MPI_Waitall,
//                  then every row
//   hand overlap   MPI_Irecv/MPI_Isend, interior rows, MPI_Waitall, the
//                  first and last rows
// Cases (baseline -> distrt column):
//   stencil_blocking     hand blocking -> mlir blocking
//   stencil_overlap      hand overlap  -> mlir overlap
//   stencil_overlap_vs_blocking  hand blocking -> mlir overlap
//   stencil_compute      the interior rows alone, no exchange: the C++
//                        kernel -> the compiled relax_rows
//   stencil_sync_vs_overlap      mlir overlap  -> mlir sync
//   stencil_sync_vs_hand_overlap hand overlap  -> mlir sync
//   stencil_exchange_share       hand blocking -> its exchange alone: the
//                        ratio is the exchange's share of the step
// mlir sync is jacobi_step_sync, the step written sync as one loop over the
// rows, which the default pipeline splits and overlaps
// (distruntime-overlap-halo, distruntime-async-collectives). The same
// passes move jacobi_step_blocking's wait past its interior rows, so mlir
// blocking overlaps too.
// Before timing, the five versions run the same steps from the same initial
// grid and must give bit-identical arrays and the same checksum.
// Alternating blocks of >= ~50 ms in one launch (Paired.h); size = N, times
// per step (slowest rank).
// Usage: bench_stencil [check | N...]   (default N = 1024 4096 8192;
// scripts/bench.sh runs 256 512 1024 4096 8192)
//
//===----------------------------------------------------------------------===//

#include "BenchUtil.h"
#include "MemrefDescriptor.h"

#include "distruntime/Runtime/distrt.h"

#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

using Memref = distrt::bench::MemrefDescriptor<double, 2>;

// Emitted by the MLIR lowering of examples/stencil.mlir.
extern "C" void _mlir_ciface_jacobi_step_blocking(Memref *u, Memref *v,
                                                  int64_t off, int64_t rows);
extern "C" void _mlir_ciface_jacobi_step_overlap(Memref *u, Memref *v,
                                                 int64_t off, int64_t rows);
extern "C" void _mlir_ciface_relax_rows(Memref *u, Memref *v, int64_t lo,
                                        int64_t hi);
extern "C" void _mlir_ciface_jacobi_step_sync(Memref *u, Memref *v, int64_t off,
                                              int64_t rows);

namespace {

double initial(int64_t i, int64_t j) {
  return static_cast<double>((7 * i + 3 * j) % 11);
}

/// The hand-written version: n local rows plus a ghost row above and below
/// (rows 0 and n + 1 of the arrays).
struct Hand {
  int64_t rows, n, off;
  int rank, size;
  MPI_Comm comm;
  std::vector<double> a, b;
  double *u, *v;

  Hand(int64_t rows, int64_t n, int64_t off, int rank, int size, MPI_Comm comm)
      : rows(rows), n(n), off(off), rank(rank), size(size), comm(comm),
        a(static_cast<size_t>((n + 2) * rows)),
        b(static_cast<size_t>((n + 2) * rows)), u(a.data()), v(b.data()) {
    for (int64_t li = 0; li < n; ++li)
      for (int64_t j = 0; j < rows; ++j)
        u[(li + 1) * rows + j] = initial(off + li, j);
  }

  double *row(double *x, int64_t li) { return x + (li + 1) * rows; }

  static void relax(const double *__restrict up, const double *__restrict mid,
                    const double *__restrict dn, double *__restrict out,
                    int64_t cols) {
    out[0] = mid[0];
    out[cols - 1] = mid[cols - 1];
    for (int64_t j = 1; j < cols - 1; ++j)
      out[j] = (((up[j] + dn[j]) + mid[j - 1]) + mid[j + 1]) * 0.25;
  }

  void relaxRow(int64_t li) {
    const int64_t i = off + li;
    if (i == 0 || i == rows - 1)
      std::memcpy(row(v, li), row(u, li), sizeof(double) * rows);
    else
      relax(row(u, li - 1), row(u, li), row(u, li + 1), row(v, li), rows);
  }

  int post(MPI_Request *requests) {
    const int count = static_cast<int>(rows);
    int k = 0;
    if (rank > 0)
      MPI_Irecv(row(u, -1), count, MPI_DOUBLE, rank - 1, 1, comm,
                &requests[k++]);
    if (rank < size - 1)
      MPI_Irecv(row(u, n), count, MPI_DOUBLE, rank + 1, 2, comm,
                &requests[k++]);
    if (rank > 0)
      MPI_Isend(row(u, 0), count, MPI_DOUBLE, rank - 1, 2, comm,
                &requests[k++]);
    if (rank < size - 1)
      MPI_Isend(row(u, n - 1), count, MPI_DOUBLE, rank + 1, 1, comm,
                &requests[k++]);
    return k;
  }

  void edges() {
    relaxRow(0);
    if (n > 1)
      relaxRow(n - 1);
  }

  void interior() {
    for (int64_t li = 1; li < n - 1; ++li)
      relax(row(u, li - 1), row(u, li), row(u, li + 1), row(v, li), rows);
  }

  void stepBlocking() {
    MPI_Request requests[4];
    MPI_Waitall(post(requests), requests, MPI_STATUSES_IGNORE);
    interior();
    edges();
    std::swap(u, v);
  }

  /// The exchange alone, no rows computed.
  void exchange() {
    MPI_Request requests[4];
    MPI_Waitall(post(requests), requests, MPI_STATUSES_IGNORE);
  }

  void stepOverlap() {
    MPI_Request requests[4];
    const int k = post(requests);
    interior();
    MPI_Waitall(k, requests, MPI_STATUSES_IGNORE);
    edges();
    std::swap(u, v);
  }
};

/// A row-major n x rows descriptor of `data`.
static Memref rowMajor(std::vector<double> &data, int64_t n, int64_t rows) {
  return {data.data(), data.data(), 0, {n, rows}, {rows, 1}};
}

/// The compiled version on n x N arrays without ghost rows.
struct Compiled {
  int64_t rows, n, off;
  std::vector<double> a, b;
  Memref u, v;

  Compiled(int64_t rows, int64_t n, int64_t off)
      : rows(rows), n(n), off(off), a(static_cast<size_t>(n * rows)),
        b(static_cast<size_t>(n * rows)), u(rowMajor(a, n, rows)),
        v(rowMajor(b, n, rows)) {
    for (int64_t li = 0; li < n; ++li)
      for (int64_t j = 0; j < rows; ++j)
        a[static_cast<size_t>(li * rows + j)] = initial(off + li, j);
  }

  void stepBlocking() {
    _mlir_ciface_jacobi_step_blocking(&u, &v, off, rows);
    std::swap(u, v);
  }
  void stepOverlap() {
    _mlir_ciface_jacobi_step_overlap(&u, &v, off, rows);
    std::swap(u, v);
  }
  void interior() { _mlir_ciface_relax_rows(&u, &v, 1, n - 1); }
  void stepSync() {
    _mlir_ciface_jacobi_step_sync(&u, &v, off, rows);
    std::swap(u, v);
  }
};

/// The global fixed-point checksum of examples/stencil.mlir.
long long checksum(const double *x, int64_t count, MPI_Comm comm) {
  long long local = 0;
  for (int64_t k = 0; k < count; ++k)
    local += static_cast<long long>(x[k] * 1048576.0);
  long long global = 0;
  MPI_Allreduce(&local, &global, 1, MPI_LONG_LONG, MPI_SUM, comm);
  return global;
}

/// The five versions run `steps` steps from the initial grid; their
/// arrays must be identical. Returns the checksum.
long long check(int64_t rows, int64_t n, int64_t off, int rank, int size,
                MPI_Comm comm, int steps) {
  Hand hb(rows, n, off, rank, size, comm), ho(rows, n, off, rank, size, comm);
  Compiled cb(rows, n, off), co(rows, n, off), cs(rows, n, off);
  for (int s = 0; s < steps; ++s) {
    hb.stepBlocking();
    ho.stepOverlap();
    cb.stepBlocking();
    co.stepOverlap();
    cs.stepSync();
  }
  const size_t count = static_cast<size_t>(n * rows);
  const double *ref = hb.row(hb.u, 0);
  bool same = std::equal(ref, ref + count, ho.row(ho.u, 0)) &&
              std::equal(ref, ref + count, cb.u.aligned) &&
              std::equal(ref, ref + count, co.u.aligned) &&
              std::equal(ref, ref + count, cs.u.aligned);
  int allSame = same;
  MPI_Allreduce(MPI_IN_PLACE, &allSame, 1, MPI_INT, MPI_LAND, comm);
  const long long sums[5] = {checksum(ref, n * rows, comm),
                             checksum(ho.row(ho.u, 0), n * rows, comm),
                             checksum(cb.u.aligned, n * rows, comm),
                             checksum(co.u.aligned, n * rows, comm),
                             checksum(cs.u.aligned, n * rows, comm)};
  if (!allSame || std::count(sums, sums + 5, sums[0]) != 5) {
    if (rank == 0)
      std::fprintf(stderr,
                   "bench_stencil: N = %lld: results differ (checksums "
                   "%lld %lld %lld %lld %lld)\n",
                   static_cast<long long>(rows), sums[0], sums[1], sums[2],
                   sums[3], sums[4]);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  return sums[0];
}

void bench(int64_t rows, int rank, int size, MPI_Comm comm) {
  const int64_t q = rows / size, rem = rows % size;
  const int64_t n = q + (rank < rem ? 1 : 0);
  const int64_t off = q * rank + std::min<int64_t>(rank, rem);
  const long long sum = check(rows, n, off, rank, size, comm, 3);
  if (rank == 0)
    std::fprintf(stderr,
                 "bench_stencil: N = %lld: 5 versions agree after 3 "
                 "steps, checksum %lld\n",
                 static_cast<long long>(rows), sum);

  Hand hand(rows, n, off, rank, size, comm);
  Compiled mlir(rows, n, off);
  using distrt::bench::timeBlock;
  auto handBlocking = [&] { hand.stepBlocking(); };
  auto handOverlap = [&] { hand.stepOverlap(); };
  auto mlirBlocking = [&] { mlir.stepBlocking(); };
  auto mlirOverlap = [&] { mlir.stepOverlap(); };
  auto mlirSync = [&] { mlir.stepSync(); };
  // Warm-up, then blocks of about 50 ms (at least 2 steps).
  for (int i = 0; i < 2; ++i) {
    handBlocking();
    mlirOverlap();
  }
  const double once = std::max(timeBlock(handBlocking, 2, comm),
                               timeBlock(mlirBlocking, 2, comm));
  const int steps =
      std::clamp(static_cast<int>(0.05 / std::max(once, 1e-9)), 2, 100000);
  const int blocks = 24;
  auto run = [&](const char *name, auto &&baseline, auto &&ours) {
    const distrt::bench::Comparison c = distrt::bench::alternate(
        [&] { return timeBlock(baseline, steps, comm); },
        [&] { return timeBlock(ours, steps, comm); }, blocks);
    distrt::bench::printRow(rank, name, size, rows, c);
  };
  run("stencil_blocking", handBlocking, mlirBlocking);
  run("stencil_overlap", handOverlap, mlirOverlap);
  run("stencil_overlap_vs_blocking", handBlocking, mlirOverlap);
  run("stencil_sync_vs_overlap", mlirOverlap, mlirSync);
  run("stencil_sync_vs_hand_overlap", handOverlap, mlirSync);
  auto handCompute = [&] { hand.interior(); };
  auto mlirCompute = [&] { mlir.interior(); };
  run("stencil_compute", handCompute, mlirCompute);
  auto handExchange = [&] { hand.exchange(); };
  run("stencil_exchange_share", handBlocking, handExchange);
}

} // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  // The hand-written side gets its own communicator, as distrt has its own.
  MPI_Comm comm;
  MPI_Comm_dup(MPI_COMM_WORLD, &comm);
  const bool onlyCheck = argc > 1 && std::strcmp(argv[1], "check") == 0;
  if (onlyCheck) {
    // Uneven splits, one row per rank, and a few more steps.
    for (int64_t rows : {std::max<int64_t>(size, 3), int64_t{37}, int64_t{256}})
      check(rows, rows / size + (rank < rows % size ? 1 : 0),
            rows / size * rank + std::min<int64_t>(rank, rows % size), rank,
            size, comm, 7);
    if (rank == 0)
      std::printf("bench_stencil: check passed\n");
  } else {
    std::vector<int64_t> sizes;
    for (int k = 1; k < argc; ++k)
      sizes.push_back(std::atoll(argv[k]));
    if (sizes.empty())
      sizes = {1024, 4096, 8192};
    distrt::bench::printHeader(rank);
    for (int64_t rows : sizes)
      bench(rows, rank, size, comm);
  }
  MPI_Comm_free(&comm);
  distrt_finalize();
  MPI_Finalize();
  return 0;
}
