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

} // namespace distrt::detail

#endif // DISTRUNTIME_RUNTIME_DTYPE_H
