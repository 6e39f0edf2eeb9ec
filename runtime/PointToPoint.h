//===- PointToPoint.h - send/recv channel state -----------------*- C++ -*-===//
//
// Per team: the buffered (sync) sends still in flight and the host-transfer
// queues, one FIFO per channel.
//
//===----------------------------------------------------------------------===//

#ifndef DISTRUNTIME_RUNTIME_POINTTOPOINT_H
#define DISTRUNTIME_RUNTIME_POINTTOPOINT_H

#include "Team.h"

#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <deque>
#include <unordered_map>
#include <vector>

namespace distrt::detail {

/// A sync send: a private copy of the inputs in flight to the target.
struct BufferedSend {
  MPI_Request request = MPI_REQUEST_NULL;
  std::vector<std::byte> data;
};

/// One host-transfer send: the operands' element types, shapes and bytes.
struct HostMessage {
  struct Part {
    int32_t dtype;
    std::vector<int64_t> sizes;
    size_t offset, bytes;
  };
  std::vector<Part> parts;
  std::vector<std::byte> data;
};

struct ChannelState {
  std::vector<BufferedSend> inFlight;
  /// Buffers of completed sends, reused by the next ones.
  std::vector<std::vector<std::byte>> spare;
  std::unordered_map<int64_t, std::deque<HostMessage>> hostQueues;
};

/// Completes what can complete of the buffered sends and drops the queues
/// (at teardown or unregistration).
void freeChannels(TeamState &team) noexcept;

} // namespace distrt::detail

#endif // DISTRUNTIME_RUNTIME_POINTTOPOINT_H
