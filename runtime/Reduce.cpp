//===- Reduce.cpp - Reduction operators -------------------------*- C++ -*-===//
//
// MPI's built-in ops wherever MPI has them. i1 (one byte, 0 or 1) maps onto
// bitwise ops: sum is xor (addition modulo 2), prod, min and umin are and,
// max and umax are or. umin/umax of ui* are MPI_MIN/MPI_MAX. The rest are
// user-defined ops, commutative, created on first use:
//  - umin/umax of signless integers (compared as unsigned);
//  - IEEE 754-2019 minimum/maximum and minimumNumber/maximumNumber of floats,
//    which MPI_MIN/MPI_MAX do not implement for NaN and signed zeros;
//  - every reduction of f16 and bf16, which MPI has no type for: they travel
//    as MPI_UINT16_T and compute in float, rounding back to nearest even.
//
//===----------------------------------------------------------------------===//

#include "Reduce.h"
#include "Dtype.h"
#include "Environment.h"
#include "Error.h"
#include "Half.h"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <type_traits>

namespace distrt::detail {

const char *redopName(int32_t redop) {
  static const char *names[DISTRT_NUM_REDOPS] = {
      "sum",  "prod", "min",     "max",     "and",    "or",    "xor",
      "umin", "umax", "minimum", "maximum", "minnum", "maxnum"};
  return names[redop];
}

namespace {

struct Sum {
  template <class T> T operator()(T a, T b) const { return a + b; }
};
struct Prod {
  template <class T> T operator()(T a, T b) const { return a * b; }
};
struct Min {
  template <class T> T operator()(T a, T b) const { return b < a ? b : a; }
};
struct Max {
  template <class T> T operator()(T a, T b) const { return b > a ? b : a; }
};
/// The unsigned minimum (`Larger` false) or maximum of signless integers.
template <bool Larger> struct UnsignedMinMax {
  template <class T> T operator()(T a, T b) const {
    using U = std::make_unsigned_t<T>;
    const U x = static_cast<U>(a), y = static_cast<U>(b);
    return (Larger ? y > x : y < x) ? b : a;
  }
};
using UMin = UnsignedMinMax<false>;
using UMax = UnsignedMinMax<true>;

/// IEEE 754-2019 minimum (`Larger` false) or maximum: a NaN operand gives
/// NaN. Equal operands are both zeros of either sign, or the same value:
/// the negative one is the smaller.
template <bool Larger> struct IeeeMinMax {
  template <class T> T operator()(T a, T b) const {
    if (std::isnan(a) || std::isnan(b))
      return a + b;
    if (a == b)
      return std::signbit(a) != Larger ? a : b;
    return (Larger ? a > b : a < b) ? a : b;
  }
};
using Minimum = IeeeMinMax<false>;
using Maximum = IeeeMinMax<true>;

/// minimumNumber / maximumNumber: a NaN operand gives the other one.
template <class MinMax> struct NumberMinMax {
  template <class T> T operator()(T a, T b) const {
    if (std::isnan(a))
      return b;
    return std::isnan(b) ? a : MinMax()(a, b);
  }
};
using MinNum = NumberMinMax<Minimum>;
using MaxNum = NumberMinMax<Maximum>;

} // namespace

template <class T, class Op>
static void apply(void *in, void *inout, int *length, MPI_Datatype *) {
  const auto *a = static_cast<const T *>(in);
  auto *b = static_cast<T *>(inout);
  for (int i = 0; i < *length; ++i)
    b[i] = Op()(a[i], b[i]);
}

template <float (*ToFloat)(uint16_t), uint16_t (*FromFloat)(float), class Op>
static void applyHalf(void *in, void *inout, int *length, MPI_Datatype *) {
  const auto *a = static_cast<const uint16_t *>(in);
  auto *b = static_cast<uint16_t *>(inout);
  for (int i = 0; i < *length; ++i)
    b[i] = FromFloat(Op()(ToFloat(a[i]), ToFloat(b[i])));
}

/// `Op` on every floating-point type (f16, bf16, f32, f64).
template <class Op> static MPI_User_function *floatFunction(int32_t dtype) {
  static MPI_User_function *const kByType[] = {
      applyHalf<halfToFloat, floatToHalf, Op>,
      applyHalf<bfloat16ToFloat, floatToBfloat16, Op>, apply<float, Op>,
      apply<double, Op>};
  return dtype >= DISTRT_F16 ? kByType[dtype - DISTRT_F16] : nullptr;
}

/// `Op` on the signless integers wider than i1.
template <class Op> static MPI_User_function *integerFunction(int32_t dtype) {
  static MPI_User_function *const kByType[] = {
      apply<int8_t, Op>, apply<int16_t, Op>, apply<int32_t, Op>,
      apply<int64_t, Op>};
  return dtype >= DISTRT_I8 && dtype <= DISTRT_I64 ? kByType[dtype - DISTRT_I8]
                                                   : nullptr;
}

/// `Op` on f16 and bf16 only (MPI has it for the other types).
template <class Op> static MPI_User_function *halfFunction(int32_t dtype) {
  return dtype == DISTRT_F16 || dtype == DISTRT_BF16 ? floatFunction<Op>(dtype)
                                                     : nullptr;
}

/// The function of a user-defined op, null if (redop, dtype) is undefined.
static MPI_User_function *userFunction(int32_t redop, int32_t dtype) {
  using Maker = MPI_User_function *(*)(int32_t);
  // By distrt_redop_t; and, or and xor are MPI's on every type they have.
  static constexpr Maker kByRedop[] = {halfFunction<Sum>,
                                       halfFunction<Prod>,
                                       halfFunction<Min>,
                                       halfFunction<Max>,
                                       nullptr,
                                       nullptr,
                                       nullptr,
                                       integerFunction<UMin>,
                                       integerFunction<UMax>,
                                       floatFunction<Minimum>,
                                       floatFunction<Maximum>,
                                       floatFunction<MinNum>,
                                       floatFunction<MaxNum>};
  static_assert(std::size(kByRedop) == DISTRT_NUM_REDOPS);
  const Maker make = kByRedop[redop];
  return make ? make(dtype) : nullptr;
}

namespace {

/// The user-defined ops made so far. Zero-initialized (no constructor runs):
/// `made` says which entries of `ops` hold an op.
struct UserOps {
  MPI_Op ops[DISTRT_NUM_DTYPES][DISTRT_NUM_REDOPS];
  bool made[DISTRT_NUM_DTYPES][DISTRT_NUM_REDOPS];
  /// exactPairs(): the op and its datatype.
  MPI_Op pairOp;
  MPI_Datatype pairType;
  bool pairMade;
};
UserOps gUserOps;

} // namespace

// MPI op handles are link-time constants (Open MPI) or integers (MPICH):
// the table needs no MPI call. Built on first use, so that it is ready
// whenever a reduction runs, static initialization order notwithstanding.
const OpTable &builtinOps() {
  static const OpTable table = [] {
    OpTable t;
    for (auto &row : t)
      row.fill(MPI_OP_NULL);
    const MPI_Op common[] = {MPI_SUM,  MPI_PROD, MPI_MIN, MPI_MAX,
                             MPI_BAND, MPI_BOR,  MPI_BXOR};
    for (int32_t d = DISTRT_I8; d <= DISTRT_UI64; ++d)
      std::ranges::copy(common, t[d].begin());
    for (int32_t d = DISTRT_UI8; d <= DISTRT_UI64; ++d) {
      t[d][DISTRT_UMIN] = MPI_MIN;
      t[d][DISTRT_UMAX] = MPI_MAX;
    }
    for (int32_t d : {DISTRT_F32, DISTRT_F64})
      std::copy(common, common + 4, t[d].begin()); // sum, prod, min, max
    auto &i1 = t[DISTRT_I1];
    i1[DISTRT_SUM] = i1[DISTRT_XOR] = MPI_BXOR;
    i1[DISTRT_PROD] = i1[DISTRT_MIN] = i1[DISTRT_AND] = i1[DISTRT_UMIN] =
        MPI_BAND;
    i1[DISTRT_MAX] = i1[DISTRT_OR] = i1[DISTRT_UMAX] = MPI_BOR;
    return t;
  }();
  return table;
}

MPI_Op userReductionOp(int32_t redop, int32_t dtype) {
  MPI_Op &op = gUserOps.ops[dtype][redop];
  bool &made = gUserOps.made[dtype][redop];
  if (!made) {
    MPI_User_function *function = userFunction(redop, dtype);
    if (!function)
      raiseReduction(redop, dtype);
    checkMpi(MPI_Op_create(function, /*commute=*/1, &op), "MPI_Op_create");
    made = true;
  }
  return op;
}

ExactPairs exactPairs() {
  UserOps &u = gUserOps;
  if (!u.pairMade) {
    checkMpi(MPI_Type_contiguous(2, MPI_DOUBLE, &u.pairType),
             "MPI_Type_contiguous");
    checkMpi(MPI_Type_commit(&u.pairType), "MPI_Type_commit");
    checkMpi(MPI_Op_create(addExactPairs, /*commute=*/1, &u.pairOp),
             "MPI_Op_create");
    u.pairMade = true;
  }
  return {u.pairOp, u.pairType};
}

void raiseReduction(int32_t redop, int32_t dtype) {
  if (redop < 0 || redop >= DISTRT_NUM_REDOPS)
    raise("invalid reduction {} (expected 0..{})", redop,
          DISTRT_NUM_REDOPS - 1);
  const DtypeInfo &info = dtypeInfo(dtype);
  if (dtype >= DISTRT_F16)
    raise("reduction '{}' is not defined on floating-point type {}",
          redopName(redop), info.name);
  if (redop >= DISTRT_MINIMUM)
    raise("reduction '{}' needs a floating-point type, got {}",
          redopName(redop), info.name);
  raise("reduction '{}' is not defined on {}", redopName(redop), info.name);
}

/// Frees the user-defined ops (at teardown).
static void freeReductionOps() noexcept {
  for (int32_t d = 0; d < DISTRT_NUM_DTYPES; ++d)
    for (int32_t r = 0; r < DISTRT_NUM_REDOPS; ++r)
      if (gUserOps.made[d][r]) {
        MPI_Op_free(&gUserOps.ops[d][r]);
        gUserOps.made[d][r] = false;
      }
  if (gUserOps.pairMade) {
    MPI_Op_free(&gUserOps.pairOp);
    MPI_Type_free(&gUserOps.pairType);
    gUserOps.pairMade = false;
  }
}

[[maybe_unused]] static const bool kHooked =
    addRuntimeHooks(RuntimeStage::kReductions, {.release = freeReductionOps});

/// inout += in, elementwise; integers as their unsigned type (wrapping).
template <class T>
static void sumInto(const void *in, void *inout, int64_t count) {
  const T *__restrict from = static_cast<const T *>(in);
  T *__restrict to = static_cast<T *>(inout);
  for (int64_t i = 0; i < count; ++i)
    to[i] = static_cast<T>(from[i] + to[i]);
}

void reduceLocal(const void *in, void *inout, int64_t count, MPI_Datatype type,
                 MPI_Op op) {
  if (op == MPI_SUM) {
    if (type == MPI_DOUBLE)
      return sumInto<double>(in, inout, count);
    if (type == MPI_FLOAT)
      return sumInto<float>(in, inout, count);
    if (type == MPI_INT32_T || type == MPI_UINT32_T)
      return sumInto<uint32_t>(in, inout, count);
    if (type == MPI_INT64_T || type == MPI_UINT64_T)
      return sumInto<uint64_t>(in, inout, count);
  }
  checkMpi(MPI_Reduce_local(in, inout, static_cast<int>(count), type, op),
           "MPI_Reduce_local");
}

} // namespace distrt::detail
