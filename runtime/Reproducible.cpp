//===- Reproducible.cpp - Reductions with a fixed order ---------*- C++ -*-===//

#include "Reproducible.h"

#include "Channels.h"
#include "ElementAccess.h"
#include "Error.h"
#include "ExactSum.h"
#include "LargeCount.h"
#include "Reduce.h"
#include "Request.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <memory>
#include <string_view>
#include <vector>

namespace distrt::detail {

/// A sync all-reduce whose members' elements take at most this many bytes
/// in all gathers them (one collective of log P steps); an ordered one of
/// at most kTreeBytes runs the fold's tree, a larger one recursive halving:
/// about where MPI's own all-reduces turn from latency- to bandwidth-bound
/// algorithms. Every path folds alike: the limits decide time only.
constexpr size_t kGatherBytes = size_t{64} << 10;
constexpr size_t kTreeBytes = size_t{8} << 10;
/// An exact sum whose blocks (its bytes over the members) hold at least
/// this many bytes exchanges them (MPI_Alltoallv: P messages a member,
/// each worth sending alone); smaller blocks go through MPI_Allreduce of
/// exact pairs (log P steps).
constexpr size_t kBlockBytes = size_t{8} << 10;
/// Exact sums of at most this many elements that are too many to gather
/// (many members) add the members' WideSums over MPI instead (73 words
/// each): one MPI_Allreduce of log P steps, not the blocks' P messages.
constexpr int64_t kWideElements = 64;

namespace {
/// The ordered fold's shape over `members`: with P' the largest power of
/// two not above it and extra = members - P', member 2i + 1 < 2 extra is
/// folded into member 2i first (op(v_2i, v_2i+1)), then the P' virtual
/// positions (i < extra: member 2i; else member i + extra) fold over the
/// binomial tree: at distance d = 1, 2, 4 ..., position v (a multiple of
/// 2d) takes op(its partial, v + d's).
struct FoldShape {
  int virtualCount = 1, extra = 0;
  explicit FoldShape(int members) {
    while (virtualCount * 2 <= members)
      virtualCount *= 2;
    extra = members - virtualCount;
  }
  /// Member p's virtual position, -1 if it is folded into p - 1.
  int virtualOf(int p) const {
    return p < 2 * extra ? (p % 2 ? -1 : p / 2) : p - extra;
  }
  int memberOf(int v) const { return v < extra ? 2 * v : v + extra; }
};
} // namespace

/// DISTRT_REPRODUCIBLE's level, -1 if it names none (mpi if unset).
static int64_t levelFromEnvironment() {
  const char *value = std::getenv("DISTRT_REPRODUCIBLE");
  const std::string_view v = value ? value : "";
  return v.empty() || v == "mpi" ? DISTRT_REPRO_MPI
         : v == "ordered"        ? DISTRT_REPRO_ORDERED
         : v == "exact"          ? DISTRT_REPRO_EXACT
                                 : -1;
}
const int64_t gEnvironmentLevel = levelFromEnvironment();

/// into[i] = op(into[i], from[i]), each rounded to the element type (a
/// narrow float's operation in float, then rounded: exact enough that one
/// rounding is what results).
template <class E, bool Product>
static void combine(std::byte *into, const std::byte *from, int64_t count) {
  using S = typename E::Stored;
  auto *a = reinterpret_cast<S *>(into);
  const auto *b = reinterpret_cast<const S *>(from);
  for (int64_t i = 0; i < count; ++i) {
    const auto x = E::load(a + i), y = E::load(b + i);
    E::store(a + i, Product ? x * y : x + y);
  }
}

template <class E> static double toDouble(const std::byte *at) {
  return static_cast<double>(
      E::load(reinterpret_cast<const typename E::Stored *>(at)));
}
template <class E> static void fromDouble(std::byte *at, double v) {
  using S = typename E::Stored;
  E::store(reinterpret_cast<S *>(at),
           static_cast<typename E::Value>(v)); // exact: v is of the type
}

/// into = op(into, from), `count` elements: one step of the ordered tree.
static void combineStep(const OwnReduce &r, std::byte *into,
                        const std::byte *from, int64_t count) {
  byFloatType(r.dtype, [&]<class E>(FloatFormat) {
    if (r.redop == DISTRT_PROD)
      combine<E, true>(into, from, count);
    else
      combine<E, false>(into, from, count);
  });
}

static bool exactSums(const OwnReduce &r) {
  return r.level == Repro::Exact && r.redop == DISTRT_SUM;
}

/// out[i] for i in [first, end) = the exact sum of rows[p][i] (exactSum).
template <class E>
static void sumRowsExactly(const OwnReduce &r, const std::byte *rows,
                           size_t rowBytes, int64_t first, int64_t end,
                           FloatFormat format, std::byte *out) {
  static std::vector<double> values; // reused (single-threaded)
  values.resize(static_cast<size_t>(r.members));
  const size_t size = r.type->size;
  for (int64_t i = first; i < end; ++i) {
    const size_t at = static_cast<size_t>(i) * size;
    for (int p = 0; p < r.members; ++p)
      values[p] = toDouble<E>(rows + p * rowBytes + at);
    fromDouble<E>(out + at, exactSum(values.data(), r.members, format));
  }
}

/// Exact sums of f64 or f32 rows, a block of elements at a time, as
/// exactSum's first path does it for one element (ExactSum.cpp,
/// sumByErrors): the rows added in order, each addition's error kept
/// (TwoSum), and the errors summed; where the errors' sum is exact the
/// result is one rounded addition (f32: the errors must be zero, the sum
/// then rounded once). Across the block's elements the loop vectorizes;
/// the elements where it does not hold go through exactSum.
static void sumRowsByErrors(const OwnReduce &r, const std::byte *rows,
                            size_t rowBytes, int64_t count, std::byte *out) {
  constexpr int64_t kBlock = 256;
  const bool f64 = r.dtype == DISTRT_F64;
  auto row = [&](int p, int64_t i) {
    const std::byte *at = rows + p * rowBytes;
    return f64 ? reinterpret_cast<const double *>(at)[i]
               : static_cast<double>(reinterpret_cast<const float *>(at)[i]);
  };
  double sum[kBlock], errors[kBlock];
  bool lost[kBlock];
  for (int64_t b = 0; b < count; b += kBlock) {
    const int64_t n = std::min(kBlock, count - b);
    for (int64_t i = 0; i < n; ++i) {
      sum[i] = row(0, b + i);
      errors[i] = 0.0;
      lost[i] = false;
    }
    for (int p = 1; p < r.members; ++p)
      for (int64_t i = 0; i < n; ++i) {
        const double a = sum[i], x = row(p, b + i), s = a + x, xs = s - a;
        const double e = (a - (s - xs)) + (x - xs);
        const double u = errors[i] + e, eu = u - errors[i];
        lost[i] |= ((errors[i] - (u - eu)) + (e - eu)) != 0;
        sum[i] = s;
        errors[i] = u;
      }
    for (int64_t i = 0; i < n; ++i) {
      const int64_t at = b + i;
      if (lost[i] || !std::isfinite(sum[i]) || !std::isfinite(errors[i]) ||
          (!f64 && errors[i] != 0)) {
        if (f64)
          sumRowsExactly<Plain<double>>(r, rows, rowBytes, at, at + 1,
                                        kF64Format, out);
        else
          sumRowsExactly<Plain<float>>(r, rows, rowBytes, at, at + 1,
                                       kF32Format, out);
      } else if (f64) {
        // An error-free sum keeps its zero's sign (all -0: -0).
        reinterpret_cast<double *>(out)[at] =
            errors[i] == 0 ? sum[i] : sum[i] + errors[i];
      } else {
        reinterpret_cast<float *>(out)[at] = static_cast<float>(sum[i]);
      }
    }
  }
}

/// Scratch of the sync paths (the runtime is single-threaded).
static std::byte *scratch(size_t bytes) {
  static std::vector<std::byte> buffer;
  if (buffer.size() < bytes)
    buffer.resize(bytes);
  return buffer.data();
}

/// The members' exact sums of `count` elements, as WideSum words.
static void wideWords(const OwnReduce &r, const std::byte *data, int64_t count,
                      int64_t *words) {
  byFloatType(r.dtype, [&]<class E>(FloatFormat) {
    for (int64_t i = 0; i < count; ++i) {
      WideSum sum;
      sum.add(toDouble<E>(data + static_cast<size_t>(i) * r.type->size));
      sum.normalize();
      std::memcpy(words + i * WideSum::kWords, sum.words().data(),
                  sizeof(int64_t) * WideSum::kWords);
    }
  });
}

/// Rounds the added WideSum words of `count` elements into `data`.
static void roundWords(const OwnReduce &r, const int64_t *words, int64_t count,
                       std::byte *data) {
  byFloatType(r.dtype, [&]<class E>(FloatFormat format) {
    for (int64_t i = 0; i < count; ++i) {
      WideSum sum;
      std::memcpy(sum.words().data(), words + i * WideSum::kWords,
                  sizeof(int64_t) * WideSum::kWords);
      fromDouble<E>(data + static_cast<size_t>(i) * r.type->size,
                    sum.round(format));
    }
  });
}

/// Exact sums of few elements: the members' WideSums added by MPI.
static void wideAllreduce(const OwnReduce &r, std::byte *data, int64_t count) {
  auto *words = reinterpret_cast<int64_t *>(
      scratch(static_cast<size_t>(count) * WideSum::kWords * sizeof(int64_t)));
  wideWords(r, data, count, words);
  checkMpi(MPI_Allreduce(MPI_IN_PLACE, words,
                         static_cast<int>(count * WideSum::kWords), MPI_INT64_T,
                         MPI_SUM, r.comm),
           "MPI_Allreduce");
  roundWords(r, words, count, data);
}

/// A blocking receive of `count` elements from member `peer` into `to`.
static void receive(const OwnReduce &r, void *to, int64_t count, int peer) {
  MPI_Status status;
  const auto bytes =
      static_cast<int>(static_cast<size_t>(count) * r.type->size);
  const int code =
      MPI_Recv(to, bytes, MPI_BYTE, peer, kOwnTag, r.comm, &status);
  checkBlockingReceive("all_reduce", code, status, bytes, peer,
                       "partial reduction");
}
static void send(const OwnReduce &r, const void *from, int64_t count,
                 int peer) {
  const auto bytes =
      static_cast<int>(static_cast<size_t>(count) * r.type->size);
  checkMpi(MPI_Send(from, bytes, MPI_BYTE, peer, kOwnTag, r.comm), "MPI_Send");
}

/// The ordered fold's pairing of an extra member into its left neighbour:
/// the odd one sends, the even one folds. False for a member that handed
/// its values on (it takes no further part until the result comes back).
static bool foldExtra(const OwnReduce &r, const FoldShape &shape,
                      std::byte *data, int64_t count, std::byte *theirs) {
  if (r.position >= 2 * shape.extra)
    return true;
  if (r.position % 2) {
    send(r, data, count, r.position - 1);
    return false;
  }
  receive(r, theirs, count, r.position + 1);
  combineStep(r, data, theirs, count);
  return true;
}

/// The ordered fold's tree over messages, then a broadcast of its result
/// from position 0.
static void treeAllreduce(const OwnReduce &r, std::byte *data, int64_t count) {
  const FoldShape shape(r.members);
  std::byte *theirs = scratch(static_cast<size_t>(count) * r.type->size);
  if (foldExtra(r, shape, data, count, theirs)) {
    const int v = shape.virtualOf(r.position);
    for (int d = 1; d < shape.virtualCount; d *= 2) {
      if (v & d) {
        send(r, data, count, shape.memberOf(v - d));
        break;
      }
      receive(r, theirs, count, shape.memberOf(v + d));
      combineStep(r, data, theirs, count);
    }
  }
  const auto bytes =
      static_cast<int>(static_cast<size_t>(count) * r.type->size);
  checkMpi(MPI_Bcast(data, bytes, MPI_BYTE, 0, r.comm), "MPI_Bcast");
}

/// One exchange with `peer`: `given` elements from `give` out, `taken` into
/// `take`.
static void exchange(const OwnReduce &r, const std::byte *give, int64_t given,
                     std::byte *take, int64_t taken, int peer) {
  const size_t size = r.type->size;
  const auto in = static_cast<int>(static_cast<size_t>(taken) * size);
  MPI_Status status;
  const int code = MPI_Sendrecv(
      give, static_cast<int>(static_cast<size_t>(given) * size), MPI_BYTE, peer,
      kOwnTag, take, in, MPI_BYTE, peer, kOwnTag, r.comm, &status);
  checkBlockingReceive("all_reduce", code, status, in, peer,
                       "partial reduction");
}

/// The ordered fold for large messages, as Rabenseifner's all-reduce moves
/// data: the extra members fold into their neighbours; recursive halving at
/// distances 1, 2, 4 ... over the virtual positions (each pair exchanges
/// half of its segment and folds the half it keeps, the lower position's
/// partial first: the fold's own tree, element by element); recursive
/// doubling back, each pair exchanging its folded halves; the extra
/// members get the result from their neighbours.
static void halvingAllreduce(const OwnReduce &r, std::byte *data,
                             int64_t count) {
  const FoldShape shape(r.members);
  const size_t size = r.type->size;
  std::byte *theirs = scratch(static_cast<size_t>(count) * size);
  const bool extra = r.position < 2 * shape.extra;
  if (foldExtra(r, shape, data, count, theirs)) {
    const int v = shape.virtualOf(r.position);
    // The segment before each halving, for the doubling back.
    static std::vector<std::pair<int64_t, int64_t>> segments;
    segments.clear();
    int64_t lo = 0, hi = count;
    for (int d = 1; d < shape.virtualCount; d *= 2) {
      segments.emplace_back(lo, hi);
      const int64_t mid = lo + (hi - lo) / 2;
      const bool lower = (v & d) == 0;
      const int64_t keep = lower ? lo : mid, kept = lower ? mid - lo : hi - mid;
      const int64_t give = lower ? mid : lo;
      exchange(r, data + give * size, (hi - lo) - kept, theirs, kept,
               shape.memberOf(v ^ d));
      std::byte *mine = data + keep * size;
      if (lower) {
        combineStep(r, mine, theirs, kept);
      } else { // the partner's partial is the left operand
        combineStep(r, theirs, mine, kept);
        std::memcpy(mine, theirs, static_cast<size_t>(kept) * size);
      }
      (lower ? hi : lo) = mid;
    }
    for (int d = shape.virtualCount / 2; d >= 1; d /= 2) {
      const auto [whole, end] = segments.back();
      segments.pop_back();
      // The partner folded the other part of [whole, end).
      const int64_t other = lo == whole ? hi : whole;
      const int64_t otherCount = lo == whole ? end - hi : lo - whole;
      exchange(r, data + lo * size, hi - lo, data + other * size, otherCount,
               shape.memberOf(v ^ d));
      lo = whole;
      hi = end;
    }
    if (extra)
      send(r, data, count, r.position + 1);
  } else {
    receive(r, data, count, r.position - 1);
  }
}

/// Every member's elements gathered (MPI_Allgather) and folded by each.
static void gatherAllreduce(const OwnReduce &r, std::byte *data,
                            int64_t count) {
  const size_t rowBytes = static_cast<size_t>(count) * r.type->size;
  std::byte *rows = scratch(rowBytes * r.members);
  const auto n = static_cast<int>(count);
  checkMpi(MPI_Allgather(data, n, r.type->mpi, rows, n, r.type->mpi, r.comm),
           "MPI_Allgather");
  foldRows(r, rows, rowBytes, count, data);
}

/// Member q's block of `count` elements: [displs[q], displs[q] + counts[q]).
static void blocksOf(int64_t count, int members, std::vector<int> &counts,
                     std::vector<int> &displs) {
  counts.resize(static_cast<size_t>(members));
  displs.resize(static_cast<size_t>(members));
  const int64_t base = count / members, extra = count % members;
  for (int q = 0; q < members; ++q) {
    counts[q] = static_cast<int>(base + (q < extra));
    displs[q] = static_cast<int>(q * base + std::min<int64_t>(q, extra));
  }
}

/// Each member folds its block of every member's elements, then all gather
/// the folded blocks.
static void blockAllreduce(const OwnReduce &r, std::byte *data, int64_t count) {
  static std::vector<int> counts, displs, rowCounts, rowDispls;
  blocksOf(count, r.members, counts, displs);
  const int mine = counts[r.position];
  rowCounts.assign(static_cast<size_t>(r.members), mine);
  rowDispls.resize(static_cast<size_t>(r.members));
  for (int q = 0; q < r.members; ++q)
    rowDispls[q] = q * mine;
  const size_t rowBytes = static_cast<size_t>(mine) * r.type->size;
  std::byte *rows = scratch(rowBytes * r.members);
  MPI_Datatype type = r.type->mpi;
  checkMpi(MPI_Alltoallv(data, counts.data(), displs.data(), type, rows,
                         rowCounts.data(), rowDispls.data(), type, r.comm),
           "MPI_Alltoallv");
  foldRows(r, rows, rowBytes, mine,
           data + static_cast<size_t>(displs[r.position]) * r.type->size);
  checkMpi(MPI_Allgatherv(MPI_IN_PLACE, 0, type, data, counts.data(),
                          displs.data(), type, r.comm),
           "MPI_Allgatherv");
}

/// Calls f(first, n) for chunks of `count` elements whose bytes (twice as
/// exact pairs) an int counts, at most gMaxCount elements.
template <class F> static void inChunks(int64_t count, F &&f) {
  const int64_t most = std::min<int64_t>(gMaxCount, INT_MAX / 16);
  for (int64_t first = 0; first < count; first += most)
    f(first, std::min<int64_t>(count - first, most));
}

/// The elements `lost` of every member gathered and folded exactly into
/// `data` (their indices are the same on every member).
static void gatherLost(const OwnReduce &r, std::byte *data,
                       const std::vector<int64_t> &lost) {
  const size_t size = r.type->size, n = lost.size();
  std::vector<std::byte> mine(n * size), rows(n * size * r.members),
      folded(n * size);
  for (size_t k = 0; k < n; ++k)
    std::memcpy(mine.data() + k * size,
                data + static_cast<size_t>(lost[k]) * size, size);
  checkMpi(MPI_Allgather(mine.data(), static_cast<int>(n), r.type->mpi,
                         rows.data(), static_cast<int>(n), r.type->mpi, r.comm),
           "MPI_Allgather");
  foldRows(r, rows.data(), n * size, static_cast<int64_t>(n), folded.data());
  for (size_t k = 0; k < n; ++k)
    std::memcpy(data + static_cast<size_t>(lost[k]) * size,
                folded.data() + k * size, size);
}

/// One exact pair (Reduce.h, ExactPairs) plus another: their sums added and
/// every rounding error kept (TwoSum); an error lost on the way makes the
/// pair's error NaN, which stays NaN.
static inline void addPair(double &s, double &e, double s2, double e2) {
  double sum, t, u, lost1, lost2;
  twoSumOf(s, s2, sum, t);
  twoSumOf(e, e2, u, lost1);
  twoSumOf(u, t, e, lost2);
  s = sum;
  if (lost1 != 0 || lost2 != 0)
    e = std::numeric_limits<double>::quiet_NaN();
}

/// Exact sums through MPI_Allreduce of exact pairs: each member's element
/// as (x, 0), added by addExactPairs in whatever order MPI's algorithm
/// takes; s + e of the result is then the exact sum, rounded once. The
/// elements where an error was lost (e NaN, the same on every member) are
/// gathered and folded from every member's values.
static void pairAllreduce(const OwnReduce &r, std::byte *data, int64_t count) {
  const size_t size = r.type->size;
  static std::vector<double> pairs; // reused (single-threaded)
  pairs.resize(static_cast<size_t>(count) * 2);
  byFloatType(r.dtype, [&]<class E>(FloatFormat) {
    for (int64_t i = 0; i < count; ++i) {
      pairs[2 * i] = toDouble<E>(data + static_cast<size_t>(i) * size);
      pairs[2 * i + 1] = 0.0;
    }
  });
  const ExactPairs exact = exactPairs();
  checkMpi(MPI_Allreduce(MPI_IN_PLACE, pairs.data(), static_cast<int>(count),
                         exact.type, exact.op, r.comm),
           "MPI_Allreduce");
  static std::vector<int64_t> lost; // reused
  lost.clear();
  for (int64_t i = 0; i < count; ++i)
    if (!std::isfinite(pairs[2 * i]) || !std::isfinite(pairs[2 * i + 1]))
      lost.push_back(i);
  if (!lost.empty())
    gatherLost(r, data, lost);
  byFloatType(r.dtype, [&]<class E>(FloatFormat format) {
    size_t next = 0;
    for (int64_t i = 0; i < count; ++i) {
      if (next < lost.size() && lost[next] == i) {
        ++next;
        continue;
      }
      const double s = pairs[2 * i], e = pairs[2 * i + 1];
      double exactly;
      if (e == 0) { // keeps s's zero sign
        const double both[] = {s};
        exactly = exactSum(both, 1, format);
      } else {
        const double both[] = {s, e};
        exactly = exactSum(both, 2, format);
      }
      fromDouble<E>(data + static_cast<size_t>(i) * size, exactly);
    }
  });
}

int64_t requestedLevel(int32_t op) noexcept {
  const int32_t level = op >> DISTRT_REPRO_SHIFT;
  return level == DISTRT_REPRO_DEFAULT ? gEnvironmentLevel : level;
}

Reduction reductionOf(int64_t redop, int64_t level) {
  if (level == -1)
    raise("DISTRT_REPRODUCIBLE={}: expected mpi, ordered or exact",
          std::getenv("DISTRT_REPRODUCIBLE"));
  if (level < DISTRT_REPRO_MPI || level > DISTRT_REPRO_EXACT)
    raise("invalid reproducibility level {} (expected {} to {})", level,
          static_cast<int>(DISTRT_REPRO_MPI),
          static_cast<int>(DISTRT_REPRO_EXACT));
  return {static_cast<int32_t>(redop), static_cast<Repro>(level)};
}

const char *reproName(Repro level) {
  return level == Repro::Exact     ? "exact"
         : level == Repro::Ordered ? "ordered"
                                   : "mpi";
}

void foldRows(const OwnReduce &r, std::byte *rows, size_t rowBytes,
              int64_t count, std::byte *out) {
  if (exactSums(r)) {
    if (r.dtype == DISTRT_F64 || r.dtype == DISTRT_F32)
      return sumRowsByErrors(r, rows, rowBytes, count, out);
    byFloatType(r.dtype, [&]<class E>(FloatFormat format) {
      sumRowsExactly<E>(r, rows, rowBytes, 0, count, format, out);
    });
    return;
  }
  const FoldShape shape(r.members);
  static std::vector<std::byte *> at; // reused (single-threaded)
  at.resize(static_cast<size_t>(shape.virtualCount));
  for (int v = 0; v < shape.virtualCount; ++v) {
    const int p = shape.memberOf(v);
    at[v] = rows + p * rowBytes;
    if (v < shape.extra)
      combineStep(r, at[v], rows + (p + 1) * rowBytes, count);
  }
  for (int d = 1; d < shape.virtualCount; d *= 2)
    for (int v = 0; v + d < shape.virtualCount; v += 2 * d)
      combineStep(r, at[v], at[v + d], count);
  if (out != at[0])
    std::memcpy(out, at[0], static_cast<size_t>(count) * r.type->size);
}

void addExactPairs(void *in, void *inout, int *length, MPI_Datatype *) {
  const auto *a = static_cast<const double *>(in);
  auto *b = static_cast<double *>(inout);
  for (int i = 0; i < *length; ++i)
    addPair(b[2 * i], b[2 * i + 1], a[2 * i], a[2 * i + 1]);
}

void ownAllreduce(const OwnReduce &r, std::byte *data, int64_t count) {
  inChunks(count, [&](int64_t first, int64_t n) {
    std::byte *at = data + static_cast<size_t>(first) * r.type->size;
    const size_t bytes = static_cast<size_t>(n) * r.type->size;
    if (bytes * static_cast<size_t>(r.members) <= kGatherBytes)
      gatherAllreduce(r, at, n);
    else if (!exactSums(r))
      bytes <= kTreeBytes ? treeAllreduce(r, at, n)
                          : halvingAllreduce(r, at, n);
    else if (n <= kWideElements)
      wideAllreduce(r, at, n);
    else if (bytes / static_cast<size_t>(r.members) >= kBlockBytes)
      blockAllreduce(r, at, n);
    else
      pairAllreduce(r, at, n);
  });
}

void ownIallreduce(const OwnReduce &r, RequestSlot &slot, std::byte *data,
                   int64_t count) {
  inChunks(count, [&](int64_t first, int64_t n) {
    std::byte *at = data + static_cast<size_t>(first) * r.type->size;
    const size_t rowBytes = static_cast<size_t>(n) * r.type->size;
    if (exactSums(r) && n <= kWideElements &&
        rowBytes * static_cast<size_t>(r.members) > kGatherBytes) {
      auto words = std::make_shared<std::vector<int64_t>>(
          static_cast<size_t>(n) * WideSum::kWords);
      wideWords(r, at, n, words->data());
      postRequest(slot, "MPI_Iallreduce", [&](MPI_Request *request) {
        return MPI_Iallreduce(MPI_IN_PLACE, words->data(),
                              static_cast<int>(words->size()), MPI_INT64_T,
                              MPI_SUM, r.comm, request);
      });
      slot.completions.emplace_back(
          [r, words, at, n] { roundWords(r, words->data(), n, at); });
      return;
    }
    auto rows = std::make_shared<std::vector<std::byte>>(rowBytes * r.members);
    postRequest(slot, "MPI_Iallgather", [&](MPI_Request *request) {
      return MPI_Iallgather(at, static_cast<int>(n), r.type->mpi, rows->data(),
                            static_cast<int>(n), r.type->mpi, r.comm, request);
    });
    slot.completions.emplace_back([r, rows, rowBytes, at, n] {
      foldRows(r, rows->data(), rowBytes, n, at);
    });
  });
}

void ownReduceScatter(const OwnReduce &r, RequestSlot *slot,
                      const std::byte *send, std::byte *recv, int64_t count) {
  const size_t size = r.type->size;
  const size_t blockBytes = static_cast<size_t>(count) * size;
  inChunks(count, [&](int64_t first, int64_t n) {
    const size_t rowBytes = static_cast<size_t>(n) * size;
    auto rows = std::make_shared<std::vector<std::byte>>(rowBytes * r.members *
                                                         (n < count ? 2 : 1));
    // A chunk of each block, made contiguous unless it is the whole block.
    const std::byte *from = send;
    if (n < count) {
      std::byte *staged = rows->data() + rowBytes * r.members;
      for (int q = 0; q < r.members; ++q)
        std::memcpy(staged + q * rowBytes,
                    send + q * blockBytes + static_cast<size_t>(first) * size,
                    rowBytes);
      from = staged;
    }
    std::byte *to = recv + static_cast<size_t>(first) * size;
    const auto c = static_cast<int>(n);
    if (!slot) {
      checkMpi(MPI_Alltoall(from, c, r.type->mpi, rows->data(), c, r.type->mpi,
                            r.comm),
               "MPI_Alltoall");
      return foldRows(r, rows->data(), rowBytes, n, to);
    }
    postRequest(*slot, "MPI_Ialltoall", [&](MPI_Request *request) {
      return MPI_Ialltoall(from, c, r.type->mpi, rows->data(), c, r.type->mpi,
                           r.comm, request);
    });
    slot->completions.emplace_back([r, rows, rowBytes, to, n] {
      foldRows(r, rows->data(), rowBytes, n, to);
    });
  });
}

} // namespace distrt::detail
