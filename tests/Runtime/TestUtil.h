//===- TestUtil.h - Helpers for the runtime tests ---------------*- C++ -*-===//

#ifndef DISTRUNTIME_TESTS_RUNTIME_TESTUTIL_H
#define DISTRUNTIME_TESTS_RUNTIME_TESTUTIL_H

#include "distruntime/Runtime/distrt.hpp"

#include "Half.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <mpi.h>

#include <cstdint>
#include <cstring>
#include <string>

namespace distrt::test {

inline int worldRank() {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank;
}

inline int worldSize() {
  int size = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  return size;
}

inline const char *dtypeName(Dtype dtype) {
  static const char *names[] = {"i1",   "i8",   "i16",  "i32",  "i64",
                                "ui8",  "ui16", "ui32", "ui64", "f16",
                                "bf16", "f32",  "f64"};
  return names[static_cast<int>(dtype)];
}

inline size_t dtypeSize(Dtype dtype) {
  switch (dtype) {
  case Dtype::I1:
  case Dtype::I8:
  case Dtype::UI8:
    return 1;
  case Dtype::I16:
  case Dtype::UI16:
  case Dtype::F16:
  case Dtype::BF16:
    return 2;
  case Dtype::I32:
  case Dtype::UI32:
  case Dtype::F32:
    return 4;
  default:
    return 8;
  }
}

inline bool isFloat(Dtype dtype) {
  return dtype == Dtype::F16 || dtype == Dtype::BF16 || dtype == Dtype::F32 ||
         dtype == Dtype::F64;
}

inline bool isSigned(Dtype dtype) {
  return dtype == Dtype::I8 || dtype == Dtype::I16 || dtype == Dtype::I32 ||
         dtype == Dtype::I64 || isFloat(dtype);
}

/// Stores the integer `value` (exactly representable) as a `dtype` element.
inline void store(Dtype dtype, void *p, int64_t value) {
  auto put = [p](auto v) { std::memcpy(p, &v, sizeof v); };
  switch (dtype) {
  case Dtype::I1:
    return put(static_cast<uint8_t>(value != 0));
  case Dtype::I8:
    return put(static_cast<int8_t>(value));
  case Dtype::I16:
    return put(static_cast<int16_t>(value));
  case Dtype::I32:
    return put(static_cast<int32_t>(value));
  case Dtype::I64:
    return put(static_cast<int64_t>(value));
  case Dtype::UI8:
    return put(static_cast<uint8_t>(value));
  case Dtype::UI16:
    return put(static_cast<uint16_t>(value));
  case Dtype::UI32:
    return put(static_cast<uint32_t>(value));
  case Dtype::UI64:
    return put(static_cast<uint64_t>(value));
  case Dtype::F16:
    return put(detail::floatToHalf(static_cast<float>(value)));
  case Dtype::BF16:
    return put(detail::floatToBfloat16(static_cast<float>(value)));
  case Dtype::F32:
    return put(static_cast<float>(value));
  case Dtype::F64:
    return put(static_cast<double>(value));
  }
}

/// Reads a `dtype` element as a double (exact for the tests' values).
inline double load(Dtype dtype, const void *p) {
  auto get = [p](auto v) {
    std::memcpy(&v, p, sizeof v);
    return v;
  };
  switch (dtype) {
  case Dtype::I1:
  case Dtype::UI8:
    return get(uint8_t{});
  case Dtype::I8:
    return get(int8_t{});
  case Dtype::I16:
    return get(int16_t{});
  case Dtype::I32:
    return get(int32_t{});
  case Dtype::I64:
    return static_cast<double>(get(int64_t{}));
  case Dtype::UI16:
    return get(uint16_t{});
  case Dtype::UI32:
    return get(uint32_t{});
  case Dtype::UI64:
    return static_cast<double>(get(uint64_t{}));
  case Dtype::F16:
    return detail::halfToFloat(get(uint16_t{}));
  case Dtype::BF16:
    return detail::bfloat16ToFloat(get(uint16_t{}));
  case Dtype::F32:
    return get(float{});
  case Dtype::F64:
    return get(double{});
  }
  return 0;
}

/// Checked mode for the scope of a test, off again even if it throws.
struct CheckedScope {
  CheckedScope() { setChecked(true); }
  ~CheckedScope() { setChecked(false); }
  CheckedScope(const CheckedScope &) = delete;
  CheckedScope &operator=(const CheckedScope &) = delete;
};

} // namespace distrt::test

#endif // DISTRUNTIME_TESTS_RUNTIME_TESTUTIL_H
