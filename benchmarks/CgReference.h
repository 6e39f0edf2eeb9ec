//===- CgReference.h - Hand-written MPI conjugate gradients -----*- C++ -*-===//
//
// The hand-written C++/MPI baseline of examples/cg.mlir: unpreconditioned
// conjugate gradients on the n x n 5-point Poisson problem (zero Dirichlet
// boundary, b(i, j) = 1 + ((7 i + 3 j) mod 11) / 8, x0 = 0) until
// sqrt(r.r) < 1e-8 sqrt(b.b) or maxIters iterations. The same decomposition
// as the program: a g0 x g1 process grid (g1 the largest divisor of the
// size up to its square root, rank r at (r / g1, r % g1)), uneven blocks
// with the first n % g blocks one larger, each inside a frame of one cell;
// before every product A p the frame faces come from the four neighbours
// with MPI_Irecv/MPI_Isend (a strided MPI_Type_vector for the columns) and
// one MPI_Waitall. Dot products sum the local products in row-major order,
// then MPI_Allreduce. Every elementwise step has the program's order
// (A p = (((4 p - up) - down) - left) - right, x + alpha p, r - alpha A p,
// r + beta p), so at the same size both give the same bits, as long as the
// compiler contracts nothing into FMAs (GCC's default -ffp-contract=fast
// does on targets with FMA, -march=native: build with -ffp-contract=off).
//
//===----------------------------------------------------------------------===//

#ifndef DISTRUNTIME_BENCHMARKS_CGREFERENCE_H
#define DISTRUNTIME_BENCHMARKS_CGREFERENCE_H

#include <mpi.h>

#include <cmath>
#include <cstddef>
#include <vector>

namespace distrt::bench {

namespace cg_detail {

/// Size and offset of block b of n split in parts, the first n % parts
/// blocks one larger.
inline void split(int n, int parts, int b, int &size, int &offset) {
  const int q = n / parts, r = n % parts;
  size = q + (b < r ? 1 : 0);
  offset = b * q + (b < r ? b : r);
}

/// The process grid g0 x g1 of p processes: g1 the largest divisor of p up
/// to sqrt(p) (the 2-D grid distruntime.dims_create gives examples/cg.mlir).
inline void gridShape(int p, int &g0, int &g1) {
  g1 = 1;
  for (int d = 1; d * d <= p; ++d)
    if (p % d == 0)
      g1 = d;
  g0 = p / g1;
}

/// One process's block: ni x nj core cells at global (oi, oj), stored row
/// by row in (ni + 2) x (nj + 2) doubles with the frame, and its neighbours
/// (MPI_PROC_NULL at the grid's edge and next to an empty block).
struct Block {
  MPI_Comm comm;
  int ni, nj, oi, oj, stride;
  int up, down, left, right;
  MPI_Datatype column;

  Block(MPI_Comm communicator, int n) : comm(communicator) {
    int size = 0, rank = 0, g0 = 1, g1 = 1;
    MPI_Comm_size(comm, &size);
    MPI_Comm_rank(comm, &rank);
    gridShape(size, g0, g1);
    const int ci = rank / g1, cj = rank % g1;
    split(n, g0, ci, ni, oi);
    split(n, g1, cj, nj, oj);
    stride = nj + 2;
    // A neighbour whose core is empty (or mine) exchanges nothing: its cells
    // would lie past the global edge, which stays 0.
    auto rows = [&](int c) {
      int s = 0, o = 0;
      split(n, g0, c, s, o);
      return s;
    };
    auto cols = [&](int c) {
      int s = 0, o = 0;
      split(n, g1, c, s, o);
      return s;
    };
    const bool empty = ni == 0 || nj == 0;
    up = !empty && ci > 0 && rows(ci - 1) > 0 ? rank - g1 : MPI_PROC_NULL;
    down =
        !empty && ci < g0 - 1 && rows(ci + 1) > 0 ? rank + g1 : MPI_PROC_NULL;
    left = !empty && cj > 0 && cols(cj - 1) > 0 ? rank - 1 : MPI_PROC_NULL;
    right =
        !empty && cj < g1 - 1 && cols(cj + 1) > 0 ? rank + 1 : MPI_PROC_NULL;
    MPI_Type_vector(ni, 1, stride, MPI_DOUBLE, &column);
    MPI_Type_commit(&column);
  }
  ~Block() { MPI_Type_free(&column); }
  Block(const Block &) = delete;
  Block &operator=(const Block &) = delete;

  std::size_t cells() const {
    return static_cast<std::size_t>(ni + 2) * static_cast<std::size_t>(stride);
  }
  std::size_t at(int a, int b) const {
    return static_cast<std::size_t>(a) * static_cast<std::size_t>(stride) +
           static_cast<std::size_t>(b);
  }

  /// Fills the frame faces of p from the neighbours' cores.
  void exchange(double *p) const {
    enum Tag { Up = 1, Down, Left, Right }; // the direction data travels
    MPI_Request requests[8];
    MPI_Irecv(p + at(0, 1), nj, MPI_DOUBLE, up, Down, comm, &requests[0]);
    MPI_Irecv(p + at(ni + 1, 1), nj, MPI_DOUBLE, down, Up, comm, &requests[1]);
    MPI_Irecv(p + at(1, 0), 1, column, left, Right, comm, &requests[2]);
    MPI_Irecv(p + at(1, nj + 1), 1, column, right, Left, comm, &requests[3]);
    MPI_Isend(p + at(1, 1), nj, MPI_DOUBLE, up, Up, comm, &requests[4]);
    MPI_Isend(p + at(ni, 1), nj, MPI_DOUBLE, down, Down, comm, &requests[5]);
    MPI_Isend(p + at(1, 1), 1, column, left, Left, comm, &requests[6]);
    MPI_Isend(p + at(1, nj), 1, column, right, Right, comm, &requests[7]);
    MPI_Waitall(8, requests, MPI_STATUSES_IGNORE);
  }

  /// The global dot product of the cores: the local products summed in
  /// row-major order, then MPI_Allreduce.
  double dot(const double *a, const double *b) const {
    double local = 0.0;
    for (int i = 1; i <= ni; ++i)
      for (int j = 1; j <= nj; ++j)
        local = local + a[at(i, j)] * b[at(i, j)];
    double global = 0.0;
    MPI_Allreduce(&local, &global, 1, MPI_DOUBLE, MPI_SUM, comm);
    return global;
  }

  /// ap = A p on the core, after the exchange.
  void matvec(double *p, double *ap) const {
    exchange(p);
    for (int i = 1; i <= ni; ++i) {
      const double *__restrict above = p + at(i - 1, 0);
      const double *__restrict mid = p + at(i, 0);
      const double *__restrict below = p + at(i + 1, 0);
      double *__restrict out = ap + at(i, 0);
      for (int j = 1; j <= nj; ++j)
        out[j] =
            (((4.0 * mid[j] - above[j]) - below[j]) - mid[j - 1]) - mid[j + 1];
    }
  }
};

} // namespace cg_detail

/// CG on the n x n Poisson problem over the processes of comm; sets
/// `iterations` and returns the final sqrt(r.r) (the same on every
/// process).
inline double cgMpi(MPI_Comm comm, int n, int maxIters, int &iterations) {
  const cg_detail::Block block(comm, n);
  std::vector<double> x(block.cells(), 0.0), r(block.cells(), 0.0),
      p(block.cells(), 0.0), ap(block.cells(), 0.0);
  for (int a = 1; a <= block.ni; ++a)
    for (int b = 1; b <= block.nj; ++b) {
      const int i = block.oi + a - 1, j = block.oj + b - 1;
      const double bij =
          1.0 + static_cast<double>((7 * i + 3 * j) % 11) * 0.125;
      r[block.at(a, b)] = bij;
      p[block.at(a, b)] = bij;
    }

  double rr = block.dot(r.data(), r.data());
  const double tol = 1.0e-8 * std::sqrt(rr);
  int k = 0;
  while (!(std::sqrt(rr) < tol) && k < maxIters) {
    block.matvec(p.data(), ap.data());
    const double alpha = rr / block.dot(p.data(), ap.data());
    for (int a = 1; a <= block.ni; ++a)
      for (int b = 1; b <= block.nj; ++b) {
        const std::size_t c = block.at(a, b);
        x[c] = x[c] + alpha * p[c];
        r[c] = r[c] - alpha * ap[c];
      }
    const double rrNew = block.dot(r.data(), r.data());
    const double beta = rrNew / rr;
    for (int a = 1; a <= block.ni; ++a)
      for (int b = 1; b <= block.nj; ++b) {
        const std::size_t c = block.at(a, b);
        p[c] = r[c] + beta * p[c];
      }
    rr = rrNew;
    ++k;
  }
  iterations = k;
  return std::sqrt(rr);
}

} // namespace distrt::bench

#endif // DISTRUNTIME_BENCHMARKS_CGREFERENCE_H
