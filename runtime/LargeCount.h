//===- LargeCount.h - Messages past MPI's int count -------------*- C++ -*-===//
//
// MPI counts are ints. The byte-counting ops (all_gather, all_to_all,
// collective_broadcast, collective_permute, send/recv) describe a message
// of more than gMaxCount bytes as one element of a derived datatype of
// exactly that many bytes (wideBytesType), so the count fits; their paths
// at or under gMaxCount are the ones they always had, with MPI_BYTE. The
// reductions cannot use such a type with MPI's predefined ops: all_reduce
// splits an operand of more than gMaxCount elements into several calls of
// at most gMaxCount elements each, reduce_scatter into rooted reductions
// (ops/ReduceScatter.cpp says why).
//
// With MPI 4.0's large-count functions (MPI_Allreduce_c ... taking an
// MPI_Count: MPICH 4; Open MPI 4.1 and SimGrid's SMPI are MPI 3.1 and have
// none) a reduction past gMaxCount elements is one call of the whole count
// instead. Whether the MPI has them is found when configuring (a program
// calling all four is compiled and linked: runtime/CMakeLists.txt), not
// assumed from MPI_VERSION, and passed as DISTRT_MPI_LARGE_COUNT.
//
//===----------------------------------------------------------------------===//

#ifndef DISTRUNTIME_RUNTIME_LARGECOUNT_H
#define DISTRUNTIME_RUNTIME_LARGECOUNT_H

#include "Request.h"

#include <mpi.h>

#include <climits>
#include <cstddef>
#include <cstdint>

namespace distrt::detail {

/// The largest count the runtime hands to one MPI call: INT_MAX.
///
/// TEST ONLY: DISTRT_TEST_MAX_COUNT=<n> in the environment (read once, at
/// initialization) lowers it, so that small buffers take the paths of
/// messages past INT_MAX (wide datatypes, chunked reductions). Production
/// code never sets it; it exists for tests/Runtime/LargeCountTest.cpp.
inline int gMaxCount = INT_MAX;

#ifndef DISTRT_MPI_LARGE_COUNT
#error "DISTRT_MPI_LARGE_COUNT is set by runtime/CMakeLists.txt"
#endif

/// The most elements one reduction call of the runtime takes: any count
/// with the large-count functions, else gMaxCount (longer operands are
/// split, or rooted: ops/ReduceScatter.cpp).
inline int64_t maxReduceCount() {
  return DISTRT_MPI_LARGE_COUNT ? INT64_MAX : gMaxCount;
}

/// MPI_Allreduce and friends of `count` elements: past gMaxCount (only
/// with the large-count functions, see maxReduceCount()) their _c form.
inline int allreduceCount(const void *send, void *recv, int64_t count,
                          MPI_Datatype type, MPI_Op op, MPI_Comm comm) {
#if DISTRT_MPI_LARGE_COUNT
  if (count > gMaxCount)
    return MPI_Allreduce_c(send, recv, count, type, op, comm);
#endif
  return MPI_Allreduce(send, recv, static_cast<int>(count), type, op, comm);
}
inline int iallreduceCount(const void *send, void *recv, int64_t count,
                           MPI_Datatype type, MPI_Op op, MPI_Comm comm,
                           MPI_Request *request) {
#if DISTRT_MPI_LARGE_COUNT
  if (count > gMaxCount)
    return MPI_Iallreduce_c(send, recv, count, type, op, comm, request);
#endif
  return MPI_Iallreduce(send, recv, static_cast<int>(count), type, op, comm,
                        request);
}
/// reduce_scatter: `count` elements per member, `total` in all (a count
/// MPI may compute internally, so it decides too).
inline int reduceScatterBlockCount(const void *send, void *recv, int64_t count,
                                   int64_t total, MPI_Datatype type, MPI_Op op,
                                   MPI_Comm comm) {
#if DISTRT_MPI_LARGE_COUNT
  if (total > gMaxCount)
    return MPI_Reduce_scatter_block_c(send, recv, count, type, op, comm);
#endif
  return MPI_Reduce_scatter_block(send, recv, static_cast<int>(count), type, op,
                                  comm);
}
inline int ireduceScatterBlockCount(const void *send, void *recv, int64_t count,
                                    int64_t total, MPI_Datatype type, MPI_Op op,
                                    MPI_Comm comm, MPI_Request *request) {
#if DISTRT_MPI_LARGE_COUNT
  if (total > gMaxCount)
    return MPI_Ireduce_scatter_block_c(send, recv, count, type, op, comm,
                                       request);
#endif
  return MPI_Ireduce_scatter_block(send, recv, static_cast<int>(count), type,
                                   op, comm, request);
}

/// A committed datatype of `bytes` contiguous bytes (extent `bytes`), for
/// messages longer than gMaxCount: q chunks of min(1 MiB, gMaxCount) bytes
/// (MPI_Type_contiguous twice) and the r bytes left (MPI_Type_create_struct).
/// One type per distinct size, made on first use and kept until teardown:
/// plans hold it.
MPI_Datatype wideBytesType(size_t bytes);

/// A byte count as an MPI (count, datatype).
struct ByteSpan {
  int count;
  MPI_Datatype type;
  /// One element of a wide type rather than `count` bytes.
  bool wide() const { return type != MPI_BYTE; }
};

/// `bytes` bytes as MPI is given them: (bytes, MPI_BYTE) up to gMaxCount,
/// else (1, wideBytesType(bytes)).
inline ByteSpan byteSpan(size_t bytes) {
  if (bytes <= static_cast<size_t>(gMaxCount)) [[likely]]
    return {static_cast<int>(bytes), MPI_BYTE};
  return {1, wideBytesType(bytes)};
}

/// checkBlockingReceive() of a receive of `span`: the same errors, for
/// wide spans too.
inline void checkSpanReceive(const char *op, int code, const MPI_Status &status,
                             ByteSpan span, int peer, const char *what) {
  if (!span.wide())
    return checkBlockingReceive(op, code, status, span.count, peer, what);
  int received = 0;
  if (code == MPI_SUCCESS &&
      MPI_Get_count(&status, span.type, &received) == MPI_SUCCESS &&
      received == span.count)
    return;
  failBlockingReceive(op, {0, span.count, peer, span.type, what}, code, status);
}

} // namespace distrt::detail

#endif // DISTRUNTIME_RUNTIME_LARGECOUNT_H
