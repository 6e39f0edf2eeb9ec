//===- Allreduce.cpp - In-place allreduce -----------------------*- C++ -*-===//
//
// A contiguous memref is reduced in place with MPI_IN_PLACE, no copy. A
// strided one is packed into the request's staging buffer, reduced there and
// unpacked into the memref at completion.
//
//===----------------------------------------------------------------------===//

#include "Dtype.h"
#include "Error.h"
#include "Memref.h"
#include "Operations.h"
#include "Reduce.h"
#include "Request.h"
#include "Team.h"

#include <climits>

namespace distrt::detail {

distrt_handle_t allreduce(int64_t teamId, int32_t redop, int32_t dtype,
                          const MemrefView &data, bool async,
                          const SourceLoc &loc) {
  return guarded("allreduce", teamId, loc, [&]() -> distrt_handle_t {
    TeamState &team = lookupTeam(teamId);
    const DtypeInfo &type = dtypeInfo(dtype);
    const MPI_Op op = reductionOp(redop, dtype);
    const int64_t count = numElements(data);
    if (count > INT_MAX)
      raise("{} elements exceed MPI's int count", count);
    const StridedBytes bytes = stridedBytes(data, type.size);
    const bool dense = isContiguous(data);

    if (!async) {
      if (count == 0)
        return 0;
      if (dense) {
        checkMpi(MPI_Allreduce(MPI_IN_PLACE, bytes.base,
                               static_cast<int>(count), type.mpi, op,
                               team.comm),
                 "MPI_Allreduce");
        return 0;
      }
    }

    distrt_handle_t handle = 0;
    RequestSlot &slot = acquireRequest("allreduce", teamId, handle);
    try {
      if (count == 0)
        return handle;
      void *buffer = bytes.base;
      if (!dense) {
        const size_t size = static_cast<size_t>(count) * type.size;
        if (slot.staging.size() < size)
          slot.staging.resize(size);
        pack(bytes, slot.staging.data());
        buffer = slot.staging.data();
        slot.addUnpack(0, bytes.base, data.rank, data.sizes, data.strides,
                       type.size);
      }
      slot.requests.push_back(MPI_REQUEST_NULL);
      checkMpi(MPI_Iallreduce(MPI_IN_PLACE, buffer, static_cast<int>(count),
                              type.mpi, op, team.comm, &slot.requests.back()),
               "MPI_Iallreduce");
    } catch (...) {
      releaseRequest(handle, slot.requests.empty());
      throw;
    }
    settleRequest(slot);
    if (!async) {
      waitRequest(handle);
      return 0;
    }
    return handle;
  });
}

} // namespace distrt::detail

namespace distrt {

void allreduce(const Team &team, RedOp op, Dtype dtype, const MemrefView &data,
               SourceLoc loc) {
  detail::allreduce(team.id(), static_cast<int32_t>(op),
                    static_cast<int32_t>(dtype), data, /*async=*/false, loc);
}

Request allreduceAsync(const Team &team, RedOp op, Dtype dtype,
                       const MemrefView &data, SourceLoc loc) {
  return Request(detail::allreduce(team.id(), static_cast<int32_t>(op),
                                   static_cast<int32_t>(dtype), data,
                                   /*async=*/true, loc));
}

} // namespace distrt
