//===- bench_shard_halo.cpp - shard.update_halo: upstream vs distruntime --===//
//
// The same shard.update_halo program (shard_halo/halo.mlir) lowered twice:
//   upstream  stock `mlir-opt --convert-shard-to-mpi` + the upstream chain to
//             LLVM (shard_halo/lower_upstream.sh), functions
//             halo_upstream_<case>
//   ours      scripts/compile.sh (shard-to-llvm: convert-shard-to-distruntime
//             + distruntime-to-llvm; shard_halo/lower_ours.sh), functions
//             halo_ours_<case>
// Both are called through their C interface (llvm.emit_c_interface) on
// blocks that include their halo frame.
//
// Every case is first checked against the closed form: the global array is
// f(i, j) = i * 4096 + j; after the call each owned cell still holds f, each
// halo cell whose global position exists holds f there, and halo cells past
// the global edge keep the sentinel -1 (update_halo leaves them alone).
//
//   bench_shard_halo check   every case the launch's np fits (np 2: column
//                            and row split; np 4: the 2x2 grid), a line per
//                            lowering and case: OK or WRONG with the count.
//                            Exit status 1 if ours is wrong anywhere or
//                            upstream is wrong on a static column split
//                            (the cases it is expected to get right).
//   bench_shard_halo [bench [case]]
//                            (np 2) column split, faces 64 B .. 1 MiB: the
//                            check, then upstream and ours in alternating
//                            blocks (Paired.h). CSV on stdout:
//                            case,np,size,baseline_us,distrt_us,ratio with
//                            baseline = upstream, distrt = ours, size = face
//                            bytes, ratio = ours / upstream (the speedup is
//                            its inverse).
//
//===----------------------------------------------------------------------===//

#include "BenchUtil.h"
#include "MemrefDescriptor.h"

#include <mpi.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "distruntime/Runtime/distrt.h"

using namespace distrt::bench;

namespace {
using Memref2 = MemrefDescriptor<double, 2>;
using HaloFn = void (*)(Memref2 *);
} // namespace

// The cases of shard_halo/halo.mlir, each lowered by both pipelines.
// (clang-format 14 and 22 lay out X-macro lists differently.)
// clang-format off
#define DISTRT_SHARD_HALO_CASES(X)                                             \
  X(col_8)                                                                     \
  X(col_32)                                                                    \
  X(col_128)                                                                   \
  X(col_512)                                                                   \
  X(col_2048)                                                                  \
  X(col_8192)                                                                  \
  X(col_32768)                                                                 \
  X(col_131072)                                                                \
  X(dyn_col)                                                                   \
  X(row_64)                                                                    \
  X(2x2_8)
// clang-format on

#define DECLARE_UPSTREAM(name)                                                 \
  extern "C" void _mlir_ciface_halo_upstream_##name(Memref2 *);
DISTRT_SHARD_HALO_CASES(DECLARE_UPSTREAM)
#define DECLARE_OURS(name)                                                     \
  extern "C" void _mlir_ciface_halo_ours_##name(Memref2 *);
DISTRT_SHARD_HALO_CASES(DECLARE_OURS)
#define OURS(name) &_mlir_ciface_halo_ours_##name

namespace {

constexpr double kSentinel = -1.0;

// One case: the local block (owned + halo frame) and the grid it lives on.
struct Case {
  const char *name;
  int gridRows, gridCols; // process grid (row-major: rank = r * gridCols + c)
  int64_t ownRows, ownCols;
  int haloRows, haloCols; // halo width on each side of that dimension
  HaloFn upstream, ours;
  bool timed; // a static column split: timed, and upstream must be right
  int64_t rows() const { return ownRows + 2 * haloRows; }
  int64_t cols() const { return ownCols + 2 * haloCols; }
  int np() const { return gridRows * gridCols; }
  // A face: one halo column (column split) or row, in bytes.
  int64_t faceBytes() const { return 8 * (haloCols ? ownRows : ownCols); }
};

// clang-format off
#define COL(rows, name)                                                        \
  Case {                                                                       \
    #name, 1, 2, rows, 16, 0, 1, &_mlir_ciface_halo_upstream_##name,           \
        OURS(name), true                                                       \
  }
// clang-format on

const std::vector<Case> &cases() {
  static const std::vector<Case> all = {
      COL(8, col_8),
      COL(32, col_32),
      COL(128, col_128),
      COL(512, col_512),
      COL(2048, col_2048),
      COL(8192, col_8192),
      COL(32768, col_32768),
      COL(131072, col_131072),
      {"dyn_col", 1, 2, 8, 16, 0, 1, &_mlir_ciface_halo_upstream_dyn_col,
       OURS(dyn_col), false},
      {"row_64", 2, 1, 8, 64, 1, 0, &_mlir_ciface_halo_upstream_row_64,
       OURS(row_64), false},
      {"2x2_8", 2, 2, 8, 8, 1, 1, &_mlir_ciface_halo_upstream_2x2_8,
       OURS(2x2_8), false},
  };
  return all;
}

double f(int64_t i, int64_t j) { return static_cast<double>(i * 4096 + j); }

// The block of process `rank` before and after update_halo.
struct Block {
  const Case &c;
  int64_t rowOrigin, colOrigin; // global position of local (0, 0)
  int64_t globalRows, globalCols;
  std::vector<double> data;

  Block(const Case &c, int rank)
      : c(c), rowOrigin((rank / c.gridCols) * c.ownRows - c.haloRows),
        colOrigin((rank % c.gridCols) * c.ownCols - c.haloCols),
        globalRows(c.gridRows * c.ownRows), globalCols(c.gridCols * c.ownCols),
        data(c.rows() * c.cols()) {
    reset();
  }
  bool owned(int64_t a, int64_t b) const {
    return a >= c.haloRows && a < c.haloRows + c.ownRows && b >= c.haloCols &&
           b < c.haloCols + c.ownCols;
  }
  bool exists(int64_t a, int64_t b) const {
    const int64_t i = rowOrigin + a, j = colOrigin + b;
    return i >= 0 && i < globalRows && j >= 0 && j < globalCols;
  }
  // Owned cells hold f, the halo frame the sentinel.
  void reset() {
    for (int64_t a = 0; a < c.rows(); ++a)
      for (int64_t b = 0; b < c.cols(); ++b)
        data[a * c.cols() + b] =
            owned(a, b) ? f(rowOrigin + a, colOrigin + b) : kSentinel;
  }
  // Cells that differ from the closed form; the first one in `first`.
  int64_t wrong(std::string &first) const {
    int64_t count = 0;
    for (int64_t a = 0; a < c.rows(); ++a)
      for (int64_t b = 0; b < c.cols(); ++b) {
        const double want =
            exists(a, b) ? f(rowOrigin + a, colOrigin + b) : kSentinel;
        const double got = data[a * c.cols() + b];
        if (got == want)
          continue;
        if (count++ == 0)
          first = "local (" + std::to_string(a) + ", " + std::to_string(b) +
                  ") = " + std::to_string(got) + ", want " +
                  std::to_string(want);
      }
    return count;
  }
  Memref2 descriptor() {
    return {data.data(), data.data(), 0, {c.rows(), c.cols()}, {c.cols(), 1}};
  }
};

// Runs `fn` once on a fresh block and compares every rank's block with the
// closed form. Returns the total of wrong cells; rank 0 prints the line.
int64_t check(const Case &c, HaloFn fn, const char *lowering, int rank,
              FILE *out = stdout) {
  Block block(c, rank);
  Memref2 d = block.descriptor();
  fn(&d);
  std::string first;
  int64_t mine = block.wrong(first), total = 0;
  MPI_Allreduce(&mine, &total, 1, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
  // The first wrong cell of the lowest rank that has one.
  int firstRank = mine ? rank : c.np();
  MPI_Allreduce(MPI_IN_PLACE, &firstRank, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (firstRank != 0 && firstRank < c.np()) {
    if (rank == firstRank) {
      const int size = static_cast<int>(first.size());
      MPI_Send(&size, 1, MPI_INT, 0, 7, MPI_COMM_WORLD);
      MPI_Send(first.data(), size, MPI_CHAR, 0, 7, MPI_COMM_WORLD);
    } else if (rank == 0) {
      int size = 0;
      MPI_Recv(&size, 1, MPI_INT, firstRank, 7, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
      first.resize(size);
      MPI_Recv(first.data(), size, MPI_CHAR, firstRank, 7, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
    }
  }
  if (rank == 0) {
    const int64_t cells = c.rows() * c.cols() * c.np();
    if (total == 0)
      std::fprintf(out, "check %-8s %-10s OK\n", lowering, c.name);
    else
      std::fprintf(out,
                   "check %-8s %-10s WRONG: %lld of %lld cells (rank %d %s)\n",
                   lowering, c.name, static_cast<long long>(total),
                   static_cast<long long>(cells), firstRank, first.c_str());
    std::fflush(out);
  }
  return total;
}

int runCheck(int rank, int np) {
  bool failed = false;
  for (const Case &c : cases()) {
    if (c.np() != np)
      continue;
    if (check(c, c.upstream, "upstream", rank) && c.timed)
      failed = true;
    if (check(c, c.ours, "ours", rank))
      failed = true;
  }
  if (rank == 0 && failed)
    std::fprintf(stderr, "bench_shard_halo: a result the closed form refutes "
                         "(ours, or upstream on a column split)\n");
  return failed ? 1 : 0;
}

int runBench(int rank, int np, const char *only) {
  if (np != 2) {
    if (rank == 0)
      std::fprintf(stderr, "bench_shard_halo: the benchmark runs at np 2\n");
    return 1;
  }
  // Wrong data is not timed.
  for (const Case &c : cases())
    if (c.timed && (check(c, c.upstream, "upstream", rank, stderr) ||
                    check(c, c.ours, "ours", rank, stderr)))
      return 1;
  printHeader(rank);
  for (const Case &c : cases()) {
    if (!c.timed || (only && std::strcmp(only, c.name) != 0))
      continue;
    Block up(c, rank), ours(c, rank);
    Memref2 upRef = up.descriptor(), oursRef = ours.descriptor();
    auto upstreamCall = [&] { c.upstream(&upRef); };
    const std::string name = std::string("shard_halo_") + c.name;
    auto oursCall = [&] { c.ours(&oursRef); };
    printRow(rank, name.c_str(), np, c.faceBytes(),
             compare(upstreamCall, oursCall, MPI_COMM_WORLD));
  }
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, np = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &np);
  const bool checkOnly = argc > 1 && std::strcmp(argv[1], "check") == 0;
  const int rc = checkOnly ? runCheck(rank, np)
                           : runBench(rank, np, argc > 2 ? argv[2] : nullptr);
  distrt_finalize();
  MPI_Finalize();
  return rc;
}
