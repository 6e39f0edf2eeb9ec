//===- bench_gather_scatter.cpp - lowered gather/scatter vs a C++ loop ----===//
//
// The loops that distruntime.gather / distruntime.scatter lower to, against
// a straightforward hand-written C++ loop doing the same indexing on the
// same data: an embedding lookup of B tables of R x D f32 rows, N indices
// per table (batching dimension = the table). Alternating blocks, paired
// ratios (Paired.h).
// CSV on stdout: case,np,size,baseline_us,distrt_us,ratio (size = bytes
// moved: B * N * D * 4).
//
//===----------------------------------------------------------------------===//

#include "MemrefDescriptor.h"
#include "Paired.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace {

template <int Rank> using Memref = distrt::bench::MemrefDescriptor<float, Rank>;
using IndexMemref = distrt::bench::MemrefDescriptor<int32_t, 2>;

} // namespace

// Emitted by the MLIR lowering (llvm.emit_c_interface).
extern "C" void _mlir_ciface_gather_rows(Memref<3> *table, IndexMemref *indices,
                                         Memref<3> *rows);
extern "C" void _mlir_ciface_scatter_add_rows(Memref<3> *table,
                                              IndexMemref *indices,
                                              Memref<3> *rows);

namespace {

constexpr int64_t B = 64, R = 4096, D = 128, N = 256;

// The seed's semantics, written plainly: clamp the start index (gather);
// skip out-of-bounds rows (scatter).
void gatherLoop(const float *table, const int32_t *indices, float *rows) {
  for (int64_t b = 0; b < B; ++b)
    for (int64_t i = 0; i < N; ++i) {
      int64_t r = std::clamp<int64_t>(indices[b * N + i], 0, R - 1);
      const float *src = table + (b * R + r) * D;
      float *dst = rows + (b * N + i) * D;
      for (int64_t d = 0; d < D; ++d)
        dst[d] = src[d];
    }
}

void scatterLoop(float *table, const int32_t *indices, const float *rows) {
  for (int64_t b = 0; b < B; ++b)
    for (int64_t i = 0; i < N; ++i) {
      int64_t r = indices[b * N + i];
      if (r < 0 || r >= R)
        continue;
      float *dst = table + (b * R + r) * D;
      const float *src = rows + (b * N + i) * D;
      for (int64_t d = 0; d < D; ++d)
        dst[d] += src[d];
    }
}

template <class F> double seconds(F &&f, int iterations) {
  auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < iterations; ++i)
    f();
  std::chrono::duration<double> elapsed =
      std::chrono::steady_clock::now() - start;
  return elapsed.count() / iterations;
}

template <class F, class G> void compare(const char *name, F &&base, G &&ours) {
  base();
  ours();
  const distrt::bench::Comparison c = distrt::bench::alternate(
      [&] { return seconds(base, 5); }, [&] { return seconds(ours, 5); }, 22);
  std::printf("%s,1,%lld,%.1f,%.1f,%.3f\n", name,
              static_cast<long long>(B * N * D * 4), c.baselineUs, c.distrtUs,
              c.ratio);
  std::fflush(stdout);
}

} // namespace

int main(int argc, char **argv) {
  bool smoke = argc > 1 && std::strcmp(argv[1], "smoke") == 0;
  std::vector<float> table(B * R * D), rowsA(B * N * D), rowsB(B * N * D);
  std::vector<int32_t> indices(B * N);
  for (size_t k = 0; k < table.size(); ++k)
    table[k] = static_cast<float>(k % 1000) * 0.5f;
  // Mostly valid rows, some negative and some past the end (clamped by
  // gather, skipped by scatter).
  uint32_t state = 12345;
  for (int32_t &index : indices) {
    state = state * 1664525u + 1013904223u;
    index = static_cast<int32_t>(state % (R + 64)) - 32;
  }
  Memref<3> tableRef{table.data(), table.data(), 0, {B, R, D}, {R * D, D, 1}};
  IndexMemref indexRef{indices.data(), indices.data(), 0, {B, N}, {N, 1}};
  Memref<3> rowsRef{rowsB.data(), rowsB.data(), 0, {B, N, D}, {N * D, D, 1}};

  // Same results first (gather, then one scatter-add on copies).
  gatherLoop(table.data(), indices.data(), rowsA.data());
  _mlir_ciface_gather_rows(&tableRef, &indexRef, &rowsRef);
  if (rowsA != rowsB) {
    std::fprintf(stderr, "gather: results differ\n");
    return 1;
  }
  std::vector<float> copy = table;
  scatterLoop(copy.data(), indices.data(), rowsA.data());
  _mlir_ciface_scatter_add_rows(&tableRef, &indexRef, &rowsRef);
  if (copy != table) {
    std::fprintf(stderr, "scatter: results differ\n");
    return 1;
  }
  std::printf("case,np,size,baseline_us,distrt_us,ratio\n");
  if (smoke)
    return 0;
  compare(
      "gather_embedding",
      [&] { gatherLoop(table.data(), indices.data(), rowsA.data()); },
      [&] { _mlir_ciface_gather_rows(&tableRef, &indexRef, &rowsRef); });
  // Scatter-add accumulates into the table; both sides add the same rows.
  compare(
      "scatter_add_embedding",
      [&] { scatterLoop(table.data(), indices.data(), rowsA.data()); },
      [&] { _mlir_ciface_scatter_add_rows(&tableRef, &indexRef, &rowsRef); });
  return 0;
}
