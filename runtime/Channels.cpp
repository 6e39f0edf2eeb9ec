//===- Channels.cpp - Point-to-point plumbing of permute and send/recv ----===//
//
// Receives posted into a request slot, the buffered sends of sync `send`,
// and the host-transfer queues: with host_transfer, send pushes a copy of
// its inputs onto this process's FIFO queue of (team, channel) and recv
// pops the oldest entry; an async recv that finds the queue empty is served
// by the channel's next send, in the order the receives were posted.
// Messages past gMaxCount bytes travel as one element of a wide type
// (LargeCount.h); host transfers never reach MPI and have no such limit.
//
//===----------------------------------------------------------------------===//

#include "Channels.h"
#include "Error.h"
#include "LargeCount.h"
#include "ProcessGroups.h"
#include "Request.h"

#include <cstdio>

namespace distrt::detail {

static ChannelState &channelsOf(TeamState &team) {
  if (!team.channels)
    team.channels = new ChannelState;
  return *team.channels;
}

/// Releases the buffers of completed buffered sends.
static void reapSends(ChannelState &channels) {
  for (size_t i = 0; i < channels.inFlight.size();) {
    BufferedSend &send = channels.inFlight[i];
    int completed = 0;
    checkMpi(MPI_Test(&send.request, &completed, MPI_STATUS_IGNORE),
             "MPI_Test");
    if (!completed) {
      ++i;
      continue;
    }
    channels.spare.push_back(std::move(send.data));
    send = std::move(channels.inFlight.back());
    channels.inFlight.pop_back();
  }
}

/// Checks `message` of `channel` against `outputs` and unpacks it there.
static void deliverHost(const HostMessage &message, int64_t channel,
                        const std::vector<Buffer> &outputs) {
  if (message.parts.size() != outputs.size())
    raise("the oldest host-transfer message of channel {} has {} operands, "
          "recv expects {}",
          channel, message.parts.size(), outputs.size());
  for (size_t k = 0; k < outputs.size(); ++k) {
    const HostMessage::Part &part = message.parts[k];
    const Buffer &out = outputs[k];
    const bool same =
        part.dtype == out.dtype &&
        part.sizes.size() == static_cast<size_t>(out.rank()) &&
        std::equal(part.sizes.begin(), part.sizes.end(), out.sizes());
    if (!same)
      raise("operand {}: the oldest host-transfer message of channel {} "
            "holds {} {}, the output is {} {}",
            k, channel, shapeText(part.sizes), kDtypes[part.dtype].name,
            shapeText(out.rank(), out.sizes()), out.type->name);
  }
  for (size_t k = 0; k < outputs.size(); ++k)
    unpack(message.data.data() + message.parts[k].offset, outputs[k].bytes);
}

/// Hands the channel's queued messages to its waiting receivers, oldest
/// first. A receiver already waited (its wait failed) is dropped; one whose
/// outputs do not fit the message gets the error at its wait, and the
/// message stays for the next.
static void serveHostReceivers(ChannelState &channels, int64_t channel) {
  auto receivers = channels.hostReceivers.find(channel);
  if (receivers == channels.hostReceivers.end())
    return;
  std::deque<HostMessage> &queue = channels.hostQueues[channel];
  while (!receivers->second.empty() && !queue.empty()) {
    const HostReceiver receiver = std::move(receivers->second.front());
    receivers->second.pop_front();
    RequestSlot *slot = findRequest(receiver.handle);
    if (!slot)
      continue;
    try {
      deliverHost(queue.front(), channel, receiver.outputs);
      queue.pop_front();
      slot->pendingError.clear();
    } catch (const Failure &failure) {
      slot->pendingError = failure.message();
    }
  }
}

void hostSend(TeamState &team, int64_t channel,
              const std::vector<Buffer> &inputs) {
  HostMessage message;
  message.data.resize(totalBytes(inputs));
  size_t offset = 0;
  for (const Buffer &in : inputs) {
    message.parts.push_back(
        {in.dtype, {in.sizes(), in.sizes() + in.rank()}, offset, in.byteCount});
    pack(in.bytes, message.data.data() + offset);
    offset += in.byteCount;
  }
  ChannelState &channels = channelsOf(team);
  channels.hostQueues[channel].push_back(std::move(message));
  serveHostReceivers(channels, channel);
}

/// A host-transfer recv: takes the oldest message of the channel's queue.
/// An async one finding the queue empty waits for the channel's next send
/// (after the receivers already waiting); its wait fails if none came.
distrt_handle_t hostRecv(TeamState &team, int64_t channel,
                         const std::vector<Buffer> &outputs, bool async,
                         const SourceLoc &loc) {
  ChannelState &channels = channelsOf(team);
  std::deque<HostMessage> &queue = channels.hostQueues[channel];
  if (!queue.empty()) {
    deliverHost(queue.front(), channel, outputs);
    queue.pop_front();
    return done("recv", team.id, loc, async);
  }
  if (!async)
    raise("the host queue of channel {} is empty: no host-transfer send on "
          "this channel is waiting in this process (an async recv would wait "
          "for a later send)",
          channel);
  HostReceiver receiver{0, outputs, {}};
  for (const Buffer &out : outputs) {
    receiver.shapes.insert(receiver.shapes.end(), out.sizes(),
                           out.sizes() + out.rank());
    receiver.shapes.insert(receiver.shapes.end(), out.strides(),
                           out.strides() + out.rank());
  }
  const int64_t *shape = receiver.shapes.data();
  for (Buffer &out : receiver.outputs) {
    out.bytes.sizes = shape;
    out.bytes.strides = shape + out.rank();
    shape += 2 * out.rank();
  }
  const distrt_handle_t handle =
      runInSlot("recv", team.id, loc, true, [&](RequestSlot &slot) {
        slot.pendingError = fmt::format(
            "no host-transfer send on channel {} came in this process "
            "before the wait of this recv",
            channel);
      });
  receiver.handle = handle;
  channels.hostReceivers[channel].push_back(std::move(receiver));
  return handle;
}

/// The bytes of a probed message: MPI_Get_elements_x counts past INT_MAX;
/// without it (DISTRT_MPI_GET_ELEMENTS_X, runtime/CMakeLists.txt: SMPI)
/// MPI_Get_count, and -1 for a message it cannot count.
static MPI_Count probedBytes(const MPI_Status &status) {
#if DISTRT_MPI_GET_ELEMENTS_X
  MPI_Count bytes = -1;
  if (MPI_Get_elements_x(&status, MPI_BYTE, &bytes) != MPI_SUCCESS)
    return -1;
  return bytes;
#else
  int bytes = -1;
  if (MPI_Get_count(&status, MPI_BYTE, &bytes) != MPI_SUCCESS ||
      bytes == MPI_UNDEFINED)
    return -1;
  return bytes;
#endif
}

static int commRank(MPI_Comm comm) {
  int rank = -1;
  MPI_Comm_rank(comm, &rank);
  return rank;
}

/// Posts the receive of `buffers` from `source` into the slot: straight into
/// a single dense buffer, else into staging at `offset` with unpacks.
void postReceive(RequestSlot &slot, const std::vector<Buffer> &buffers,
                 size_t offset, int source, int tag, MPI_Comm comm,
                 const char *what) {
  const size_t bytes = totalBytes(buffers);
  auto [count, type] = byteSpan(bytes);
  void *target = nullptr;
  if (buffers.size() == 1 && buffers[0].dense) {
    target = buffers[0].bytes.base;
  } else {
    target = slot.staging.data() + offset;
    for (const Buffer &out : buffers) {
      slot.addUnpack(offset, out.bytes.base, out.rank(), out.sizes(),
                     out.strides(), out.bytes.elementSize);
      offset += out.byteCount;
    }
  }
  const ReceiveCheck check{static_cast<int>(slot.requests.size()), count,
                           source, type, what};
  slot.checks.push_back(check);
  if (type != MPI_BYTE && source == commRank(comm)) [[unlikely]] {
    // Open MPI 4.1 delivers a longer message from the process itself into a
    // wide datatype whole, past its extent (ASan: heap-buffer-overflow in
    // btl_self), instead of truncating: a message already sent is checked
    // before it is received.
    int found = 0;
    MPI_Status status;
#if DISTRT_MPI_MATCHED_PROBE
    MPI_Message message;
    checkMpi(MPI_Improbe(source, tag, comm, &found, &message, &status),
             "MPI_Improbe");
#else
    // No matched probe (SMPI): the receive below, from the same source
    // with the same tag on a communicator only this thread uses, takes
    // the message probed (MPI's non-overtaking order).
    checkMpi(MPI_Iprobe(source, tag, comm, &found, &status), "MPI_Iprobe");
#endif
    if (found) {
      const MPI_Count sent = probedBytes(status);
#if !DISTRT_MPI_MATCHED_PROBE
      // MPI_Improbe takes the message it matched, so that the next receive
      // gets the next one; an MPI_Iprobe'd message of the wrong size is
      // taken here instead.
      if (sent >= 0 && sent != static_cast<MPI_Count>(bytes)) {
        std::vector<std::byte> sink(static_cast<size_t>(sent));
        MPI_Recv(sink.data(), static_cast<int>(sent), MPI_BYTE, source, tag,
                 comm, MPI_STATUS_IGNORE);
      }
#endif
      if (sent != static_cast<MPI_Count>(bytes))
        failBlockingReceive("", check,
                            sent > static_cast<MPI_Count>(bytes)
                                ? MPI_ERR_TRUNCATE
                                : MPI_SUCCESS,
                            status);
#if DISTRT_MPI_MATCHED_PROBE
      postRequest(slot, "MPI_Imrecv", [&](MPI_Request *request) {
        return MPI_Imrecv(target, count, type, &message, request);
      });
      return;
#endif
    }
  }
  postRequest(slot, "MPI_Irecv", [&](MPI_Request *request) {
    return MPI_Irecv(target, count, type, source, tag, comm, request);
  });
}

void zeroAll(const std::vector<Buffer> &buffers) {
  for (const Buffer &buffer : buffers)
    zero(buffer.bytes);
}

/// bufferedSend() of `count` elements of `type`.
static inline void postBuffered(TeamState &team,
                                const std::vector<Buffer> &inputs, int count,
                                MPI_Datatype type, int peer, int tag,
                                MPI_Comm comm) {
  ChannelState &channels = channelsOf(team);
  reapSends(channels);
  BufferedSend &buffered = channels.inFlight.emplace_back();
  if (!channels.spare.empty()) {
    buffered.data = std::move(channels.spare.back());
    channels.spare.pop_back();
  }
  buffered.data.resize(totalBytes(inputs));
  packAll(inputs, buffered.data.data());
  const int code = MPI_Isend(buffered.data.data(), count, type, peer, tag, comm,
                             &buffered.request);
  if (code != MPI_SUCCESS) {
    channels.inFlight.pop_back();
    raiseMpi(code, "MPI_Isend");
  }
}

void bufferedSend(TeamState &team, const std::vector<Buffer> &inputs, int count,
                  int peer, int tag, MPI_Comm comm) {
  postBuffered(team, inputs, count, MPI_BYTE, peer, tag, comm);
}

void bufferedSendWide(TeamState &team, const std::vector<Buffer> &inputs,
                      MPI_Datatype type, int peer, int tag, MPI_Comm comm) {
  postBuffered(team, inputs, 1, type, peer, tag, comm);
}

/// Reports the messages sent to this rank on the team's channels that no
/// recv took (those that have arrived by teardown; the sender reports its
/// large ones itself), and takes them.
static void reportUnreceived(TeamState &team) noexcept {
  MPI_Comm comm = team.groups ? team.groups->channelComm : MPI_COMM_NULL;
  if (comm == MPI_COMM_NULL)
    return;
  std::vector<std::byte> sink;
  for (;;) {
    int found = 0;
    MPI_Status status;
#if DISTRT_MPI_MATCHED_PROBE
    MPI_Message message;
    if (MPI_Improbe(MPI_ANY_SOURCE, MPI_ANY_TAG, comm, &found, &message,
                    &status) != MPI_SUCCESS ||
        !found)
      return;
#else
    if (MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, comm, &found, &status) !=
            MPI_SUCCESS ||
        !found)
      return;
#endif
    const MPI_Count bytes = probedBytes(status);
    const int tag = status.MPI_TAG; // zigzag: 0, -1, 1, ... (channelTag)
    const int64_t channel = tag % 2 == 0 ? tag / 2 : -(int64_t{tag} + 1) / 2;
    std::fprintf(stderr,
                 "distrt: warning: team %lld, rank %d: a message of %lld "
                 "bytes from rank %d on channel_id %lld was never received\n",
                 static_cast<long long>(team.id), team.rank,
                 static_cast<long long>(bytes), status.MPI_SOURCE,
                 static_cast<long long>(channel));
    constexpr MPI_Count kSinkLimit = MPI_Count{64} << 20;
    if (bytes < 0 || bytes > kSinkLimit)
      return; // left to MPI
    sink.resize(static_cast<size_t>(bytes));
#if DISTRT_MPI_MATCHED_PROBE
    MPI_Mrecv(sink.data(), static_cast<int>(bytes), MPI_BYTE, &message,
              MPI_STATUS_IGNORE);
#else
    MPI_Recv(sink.data(), static_cast<int>(bytes), MPI_BYTE, status.MPI_SOURCE,
             status.MPI_TAG, comm, MPI_STATUS_IGNORE);
#endif
  }
}

/// Completes what can complete of the buffered sends and drops the queues
/// (at teardown or unregistration).
static void freeChannels(TeamState &team) noexcept {
  reportUnreceived(team);
  if (!team.channels)
    return;
  size_t pending = 0;
  for (BufferedSend &send : team.channels->inFlight) {
    int completed = 0;
    if (MPI_Test(&send.request, &completed, MPI_STATUS_IGNORE) == MPI_SUCCESS &&
        completed)
      continue;
    // Never received: MPI may still read the copy, so it is left alive.
    ++pending;
    MPI_Request_free(&send.request);
    new std::vector<std::byte>(std::move(send.data));
  }
  if (pending)
    std::fprintf(stderr,
                 "distrt: warning: %zu send(s) of team %lld were never "
                 "received before finalization\n",
                 pending, static_cast<long long>(team.id));
  delete team.channels;
  team.channels = nullptr;
}

[[maybe_unused]] static const bool kHooked =
    addTeamHooks(TeamStage::kChannels, {.release = freeChannels});

} // namespace distrt::detail
