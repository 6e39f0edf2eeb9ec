//===- GlobalReduce.cpp - global_reduce -------------------------*- C++ -*-===//
//
// outputs[k] (one element) = the reduction of every element of inputs[k]
// over the team. Each member folds its elements in row-major order into
// its output, then the members' values are reduced in place as all_reduce
// reduces them at the call's level (MPI, or the runtime's own fold:
// Reproducible.h). An exact floating-point sum is instead each member's
// WideSum of its elements (ExactSum.h), added as integers by one
// MPI_Allreduce and rounded once: no element is rounded on the way, so the
// result does not depend on how the elements are split over the members.
// Members' inputs differ in shape (their parts of a distributed array):
// checked mode compares their element types and ranks only.
//
//===----------------------------------------------------------------------===//

#include "../ElementAccess.h"
#include "../OpCall.h"
#include "../Reduce.h"
#include "../ReducePlan.h"
#include "../Reproducible.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <type_traits>

namespace distrt::detail {

/// op(a, b) of the local fold (redop after levelRedop()): integers wrap,
/// float min/max keep `a` unless `b` is smaller (MPI_MIN's way), minimum/
/// maximum are IEEE 754's.
template <class V> static V apply(int32_t redop, V a, V b) {
  if constexpr (std::is_integral_v<V>) {
    using U = std::make_unsigned_t<V>;
    if (redop == DISTRT_SUM)
      return static_cast<V>(static_cast<U>(a) + static_cast<U>(b));
    if (redop == DISTRT_PROD)
      return static_cast<V>(static_cast<U>(a) * static_cast<U>(b));
    return redop == DISTRT_MIN ? (b < a ? b : a) : (a < b ? b : a);
  } else {
    switch (redop) {
    case DISTRT_SUM:
      return a + b;
    case DISTRT_PROD:
      return a * b;
    case DISTRT_MIN:
      return b < a ? b : a;
    case DISTRT_MAX:
      return a < b ? b : a;
    default: {
      if (std::isnan(a) || std::isnan(b))
        return std::numeric_limits<V>::quiet_NaN();
      const bool minimum = redop == DISTRT_MINIMUM;
      if (a == b) // -0 < +0
        return std::signbit(a) == minimum ? a : b;
      return (b < a) == minimum ? b : a;
    }
    }
  }
}

/// The fold of no elements.
template <class V> static V identity(int32_t redop) {
  using L = std::numeric_limits<V>;
  if (redop == DISTRT_SUM)
    return V(0);
  if (redop == DISTRT_PROD)
    return V(1);
  const bool least = redop == DISTRT_MIN || redop == DISTRT_MINIMUM;
  if constexpr (L::has_infinity)
    return least ? L::infinity() : -L::infinity();
  return least ? L::max() : L::lowest();
}

/// `out` = the row-major fold of `count` dense elements at `data`.
static void foldLocal(const std::byte *data, int64_t count, int32_t dtype,
                      int32_t redop, std::byte *out) {
  byType(dtype, [&]<class E>() {
    using S = typename E::Stored;
    const auto *in = reinterpret_cast<const S *>(data);
    S acc;
    E::store(&acc, identity<typename E::Value>(redop));
    for (int64_t i = 0; i < count; ++i)
      E::store(&acc, apply(redop, E::load(&acc), E::load(in + i)));
    std::memcpy(out, &acc, sizeof acc);
  });
}

/// Adds a block of kBlock values to `sum` exactly in kLanes interleaved
/// lanes: each lane adds its values in order keeping every addition's
/// error (TwoSum) and sums the errors; where each lane's errors add
/// exactly, its sum and errors are its values' exact total, two WideSum
/// additions per lane instead of one per value. Else (errors spanning more
/// than 53 bits, a special value) the block's values are added one by one.
constexpr int kLanes = 8, kBlock = kLanes * 32;
template <class E>
static void addBlock(WideSum &sum, const typename E::Stored *in) {
  // -0: adding to it keeps every value's zero sign (all -0: -0).
  double sums[kLanes], errors[kLanes] = {};
  std::fill(sums, sums + kLanes, -0.0);
  bool lost = false;
  for (int i = 0; i < kBlock; i += kLanes)
    for (int l = 0; l < kLanes; ++l) {
      const double a = sums[l], x = static_cast<double>(E::load(in + i + l));
      const double t = a + x, xt = t - a, e = (a - (t - xt)) + (x - xt);
      const double u = errors[l] + e, eu = u - errors[l];
      lost |= ((errors[l] - (u - eu)) + (e - eu)) != 0;
      sums[l] = t;
      errors[l] = u;
    }
  for (int l = 0; l < kLanes; ++l)
    lost |= !std::isfinite(sums[l]) || !std::isfinite(errors[l]);
  if (lost) {
    for (int i = 0; i < kBlock; ++i)
      sum.add(static_cast<double>(E::load(in + i)));
    return;
  }
  for (int l = 0; l < kLanes; ++l) {
    sum.add(sums[l]);
    if (errors[l] != 0) // a +0 would not be one of the values
      sum.add(errors[l]);
  }
}

/// The WideSum words of `count` dense float elements.
static std::shared_ptr<std::vector<int64_t>>
wideSum(const std::byte *data, int64_t count, int32_t dtype) {
  WideSum sum;
  byFloatType(dtype, [&]<class E>(FloatFormat) {
    const auto *in = reinterpret_cast<const typename E::Stored *>(data);
    int64_t i = 0;
    for (; i + kBlock <= count; i += kBlock)
      addBlock<E>(sum, in + i);
    for (; i < count; ++i)
      sum.add(static_cast<double>(E::load(in + i)));
  });
  sum.normalize();
  return std::make_shared<std::vector<int64_t>>(sum.words().begin(),
                                                sum.words().end());
}

/// Rounds the added words into `out` in `dtype`.
static void roundInto(const std::vector<int64_t> &words, int32_t dtype,
                      std::byte *out) {
  WideSum sum;
  std::memcpy(sum.words().data(), words.data(),
              sizeof(int64_t) * WideSum::kWords);
  byFloatType(dtype, [&]<class E>(FloatFormat format) {
    typename E::Stored v;
    E::store(&v, static_cast<typename E::Value>(sum.round(format)));
    std::memcpy(out, &v, sizeof v);
  });
}

namespace {
struct GlobalReducePlan {
  const GroupLayout *layout = nullptr;
};

struct GlobalReduce : OpKind<GlobalReduce, GlobalReducePlan> {
  static constexpr std::array kParams{"reduction", "reproducibility"};
  static constexpr bool kShapesAgree = false;

  static const std::vector<int64_t> *plan(Memo<Plan> &m, const Call &c) {
    if (c.groups)
      raise("takes no process groups: it reduces over the whole team");
    const Reduction red = reductionOf(c.params);
    if (red.redop != DISTRT_SUM && red.redop != DISTRT_PROD &&
        red.redop != DISTRT_MIN && red.redop != DISTRT_MAX)
      raise("reduction '{}' is not one of sum, prod, min, max",
            redopName(red.redop));
    resolveLists(c.inputs, c.outputs, opScratch());
    const OpScratch &s = opScratch();
    for (size_t k = 0; k < s.ins.size(); ++k) {
      const Buffer &in = s.ins[k], &out = s.outs[k];
      if (out.count != 1 || out.dtype != in.dtype || in.dtype == DISTRT_I1)
        raise("operand #{}: the output must be one element of the input's "
              "element type ({}, not i1), got {} of {}",
              k, in.type->name, out.count, out.type->name);
      reductionOp(levelRedop(red.redop, in.dtype, red.level), in.dtype);
    }
    const GroupLayout &layout = groupLayout(lookupTeam(c.team), nullptr);
    layout.requireEveryProcess();
    m.plan.layout = &layout;
    return &layout.key;
  }

  static bool direct(const Plan &, bool) { return false; }
  static distrt_handle_t runDirect(const Memo<Plan> &, const DirectCall &) {
    return 0; // never direct
  }

  /// Reduces operand k into its output (dense: one element).
  static void reduce(RequestSlot &slot, const Plan &p, Reduction red,
                     const Buffer &in, const Buffer &out, bool async) {
    static std::vector<std::byte> packed; // reused (single-threaded)
    const std::byte *data = in.bytes.base;
    if (!in.dense) {
      packed.resize(in.byteCount);
      pack(in.bytes, packed.data());
      data = packed.data();
    }
    std::byte *result = out.bytes.base;
    if (red.level == Repro::Exact && red.redop == DISTRT_SUM &&
        in.dtype >= DISTRT_F16)
      return reduceExact(slot, p, wideSum(data, in.count, in.dtype), in.dtype,
                         result, async);
    const int32_t redop = levelRedop(red.redop, in.dtype, red.level);
    foldLocal(data, in.count, in.dtype, redop, result);
    if (ownReduction(p.layout->size(), red.redop, in.dtype, red.level)) {
      const OwnReduce r = ownReduceOver(*p.layout, red, in.dtype);
      return async ? ownIallreduce(r, slot, result, 1)
                   : ownAllreduce(r, result, 1);
    }
    MPI_Op op = reductionOp(redop, in.dtype);
    if (async)
      return postRequest(slot, "MPI_Iallreduce", [&](MPI_Request *request) {
        return MPI_Iallreduce(MPI_IN_PLACE, result, 1, in.type->mpi, op,
                              p.layout->comm, request);
      });
    checkMpi(MPI_Allreduce(MPI_IN_PLACE, result, 1, in.type->mpi, op,
                           p.layout->comm),
             "MPI_Allreduce");
  }

  /// The members' exact sums added as integers, rounded into `result`.
  static void reduceExact(RequestSlot &slot, const Plan &p,
                          std::shared_ptr<std::vector<int64_t>> words,
                          int32_t dtype, std::byte *result, bool async) {
    const auto n = static_cast<int>(words->size());
    if (!async) {
      checkMpi(MPI_Allreduce(MPI_IN_PLACE, words->data(), n, MPI_INT64_T,
                             MPI_SUM, p.layout->comm),
               "MPI_Allreduce");
      return roundInto(*words, dtype, result);
    }
    postRequest(slot, "MPI_Iallreduce", [&](MPI_Request *request) {
      return MPI_Iallreduce(MPI_IN_PLACE, words->data(), n, MPI_INT64_T,
                            MPI_SUM, p.layout->comm, request);
    });
    slot.completions.emplace_back(
        [words, dtype, result] { roundInto(*words, dtype, result); });
  }

  static distrt_handle_t run(Memo<Plan> &m, const Call &c) {
    const Reduction red = reductionOf(c.params);
    return runInSlot(c.op, c.team, c.loc, c.async, [&](RequestSlot &slot) {
      for (size_t k = 0; k < m.ins.size(); ++k)
        reduce(slot, m.plan, red, m.ins[k], m.outs[k], c.async);
    });
  }
};
} // namespace

} // namespace distrt::detail

using namespace distrt::detail;

distrt_handle_t distrt_global_reduce(int64_t team,
                                     const distrt_groups_t *groups, int32_t op,
                                     int64_t n, const distrt_operand_t *inputs,
                                     const distrt_operand_t *outputs,
                                     int32_t async, distrt_site_t *site,
                                     const char *loc) {
  const int64_t scalars[] = {redopOf(op), requestedLevel(op)};
  return cEntry<GlobalReduce>("global_reduce", team, groups, Params(scalars), n,
                              inputs, n, outputs, async, site, loc);
}

namespace distrt {

void globalReduce(const Team &team, RedOp op, Operand input, Operand output,
                  Site *site, SourceLoc loc) {
  const auto word = static_cast<int32_t>(op);
  const int64_t scalars[] = {redopOf(word), requestedLevel(word)};
  const Operand ins[] = {input}, outs[] = {output};
  cxxSync<GlobalReduce>("global_reduce", team, nullptr, Params(scalars),
                        Operands(ins), Operands(outs), site, loc);
}
Request globalReduceAsync(const Team &team, RedOp op, Operand input,
                          Operand output, Site *site, SourceLoc loc) {
  const auto word = static_cast<int32_t>(op);
  const int64_t scalars[] = {redopOf(word), requestedLevel(word)};
  const Operand ins[] = {input}, outs[] = {output};
  return cxxAsync<GlobalReduce>("global_reduce", team, nullptr, Params(scalars),
                                Operands(ins), Operands(outs), site, loc);
}

} // namespace distrt
