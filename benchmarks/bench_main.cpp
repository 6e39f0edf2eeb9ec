//===- bench_main.cpp - distrt against raw MPI ------------------*- C++ -*-===//
//
// Run at np=2 (one launch). distrt is called through its C ABI exactly as
// compiled code calls it, with real unranked memref descriptors:
//   halo_w<w>   get_halo of an N x N f64 array split along dim 0, bbox = own
//               rows +/- w clipped to the array, cached plan (key set);
//               baseline: MPI_Irecv/MPI_Isend/MPI_Waitall of the same rows.
//   allreduce_sum_f64   in-place sum; baseline: MPI_Allreduce(MPI_IN_PLACE).
// CSV on stdout: case,np,size,baseline_us,distrt_us,ratio (medians).
//
//===----------------------------------------------------------------------===//

#include "BenchUtil.h"

#include "distruntime/Runtime/distrt.h"

#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

using namespace distrt::bench;

namespace {

template <int Rank> struct Descriptor {
  double *allocated, *aligned;
  int64_t offset, sizes[Rank], strides[Rank];
};
struct GeometryDescriptor {
  int64_t *allocated, *aligned;
  int64_t offset, sizes[1], strides[1];
};

void benchHalo(int64_t n, int64_t width, MPI_Comm comm, int rank, int size) {
  const int64_t rowsPer = n / size, extra = n % size;
  const int64_t rows = rowsPer + (rank < extra ? 1 : 0);
  const int64_t rowBegin = rank * rowsPer + std::min<int64_t>(rank, extra);
  const int64_t boxBegin = std::max<int64_t>(0, rowBegin - width);
  const int64_t boxEnd = std::min<int64_t>(n, rowBegin + rows + width);
  const int64_t leftRows = rowBegin - boxBegin;
  const int64_t rightRows = boxEnd - (rowBegin + rows);

  std::vector<double> local(static_cast<size_t>(rows * n), 1.0 + rank);
  std::vector<double> left(
      static_cast<size_t>(std::max<int64_t>(leftRows, 1) * n)),
      right(static_cast<size_t>(std::max<int64_t>(rightRows, 1) * n));
  std::vector<int64_t> geometry = {n,        n, rowBegin,          0,
                                   boxBegin, 0, boxEnd - boxBegin, n};
  Descriptor<2> localDesc{local.data(), local.data(), 0, {rows, n}, {n, 1}};
  Descriptor<2> leftDesc{left.data(), left.data(), 0, {leftRows, n}, {n, 1}};
  Descriptor<2> rightDesc{
      right.data(), right.data(), 0, {rightRows, n}, {n, 1}};
  GeometryDescriptor geometryDesc{
      geometry.data(), geometry.data(), 0, {8}, {1}};

  // The same exchange in raw MPI (neighbours only: the halo is narrower
  // than a block).
  const int count = static_cast<int>(width * n);
  auto baseline = [&] {
    MPI_Request requests[4];
    int k = 0;
    if (leftRows > 0)
      MPI_Irecv(left.data(), static_cast<int>(leftRows * n), MPI_DOUBLE,
                rank - 1, 1, comm, &requests[k++]);
    if (rightRows > 0)
      MPI_Irecv(right.data(), static_cast<int>(rightRows * n), MPI_DOUBLE,
                rank + 1, 2, comm, &requests[k++]);
    if (rank > 0)
      MPI_Isend(local.data(), count, MPI_DOUBLE, rank - 1, 2, comm,
                &requests[k++]);
    if (rank < size - 1)
      MPI_Isend(local.data() + (rows - width) * n, count, MPI_DOUBLE, rank + 1,
                1, comm, &requests[k++]);
    MPI_Waitall(k, requests, MPI_STATUSES_IGNORE);
  };
  auto ours = [&] {
    const distrt_handle_t handle = distrt_get_halo(
        0, /*key=*/1, DISTRT_F64, 2, &localDesc, 1, &geometryDesc, 2, &leftDesc,
        2, &rightDesc, "bench_halo");
    distrt_wait(handle, "bench_halo");
  };

  // Both must deliver the same rows before they are timed.
  std::fill(left.begin(), left.end(), -1.0);
  std::fill(right.begin(), right.end(), -1.0);
  ours();
  const std::vector<double> leftViaDistrt = left, rightViaDistrt = right;
  std::fill(left.begin(), left.end(), -2.0);
  std::fill(right.begin(), right.end(), -2.0);
  baseline();
  auto same = [](const std::vector<double> &a, const std::vector<double> &b,
                 int64_t count) {
    return std::equal(a.begin(), a.begin() + count, b.begin());
  };
  if (!same(left, leftViaDistrt, leftRows * n) ||
      !same(right, rightViaDistrt, rightRows * n)) {
    std::fprintf(stderr, "rank %d: halo results differ\n", rank);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  const Comparison c = compare(baseline, ours, comm);
  printRow(rank, width == 1 ? "halo_w1" : "halo_w4", size, n, c);
}

void benchAllreduce(int64_t bytes, MPI_Comm comm, int rank, int size) {
  const int64_t n = bytes / 8;
  // Zeros: repeated in-place sums stay finite and take the same time.
  std::vector<double> data(static_cast<size_t>(n), 0.0);
  Descriptor<1> desc{data.data(), data.data(), 0, {n}, {1}};
  auto baseline = [&] {
    MPI_Allreduce(MPI_IN_PLACE, data.data(), static_cast<int>(n), MPI_DOUBLE,
                  MPI_SUM, comm);
  };
  auto ours = [&] {
    distrt_allreduce(0, DISTRT_SUM, DISTRT_F64, 1, &desc, 0, "bench_allreduce");
  };
  const Comparison c = compare(baseline, ours, comm);
  printRow(rank, "allreduce_sum_f64", size, bytes, c);
}

} // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  // The baseline gets its own communicator, as distrt has its own.
  MPI_Comm comm;
  MPI_Comm_dup(MPI_COMM_WORLD, &comm);
  const std::string only = argc > 1 ? argv[1] : "";

  printHeader(rank);
  if (only.empty() || only == "halo")
    for (int64_t n : {256, 1024, 8192})
      for (int64_t width : {1, 4})
        benchHalo(n, width, comm, rank, size);
  if (only.empty() || only == "allreduce") {
    for (int64_t bytes = 8; bytes <= (int64_t{16} << 20); bytes *= 4)
      benchAllreduce(bytes, comm, rank, size);
    benchAllreduce(int64_t{16} << 20, comm, rank, size);
  }

  MPI_Comm_free(&comm);
  distrt_finalize();
  MPI_Finalize();
  return 0;
}
