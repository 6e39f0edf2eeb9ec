/*===- distrt.h - C ABI of the distruntime runtime library ------*- C -*-===*\
|*                                                                          *|
|* The one declaration of every symbol that lowered distruntime IR calls.   *|
|* lowering/RuntimeAPI.cpp mirrors this file; tests/Runtime/AbiTest checks  *|
|* that both agree with the built library.                                  *|
|*                                                                          *|
|* Conventions:                                                             *|
|*  - Memrefs travel as MLIR's unranked memref: (int64_t rank, void *desc), *|
|*    desc pointing to {allocated, aligned, offset, sizes[rank],            *|
|*    strides[rank]}. Any rank and any strides are accepted.                *|
|*  - Element types travel as distrt_dtype_t, reductions as distrt_redop_t. *|
|*  - Every entry point takes `loc`, the op's source location, so that a    *|
|*    run-time error names the .mlir file and line.                         *|
|*  - No entry point returns on error: it prints one line                   *|
|*    "distrt: error: <op> at <loc>: team <t>, rank <r>: <message>"         *|
|*    to stderr and aborts the job. No exception crosses this ABI.          *|
|*  - Async handles are opaque 64-bit ids (slot and generation), never      *|
|*    pointers, so a stale or twice-waited handle is detected, not UB.      *|
\*===----------------------------------------------------------------------===*/

#ifndef DISTRUNTIME_RUNTIME_DISTRT_H
#define DISTRUNTIME_RUNTIME_DISTRT_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Element types. Values are part of the ABI (the lowering emits them).
typedef enum distrt_dtype {
  DISTRT_I1 = 0,
  DISTRT_I8 = 1,
  DISTRT_I16 = 2,
  DISTRT_I32 = 3,
  DISTRT_I64 = 4,
  DISTRT_UI8 = 5,
  DISTRT_UI16 = 6,
  DISTRT_UI32 = 7,
  DISTRT_UI64 = 8,
  DISTRT_F16 = 9,
  DISTRT_BF16 = 10,
  DISTRT_F32 = 11,
  DISTRT_F64 = 12,
  DISTRT_NUM_DTYPES = 13
} distrt_dtype_t;

/// Reductions. Values are part of the ABI and equal the dialect's
/// ReductionKind enum values. On i1, sum is xor (addition modulo 2), prod and
/// min are `and`, max is `or`.
typedef enum distrt_redop {
  DISTRT_SUM = 0,
  DISTRT_PROD = 1,
  DISTRT_MIN = 2,
  DISTRT_MAX = 3,
  DISTRT_AND = 4,
  DISTRT_OR = 5,
  DISTRT_XOR = 6,
  DISTRT_NUM_REDOPS = 7
} distrt_redop_t;

/// An async handle: 0 is never a valid handle.
typedef int64_t distrt_handle_t;

/// Basic queries. Team 0 is the world (a dup of MPI_COMM_WORLD).
int64_t distrt_team_size(int64_t team, const char *loc);
int64_t distrt_team_member(int64_t team, const char *loc);

/// In-place allreduce of `data` over `team`. With `async` non-zero, returns a
/// handle to pass to distrt_wait; otherwise completes before returning 0.
distrt_handle_t distrt_allreduce(int64_t team, int32_t op, int32_t dtype,
                                 int64_t rank, void *data, int32_t async,
                                 const char *loc);

/// Fills `left` and `right` with the rows of the bounding box before and
/// after the locally owned rows (distribution along dimension 0).
/// `geometry` is a 1-D i64 memref of 4*r values: gShape, lOffsets, bbOffsets,
/// bbSizes, r = rank(local). The halos are allocated by the caller with the
/// shapes computed in IR; the runtime checks them. `key` < 0 means no
/// caching. Always async.
distrt_handle_t distrt_get_halo(int64_t team, int64_t key, int32_t dtype,
                                int64_t local_rank, void *local,
                                int64_t geometry_rank, void *geometry,
                                int64_t left_rank, void *left,
                                int64_t right_rank, void *right,
                                const char *loc);

/// Completes an async operation. Each handle is waited exactly once.
void distrt_wait(distrt_handle_t handle, const char *loc);

/// Host API: initialize explicitly (optional; the first call initializes MPI
/// lazily if needed) and finalize what distrt initialized.
void distrt_init(void);
void distrt_finalize(void);

#ifdef __cplusplus
}
#endif

#endif /* DISTRUNTIME_RUNTIME_DISTRT_H */
