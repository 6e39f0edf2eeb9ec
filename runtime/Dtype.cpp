//===- Dtype.cpp - Element types --------------------------------*- C++ -*-===//

#include "Dtype.h"
#include "Error.h"
#include "Half.h"

#include <cstring>

namespace distrt::detail {

// MPI datatype handles are link-time constants (Open MPI) or integers
// (MPICH): this table needs no MPI call and is ready before main.
const DtypeInfo kDtypes[DISTRT_NUM_DTYPES] = {
    {"i1", 1, MPI_UINT8_T},    {"i8", 1, MPI_INT8_T},
    {"i16", 2, MPI_INT16_T},   {"i32", 4, MPI_INT32_T},
    {"i64", 8, MPI_INT64_T},   {"ui8", 1, MPI_UINT8_T},
    {"ui16", 2, MPI_UINT16_T}, {"ui32", 4, MPI_UINT32_T},
    {"ui64", 8, MPI_UINT64_T}, {"f16", 2, MPI_UINT16_T},
    {"bf16", 2, MPI_UINT16_T}, {"f32", 4, MPI_FLOAT},
    {"f64", 8, MPI_DOUBLE},
};

void raiseInvalidDtype(int32_t dtype) {
  raise("invalid element type {} (expected 0..{})", dtype,
        DISTRT_NUM_DTYPES - 1);
}

namespace {

enum class Kind { Bool, Signed, Unsigned, Float };

} // namespace

static Kind kindOf(int32_t dtype) {
  if (dtype == DISTRT_I1)
    return Kind::Bool;
  if (dtype <= DISTRT_I64)
    return Kind::Signed;
  return dtype <= DISTRT_UI64 ? Kind::Unsigned : Kind::Float;
}

template <class T> static T load(const std::byte *p) {
  T value;
  std::memcpy(&value, p, sizeof(T));
  return value;
}
template <class T> static void store(std::byte *p, T value) {
  std::memcpy(p, &value, sizeof(T));
}

/// An integer element as int64 (ui64 values past INT64_MAX wrap, and wrap
/// back when stored as ui64).
static int64_t loadInteger(const std::byte *p, int32_t dtype) {
  switch (dtype) {
  case DISTRT_I1:
  case DISTRT_UI8:
    return load<uint8_t>(p);
  case DISTRT_I8:
    return load<int8_t>(p);
  case DISTRT_I16:
    return load<int16_t>(p);
  case DISTRT_I32:
    return load<int32_t>(p);
  case DISTRT_UI16:
    return load<uint16_t>(p);
  case DISTRT_UI32:
    return load<uint32_t>(p);
  default:
    return load<int64_t>(p);
  }
}

static void storeInteger(std::byte *p, int32_t dtype, int64_t value) {
  switch (kDtypes[dtype].size) {
  case 1:
    return store(p, static_cast<uint8_t>(value));
  case 2:
    return store(p, static_cast<uint16_t>(value));
  case 4:
    return store(p, static_cast<uint32_t>(value));
  default:
    return store(p, value);
  }
}

static double loadFloat(const std::byte *p, int32_t dtype) {
  switch (dtype) {
  case DISTRT_F16:
    return halfToFloat(load<uint16_t>(p));
  case DISTRT_BF16:
    return bfloat16ToFloat(load<uint16_t>(p));
  case DISTRT_F32:
    return load<float>(p);
  default:
    return load<double>(p);
  }
}

static void storeFloat(std::byte *p, int32_t dtype, double value) {
  // Every source is f32 or narrower when the target is 16 or 32 bits wide,
  // so going through float rounds once.
  switch (dtype) {
  case DISTRT_F16:
    return store(p, floatToHalf(static_cast<float>(value)));
  case DISTRT_BF16:
    return store(p, floatToBfloat16(static_cast<float>(value)));
  case DISTRT_F32:
    return store(p, static_cast<float>(value));
  default:
    return store(p, value);
  }
}

bool promotes(int32_t from, int32_t to) {
  const Kind a = kindOf(from), b = kindOf(to);
  const bool sameKind = a == b || (a != Kind::Bool && b != Kind::Bool &&
                                   a != Kind::Float && b != Kind::Float);
  return sameKind && kDtypes[from].size <= kDtypes[to].size;
}

void convertDense(const std::byte *src, int32_t from, std::byte *dst,
                  int32_t to, int64_t count) {
  const size_t in = kDtypes[from].size, out = kDtypes[to].size;
  if (kindOf(from) == Kind::Float)
    for (int64_t i = 0; i < count; ++i)
      storeFloat(dst + i * out, to, loadFloat(src + i * in, from));
  else
    for (int64_t i = 0; i < count; ++i)
      storeInteger(dst + i * out, to, loadInteger(src + i * in, from));
}

} // namespace distrt::detail
