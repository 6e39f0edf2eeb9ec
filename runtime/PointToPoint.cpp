//===- PointToPoint.cpp - collective_permute, send and recv -----*- C++ -*-===//
//
// collective_permute: on the team's permute communicator every process posts
// its receive (from its source) before its send (to its target), both in
// one request; the operands travel as one message of packed bytes (a single
// dense operand goes as is). A process that is nobody's target gets zeros,
// a self-pair copies.
//
// send/recv: on the team's channel communicator with tag = channel_id modulo
// (MPI_TAG_UB + 1), so channels are kept apart and the messages of one
// channel arrive in order (MPI's non-overtaking rule; two channel ids equal
// modulo MPI_TAG_UB + 1 share a tag and are then ordered together). The sync
// send is buffered: it copies the inputs, posts the send and returns without
// waiting for the receiver, so a `send` then `recv` program cannot deadlock;
// the copies are released as their sends complete. The async send sends
// straight from the inputs, which must stay alive until its handle is
// waited. With host_transfer, send pushes a copy of its inputs onto this
// process's FIFO queue of (team, channel) and recv pops the oldest entry.
//
//===----------------------------------------------------------------------===//

#include "PointToPoint.h"
#include "Error.h"
#include "Operands.h"
#include "Operations.h"
#include "ProcessGroups.h"
#include "Request.h"

#include <cstdio>

namespace distrt::detail {
namespace {

constexpr int kPermuteTag = 0;

distrt_handle_t done(const char *op, int64_t team, bool async) {
  return async ? runInSlot(op, team, true, [](RequestSlot &) {}) : 0;
}

size_t totalBytes(const std::vector<Buffer> &buffers) {
  size_t bytes = 0;
  for (const Buffer &buffer : buffers)
    bytes += buffer.byteCount;
  return bytes;
}

/// Packs every buffer, one after another, at `dst`.
void packAll(const std::vector<Buffer> &buffers, std::byte *dst) {
  for (const Buffer &buffer : buffers) {
    pack(buffer.bytes, dst);
    dst += buffer.byteCount;
  }
}

/// Posts the receive of `buffers` from `source` into the slot: straight into
/// a single dense buffer, else into staging at `offset` with unpacks.
void postReceive(RequestSlot &slot, const std::vector<Buffer> &buffers,
                 size_t offset, int source, int tag, MPI_Comm comm,
                 const char *what) {
  const size_t bytes = totalBytes(buffers);
  const int count = mpiCount(static_cast<int64_t>(bytes), "message bytes");
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
  slot.checks.push_back(
      {static_cast<int>(slot.requests.size()), count, source, MPI_BYTE, what});
  postRequest(slot, "MPI_Irecv", [&](MPI_Request *request) {
    return MPI_Irecv(target, count, MPI_BYTE, source, tag, comm, request);
  });
}

void zeroAll(const std::vector<Buffer> &buffers) {
  for (const Buffer &buffer : buffers)
    zero(buffer.bytes);
}

ChannelState &channelsOf(TeamState &team) {
  if (!team.channels)
    team.channels = std::make_unique<ChannelState>();
  return *team.channels;
}

/// Releases the buffers of completed buffered sends.
void reapSends(ChannelState &channels) {
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
  channelsOf(team).hostQueues[channel].push_back(std::move(message));
}

void hostRecv(TeamState &team, int64_t channel,
              const std::vector<Buffer> &outputs) {
  auto &queues = channelsOf(team).hostQueues;
  auto it = queues.find(channel);
  if (it == queues.end() || it->second.empty())
    raise("the host queue of channel {} is empty: no host-transfer send on "
          "this channel is waiting in this process",
          channel);
  const HostMessage &message = it->second.front();
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
  it->second.pop_front();
}

} // namespace

//===----------------------------------------------------------------------===//
// collective_permute
//===----------------------------------------------------------------------===//

distrt_handle_t collectivePermute(int64_t teamId, const distrt_groups_t *pairs,
                                  const OperandList &inputs,
                                  const OperandList &outputs, bool async,
                                  const SourceLoc &loc) {
  return guarded("collective_permute", teamId, loc, [&]() -> distrt_handle_t {
    // The operands first: the C ABI's arrays are checked before anything.
    OpScratch &s = opScratch();
    resolvePairs(inputs, outputs, s, /*sameShape=*/true);
    TeamState &team = lookupTeam(teamId);
    const PairLayout &layout = pairLayout(team, pairs);
    const size_t bytes = totalBytes(s.ins);
    const int count = mpiCount(static_cast<int64_t>(bytes), "message bytes");
    const int me = team.rank;
    const bool sends = layout.target >= 0 && layout.target != me;
    const bool receives = layout.source >= 0 && layout.source != me;
    if (bytes == 0 || (!sends && !receives)) {
      if (layout.source == me) {
        for (size_t k = 0; k < s.ins.size(); ++k)
          copy(s.ins[k].bytes, s.outs[k].bytes, s.copy);
      } else {
        zeroAll(s.outs);
      }
      return done("collective_permute", teamId, async);
    }
    MPI_Comm comm = permuteComm(team);
    // Outputs that overlap inputs are written (received or zeroed) while the
    // send may still read: send from a copy then.
    const bool directSend =
        s.ins.size() == 1 && s.ins[0].dense && !anyOverlap(s);
    const bool directRecv = s.outs.size() == 1 && s.outs[0].dense;
    if (!async && (directSend || !sends) && (directRecv || !receives)) {
      // One blocking call, no slot, with the receive checks of a wait.
      const ReceiveCheck check{0, count, layout.source, MPI_BYTE,
                               "collective_permute operands"};
      MPI_Status status;
      if (sends && receives)
        checkBlockingReceive(
            "collective_permute", check,
            MPI_Sendrecv(s.ins[0].bytes.base, count, MPI_BYTE, layout.target,
                         kPermuteTag, s.outs[0].bytes.base, count, MPI_BYTE,
                         layout.source, kPermuteTag, comm, &status),
            status);
      else if (receives)
        checkBlockingReceive("collective_permute", check,
                             MPI_Recv(s.outs[0].bytes.base, count, MPI_BYTE,
                                      layout.source, kPermuteTag, comm,
                                      &status),
                             status);
      else {
        checkMpi(MPI_Send(s.ins[0].bytes.base, count, MPI_BYTE, layout.target,
                          kPermuteTag, comm),
                 "MPI_Send");
        zeroAll(s.outs);
      }
      return 0;
    }
    return runInSlot(
        "collective_permute", teamId, async, [&](RequestSlot &slot) {
          const size_t sendBytes = sends && !directSend ? alignUp(bytes) : 0;
          const size_t total =
              sendBytes + (receives && !directRecv ? bytes : 0);
          if (slot.staging.size() < total)
            slot.staging.resize(total);
          if (sends && !directSend)
            packAll(s.ins, slot.staging.data());
          if (receives)
            postReceive(slot, s.outs, sendBytes, layout.source, kPermuteTag,
                        comm, "collective_permute operands");
          if (sends) {
            const void *data =
                directSend ? s.ins[0].bytes.base : slot.staging.data();
            postRequest(slot, "MPI_Isend", [&](MPI_Request *request) {
              return MPI_Isend(data, count, MPI_BYTE, layout.target,
                               kPermuteTag, comm, request);
            });
          }
          if (!receives)
            zeroAll(s.outs);
        });
  });
}

//===----------------------------------------------------------------------===//
// send / recv
//===----------------------------------------------------------------------===//

distrt_handle_t send(int64_t teamId, const distrt_groups_t *pairs,
                     int64_t channel, bool hostTransfer,
                     const OperandList &inputs, bool async,
                     const SourceLoc &loc) {
  return guarded("send", teamId, loc, [&]() -> distrt_handle_t {
    OpScratch &s = opScratch();
    resolve(inputs, s.ins, "input");
    TeamState &team = lookupTeam(teamId);
    if (hostTransfer) {
      hostSend(team, channel, s.ins);
      return done("send", teamId, async);
    }
    const PairLayout &layout = pairLayout(team, pairs);
    if (layout.target < 0)
      return done("send", teamId, async);
    const size_t bytes = totalBytes(s.ins);
    const int count = mpiCount(static_cast<int64_t>(bytes), "message bytes");
    MPI_Comm comm = channelComm(team);
    const int tag = channelTag(team, channel);
    if (!async) {
      ChannelState &channels = channelsOf(team);
      reapSends(channels);
      BufferedSend &buffered = channels.inFlight.emplace_back();
      if (!channels.spare.empty()) {
        buffered.data = std::move(channels.spare.back());
        channels.spare.pop_back();
      }
      buffered.data.resize(bytes);
      packAll(s.ins, buffered.data.data());
      const int code = MPI_Isend(buffered.data.data(), count, MPI_BYTE,
                                 layout.target, tag, comm, &buffered.request);
      if (code != MPI_SUCCESS) {
        channels.inFlight.pop_back();
        raiseMpi(code, "MPI_Isend");
      }
      return 0;
    }
    return runInSlot("send", teamId, true, [&](RequestSlot &slot) {
      const void *data = s.ins.empty() ? nullptr : s.ins[0].bytes.base;
      if (!(s.ins.size() == 1 && s.ins[0].dense)) {
        if (slot.staging.size() < bytes)
          slot.staging.resize(bytes);
        packAll(s.ins, slot.staging.data());
        data = slot.staging.data();
      }
      postRequest(slot, "MPI_Isend", [&](MPI_Request *request) {
        return MPI_Isend(data, count, MPI_BYTE, layout.target, tag, comm,
                         request);
      });
    });
  });
}

distrt_handle_t recv(int64_t teamId, const distrt_groups_t *pairs,
                     int64_t channel, bool hostTransfer,
                     const OperandList &outputs, bool async,
                     const SourceLoc &loc) {
  return guarded("recv", teamId, loc, [&]() -> distrt_handle_t {
    OpScratch &s = opScratch();
    resolve(outputs, s.outs, "output");
    TeamState &team = lookupTeam(teamId);
    if (hostTransfer) {
      hostRecv(team, channel, s.outs);
      return done("recv", teamId, async);
    }
    const PairLayout &layout = pairLayout(team, pairs);
    if (layout.source < 0) {
      zeroAll(s.outs);
      return done("recv", teamId, async);
    }
    MPI_Comm comm = channelComm(team);
    const int tag = channelTag(team, channel);
    if (!async && s.outs.size() == 1 && s.outs[0].dense) {
      // One blocking receive, no slot, with the checks of a wait.
      const Buffer &out = s.outs[0];
      const int count =
          mpiCount(static_cast<int64_t>(out.byteCount), "message bytes");
      MPI_Status status;
      checkBlockingReceive("recv",
                           {0, count, layout.source, MPI_BYTE, "recv operands"},
                           MPI_Recv(out.bytes.base, count, MPI_BYTE,
                                    layout.source, tag, comm, &status),
                           status);
      return 0;
    }
    return runInSlot("recv", teamId, async, [&](RequestSlot &slot) {
      const size_t bytes = totalBytes(s.outs);
      if (slot.staging.size() < bytes)
        slot.staging.resize(bytes);
      postReceive(slot, s.outs, 0, layout.source, tag, comm, "recv operands");
    });
  });
}

void freeChannels(TeamState &team) noexcept {
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
  team.channels.reset();
}

} // namespace distrt::detail

//===----------------------------------------------------------------------===//
// C++ API
//===----------------------------------------------------------------------===//

namespace distrt {

void collectivePermute(const Team &team, const distrt_groups_t &pairs,
                       Operands inputs, Operands outputs, SourceLoc loc) {
  detail::collectivePermute(team.id(), &pairs, inputs, outputs, false, loc);
}
Request collectivePermuteAsync(const Team &team, const distrt_groups_t &pairs,
                               Operands inputs, Operands outputs,
                               SourceLoc loc) {
  return Request(
      detail::collectivePermute(team.id(), &pairs, inputs, outputs, true, loc));
}

void send(const Team &team, const distrt_groups_t *pairs, int64_t channel,
          bool hostTransfer, Operands inputs, SourceLoc loc) {
  detail::send(team.id(), pairs, channel, hostTransfer, inputs, false, loc);
}
Request sendAsync(const Team &team, const distrt_groups_t *pairs,
                  int64_t channel, bool hostTransfer, Operands inputs,
                  SourceLoc loc) {
  return Request(
      detail::send(team.id(), pairs, channel, hostTransfer, inputs, true, loc));
}

void recv(const Team &team, const distrt_groups_t *pairs, int64_t channel,
          bool hostTransfer, Operands outputs, SourceLoc loc) {
  detail::recv(team.id(), pairs, channel, hostTransfer, outputs, false, loc);
}
Request recvAsync(const Team &team, const distrt_groups_t *pairs,
                  int64_t channel, bool hostTransfer, Operands outputs,
                  SourceLoc loc) {
  return Request(detail::recv(team.id(), pairs, channel, hostTransfer, outputs,
                              true, loc));
}

} // namespace distrt
