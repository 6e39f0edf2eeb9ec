//===- Dtype.h - Element types ----------------------------------*- C++ -*-===//

#ifndef DISTRUNTIME_RUNTIME_DTYPE_H
#define DISTRUNTIME_RUNTIME_DTYPE_H

#include "distruntime/Runtime/distrt.h"

#include <mpi.h>

#include <cstddef>
#include <cstdint>

namespace distrt::detail {

struct DtypeInfo {
  const char *name;
  /// Bytes per element in memory (i1 is stored as one byte).
  size_t size;
  /// The MPI type that moves it; f16 and bf16 travel as MPI_UINT16_T.
  MPI_Datatype mpi;
};

/// Indexed by distrt_dtype_t.
extern const DtypeInfo kDtypes[DISTRT_NUM_DTYPES];

[[noreturn]] void raiseInvalidDtype(int32_t dtype);

/// The info of a distrt_dtype_t value; throws Failure for an invalid one.
inline const DtypeInfo &dtypeInfo(int32_t dtype) {
  if (dtype < 0 || dtype >= DISTRT_NUM_DTYPES) [[unlikely]]
    raiseInvalidDtype(dtype);
  return kDtypes[dtype];
}

/// StableHLO's is_promotable(from, to) for a reduction's element type: the
/// same kind (i1 to i1 only; integers to integers, floats to floats) and a
/// bit width no larger. Both arguments are valid distrt_dtype_t values.
bool promotes(int32_t from, int32_t to);

/// Converts `count` dense elements of type `from` at `src` to type `to` at
/// `dst` (promotes(from, to) holds): integers keep their value (signless
/// sign-extend, ui* zero-extend), floats round to nearest even.
void convertDense(const std::byte *src, int32_t from, std::byte *dst,
                  int32_t to, int64_t count);

} // namespace distrt::detail

#endif // DISTRUNTIME_RUNTIME_DTYPE_H
