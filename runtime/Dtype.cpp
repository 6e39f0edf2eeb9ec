//===- Dtype.cpp - Element types --------------------------------*- C++ -*-===//

#include "Dtype.h"
#include "Error.h"

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

} // namespace distrt::detail
