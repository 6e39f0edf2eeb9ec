//===- ElementAccess.h - Elements of the local folds ------------*- C++ -*-===//
//
// The runtime's own reductions (Reproducible.h, ops/GlobalReduce.cpp) read
// and write elements through an access type E: E::Stored is what memory
// holds, E::Value what arithmetic runs in. f16 and bf16 compute in float
// and round back at every store, which for one addition or multiplication
// of two of them is the correctly rounded result.
//
//===----------------------------------------------------------------------===//

#ifndef DISTRUNTIME_RUNTIME_ELEMENTACCESS_H
#define DISTRUNTIME_RUNTIME_ELEMENTACCESS_H

#include "ExactSum.h"
#include "Half.h"

#include "distruntime/Runtime/distrt.h"

#include <cstdint>

namespace distrt::detail {

template <class T> struct Plain {
  using Stored = T;
  using Value = T;
  static T load(const T *p) { return *p; }
  static void store(T *p, T v) { *p = v; }
};
template <float (*ToFloat)(uint16_t), uint16_t (*FromFloat)(float)>
struct Narrow {
  using Stored = uint16_t;
  using Value = float;
  static float load(const uint16_t *p) { return ToFloat(*p); }
  static void store(uint16_t *p, float v) { *p = FromFloat(v); }
};
using HalfAccess = Narrow<halfToFloat, floatToHalf>;
using BFloatAccess = Narrow<bfloat16ToFloat, floatToBfloat16>;

/// Calls f.template operator()<E>(format) for float `dtype`'s access.
template <class F> void byFloatType(int32_t dtype, F &&f) {
  switch (dtype) {
  case DISTRT_F16:
    return f.template operator()<HalfAccess>(kF16Format);
  case DISTRT_BF16:
    return f.template operator()<BFloatAccess>(kBF16Format);
  case DISTRT_F32:
    return f.template operator()<Plain<float>>(kF32Format);
  default:
    return f.template operator()<Plain<double>>(kF64Format);
  }
}

/// Calls f.template operator()<E>() for `dtype`'s access (not i1).
template <class F> void byType(int32_t dtype, F &&f) {
  switch (dtype) {
  case DISTRT_I8:
    return f.template operator()<Plain<int8_t>>();
  case DISTRT_I16:
    return f.template operator()<Plain<int16_t>>();
  case DISTRT_I32:
    return f.template operator()<Plain<int32_t>>();
  case DISTRT_I64:
    return f.template operator()<Plain<int64_t>>();
  case DISTRT_UI8:
    return f.template operator()<Plain<uint8_t>>();
  case DISTRT_UI16:
    return f.template operator()<Plain<uint16_t>>();
  case DISTRT_UI32:
    return f.template operator()<Plain<uint32_t>>();
  case DISTRT_UI64:
    return f.template operator()<Plain<uint64_t>>();
  default:
    return byFloatType(
        dtype, [&]<class E>(FloatFormat) { f.template operator()<E>(); });
  }
}

} // namespace distrt::detail

#endif // DISTRUNTIME_RUNTIME_ELEMENTACCESS_H
