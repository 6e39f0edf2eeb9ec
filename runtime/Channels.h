//===- Channels.h - Point-to-point plumbing ---------------------*- C++ -*-===//
//
// Per team: the buffered (sync) sends still in flight and the host-transfer
// queues, one FIFO per channel, with the async receives waiting for them.
//
//===----------------------------------------------------------------------===//

#ifndef DISTRUNTIME_RUNTIME_CHANNELS_H
#define DISTRUNTIME_RUNTIME_CHANNELS_H

#include "Operands.h"
#include "Team.h"

#include "distruntime/Runtime/distrt.h"

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

/// An async host-transfer recv posted while its channel's queue was empty:
/// the next send on the channel delivers into its outputs, whose sizes and
/// strides point into `shapes` (the caller's descriptors may be gone by
/// then; the buffers themselves live until the wait).
struct HostReceiver {
  distrt_handle_t handle;
  std::vector<Buffer> outputs;
  std::vector<int64_t> shapes;
};

struct ChannelState {
  std::vector<BufferedSend> inFlight;
  /// Buffers of completed sends, reused by the next ones.
  std::vector<std::vector<std::byte>> spare;
  std::unordered_map<int64_t, std::deque<HostMessage>> hostQueues;
  /// Per channel, oldest first; a channel has messages queued or receivers
  /// waiting, never both.
  std::unordered_map<int64_t, std::deque<HostReceiver>> hostReceivers;
};

struct RequestSlot;

/// The tag of point-to-point messages on a communicator that carries one
/// op's messages only (collective_permute's, a broadcast group's).
inline constexpr int kOwnTag = 0;

/// Posts the receive of `buffers` from `source` into the slot: straight into
/// a single dense buffer, else into staging at `offset` with unpacks; the
/// wait checks that the message has the buffers' size (as one element of a
/// wide type past gMaxCount bytes: LargeCount.h).
void postReceive(RequestSlot &slot, const std::vector<Buffer> &buffers,
                 size_t offset, int source, int tag, MPI_Comm comm,
                 const char *what);

void zeroAll(const std::vector<Buffer> &buffers);

/// A sync send: posts a private copy of `inputs` (`count` bytes) and
/// returns; the copy is released once a later send finds it delivered.
void bufferedSend(TeamState &team, const std::vector<Buffer> &inputs, int count,
                  int peer, int tag, MPI_Comm comm);

/// bufferedSend() of a message past gMaxCount bytes: one element of its
/// wide `type` (LargeCount.h).
void bufferedSendWide(TeamState &team, const std::vector<Buffer> &inputs,
                      MPI_Datatype type, int peer, int tag, MPI_Comm comm);

/// A host-transfer send: queues a copy of `inputs` on `channel`.
void hostSend(TeamState &team, int64_t channel,
              const std::vector<Buffer> &inputs);

/// A host-transfer recv: takes the oldest message of the channel's queue.
/// An async one finding the queue empty waits for the channel's next send
/// (after the receivers already waiting); its wait fails if none came.
distrt_handle_t hostRecv(TeamState &team, int64_t channel,
                         const std::vector<Buffer> &outputs, bool async,
                         const SourceLoc &loc);

} // namespace distrt::detail

#endif // DISTRUNTIME_RUNTIME_CHANNELS_H
