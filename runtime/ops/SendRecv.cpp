//===- SendRecv.cpp - send and recv -----------------------------*- C++ -*-===//
//
// On the team's channel communicator, one tag per channelId (channelTag),
// so channels are kept apart and the messages of one channel arrive in
// order (MPI's non-overtaking rule); a channelId with no tag of its own
// left is an error on every rank. The sync send is buffered: it copies the
// inputs, posts the send and returns without waiting for the receiver, so
// a `send` then `recv` program cannot deadlock. The async send sends
// straight from a single dense input (posted before its handle is taken,
// so the message leaves first), which must stay alive until it is waited.
// Host transfers go through the process's queues (Channels.h). A message
// past gMaxCount bytes is one element of a wide type (LargeCount.h), sent
// and received by run().
//
//===----------------------------------------------------------------------===//

#include "../Channels.h"
#include "../LargeCount.h"
#include "../OpCall.h"

namespace distrt::detail {

namespace {

/// How a call travels: MPI (the direct path serves it where it can), the
/// host-transfer queues, or MPI past gMaxCount bytes (always by run()).
enum class Path : uint8_t { Mpi, Host, Wide };

struct ChannelPlan {
  TeamState *team;
  /// Target (send) or source (recv), -1 for none.
  int peer;
  MPI_Comm comm;
  int tag;
  size_t bytes;
  /// `bytes` as MPI is given them (LargeCount.h).
  int count;
  MPI_Datatype type;
  Path path;
  /// The single operand, dense: sent or received as it is.
  bool dense;
  void *buffer;
};

} // namespace

/// Plans a send (`inputs` true) or recv of the operands resolved in `s`.
static const std::vector<int64_t> *planChannel(Memo<ChannelPlan> &m,
                                               const Call &c, bool inputs) {
  OpScratch &s = opScratch();
  std::vector<Buffer> &buffers = inputs ? s.ins : s.outs;
  resolve(inputs ? c.inputs : c.outputs, buffers, inputs ? "input" : "output");
  (inputs ? s.outs : s.ins).clear();
  TeamState &team = lookupTeam(c.team);
  const int64_t channel = c.params.scalar(0);
  const bool hostTransfer = c.params.scalar(1) != 0;
  m.plan = {.team = &team,
            .peer = -1,
            .comm = MPI_COMM_NULL,
            .tag = 0,
            .bytes = totalBytes(buffers),
            .count = 0,
            .type = MPI_BYTE,
            .path = hostTransfer ? Path::Host : Path::Mpi,
            .dense = buffers.size() == 1 && buffers[0].dense,
            .buffer = buffers.size() == 1 ? buffers[0].bytes.base : nullptr};
  if (hostTransfer)
    return nullptr; // the pairs are not used
  const PairLayout &layout = pairLayout(team, c.groups);
  ChannelPlan &p = m.plan;
  p.peer = inputs ? layout.target : layout.source;
  // Every rank checks the channel, with a peer or not, so that all fail.
  p.tag = channelTag(team, channel);
  if (p.peer >= 0) {
    const ByteSpan span = byteSpan(p.bytes);
    p.count = span.count;
    p.type = span.type;
    if (span.wide())
      p.path = Path::Wide;
    p.comm = channelComm(team);
  }
  return &layout.key;
}

/// What a send or recv blocked on waits for (the watchdog's report).
static void describeChannelWait(BlockedCall &b, const ChannelPlan &p,
                                const Call &c, bool send) {
  b.channel = c.params.scalar(0);
  if (p.path == Path::Host) {
    b.waitsFor = send ? "the host's recv on channel_id {channel}"
                      : "the host's send on channel_id {channel}";
    return;
  }
  b.waitsFor = send ? "rank {peers} to receive on channel_id {channel}"
                    : "a message from rank {peers} on channel_id {channel}";
  b.setPeer(p.peer);
}

/// Checked mode's headers of a send (`send`) or recv: on the team's check
/// communicator with the channel's tag; none for host transfers.
static MessageRoute channelRoute(const ChannelPlan &p, bool send) {
  if (p.path == Path::Host || p.peer < 0)
    return {};
  return {.sendPeer = send ? p.peer : -1,
          .recvPeer = send ? -1 : p.peer,
          .comm = p.team->checkComm,
          .tag = p.tag};
}

namespace {

/// What send and recv share: planning, the watchdog's report and checked
/// mode's headers, told apart by `kSend`.
template <class Op, bool kSend> struct ChannelOp : OpKind<Op, ChannelPlan> {
  using Plan = ChannelPlan;
  static constexpr bool kCollective = false;
  static const std::vector<int64_t> *plan(Memo<Plan> &m, const Call &c) {
    return planChannel(m, c, /*inputs=*/kSend);
  }
  static void describeWait(BlockedCall &b, const Memo<Plan> &m, const Call &c) {
    describeChannelWait(b, m.plan, c, kSend);
  }
  static MessageRoute route(const Memo<Plan> &m) {
    return channelRoute(m.plan, kSend);
  }
};

struct Send : ChannelOp<Send, /*kSend=*/true> {

  /// Sync: the buffered send. Async: one MPI_Isend from the dense input.
  static bool direct(const Plan &p, bool async) {
    return p.path == Path::Mpi && p.peer >= 0 && (!async || p.dense);
  }

  static distrt_handle_t runDirect(const Memo<Plan> &m, const DirectCall &c) {
    const Plan &p = m.plan;
    if (!c.async) {
      bufferedSend(*p.team, m.ins, p.count, p.peer, p.tag, p.comm);
      return 0;
    }
    MPI_Request request;
    checkMpi(
        MPI_Isend(p.buffer, p.count, MPI_BYTE, p.peer, p.tag, p.comm, &request),
        "MPI_Isend");
    return adoptRequest(c.op, c.team, c.loc, request);
  }

  static distrt_handle_t run(Memo<Plan> &m, const Call &c) {
    const Plan &p = m.plan;
    if (p.path == Path::Host) {
      hostSend(*p.team, c.params.scalar(0), m.ins);
      return done(c.op, c.team, c.loc, c.async);
    }
    if (p.peer < 0)
      return done(c.op, c.team, c.loc, c.async);
    if (p.path == Path::Wide) {
      // The direct path's sends, with the wide type.
      if (!c.async) {
        bufferedSendWide(*p.team, m.ins, p.type, p.peer, p.tag, p.comm);
        return 0;
      }
      if (p.dense) {
        MPI_Request request;
        checkMpi(MPI_Isend(p.buffer, p.count, p.type, p.peer, p.tag, p.comm,
                           &request),
                 "MPI_Isend");
        return adoptRequest(c.op, c.team, c.loc, request);
      }
    }
    // Async from several or strided inputs: from a packed copy.
    return runInSlot(c.op, c.team, c.loc, true, [&](RequestSlot &slot) {
      slot.stage(p.bytes);
      packAll(m.ins, slot.staging.data());
      postRequest(slot, "MPI_Isend", [&](MPI_Request *request) {
        return MPI_Isend(slot.staging.data(), p.count, p.type, p.peer, p.tag,
                         p.comm, request);
      });
    });
  }
};

struct Recv : ChannelOp<Recv, /*kSend=*/false> {

  /// A sync MPI_Recv into the dense output.
  static bool direct(const Plan &p, bool async) {
    return !async && p.path == Path::Mpi && p.peer >= 0 && p.dense;
  }

  /// One blocking receive, no slot, with the checks of a wait.
  static distrt_handle_t runDirect(const Memo<Plan> &m, const DirectCall &) {
    const Plan &p = m.plan;
    MPI_Status status;
    const int code =
        MPI_Recv(p.buffer, p.count, MPI_BYTE, p.peer, p.tag, p.comm, &status);
    checkBlockingReceive("recv", code, status, p.count, p.peer,
                         "recv operands");
    return 0;
  }

  static distrt_handle_t run(Memo<Plan> &m, const Call &c) {
    const Plan &p = m.plan;
    if (p.path == Path::Host)
      return hostRecv(*p.team, c.params.scalar(0), m.outs, c.async, c.loc);
    if (p.peer < 0) {
      zeroAll(m.outs);
      return done(c.op, c.team, c.loc, c.async);
    }
    return runInSlot(c.op, c.team, c.loc, c.async, [&](RequestSlot &slot) {
      // A single dense output receives in place: no staging.
      slot.stage(p.dense ? 0 : p.bytes);
      postReceive(slot, m.outs, 0, p.peer, p.tag, p.comm, "recv operands");
    });
  }
};

} // namespace
} // namespace distrt::detail

using namespace distrt::detail;

// send and recv each take one operand list: inputs, or outputs.

distrt_handle_t distrt_send(int64_t team, const distrt_groups_t *pairs,
                            int64_t channelId, int32_t hostTransfer, int64_t n,
                            const distrt_operand_t *inputs, int32_t async,
                            distrt_site_t *site, const char *loc) {
  const int64_t scalars[] = {channelId, hostTransfer != 0};
  return cEntry<Send>("send", team, pairs, Params(scalars), n, inputs, -1,
                      nullptr, async, site, loc);
}

distrt_handle_t distrt_recv(int64_t team, const distrt_groups_t *pairs,
                            int64_t channelId, int32_t hostTransfer, int64_t n,
                            const distrt_operand_t *outputs, int32_t async,
                            distrt_site_t *site, const char *loc) {
  const int64_t scalars[] = {channelId, hostTransfer != 0};
  return cEntry<Recv>("recv", team, pairs, Params(scalars), -1, nullptr, n,
                      outputs, async, site, loc);
}

namespace distrt {

void send(const Team &team, const Groups &pairs, int64_t channel,
          bool hostTransfer, Operands inputs, Site *site, SourceLoc loc) {
  const int64_t scalars[] = {channel, hostTransfer};
  cxxSync<Send>("send", team, &pairs.spec(), Params(scalars), inputs,
                OperandList::none(), site, loc);
}
Request sendAsync(const Team &team, const Groups &pairs, int64_t channel,
                  bool hostTransfer, Operands inputs, Site *site,
                  SourceLoc loc) {
  const int64_t scalars[] = {channel, hostTransfer};
  return cxxAsync<Send>("send", team, &pairs.spec(), Params(scalars), inputs,
                        OperandList::none(), site, loc);
}

void recv(const Team &team, const Groups &pairs, int64_t channel,
          bool hostTransfer, Operands outputs, Site *site, SourceLoc loc) {
  const int64_t scalars[] = {channel, hostTransfer};
  cxxSync<Recv>("recv", team, &pairs.spec(), Params(scalars),
                OperandList::none(), outputs, site, loc);
}
Request recvAsync(const Team &team, const Groups &pairs, int64_t channel,
                  bool hostTransfer, Operands outputs, Site *site,
                  SourceLoc loc) {
  const int64_t scalars[] = {channel, hostTransfer};
  return cxxAsync<Recv>("recv", team, &pairs.spec(), Params(scalars),
                        OperandList::none(), outputs, site, loc);
}

} // namespace distrt
