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

template <class T> static int64_t loadAs(const std::byte *p) {
  return static_cast<int64_t>(load<T>(p));
}
template <class T> static void storeAs(std::byte *p, int64_t value) {
  store(p, static_cast<T>(value));
}

/// An integer element as int64 (ui64 values past INT64_MAX wrap, and wrap
/// back when stored as ui64), by distrt_dtype_t.
static int64_t loadInteger(const std::byte *p, int32_t dtype) {
  static int64_t (*const kByType[])(const std::byte *) = {
      loadAs<uint8_t>,  loadAs<int8_t>,   loadAs<int16_t>,
      loadAs<int32_t>,  loadAs<int64_t>,  loadAs<uint8_t>,
      loadAs<uint16_t>, loadAs<uint32_t>, loadAs<uint64_t>};
  return kByType[dtype](p);
}

static void storeInteger(std::byte *p, int32_t dtype, int64_t value) {
  static void (*const kByType[])(std::byte *, int64_t) = {
      storeAs<uint8_t>,  storeAs<int8_t>,   storeAs<int16_t>,
      storeAs<int32_t>,  storeAs<int64_t>,  storeAs<uint8_t>,
      storeAs<uint16_t>, storeAs<uint32_t>, storeAs<uint64_t>};
  kByType[dtype](p, value);
}

static double loadFloat(const std::byte *p, int32_t dtype) {
  if (dtype == DISTRT_F16 || dtype == DISTRT_BF16) {
    const uint16_t bits = load<uint16_t>(p);
    return dtype == DISTRT_F16 ? halfToFloat(bits) : bfloat16ToFloat(bits);
  }
  return dtype == DISTRT_F32 ? load<float>(p) : load<double>(p);
}

static void storeFloat(std::byte *p, int32_t dtype, double value) {
  // Every source is f32 or narrower when the target is 16 or 32 bits wide,
  // so going through float rounds once.
  const auto single = static_cast<float>(value);
  if (dtype == DISTRT_F16 || dtype == DISTRT_BF16)
    return store(p, dtype == DISTRT_F16 ? floatToHalf(single)
                                        : floatToBfloat16(single));
  if (dtype == DISTRT_F32)
    return store(p, single);
  store(p, value);
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
