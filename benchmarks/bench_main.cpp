//===- bench_main.cpp - distrt against raw MPI ------------------*- C++ -*-===//
//
// Run at np=2 (one launch). distrt is called through its C ABI exactly as
// compiled code calls it, with real unranked memref descriptors and each
// op's own distrt_site_t (static shapes unless the case says otherwise):
//   halo_w<w>   get_halo of an N x N f64 array split along dim 0, bbox = own
//               rows +/- w clipped to the array, cached plan (key set);
//               baseline: MPI_Irecv/MPI_Isend/MPI_Waitall of the same rows.
//   allreduce_sum_f64   in-place sum; baseline: MPI_Allreduce(MPI_IN_PLACE).
//   update_halo_rows, update_halo_cols  update_halo (sync, cached plan) of a
//               2-D f64 block with a halo of width 1 along the split
//               dimension: split along rows (contiguous faces) or columns
//               (strided faces); size = bytes per face. Baseline:
//               MPI_Irecv/MPI_Isend/MPI_Waitall of the same faces, an
//               MPI_Type_create_subarray per face for columns.
// StableHLO-style collectives over the world group (num_groups 0), f64
// buffers of `size` bytes per process (at least 2 elements where split):
//   control_mpi_vs_mpi  MPI_Allgather against itself on another
//                       communicator: the noise floor
//   all_gather          baseline MPI_Allgather
//   all_gather_reversed_group  one group in reversed rank order; baseline
//                       MPI_Allgather on a communicator split that way
//   all_gather_two_operands, all_reduce_two_operands  f64 and i32 operands
//                       (size and 2 * size bytes) in one op; baseline two
//                       MPI_Allgather / MPI_Allreduce calls
//   all_gather_dynamic_shape  the same as all_gather, from a site without
//                       flags (shapes known at run time only), as the
//                       compiler emits for memref<?xf64>
//   all_reduce_sum      out of place; baseline MPI_Allreduce(in, out)
//   all_to_all          baseline MPI_Alltoall
//   all_to_all_v        uneven counts: member i sends member j
//                       b - [j == i] + [j == i + 1 mod np] elements,
//                       b = size / np / 8 (zero counts at the smallest
//                       size); baseline MPI_Alltoallv
//   ragged_all_to_all   the same counts sized at run time (StableHLO's
//                       offsets and sizes); baseline MPI_Alltoall of each
//                       block's (offset, rows), then MPI_Alltoallv
//   reduce_scatter_sum  scatter_dim 0; baseline MPI_Reduce_scatter_block
//   collective_broadcast  in place (output aliases input); baseline MPI_Bcast
//   collective_permute  ring; baseline MPI_Sendrecv
//   send_recv           ring, async send + recv + wait; baseline
//                       MPI_Isend + MPI_Recv + MPI_Wait (the same order)
// Checked mode (DISTRT_CHECK=1: agreement before each collective, and the
// watchdog's record of each call), the rows named checked_<op>:
//   checked_all_reduce, checked_all_gather  checked mode against raw MPI
//   checked_vs_unchecked_all_reduce, ..._all_gather  checked against
//                       unchecked distrt (the baseline column)
//   checked_proven_vs_unchecked_all_reduce, ..._all_gather  sites marked
//                       proven (DISTRT_SITE_PROVEN, as the lowering marks
//                       the ops distruntime-verify-spmd proves): checked mode
//                       at DISTRT_CHECK=1's level against unchecked distrt
// Compiler-level rewrites (issue 23), what the program runs with and
// without them:
//   gradient_sync_64    64 f32 tensors of `size` bytes each summed in place
//                       by one multi-operand all_reduce (what
//                       distruntime-combine-collectives makes of 64 ops);
//                       baseline: 64 MPI_Allreduce(MPI_IN_PLACE) calls, as
//                       people write a gradient sync
//   gradient_sync_64_ordered  the same at reproducibility ordered (packed
//                       in any group: ReducePlan.h, packingExact)
//   gradient_sync_64_async  the same written for overlap: one async
//                       all_reduce of the 64 (what the pass makes of 64
//                       async ops), a forward step, its wait; baseline: 64
//                       MPI_Iallreduce, the same step, MPI_Waitall
// Reproducible reductions (mode repro, run at np 3 and 4):
//   allreduce_ordered_f64, allreduce_exact_f64  an f64 sum at the level,
//                       from one buffer to another; baseline MPI_Allreduce
//   sharded_matmul_rs_np<P>  the K-split matmul's result, an N x N f64 block
//                       (size = its bytes): distrt_reduce_scatter of the
//                       partial products along rows (distruntime-shard-
//                       simplify's rewrite); baseline: distrt_all_reduce of
//                       them and the copy of this process's rows, as the
//                       program runs without the rewrite
// CSV on stdout: case,np,size,baseline_us,distrt_us (medians of the blocks),
// ratio (median of the paired blocks' ratios, Paired.h).
// Usage: distrt_bench [halo|update_halo|allreduce|collectives|checked|
//                      checked_proven|collectives_smoke|all_to_all_v|
//                      ragged_all_to_all|
//                      gradient_sync|sharded_matmul|repro]
//                     [largest size in bytes, default 16 MiB]
//
//===----------------------------------------------------------------------===//

#include "BenchUtil.h"
#include "MemrefDescriptor.h"

#include "distruntime/Runtime/distrt.h"

#include <mpi.h>
#if defined(OPEN_MPI) && OPEN_MPI
#include <mpi-ext.h> // MPIX_Allreduce_init (persistent collectives)
#endif

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

using namespace distrt::bench;

namespace {

template <int Rank> using Descriptor = MemrefDescriptor<double, Rank>;
using GeometryDescriptor = MemrefDescriptor<int64_t, 1>;

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

/// update_halo over a chain of `size` ranks: each block is `faceElements`
/// long along the unsplit dimension and kCore + 2 along the split one
/// (dimension 0 for rows, 1 for columns).
void benchUpdateHalo(int64_t faceElements, bool columns, MPI_Comm comm,
                     int rank, int size) {
  constexpr int64_t kCore = 4, kWidth = 1, kFrame = kCore + 2 * kWidth;
  const int64_t rows = columns ? faceElements : kFrame;
  const int64_t cols = columns ? kFrame : faceElements;
  std::vector<double> block(static_cast<size_t>(rows * cols));
  Descriptor<2> blockDesc{
      block.data(), block.data(), 0, {rows, cols}, {cols, 1}};
  // Grid [size]; the split dimension on axis 0, the other not split.
  std::vector<int64_t> spec{1, size};
  for (int64_t d = 0; d < 2; ++d) {
    if ((d == 1) == columns)
      spec.insert(spec.end(), {kWidth, kWidth, 1, 0});
    else
      spec.insert(spec.end(), {0, 0, 0});
  }
  GeometryDescriptor specDesc{
      spec.data(), spec.data(), 0, {static_cast<int64_t>(spec.size())}, {1}};

  // Faces as subarrays of the block: the first and last core slice (sent)
  // and the halo slices before and after it (received).
  const int shape[2] = {static_cast<int>(rows), static_cast<int>(cols)};
  auto face = [&](int64_t at) {
    const int sub[2] = {columns ? shape[0] : 1, columns ? 1 : shape[1]};
    const int start[2] = {columns ? 0 : static_cast<int>(at),
                          columns ? static_cast<int>(at) : 0};
    MPI_Datatype type;
    MPI_Type_create_subarray(2, shape, sub, start, MPI_ORDER_C, MPI_DOUBLE,
                             &type);
    MPI_Type_commit(&type);
    return type;
  };
  MPI_Datatype faces[4] = {face(0), face(kWidth), face(kFrame - 2 * kWidth),
                           face(kFrame - kWidth)}; // halo, core, core, halo
  auto baseline = [&] {
    MPI_Request requests[4];
    int k = 0;
    if (rank > 0)
      MPI_Irecv(block.data(), 1, faces[0], rank - 1, 1, comm, &requests[k++]);
    if (rank < size - 1)
      MPI_Irecv(block.data(), 1, faces[3], rank + 1, 2, comm, &requests[k++]);
    if (rank > 0)
      MPI_Isend(block.data(), 1, faces[1], rank - 1, 2, comm, &requests[k++]);
    if (rank < size - 1)
      MPI_Isend(block.data(), 1, faces[2], rank + 1, 1, comm, &requests[k++]);
    MPI_Waitall(k, requests, MPI_STATUSES_IGNORE);
  };
  auto ours = [&] {
    distrt_update_halo(0, /*key=*/2 + columns, DISTRT_F64, 2, &blockDesc, 1,
                       &specDesc, /*async=*/0, "bench_update_halo");
  };

  // Both must fill the same halo cells (those outside the array keep the
  // sentinel) before they are timed.
  auto fill = [&](double halo) {
    for (int64_t i = 0; i < rows; ++i)
      for (int64_t j = 0; j < cols; ++j) {
        const int64_t along = columns ? j : i;
        const bool inHalo = along < kWidth || along >= kFrame - kWidth;
        block[static_cast<size_t>(i * cols + j)] =
            inHalo ? halo : static_cast<double>(rank * 1000000 + i * cols + j);
      }
  };
  fill(-1.0);
  ours();
  const std::vector<double> viaDistrt = block;
  fill(-1.0);
  baseline();
  if (block != viaDistrt) {
    std::fprintf(stderr, "rank %d: update_halo results differ\n", rank);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  const Comparison c = compare(baseline, ours, comm);
  printRow(rank, columns ? "update_halo_cols" : "update_halo_rows", size,
           faceElements * 8, c);
  for (MPI_Datatype &type : faces)
    MPI_Type_free(&type);
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
  // As the lowering calls it: all_reduce over the whole team, in place.
  const distrt_operand_t operand{1, &desc, DISTRT_F64};
  distrt_site_t site{DISTRT_SITE_STATIC, nullptr, nullptr};
  auto ours = [&] {
    distrt_all_reduce(0, nullptr, DISTRT_SUM, 1, &operand, &operand, 0, &site,
                      "bench_allreduce");
  };
  const Comparison c = compare(baseline, ours, comm);
  printRow(rank, "allreduce_sum_f64", size, bytes, c);
}

const int64_t kEveryoneIds[1] = {0};
const distrt_groups_t kEveryone{DISTRT_FLATTENED_IDS, -1, -1, 0, 0,
                                kEveryoneIds};

/// The ring pairs i -> i + 1 of `size` processes.
const distrt_groups_t &ringPairs(int size) {
  static std::vector<int64_t> ids;
  static distrt_groups_t pairs;
  ids.clear();
  for (int i = 0; i < size; ++i)
    ids.insert(ids.end(), {i, (i + 1) % size});
  pairs = {DISTRT_CROSS_REPLICA, -1, -1, size, 2, ids.data()};
  return pairs;
}

/// One group of every process in reversed rank order (flattened ids).
const distrt_groups_t &reversedGroup(int size) {
  static std::vector<int64_t> ids;
  static distrt_groups_t groups;
  ids.clear();
  for (int i = size; i-- > 0;)
    ids.push_back(i);
  groups = {DISTRT_FLATTENED_IDS, -1, -1, 1, size, ids.data()};
  return groups;
}

/// Runs one collective case: `in` holds n doubles, `out` outN doubles, over
/// `blocks` alternating blocks.
template <class Baseline, class Ours>
void benchCase(const char *name, int64_t bytes, int64_t n, int64_t outN,
               MPI_Comm comm, int rank, int size, Baseline &&baseline,
               Ours &&ours, int blocks = 42) {
  std::vector<double> in(static_cast<size_t>(n), 0.0),
      out(static_cast<size_t>(std::max<int64_t>(outN, 1)), 0.0);
  Descriptor<1> inDesc{in.data(), in.data(), 0, {n}, {1}};
  Descriptor<1> outDesc{out.data(), out.data(), 0, {outN}, {1}};
  const distrt_operand_t inOp{1, &inDesc, DISTRT_F64},
      outOp{1, &outDesc, DISTRT_F64};
  // Both must compute the same before they are timed.
  auto run = [&](auto &&call) {
    for (size_t k = 0; k < in.size(); ++k)
      in[k] = 1000.0 * rank + static_cast<double>(k);
    std::fill(out.begin(), out.end(), -1.0);
    call();
    std::vector<double> both = in;
    both.insert(both.end(), out.begin(), out.end());
    return both;
  };
  if (run([&] { baseline(in.data(), out.data()); }) !=
      run([&] { ours(&inOp, &outOp); })) {
    std::fprintf(stderr, "rank %d: %s results differ at %lld bytes\n", rank,
                 name, static_cast<long long>(bytes));
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  const Comparison c = compare([&] { baseline(in.data(), out.data()); },
                               [&] { ours(&inOp, &outOp); }, comm, blocks);
  printRow(rank, name, size, bytes, c);
}

/// all_to_all_v of `bytes` per process (at least np elements) with uneven
/// counts from a static site, against MPI_Alltoallv of this rank's row.
void benchAllToAllV(int64_t bytes, MPI_Comm comm, int rank, int size) {
  const int64_t base = std::max<int64_t>(bytes / 8 / size, 1), n = base * size;
  std::vector<int64_t> send(static_cast<size_t>(size * size));
  for (int i = 0; i < size; ++i)
    for (int j = 0; j < size; ++j)
      send[static_cast<size_t>(i * size + j)] =
          base - (j == i) + (j == (i + 1) % size);
  // recv is send's transpose; row and column sums are both n.
  std::vector<int64_t> recv(send.size());
  for (int i = 0; i < size; ++i)
    for (int j = 0; j < size; ++j)
      recv[static_cast<size_t>(i * size + j)] =
          send[static_cast<size_t>(j * size + i)];
  std::vector<int> counts(static_cast<size_t>(4 * size));
  int *sc = counts.data(), *sd = sc + size, *rc = sd + size, *rd = rc + size;
  for (int j = 0, s = 0, r = 0; j < size; ++j) {
    sc[j] = static_cast<int>(send[static_cast<size_t>(rank * size + j)]);
    rc[j] = static_cast<int>(recv[static_cast<size_t>(rank * size + j)]);
    sd[j] = s;
    rd[j] = r;
    s += sc[j];
    r += rc[j];
  }
  const distrt_table_t sendTable{static_cast<int64_t>(send.size()),
                                 send.data()},
      recvTable{static_cast<int64_t>(recv.size()), recv.data()};
  distrt_site_t site{DISTRT_SITE_STATIC, nullptr, nullptr};
  benchCase(
      "all_to_all_v", bytes, n, n, comm, rank, size,
      [&](double *in, double *out) {
        MPI_Alltoallv(in, sc, sd, MPI_DOUBLE, out, rc, rd, MPI_DOUBLE, comm);
      },
      [&](const distrt_operand_t *in, const distrt_operand_t *out) {
        distrt_all_to_all_v(0, &kEveryone, &sendTable, &recvTable, 1, in, out,
                            0, &site, "bench_all_to_all_v");
      });
}

/// ragged_all_to_all of `bytes` per process with all_to_all_v's uneven
/// counts, sized at run time (StableHLO's offsets and sizes, this member's
/// own; the output offsets are the receivers'), against what a hand-written
/// exchange sized at run time does: MPI_Alltoall of each block's (offset,
/// rows), then MPI_Alltoallv.
void benchRaggedAllToAll(int64_t bytes, MPI_Comm comm, int rank, int size) {
  const int64_t base = std::max<int64_t>(bytes / 8 / size, 1), n = base * size;
  // Member i sends base - [j == i] + [j == i + 1] rows to member j; each
  // receiver lays its blocks out in sender order.
  auto rows = [&](int i, int j) {
    return base - (j == i) + (j == (i + 1) % size);
  };
  std::vector<int64_t> inOffsets(static_cast<size_t>(size)),
      sendSizes(inOffsets.size()), outOffsets(inOffsets.size()),
      recvSizes(inOffsets.size());
  for (int j = 0, at = 0; j < size; ++j) {
    const auto u = static_cast<size_t>(j);
    inOffsets[u] = at;
    sendSizes[u] = rows(rank, j);
    recvSizes[u] = rows(j, rank);
    at += static_cast<int>(sendSizes[u]);
    for (int i = 0; i < rank; ++i) // where j puts this member's block
      outOffsets[u] += rows(i, j);
  }
  const distrt_table_t tables[] = {{size, inOffsets.data()},
                                   {size, sendSizes.data()},
                                   {size, outOffsets.data()},
                                   {size, recvSizes.data()}};
  std::vector<int> counts(static_cast<size_t>(4 * size));
  int *sc = counts.data(), *sd = sc + size, *rc = sd + size, *rd = rc + size;
  std::vector<int> pairsOut(static_cast<size_t>(2 * size)),
      pairsIn(pairsOut.size());
  distrt_site_t site{DISTRT_SITE_STATIC, nullptr, nullptr};
  benchCase(
      "ragged_all_to_all", bytes, n, n, comm, rank, size,
      [&](double *in, double *out) {
        for (int j = 0; j < size; ++j) {
          const auto u = static_cast<size_t>(j);
          pairsOut[2 * u] = static_cast<int>(outOffsets[u]);
          pairsOut[2 * u + 1] = static_cast<int>(sendSizes[u]);
          sc[j] = static_cast<int>(sendSizes[u]);
          sd[j] = static_cast<int>(inOffsets[u]);
        }
        MPI_Alltoall(pairsOut.data(), 2, MPI_INT, pairsIn.data(), 2, MPI_INT,
                     comm);
        for (int j = 0; j < size; ++j) {
          rd[j] = pairsIn[static_cast<size_t>(2 * j)];
          rc[j] = pairsIn[static_cast<size_t>(2 * j + 1)];
        }
        MPI_Alltoallv(in, sc, sd, MPI_DOUBLE, out, rc, rd, MPI_DOUBLE, comm);
      },
      [&](const distrt_operand_t *in, const distrt_operand_t *out) {
        distrt_ragged_all_to_all(0, &kEveryone, &tables[0], &tables[1],
                                 &tables[2], &tables[3], 1, in, out, 0, &site,
                                 "bench_ragged_all_to_all");
      });
}

/// Two operands (f64 and i32: `bytes` and 2 * `bytes`) in one all_gather
/// (`gather`) or all_reduce sum: the runtime against the two MPI calls a
/// program would make.
void benchTwoOperands(bool gather, int64_t bytes, MPI_Comm comm, int rank,
                      int size) {
  const int64_t n = std::max<int64_t>(bytes / 8, 1), m = 2 * n;
  const int64_t factor = gather ? size : 1;
  std::vector<double> a(static_cast<size_t>(n)),
      ra(static_cast<size_t>(n * factor));
  std::vector<int32_t> b(static_cast<size_t>(m)),
      rb(static_cast<size_t>(m * factor));
  for (int64_t i = 0; i < n; ++i)
    a[static_cast<size_t>(i)] = 1000.0 * rank + static_cast<double>(i);
  for (int64_t i = 0; i < m; ++i)
    b[static_cast<size_t>(i)] = static_cast<int32_t>(1000 * rank + i);
  MemrefDescriptor<double, 1> aDesc{a.data(), a.data(), 0, {n}, {1}},
      raDesc{ra.data(), ra.data(), 0, {n * factor}, {1}};
  MemrefDescriptor<int32_t, 1> bDesc{b.data(), b.data(), 0, {m}, {1}},
      rbDesc{rb.data(), rb.data(), 0, {m * factor}, {1}};
  const distrt_operand_t ins[2] = {{1, &aDesc, DISTRT_F64},
                                   {1, &bDesc, DISTRT_I32}},
                         outs[2] = {{1, &raDesc, DISTRT_F64},
                                    {1, &rbDesc, DISTRT_I32}};
  distrt_site_t site{DISTRT_SITE_STATIC, nullptr, nullptr};
  const int cn = static_cast<int>(n), cm = static_cast<int>(m);
  auto baseline = [&] {
    if (gather) {
      MPI_Allgather(a.data(), cn, MPI_DOUBLE, ra.data(), cn, MPI_DOUBLE, comm);
      MPI_Allgather(b.data(), cm, MPI_INT32_T, rb.data(), cm, MPI_INT32_T,
                    comm);
    } else {
      MPI_Allreduce(a.data(), ra.data(), cn, MPI_DOUBLE, MPI_SUM, comm);
      MPI_Allreduce(b.data(), rb.data(), cm, MPI_INT32_T, MPI_SUM, comm);
    }
  };
  const char *loc = "bench_two_operands";
  auto ours = [&] {
    if (gather)
      distrt_all_gather(0, &kEveryone, 0, 2, ins, outs, 0, &site, loc);
    else
      distrt_all_reduce(0, &kEveryone, DISTRT_SUM, 2, ins, outs, 0, &site, loc);
  };
  const char *name =
      gather ? "all_gather_two_operands" : "all_reduce_two_operands";
  // Both must compute the same before they are timed.
  baseline();
  const std::vector<double> ra0 = ra;
  const std::vector<int32_t> rb0 = rb;
  std::fill(ra.begin(), ra.end(), -1.0);
  std::fill(rb.begin(), rb.end(), -1);
  ours();
  if (ra != ra0 || rb != rb0) {
    std::fprintf(stderr, "rank %d: %s results differ\n", rank, name);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  const Comparison c = compare(baseline, ours, comm);
  printRow(rank, name, size, bytes, c);
}

void benchCollectives(int64_t bytes, MPI_Comm comm, MPI_Comm otherComm,
                      MPI_Comm reversedComm, int rank, int size) {
  const int64_t n = std::max<int64_t>(bytes / 8, 1);
  const int count = static_cast<int>(n);
  const char *loc = "bench_collectives";
  // Each op's site, as the lowering emits them for memrefs of static shape:
  // fresh for each size, since a static site's shapes never change.
  distrt_site_t sites[9];
  for (distrt_site_t &site : sites)
    site = {DISTRT_SITE_STATIC, nullptr, nullptr};
  // The noise floor: the same MPI call on both sides, the second on another
  // communicator (as distrt calls MPI on a communicator of its own). A ratio
  // within this case's distance from 1 says nothing about distrt.
  benchCase(
      "control_mpi_vs_mpi", bytes, n, n * size, comm, rank, size,
      [&](double *in, double *out) {
        MPI_Allgather(in, count, MPI_DOUBLE, out, count, MPI_DOUBLE, comm);
      },
      [&](const distrt_operand_t *in, const distrt_operand_t *out) {
        auto *data = static_cast<double *const *>(in->desc);
        auto *gathered = static_cast<double *const *>(out->desc);
        MPI_Allgather(data[1], count, MPI_DOUBLE, gathered[1], count,
                      MPI_DOUBLE, otherComm);
      });
  benchCase(
      "all_gather", bytes, n, n * size, comm, rank, size,
      [&](double *in, double *out) {
        MPI_Allgather(in, count, MPI_DOUBLE, out, count, MPI_DOUBLE, comm);
      },
      [&](const distrt_operand_t *in, const distrt_operand_t *out) {
        distrt_all_gather(0, &kEveryone, 0, 1, in, out, 0, &sites[0], loc);
      });
  // A group in reversed rank order: the runtime's cached split against
  // MPI_Allgather on a communicator split the same way (made once, outside
  // the timing, as the runtime's is).
  const distrt_groups_t &reversed = reversedGroup(size);
  benchCase(
      "all_gather_reversed_group", bytes, n, n * size, comm, rank, size,
      [&](double *in, double *out) {
        MPI_Allgather(in, count, MPI_DOUBLE, out, count, MPI_DOUBLE,
                      reversedComm);
      },
      [&](const distrt_operand_t *in, const distrt_operand_t *out) {
        distrt_all_gather(0, &reversed, 0, 1, in, out, 0, &sites[8], loc);
      });
  benchTwoOperands(/*gather=*/true, bytes, comm, rank, size);
  benchTwoOperands(/*gather=*/false, bytes, comm, rank, size);
  // The same op with shapes known only at run time: its site (no flags)
  // compares the whole descriptors.
  distrt_site_t dynamicSite{};
  benchCase(
      "all_gather_dynamic_shape", bytes, n, n * size, comm, rank, size,
      [&](double *in, double *out) {
        MPI_Allgather(in, count, MPI_DOUBLE, out, count, MPI_DOUBLE, comm);
      },
      [&](const distrt_operand_t *in, const distrt_operand_t *out) {
        distrt_all_gather(0, &kEveryone, 0, 1, in, out, 0, &dynamicSite, loc);
      });
  benchCase(
      "all_reduce_sum", bytes, n, n, comm, rank, size,
      [&](double *in, double *out) {
        MPI_Allreduce(in, out, count, MPI_DOUBLE, MPI_SUM, comm);
      },
      [&](const distrt_operand_t *in, const distrt_operand_t *out) {
        distrt_all_reduce(0, &kEveryone, DISTRT_SUM, 1, in, out, 0, &sites[1],
                          loc);
      });
  // Split operations: a multiple of the team size.
  const int64_t split = std::max<int64_t>(n / size, 1) * size;
  const int block = static_cast<int>(split / size);
  benchCase(
      "all_to_all", bytes, split, split, comm, rank, size,
      [&](double *in, double *out) {
        MPI_Alltoall(in, block, MPI_DOUBLE, out, block, MPI_DOUBLE, comm);
      },
      [&](const distrt_operand_t *in, const distrt_operand_t *out) {
        distrt_all_to_all(0, &kEveryone, 0, 0, size, 1, in, out, 0, &sites[2],
                          loc);
      });
  benchAllToAllV(bytes, comm, rank, size);
  benchRaggedAllToAll(bytes, comm, rank, size);
  benchCase(
      "reduce_scatter_sum", bytes, split, block, comm, rank, size,
      [&](double *in, double *out) {
        MPI_Reduce_scatter_block(in, out, block, MPI_DOUBLE, MPI_SUM, comm);
      },
      [&](const distrt_operand_t *in, const distrt_operand_t *out) {
        distrt_reduce_scatter(0, &kEveryone, DISTRT_SUM, 0, 1, in, out, 0,
                              &sites[3], loc);
      });
  benchCase(
      "collective_broadcast", bytes, n, n, comm, rank, size,
      [&](double *in, double *) { MPI_Bcast(in, count, MPI_DOUBLE, 0, comm); },
      [&](const distrt_operand_t *in, const distrt_operand_t *) {
        distrt_collective_broadcast(0, &kEveryone, nullptr, 1, in, in, 0,
                                    &sites[4], loc);
      });
  const distrt_groups_t &pairs = ringPairs(size);
  const int next = (rank + 1) % size, previous = (rank + size - 1) % size;
  benchCase(
      "collective_permute", bytes, n, n, comm, rank, size,
      [&](double *in, double *out) {
        MPI_Sendrecv(in, count, MPI_DOUBLE, next, 0, out, count, MPI_DOUBLE,
                     previous, 0, comm, MPI_STATUS_IGNORE);
      },
      [&](const distrt_operand_t *in, const distrt_operand_t *out) {
        distrt_collective_permute(0, &pairs, 1, in, out, 0, &sites[5], loc);
      });
  benchCase(
      "send_recv", bytes, n, n, comm, rank, size,
      [&](double *in, double *out) {
        MPI_Request request;
        MPI_Isend(in, count, MPI_DOUBLE, next, 1, comm, &request);
        MPI_Recv(out, count, MPI_DOUBLE, previous, 1, comm, MPI_STATUS_IGNORE);
        MPI_Wait(&request, MPI_STATUS_IGNORE);
      },
      [&](const distrt_operand_t *in, const distrt_operand_t *out) {
        const distrt_handle_t sent =
            distrt_send(0, &pairs, 1, 0, 1, in, 1, &sites[6], loc);
        distrt_recv(0, &pairs, 1, 0, 1, out, 0, &sites[7], loc);
        distrt_wait(sent, loc);
      });
}

/// Checked mode's cost on all_reduce (in place) and all_gather, against raw
/// MPI and against unchecked distrt. The mode is switched per call (both
/// sides pay the switch), as DISTRT_CHECK=1 sets it: agreement and the
/// watchdog's 120 s timeout.
void benchChecked(int64_t bytes, MPI_Comm comm, int rank, int size) {
  const int64_t n = std::max<int64_t>(bytes / 8, 1);
  const int count = static_cast<int>(n);
  const char *loc = "bench_checked";
  auto mode = [](bool checked) {
    distrt_set_check(checked);
    distrt_set_timeout(checked ? 120 : 0);
  };
  distrt_site_t sites[6];
  for (distrt_site_t &site : sites)
    site = {DISTRT_SITE_STATIC, nullptr, nullptr};
  auto reduce = [&](const distrt_operand_t *in, const distrt_operand_t *out,
                    distrt_site_t *site) {
    distrt_all_reduce(0, &kEveryone, DISTRT_SUM, 1, in, out, 0, site, loc);
  };
  auto gather = [&](const distrt_operand_t *in, const distrt_operand_t *out,
                    distrt_site_t *site) {
    distrt_all_gather(0, &kEveryone, 0, 1, in, out, 0, site, loc);
  };
  benchCase(
      "checked_all_reduce", bytes, n, n, comm, rank, size,
      [&](double *in, double *out) {
        mode(false);
        MPI_Allreduce(in, out, count, MPI_DOUBLE, MPI_SUM, comm);
      },
      [&](const distrt_operand_t *in, const distrt_operand_t *out) {
        mode(true);
        reduce(in, out, &sites[0]);
      });
  // Unchecked distrt as the baseline, on the same buffers (descriptors made
  // per call: a few stores).
  auto unchecked = [&](auto &&op, double *in, double *out, int64_t outN,
                       distrt_site_t *site) {
    mode(false);
    Descriptor<1> inDesc{in, in, 0, {n}, {1}},
        outDesc{out, out, 0, {outN}, {1}};
    const distrt_operand_t inOp{1, &inDesc, DISTRT_F64},
        outOp{1, &outDesc, DISTRT_F64};
    op(&inOp, &outOp, site);
  };
  benchCase(
      "checked_vs_unchecked_all_reduce", bytes, n, n, comm, rank, size,
      [&](double *in, double *out) {
        unchecked(reduce, in, out, n, &sites[3]);
      },
      [&](const distrt_operand_t *in, const distrt_operand_t *out) {
        mode(true);
        reduce(in, out, &sites[1]);
      });
  benchCase(
      "checked_all_gather", bytes, n, n * size, comm, rank, size,
      [&](double *in, double *out) {
        mode(false);
        MPI_Allgather(in, count, MPI_DOUBLE, out, count, MPI_DOUBLE, comm);
      },
      [&](const distrt_operand_t *in, const distrt_operand_t *out) {
        mode(true);
        gather(in, out, &sites[2]);
      });
  benchCase(
      "checked_vs_unchecked_all_gather", bytes, n, n * size, comm, rank, size,
      [&](double *in, double *out) {
        unchecked(gather, in, out, n * size, &sites[5]);
      },
      [&](const distrt_operand_t *in, const distrt_operand_t *out) {
        mode(true);
        gather(in, out, &sites[4]);
      });
  mode(false);
}

/// Selective checked mode on proven sites: each op's site is marked as the
/// lowering marks a static op that distruntime-verify-spmd proved
/// (DISTRT_SITE_STATIC | DISTRT_SITE_PROVEN), and checked mode at
/// DISTRT_CHECK=1's level runs it against unchecked mode, the mode switched
/// per call on both sides (distrt_set_check only: a proven site is neither
/// agreed on nor watched unless a timeout is set explicitly), each side on
/// its own site and descriptors made per call. The target is 1.02x: the two
/// sides run the same code, so the ratio's spread is the machine's, and the
/// cases take 210 blocks (105 groups) where the others take 42, for a
/// median whose spread is well below 2 %.
void benchCheckedProven(int64_t bytes, MPI_Comm comm, int rank, int size) {
  constexpr int kProvenBlocks = 210;
  const int64_t n = std::max<int64_t>(bytes / 8, 1);
  const char *loc = "bench_checked_proven";
  distrt_site_t sites[4];
  for (distrt_site_t &site : sites)
    site = {DISTRT_SITE_STATIC | DISTRT_SITE_PROVEN, nullptr, nullptr};
  auto call = [&](bool checked, double *in, double *out, int64_t outN,
                  auto &&op, distrt_site_t *site) {
    distrt_set_check(checked ? DISTRT_CHECK_UNPROVEN : DISTRT_CHECK_OFF);
    Descriptor<1> inDesc{in, in, 0, {n}, {1}},
        outDesc{out, out, 0, {outN}, {1}};
    const distrt_operand_t inOp{1, &inDesc, DISTRT_F64},
        outOp{1, &outDesc, DISTRT_F64};
    op(&inOp, &outOp, site);
  };
  auto reduce = [&](const distrt_operand_t *in, const distrt_operand_t *out,
                    distrt_site_t *site) {
    distrt_all_reduce(0, &kEveryone, DISTRT_SUM, 1, in, out, 0, site, loc);
  };
  auto gather = [&](const distrt_operand_t *in, const distrt_operand_t *out,
                    distrt_site_t *site) {
    distrt_all_gather(0, &kEveryone, 0, 1, in, out, 0, site, loc);
  };
  // The distrt column's descriptors are unused: both sides make their own.
  auto raw = [](const distrt_operand_t *operand) {
    return static_cast<Descriptor<1> *>(operand->desc)->aligned;
  };
  benchCase(
      "checked_proven_vs_unchecked_all_reduce", bytes, n, n, comm, rank, size,
      [&](double *in, double *out) {
        call(false, in, out, n, reduce, &sites[0]);
      },
      [&](const distrt_operand_t *in, const distrt_operand_t *out) {
        call(true, raw(in), raw(out), n, reduce, &sites[1]);
      },
      kProvenBlocks);
  benchCase(
      "checked_proven_vs_unchecked_all_gather", bytes, n, n * size, comm, rank,
      size,
      [&](double *in, double *out) {
        call(false, in, out, n * size, gather, &sites[2]);
      },
      [&](const distrt_operand_t *in, const distrt_operand_t *out) {
        call(true, raw(in), raw(out), n * size, gather, &sites[3]);
      },
      kProvenBlocks);
  distrt_set_check(DISTRT_CHECK_OFF);
}

/// An f64 sum of `bytes` over the team at reproducibility `level` (from
/// `in` to `out`, so the values stay those of the check) against
/// MPI_Allreduce of the same buffers.
void benchReproducible(int64_t bytes, int32_t level, MPI_Comm comm, int rank,
                       int size) {
  const int64_t n = std::max<int64_t>(bytes / 8, 1);
  std::vector<double> in(static_cast<size_t>(n)), out(in.size());
  // Values of one sign and magnitudes 2^-20 to 2^20: the exact fold's
  // common case (every value within its window).
  for (int64_t i = 0; i < n; ++i)
    in[static_cast<size_t>(i)] =
        std::ldexp(1.0 + static_cast<double>((i * 7919 + rank) % 1000) / 1e3,
                   static_cast<int>((i * 31 + rank * 7) % 41) - 20);
  Descriptor<1> inDesc{in.data(), in.data(), 0, {n}, {1}};
  Descriptor<1> outDesc{out.data(), out.data(), 0, {n}, {1}};
  const distrt_operand_t input{1, &inDesc, DISTRT_F64},
      output{1, &outDesc, DISTRT_F64};
  distrt_site_t site{DISTRT_SITE_STATIC, nullptr, nullptr};
  auto baseline = [&] {
    MPI_Allreduce(in.data(), out.data(), static_cast<int>(n), MPI_DOUBLE,
                  MPI_SUM, comm);
  };
  auto ours = [&] {
    distrt_all_reduce(0, nullptr, DISTRT_SUM | level << DISTRT_REPRO_SHIFT, 1,
                      &input, &output, 0, &site, "bench_reproducible");
  };
  const Comparison c = compare(baseline, ours, comm);
  printRow(rank,
           level == DISTRT_REPRO_EXACT ? "allreduce_exact_f64"
                                       : "allreduce_ordered_f64",
           size, bytes, c);
}

/// A persistent all-reduce where the MPI has one (MPI-4's
/// MPI_Allreduce_init, Open MPI 4.1's MPIX_Allreduce_init), made once and
/// started per call, against MPI_Allreduce, raw MPI on both sides: what a
/// persistent lowering of a solver's dot product would rest on. "distrt"
/// is the persistent side.
void benchPersistentAllreduce(int64_t bytes, MPI_Comm comm, int rank,
                              int size) {
#if MPI_VERSION >= 4 || defined(OMPI_HAVE_MPI_EXT_PCOLLREQ)
  const int n = static_cast<int>(bytes / 8);
  std::vector<double> data(static_cast<size_t>(n), 0.0);
  MPI_Request request;
#if MPI_VERSION >= 4
  MPI_Allreduce_init(MPI_IN_PLACE, data.data(), n, MPI_DOUBLE, MPI_SUM, comm,
                     MPI_INFO_NULL, &request);
#else
  MPIX_Allreduce_init(MPI_IN_PLACE, data.data(), n, MPI_DOUBLE, MPI_SUM, comm,
                      MPI_INFO_NULL, &request);
#endif
  auto baseline = [&] {
    MPI_Allreduce(MPI_IN_PLACE, data.data(), n, MPI_DOUBLE, MPI_SUM, comm);
  };
  auto started = [&] {
    MPI_Start(&request);
    MPI_Wait(&request, MPI_STATUS_IGNORE);
  };
  const Comparison c = compare(baseline, started, comm);
  printRow(rank, "persistent_allreduce_vs_allreduce_raw_mpi", size, bytes, c);
  MPI_Request_free(&request);
#else
  (void)bytes, (void)comm, (void)rank, (void)size;
#endif
}

/// MPI's persistent point-to-point (MPI_Recv_init/MPI_Send_init once,
/// MPI_Startall and MPI_Waitall per exchange) against the same exchange as
/// people write it (MPI_Irecv, MPI_Isend, MPI_Waitall), raw MPI on both
/// sides: a halo's two receives and two sends of `bytes` each with the
/// other process. The measurement a persistent lowering would rest on:
/// "distrt" is the persistent side.
void benchPersistent(int64_t bytes, MPI_Comm comm, int rank, int size) {
  if (size != 2)
    return;
  const int n = static_cast<int>(bytes / 8), peer = 1 - rank;
  std::vector<double> out0(static_cast<size_t>(n), 1.0 + rank),
      out1 = out0, in0(out0.size()), in1(out0.size());
  MPI_Request persistent[4];
  MPI_Recv_init(in0.data(), n, MPI_DOUBLE, peer, 1, comm, &persistent[0]);
  MPI_Recv_init(in1.data(), n, MPI_DOUBLE, peer, 2, comm, &persistent[1]);
  MPI_Send_init(out0.data(), n, MPI_DOUBLE, peer, 1, comm, &persistent[2]);
  MPI_Send_init(out1.data(), n, MPI_DOUBLE, peer, 2, comm, &persistent[3]);
  auto baseline = [&] {
    MPI_Request requests[4];
    MPI_Irecv(in0.data(), n, MPI_DOUBLE, peer, 1, comm, &requests[0]);
    MPI_Irecv(in1.data(), n, MPI_DOUBLE, peer, 2, comm, &requests[1]);
    MPI_Isend(out0.data(), n, MPI_DOUBLE, peer, 1, comm, &requests[2]);
    MPI_Isend(out1.data(), n, MPI_DOUBLE, peer, 2, comm, &requests[3]);
    MPI_Waitall(4, requests, MPI_STATUSES_IGNORE);
  };
  auto started = [&] {
    MPI_Startall(4, persistent);
    MPI_Waitall(4, persistent, MPI_STATUSES_IGNORE);
  };
  const Comparison c = compare(baseline, started, comm);
  printRow(rank, "persistent_vs_isend_raw_mpi", size, bytes, c);
  for (MPI_Request &request : persistent)
    MPI_Request_free(&request);
}

/// 64 f32 gradient tensors of `bytes` each, as distrt operands.
struct Gradients {
  static constexpr int kTensors = 64;
  int64_t n;
  std::vector<std::vector<float>> grads;
  std::vector<MemrefDescriptor<float, 1>> descs;
  std::vector<distrt_operand_t> operands;

  explicit Gradients(int64_t bytes)
      : n(std::max<int64_t>(bytes / 4, 1)),
        grads(kTensors, std::vector<float>(n, 0.0f)) {
    descs.reserve(kTensors);
    for (std::vector<float> &g : grads)
      descs.push_back({g.data(), g.data(), 0, {n}, {1}});
    operands.reserve(kTensors);
    for (MemrefDescriptor<float, 1> &d : descs)
      operands.push_back({1, &d, DISTRT_F32});
  }
  int count() const { return static_cast<int>(n); }
  /// Sums of fractions: rounding shows any other order of additions.
  void fill(int rank) {
    for (int k = 0; k < kTensors; ++k)
      for (int64_t i = 0; i < n; ++i)
        grads[k][i] = static_cast<float>(rank + 1) / 3.0f +
                      static_cast<float>(k) * 1e-3f +
                      static_cast<float>(i % 97) * 1e-5f;
  }
  /// Zeros: repeated in-place sums stay finite and take the same time.
  void zero() {
    for (std::vector<float> &g : grads)
      std::fill(g.begin(), g.end(), 0.0f);
  }
  /// Both calls must compute the same, bit for bit, before they are timed.
  template <typename A, typename B>
  void checkSame(A &&reference, B &&ours, int rank, const char *name) {
    fill(rank);
    reference();
    const std::vector<std::vector<float>> expected = grads;
    fill(rank);
    ours();
    if (expected != grads) {
      std::fprintf(stderr, "rank %d: %s results differ at %lld B\n", rank, name,
                   static_cast<long long>(n * 4));
      MPI_Abort(MPI_COMM_WORLD, 1);
    }
    zero();
  }
};

/// 64 f32 tensors of `bytes` each, summed in place: one distrt_all_reduce
/// of 64 operands at `level` against 64 MPI_Allreduce calls. Under mpi both
/// give the same bits (checked before timing); above it the packed call
/// gives those of 64 calls of its own at the level.
void benchGradientSync(int64_t bytes, MPI_Comm comm, int rank, int size,
                       int32_t level = DISTRT_REPRO_MPI) {
  Gradients g(bytes);
  distrt_site_t site{DISTRT_SITE_STATIC, nullptr, nullptr};
  auto baseline = [&] {
    for (std::vector<float> &grad : g.grads)
      MPI_Allreduce(MPI_IN_PLACE, grad.data(), g.count(), MPI_FLOAT, MPI_SUM,
                    comm);
  };
  const int32_t op = DISTRT_SUM | level << DISTRT_REPRO_SHIFT;
  auto ours = [&] {
    distrt_all_reduce(0, &kEveryone, op, Gradients::kTensors, g.operands.data(),
                      g.operands.data(), 0, &site, "bench_gradient_sync");
  };
  auto separately = [&] {
    for (distrt_operand_t &operand : g.operands)
      distrt_all_reduce(0, &kEveryone, op, 1, &operand, &operand, 0, nullptr,
                        "bench_gradient_sync");
  };
  const bool mpiLevel = level == DISTRT_REPRO_MPI;
  if (mpiLevel)
    g.checkSame(baseline, ours, rank, "gradient_sync");
  else
    g.checkSame(separately, ours, rank, "gradient_sync");
  const Comparison c = compare(baseline, ours, comm);
  printRow(rank, mpiLevel ? "gradient_sync_64" : "gradient_sync_64_ordered",
           size, bytes, c);
}

/// Independent work of a few microseconds (the next batch's forward step)
/// that both sides run while their reductions are in flight.
void forwardStep(std::vector<float> &activations) {
  for (float &a : activations)
    a = a * 0.999f + 0.001f;
}

/// The gradient sync written for overlap: one async distrt_all_reduce of the
/// 64 tensors (what distruntime-combine-collectives makes of 64 async ops),
/// the forward step, its wait, against 64 MPI_Iallreduce, the same step and
/// MPI_Waitall, as people overlap a gradient sync by hand. The same bits
/// (checked before timing).
void benchGradientSyncAsync(int64_t bytes, MPI_Comm comm, int rank, int size) {
  Gradients g(bytes);
  distrt_site_t site{DISTRT_SITE_STATIC, nullptr, nullptr};
  std::vector<float> activations(4096, 1.0f);
  std::vector<MPI_Request> requests(Gradients::kTensors);
  auto baseline = [&] {
    for (int k = 0; k < Gradients::kTensors; ++k)
      MPI_Iallreduce(MPI_IN_PLACE, g.grads[k].data(), g.count(), MPI_FLOAT,
                     MPI_SUM, comm, &requests[k]);
    forwardStep(activations);
    MPI_Waitall(Gradients::kTensors, requests.data(), MPI_STATUSES_IGNORE);
  };
  auto ours = [&] {
    distrt_handle_t handle = distrt_all_reduce(
        0, &kEveryone, DISTRT_SUM, Gradients::kTensors, g.operands.data(),
        g.operands.data(), 1, &site, "bench_gradient_sync_async");
    forwardStep(activations);
    distrt_wait(handle, "bench_gradient_sync_async");
  };
  g.checkSame(baseline, ours, rank, "gradient_sync_async");
  const Comparison c = compare(baseline, ours, comm);
  printRow(rank, "gradient_sync_64_async", size, bytes, c);
}

/// The K-split matmul's reduction of an N x N f64 block of partial
/// products: reduce_scatter along rows against all_reduce and the copy of
/// this process's rows (N divisible by the team size).
void benchShardedMatmul(int64_t n, MPI_Comm comm, int rank, int size) {
  const int64_t rows = n / size;
  std::vector<double> partial(static_cast<size_t>(n * n)),
      reduced(static_cast<size_t>(n * n)), mine(static_cast<size_t>(rows * n));
  Descriptor<2> partialDesc{partial.data(), partial.data(), 0, {n, n}, {n, 1}};
  Descriptor<2> reducedDesc{reduced.data(), reduced.data(), 0, {n, n}, {n, 1}};
  Descriptor<2> mineDesc{mine.data(), mine.data(), 0, {rows, n}, {n, 1}};
  const distrt_operand_t in{2, &partialDesc, DISTRT_F64},
      all{2, &reducedDesc, DISTRT_F64}, block{2, &mineDesc, DISTRT_F64};
  distrt_site_t sites[2];
  for (distrt_site_t &site : sites)
    site = {DISTRT_SITE_STATIC, nullptr, nullptr};
  const char *loc = "bench_sharded_matmul";
  auto baseline = [&] {
    distrt_all_reduce(0, &kEveryone, DISTRT_SUM, 1, &in, &all, 0, &sites[0],
                      loc);
    std::memcpy(mine.data(), reduced.data() + rank * rows * n,
                static_cast<size_t>(rows * n) * sizeof(double));
  };
  auto ours = [&] {
    distrt_reduce_scatter(0, &kEveryone, DISTRT_SUM, 0, 1, &in, &block, 0,
                          &sites[1], loc);
  };
  // Integer-valued products: both give the same rows.
  for (int64_t i = 0; i < n * n; ++i)
    partial[static_cast<size_t>(i)] =
        static_cast<double>((rank + 1) * (i % 13));
  baseline();
  const std::vector<double> viaAllReduce = mine;
  std::fill(mine.begin(), mine.end(), -1.0);
  ours();
  if (mine != viaAllReduce) {
    std::fprintf(stderr, "rank %d: sharded_matmul results differ at N %lld\n",
                 rank, static_cast<long long>(n));
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  const Comparison c = compare(baseline, ours, comm);
  const std::string name = "sharded_matmul_rs_np" + std::to_string(size);
  printRow(rank, name.c_str(), size, n * n * 8, c);
}

} // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  // The baseline gets its own communicator, as distrt has its own.
  MPI_Comm comm, otherComm, reversedComm;
  MPI_Comm_dup(MPI_COMM_WORLD, &comm);
  MPI_Comm_dup(MPI_COMM_WORLD, &otherComm);
  MPI_Comm_split(comm, 0, size - 1 - rank, &reversedComm);
  const std::string only = argc > 1 ? argv[1] : "";
  // Optional largest size in bytes, to look at small messages alone.
  const int64_t maxBytes = argc > 2 ? std::stoll(argv[2]) : int64_t{16} << 20;

  printHeader(rank);
  if (only.empty() || only == "halo")
    // Rows of 64 B to 4 KiB (N = 8 to 512) are the stencil's small
    // exchanges, which a held plan shares in memory (HaloChannel.h).
    for (int64_t n : {8, 32, 128, 256, 512, 1024, 8192})
      for (int64_t width : {1, 4})
        if (width == 1 || n >= 256)
          benchHalo(n, width, comm, rank, size);
  if (only.empty() || only == "update_halo")
    for (bool columns : {false, true})
      for (int64_t bytes = 64; bytes <= std::min<int64_t>(maxBytes, 1 << 20);
           bytes *= 4) {
        benchUpdateHalo(bytes / 8, columns, comm, rank, size);
        if (bytes == 4096) // 8 KiB, past Open MPI's shared-memory eager limit
          benchUpdateHalo(8192 / 8, columns, comm, rank, size);
      }
  if (only.empty() || only == "allreduce") {
    for (int64_t bytes = 8; bytes <= maxBytes; bytes *= 4)
      benchAllreduce(bytes, comm, rank, size);
    if (maxBytes == int64_t{16} << 20)
      benchAllreduce(maxBytes, comm, rank, size);
  }
  if (only.empty() || only == "collectives") {
    for (int64_t bytes = 8; bytes <= maxBytes; bytes *= 4)
      benchCollectives(bytes, comm, otherComm, reversedComm, rank, size);
    if (maxBytes == int64_t{16} << 20)
      benchCollectives(maxBytes, comm, otherComm, reversedComm, rank, size);
  }
  if (only.empty() || only == "checked") {
    for (int64_t bytes = 8; bytes <= maxBytes; bytes *= 8)
      benchChecked(bytes, comm, rank, size);
    benchChecked(int64_t{512} << 10, comm, rank, size);
  }
  if (only.empty() || only == "checked" || only == "checked_proven") {
    for (int64_t bytes = 8; bytes <= maxBytes; bytes *= 8)
      benchCheckedProven(bytes, comm, rank, size);
    benchCheckedProven(int64_t{512} << 10, comm, rank, size);
  }
  if (only.empty() || only == "gradient_sync") {
    for (int64_t bytes = 256; bytes <= std::min<int64_t>(maxBytes, 64 << 10);
         bytes *= 2)
      benchGradientSync(bytes, comm, rank, size);
    for (int64_t bytes = 256; bytes <= std::min<int64_t>(maxBytes, 64 << 10);
         bytes *= 4)
      benchGradientSyncAsync(bytes, comm, rank, size);
  }
  if (only.empty() || only == "sharded_matmul")
    for (int64_t n : {64, 256, 1024})
      if (n * n * 8 <= std::max<int64_t>(maxBytes, 32 << 10))
        benchShardedMatmul(n, comm, rank, size);
  // Reproducible reductions (run at np 3 and 4: over two members every
  // level is MPI's one addition).
  if (only == "repro") {
    for (int32_t level : {DISTRT_REPRO_ORDERED, DISTRT_REPRO_EXACT})
      for (int64_t bytes :
           {int64_t{8}, int64_t{512}, int64_t{8} << 10, int64_t{64} << 10,
            int64_t{256} << 10, int64_t{1} << 20, int64_t{4} << 20})
        if (bytes <= maxBytes)
          benchReproducible(bytes, level, comm, rank, size);
    for (int64_t bytes = 256; bytes <= std::min<int64_t>(maxBytes, 4 << 10);
         bytes *= 4)
      benchGradientSync(bytes, comm, rank, size, DISTRT_REPRO_ORDERED);
  }
  if (only.empty() || only == "persistent")
    for (int64_t bytes = 8; bytes <= std::min<int64_t>(maxBytes, 16 << 10);
         bytes *= 4)
      benchPersistent(bytes, comm, rank, size);
  if (only.empty() || only == "persistent")
    for (int64_t bytes = 8; bytes <= std::min<int64_t>(maxBytes, 16 << 10);
         bytes *= 4)
      benchPersistentAllreduce(bytes, comm, rank, size);
  if (only == "collectives_smoke") // one size, so the cases cannot rot
    benchCollectives(4096, comm, otherComm, reversedComm, rank, size);
  if (only == "all_to_all_v") {
    for (int64_t bytes = 8; bytes <= maxBytes; bytes *= 4)
      benchAllToAllV(bytes, comm, rank, size);
    if (maxBytes == int64_t{16} << 20)
      benchAllToAllV(maxBytes, comm, rank, size);
  }
  if (only == "ragged_all_to_all")
    for (int64_t bytes = 8; bytes <= maxBytes; bytes *= 4)
      benchRaggedAllToAll(bytes, comm, rank, size);

  MPI_Comm_free(&reversedComm);
  MPI_Comm_free(&otherComm);
  MPI_Comm_free(&comm);
  distrt_finalize();
  MPI_Finalize();
  return 0;
}
