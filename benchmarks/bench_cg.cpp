//===- bench_cg.cpp - cg.mlir against hand-written MPI CG -------*- C++ -*-===//
//
// Application benchmark: conjugate gradients on the N x N Poisson problem,
// examples/cg.mlir's @solve compiled from .mlir (update_halo before each
// product, global_reduce dot products) against the same solver written by
// hand with MPI (CgReference.h: MPI_Irecv/MPI_Isend/MPI_Waitall faces,
// MPI_Allreduce dot products), in alternating blocks of whole solves of
// kIterations iterations in one launch (BenchUtil.h). Two rows per N:
//   cg_mpi    the program at the reproducibility level mpi (each member's
//             row-major sum, then MPI's): the same work as the baseline
//   cg_exact  the program compiled with reproducibility=exact (correctly
//             rounded dot products, the same bits at every np)
// Times are per iteration. Before timing, cg_mpi and the baseline must
// agree on the iteration count and, at np <= 2 (where MPI's order of two
// partial sums cannot matter), on the residual's bits.
// CSV on stdout: case,np,size (N),baseline_us,distrt_us,ratio.
//
//===----------------------------------------------------------------------===//

#include "BenchUtil.h"
#include "CgReference.h"

#include "distruntime/Runtime/distrt.h"

#include <mpi.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace {

/// @solve's results as LLVM returns {i64, f64}.
struct Solved {
  int64_t iterations;
  double residual;
};

} // namespace

// examples/cg.mlir's @solve, compiled twice (benchmarks/CMakeLists.txt).
extern "C" Solved cg_solve_mpi(int64_t n, int64_t maxIters, int64_t members,
                               int64_t me, int64_t g0, int64_t g1);
extern "C" Solved cg_solve_exact(int64_t n, int64_t maxIters, int64_t members,
                                 int64_t me, int64_t g0, int64_t g1);

using namespace distrt::bench;

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm comm;
  MPI_Comm_dup(MPI_COMM_WORLD, &comm);
  int g0 = 0, g1 = 0;
  cg_detail::gridShape(size, g0, g1);
  // A fixed number of iterations, far from convergence at these sizes.
  constexpr int kIterations = 20;
  printHeader(rank);
  for (int i = 1; i < argc; ++i) {
    const int n = std::atoi(argv[i]);
    int iterations = 0;
    double reference = 0;
    auto baseline = [&] {
      reference = cgMpi(comm, n, kIterations, iterations);
    };
    Solved solved{};
    auto solve = [&](auto &&fn) {
      return [&, fn] { solved = fn(n, kIterations, size, rank, g0, g1); };
    };
    baseline();
    solve(cg_solve_mpi)();
    if (solved.iterations != iterations ||
        (size <= 2 &&
         std::memcmp(&solved.residual, &reference, sizeof reference) != 0)) {
      std::fprintf(stderr,
                   "rank %d: cg at N %d: %lld iterations, residual %.17e; "
                   "the baseline %d, %.17e\n",
                   rank, n, static_cast<long long>(solved.iterations),
                   solved.residual, iterations, reference);
      MPI_Abort(MPI_COMM_WORLD, 1);
    }
    for (const char *name : {"cg_mpi", "cg_exact"}) {
      const bool exact = std::strcmp(name, "cg_exact") == 0;
      Comparison c = exact ? compare(baseline, solve(cg_solve_exact), comm)
                           : compare(baseline, solve(cg_solve_mpi), comm);
      c.baselineUs /= kIterations;
      c.distrtUs /= kIterations;
      printRow(rank, name, size, n, c);
    }
  }
  MPI_Comm_free(&comm);
  distrt_finalize();
  MPI_Finalize();
  return 0;
}
