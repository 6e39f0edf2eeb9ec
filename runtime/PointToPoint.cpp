//===- PointToPoint.cpp - collective_permute, send and recv -----*- C++ -*-===//
//
// collective_permute: on the team's permute communicator every process posts
// its receive (from its source) before its send (to its target), both in
// one request; the operands travel as one message of packed bytes (a single
// dense operand goes as is). A process that is nobody's target gets zeros,
// a self-pair copies.
//
// send/recv: on the team's channel communicator, one tag per channel_id
// (channelTag), so channels are kept apart and the messages of one channel
// arrive in order (MPI's non-overtaking rule); a channel_id with no tag of
// its own left is an error on every rank. The sync
// send is buffered: it copies the inputs, posts the send and returns without
// waiting for the receiver, so a `send` then `recv` program cannot deadlock;
// the copies are released as their sends complete. The async send sends
// straight from the inputs, which must stay alive until its handle is
// waited. With host_transfer, send pushes a copy of its inputs onto this
// process's FIFO queue of (team, channel) and recv pops the oldest entry;
// an async recv that finds the queue empty is served by the channel's next
// send, in the order the receives were posted.
//
//===----------------------------------------------------------------------===//

#include "PointToPoint.h"
#include "CallMemo.h"
#include "Error.h"
#include "Operands.h"
#include "Operations.h"
#include "ProcessGroups.h"
#include "Request.h"

#include <cstdio>

namespace distrt::detail {
namespace {

constexpr int kPermuteTag = 0;

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

/// Checks `message` of `channel` against `outputs` and unpacks it there.
void deliverHost(const HostMessage &message, int64_t channel,
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
void serveHostReceivers(ChannelState &channels, int64_t channel) {
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
                         const std::vector<Buffer> &outputs, bool async) {
  ChannelState &channels = channelsOf(team);
  std::deque<HostMessage> &queue = channels.hostQueues[channel];
  if (!queue.empty()) {
    deliverHost(queue.front(), channel, outputs);
    queue.pop_front();
    return done("recv", team.id, async);
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
      runInSlot("recv", team.id, true, [&](RequestSlot &slot) {
        slot.pendingError = fmt::format(
            "no host-transfer send on channel {} came in this process "
            "before the wait of this recv",
            channel);
      });
  receiver.handle = handle;
  channels.hostReceivers[channel].push_back(std::move(receiver));
  return handle;
}

} // namespace

//===----------------------------------------------------------------------===//
// collective_permute
//===----------------------------------------------------------------------===//

namespace {

struct PermutePlan {
  const PairLayout *layout;
  MPI_Comm comm;
  int me;
  size_t bytes;
  int count;
  bool sends, receives; // to / from another process
  bool directSend, directRecv;
  /// A sync call is one blocking MPI call on the operands' own buffers,
  /// `send` to `target` and `recv` from `source`.
  bool blocking;
  const void *send;
  void *recv;
  int target, source;
};
OpMemo<PermutePlan> gPermuteMemo;

[[gnu::noinline]] void planPermute(MemoEntry<PermutePlan> &m, int64_t teamId,
                                   const distrt_groups_t *pairs,
                                   const OperandList &inputs,
                                   const OperandList &outputs) {
  m.valid = false;
  // The operands first: the C ABI's arrays are checked before anything.
  OpScratch &s = opScratch();
  resolvePairs(inputs, outputs, s, /*sameShape=*/true);
  TeamState &team = lookupTeam(teamId);
  const PairLayout &layout = pairLayout(team, pairs);
  const size_t bytes = totalBytes(s.ins);
  const int count = mpiCount(static_cast<int64_t>(bytes), "message bytes");
  const int me = team.rank;
  // Outputs that overlap inputs are written (received or zeroed) while the
  // send may still read: send from a copy then.
  const bool sends = layout.target >= 0 && layout.target != me;
  const bool receives = layout.source >= 0 && layout.source != me;
  const bool directSend = s.ins.size() == 1 && s.ins[0].dense && !anyOverlap(s);
  const bool directRecv = s.outs.size() == 1 && s.outs[0].dense;
  m.plan = {&layout,
            permuteComm(team),
            me,
            bytes,
            count,
            sends,
            receives,
            directSend,
            directRecv,
            bytes > 0 && (sends || receives) && (directSend || !sends) &&
                (directRecv || !receives),
            directSend ? s.ins[0].bytes.base : nullptr,
            directRecv ? s.outs[0].bytes.base : nullptr,
            layout.target,
            layout.source};
  m.store(teamId, pairs, layout.key, {}, &inputs, &outputs, s);
}

/// One blocking call, no slot, with the receive checks of a wait.
void permuteBlocking(const MemoEntry<PermutePlan> &m) {
  const PermutePlan &p = m.plan;
  if (!p.receives) {
    checkMpi(MPI_Send(p.send, p.count, MPI_BYTE, p.target, kPermuteTag, p.comm),
             "MPI_Send");
    zeroAll(m.outs);
    return;
  }
  MPI_Status status;
  const int code = p.sends
                       ? MPI_Sendrecv(p.send, p.count, MPI_BYTE, p.target,
                                      kPermuteTag, p.recv, p.count, MPI_BYTE,
                                      p.source, kPermuteTag, p.comm, &status)
                       : MPI_Recv(p.recv, p.count, MPI_BYTE, p.source,
                                  kPermuteTag, p.comm, &status);
  checkBlockingReceive("collective_permute", code, status, p.count, p.source,
                       "collective_permute operands");
}

[[gnu::noinline]] distrt_handle_t
permuteFull(MemoEntry<PermutePlan> &m, int64_t teamId,
            const distrt_groups_t *pairs, const OperandList &inputs,
            const OperandList &outputs, bool async) {
  if (!m.matches(teamId, pairs, {}, &inputs, &outputs))
    planPermute(m, teamId, pairs, inputs, outputs);
  const auto &[layout, comm, me, bytes, count, sends, receives, directSend,
               directRecv, blocking, send0, recv0, target, source] = m.plan;
  if (bytes == 0 || (!sends && !receives)) {
    if (layout->source == me) {
      for (size_t k = 0; k < m.ins.size(); ++k)
        copy(m.ins[k].bytes, m.outs[k].bytes, opScratch().copy);
    } else {
      zeroAll(m.outs);
    }
    return done("collective_permute", teamId, async);
  }
  if (!async && blocking) {
    permuteBlocking(m);
    return 0;
  }
  return runInSlot("collective_permute", teamId, async, [&](RequestSlot &slot) {
    const size_t sendBytes = sends && !directSend ? alignUp(bytes) : 0;
    const size_t total = sendBytes + (receives && !directRecv ? bytes : 0);
    if (slot.staging.size() < total)
      slot.staging.resize(total);
    if (sends && !directSend)
      packAll(m.ins, slot.staging.data());
    if (receives)
      postReceive(slot, m.outs, sendBytes, layout->source, kPermuteTag, comm,
                  "collective_permute operands");
    if (sends) {
      const void *data = directSend ? m.ins[0].bytes.base : slot.staging.data();
      postRequest(slot, "MPI_Isend", [&](MPI_Request *request) {
        return MPI_Isend(data, count, MPI_BYTE, layout->target, kPermuteTag,
                         comm, request);
      });
    }
    if (!receives)
      zeroAll(m.outs);
  });
}

} // namespace

//===----------------------------------------------------------------------===//
// send / recv
//===----------------------------------------------------------------------===//

namespace {

/// A send or recv over the network. Host transfers are not memoized (their
/// queues change from call to call): every stored entry has host_transfer 0
/// in its parameters, so a host-transfer call never matches one.
struct ChannelPlan {
  TeamState *team;
  int peer; // target or source, -1 for none
  MPI_Comm comm;
  int tag;
  size_t bytes;
  int count;
  /// A sync call is one MPI call: a buffered MPI_Isend (send), or an
  /// MPI_Recv into `recv`, the single dense output (recv).
  bool blocking;
  void *recv;
  /// An async send is one MPI_Isend from `send`, the single dense input.
  bool posting;
  const void *send;
};
OpMemo<ChannelPlan> gSendMemo, gRecvMemo;

/// The checks of send or recv past the operands (resolved into `s`).
void planChannel(MemoEntry<ChannelPlan> &m, int64_t teamId,
                 const distrt_groups_t *pairs, int64_t channel,
                 const OperandList *inputs, const OperandList *outputs,
                 TeamState &team, const OpScratch &s) {
  const PairLayout &layout = pairLayout(team, pairs);
  const int peer = inputs ? layout.target : layout.source;
  const std::vector<Buffer> &buffers = inputs ? s.ins : s.outs;
  const bool denseOutput = s.outs.size() == 1 && s.outs[0].dense;
  const bool denseInput = s.ins.size() == 1 && s.ins[0].dense;
  m.plan = {&team,
            peer,
            MPI_COMM_NULL,
            0,
            totalBytes(buffers),
            0,
            peer >= 0 && (inputs || denseOutput),
            !inputs && denseOutput ? s.outs[0].bytes.base : nullptr,
            peer >= 0 && inputs && denseInput,
            inputs && denseInput ? s.ins[0].bytes.base : nullptr};
  // Every rank checks the channel, with a peer or not, so that all fail.
  m.plan.tag = channelTag(team, channel);
  if (peer >= 0) {
    m.plan.count =
        mpiCount(static_cast<int64_t>(m.plan.bytes), "message bytes");
    m.plan.comm = channelComm(team);
  }
  m.store(teamId, pairs, layout.key, {channel, 0}, inputs, outputs, s);
}

/// The send is buffered: a sync send returns once its data is copied.
void sendBlocking(const MemoEntry<ChannelPlan> &m) {
  const ChannelPlan &p = m.plan;
  ChannelState &channels = channelsOf(*p.team);
  reapSends(channels);
  BufferedSend &buffered = channels.inFlight.emplace_back();
  if (!channels.spare.empty()) {
    buffered.data = std::move(channels.spare.back());
    channels.spare.pop_back();
  }
  buffered.data.resize(p.bytes);
  packAll(m.ins, buffered.data.data());
  const int code = MPI_Isend(buffered.data.data(), p.count, MPI_BYTE, p.peer,
                             p.tag, p.comm, &buffered.request);
  if (code != MPI_SUCCESS) {
    channels.inFlight.pop_back();
    raiseMpi(code, "MPI_Isend");
  }
}

/// An async send of the single dense input, from the input itself.
MPI_Request sendPost(const MemoEntry<ChannelPlan> &m) {
  const ChannelPlan &p = m.plan;
  MPI_Request request;
  checkMpi(
      MPI_Isend(p.send, p.count, MPI_BYTE, p.peer, p.tag, p.comm, &request),
      "MPI_Isend");
  return request;
}

/// One blocking receive, no slot, with the checks of a wait.
void recvBlocking(const MemoEntry<ChannelPlan> &m) {
  const ChannelPlan &p = m.plan;
  MPI_Status status;
  const int code =
      MPI_Recv(p.recv, p.count, MPI_BYTE, p.peer, p.tag, p.comm, &status);
  checkBlockingReceive("recv", code, status, p.count, p.peer, "recv operands");
}

[[gnu::noinline]] distrt_handle_t
sendFull(MemoEntry<ChannelPlan> &m, int64_t teamId,
         const distrt_groups_t *pairs, int64_t channel, bool hostTransfer,
         const OperandList &inputs, bool async) {
  if (hostTransfer ||
      !m.matches(teamId, pairs, {channel, 0}, &inputs, nullptr)) {
    m.valid = false;
    OpScratch &s = opScratch();
    resolve(inputs, s.ins, "input");
    TeamState &team = lookupTeam(teamId);
    if (hostTransfer) {
      hostSend(team, channel, s.ins);
      return done("send", teamId, async);
    }
    planChannel(m, teamId, pairs, channel, &inputs, nullptr, team, s);
  }
  const auto &[team, target, comm, tag, bytes, count, blocking, recv0, posting,
               send0] = m.plan;
  if (target < 0)
    return done("send", teamId, async);
  if (!async) {
    sendBlocking(m);
    return 0;
  }
  return runInSlot("send", teamId, true, [&](RequestSlot &slot) {
    const void *data = m.ins.empty() ? nullptr : m.ins[0].bytes.base;
    if (!(m.ins.size() == 1 && m.ins[0].dense)) {
      if (slot.staging.size() < bytes)
        slot.staging.resize(bytes);
      packAll(m.ins, slot.staging.data());
      data = slot.staging.data();
    }
    postRequest(slot, "MPI_Isend", [&](MPI_Request *request) {
      return MPI_Isend(data, count, MPI_BYTE, target, tag, comm, request);
    });
  });
}

[[gnu::noinline]] distrt_handle_t
recvFull(MemoEntry<ChannelPlan> &m, int64_t teamId,
         const distrt_groups_t *pairs, int64_t channel, bool hostTransfer,
         const OperandList &outputs, bool async) {
  if (hostTransfer ||
      !m.matches(teamId, pairs, {channel, 0}, nullptr, &outputs)) {
    m.valid = false;
    OpScratch &s = opScratch();
    resolve(outputs, s.outs, "output");
    TeamState &team = lookupTeam(teamId);
    if (hostTransfer)
      return hostRecv(team, channel, s.outs, async);
    planChannel(m, teamId, pairs, channel, nullptr, &outputs, team, s);
  }
  const auto &[team, source, comm, tag, bytes, count, blocking, recv0, posting,
               send0] = m.plan;
  if (source < 0) {
    zeroAll(m.outs);
    return done("recv", teamId, async);
  }
  if (!async && blocking) {
    recvBlocking(m);
    return 0;
  }
  return runInSlot("recv", teamId, async, [&](RequestSlot &slot) {
    if (slot.staging.size() < bytes)
      slot.staging.resize(bytes);
    postReceive(slot, m.outs, 0, source, tag, comm, "recv operands");
  });
}

} // namespace

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
// C ABI (distrt.h): operand arrays are passed on as they are, read once when
// the op resolves them. Nothing throws across (see CApi.cpp).
//===----------------------------------------------------------------------===//

namespace distrt::detail {
namespace {

using PermuteFast = FastPath<PermutePlan, permuteBlocking>;
using SendFast = FastPath<ChannelPlan, sendBlocking, sendPost>;
using RecvFast = FastPath<ChannelPlan, recvBlocking>;

// The C entry points past their static paths.

[[gnu::noinline]] distrt_handle_t
permuteCall(int64_t team, const distrt_groups_t *pairs, int64_t n,
            const distrt_operand_t *inputs, const distrt_operand_t *outputs,
            int32_t async, distrt_site_t *site, const char *loc) noexcept {
  return memoized<PermuteFast>(
      gPermuteMemo, "collective_permute",
      {team, pairs, {}, inputs, n, outputs, n, async != 0}, site, loc,
      [&](auto &m) {
        return permuteFull(m, team, pairs, OperandList(inputs, n),
                           OperandList(outputs, n), async != 0);
      });
}

[[gnu::noinline]] distrt_handle_t
sendCall(int64_t team, const distrt_groups_t *pairs, int64_t channel,
         int32_t hostTransfer, int64_t n, const distrt_operand_t *inputs,
         int32_t async, distrt_site_t *site, const char *loc) noexcept {
  return memoized<SendFast>(gSendMemo, "send",
                            {team,
                             pairs,
                             {channel, hostTransfer != 0},
                             inputs,
                             n,
                             nullptr,
                             -1,
                             async != 0},
                            site, loc, [&](auto &m) {
                              return sendFull(
                                  m, team, pairs, channel, hostTransfer != 0,
                                  OperandList(inputs, n), async != 0);
                            });
}

[[gnu::noinline]] distrt_handle_t
recvCall(int64_t team, const distrt_groups_t *pairs, int64_t channel,
         int32_t hostTransfer, int64_t n, const distrt_operand_t *outputs,
         int32_t async, distrt_site_t *site, const char *loc) noexcept {
  return memoized<RecvFast>(gRecvMemo, "recv",
                            {team,
                             pairs,
                             {channel, hostTransfer != 0},
                             nullptr,
                             -1,
                             outputs,
                             n,
                             async != 0},
                            site, loc, [&](auto &m) {
                              return recvFull(
                                  m, team, pairs, channel, hostTransfer != 0,
                                  OperandList(outputs, n), async != 0);
                            });
}

} // namespace
} // namespace distrt::detail

// A static site's matching call is a few compares and its MPI call; any
// other call is a tail call to the general path, out of line so that the
// static path stays lean (it is a small message's whole cost on top of
// MPI).

distrt_handle_t
distrt_collective_permute(int64_t team, const distrt_groups_t *pairs, int64_t n,
                          const distrt_operand_t *inputs,
                          const distrt_operand_t *outputs, int32_t async,
                          distrt_site_t *site, const char *loc) {
  using namespace distrt::detail;
  if (auto *m = PermuteFast::siteHit(gPermuteMemo, site, team, inputs, n,
                                     outputs, n, async)) [[likely]]
    return PermuteFast::run(*m, "collective_permute", team, async, loc);
  return permuteCall(team, pairs, n, inputs, outputs, async, site, loc);
}

distrt_handle_t distrt_send(int64_t team, const distrt_groups_t *pairs,
                            int64_t channel_id, int32_t host_transfer,
                            int64_t n, const distrt_operand_t *inputs,
                            int32_t async, distrt_site_t *site,
                            const char *loc) {
  using namespace distrt::detail;
  if (auto *m = SendFast::siteHit(gSendMemo, site, team, inputs, n, nullptr, -1,
                                  async)) [[likely]]
    return SendFast::run(*m, "send", team, async, loc);
  return sendCall(team, pairs, channel_id, host_transfer, n, inputs, async,
                  site, loc);
}

distrt_handle_t distrt_recv(int64_t team, const distrt_groups_t *pairs,
                            int64_t channel_id, int32_t host_transfer,
                            int64_t n, const distrt_operand_t *outputs,
                            int32_t async, distrt_site_t *site,
                            const char *loc) {
  using namespace distrt::detail;
  if (auto *m = RecvFast::siteHit(gRecvMemo, site, team, nullptr, -1, outputs,
                                  n, async)) [[likely]]
    return RecvFast::run(*m, "recv", team, async, loc);
  return recvCall(team, pairs, channel_id, host_transfer, n, outputs, async,
                  site, loc);
}

//===----------------------------------------------------------------------===//
// C++ API
//===----------------------------------------------------------------------===//

namespace distrt {

using detail::guarded;

void collectivePermute(const Team &team, const distrt_groups_t &pairs,
                       Operands inputs, Operands outputs, SourceLoc loc) {
  guarded("collective_permute", team.id(), loc, [&] {
    return detail::permuteFull(detail::gPermuteMemo.at(loc), team.id(), &pairs,
                               inputs, outputs, false);
  });
}
Request collectivePermuteAsync(const Team &team, const distrt_groups_t &pairs,
                               Operands inputs, Operands outputs,
                               SourceLoc loc) {
  return Request(guarded("collective_permute", team.id(), loc, [&] {
    return detail::permuteFull(detail::gPermuteMemo.at(loc), team.id(), &pairs,
                               inputs, outputs, true);
  }));
}

void send(const Team &team, const distrt_groups_t *pairs, int64_t channel,
          bool hostTransfer, Operands inputs, SourceLoc loc) {
  guarded("send", team.id(), loc, [&] {
    return detail::sendFull(detail::gSendMemo.at(loc), team.id(), pairs,
                            channel, hostTransfer, inputs, false);
  });
}
Request sendAsync(const Team &team, const distrt_groups_t *pairs,
                  int64_t channel, bool hostTransfer, Operands inputs,
                  SourceLoc loc) {
  return Request(guarded("send", team.id(), loc, [&] {
    return detail::sendFull(detail::gSendMemo.at(loc), team.id(), pairs,
                            channel, hostTransfer, inputs, true);
  }));
}

void recv(const Team &team, const distrt_groups_t *pairs, int64_t channel,
          bool hostTransfer, Operands outputs, SourceLoc loc) {
  guarded("recv", team.id(), loc, [&] {
    return detail::recvFull(detail::gRecvMemo.at(loc), team.id(), pairs,
                            channel, hostTransfer, outputs, false);
  });
}
Request recvAsync(const Team &team, const distrt_groups_t *pairs,
                  int64_t channel, bool hostTransfer, Operands outputs,
                  SourceLoc loc) {
  return Request(guarded("recv", team.id(), loc, [&] {
    return detail::recvFull(detail::gRecvMemo.at(loc), team.id(), pairs,
                            channel, hostTransfer, outputs, true);
  }));
}

} // namespace distrt
