//===- Permute.cpp - collective_permute -------------------------*- C++ -*-===//
//
// On the team's permute communicator every process receives from its source
// and sends to its target in source_target_pairs; the operands travel as
// one message of packed bytes (a single dense operand as is). A sync call
// on the operands' own buffers is one MPI_Sendrecv (or MPI_Send, MPI_Recv);
// otherwise the receive is posted before the send, both in one request. A
// process that is nobody's target gets zeros, a self-pair copies. Past
// gMaxCount bytes the message is one element of a wide type (LargeCount.h),
// by the slot path.
//
//===----------------------------------------------------------------------===//

#include "../Channels.h"
#include "../LargeCount.h"
#include "../OpCall.h"

namespace distrt::detail {
namespace {

struct PermutePlan {
  const PairLayout *layout;
  MPI_Comm comm;
  /// This process's target and source (team ranks, -1: none).
  int target, source;
  /// To / from another process.
  bool sends, receives;
  /// A copy to itself (a self-pair) or zeros: nothing to communicate.
  bool local;
  size_t bytes;
  /// `bytes` as MPI is given them (LargeCount.h).
  int count;
  MPI_Datatype type;
  /// The single operand's input (output) MPI sends from (receives into);
  /// null when staged.
  const void *sendBuffer;
  void *recvBuffer;
  /// The same for the direct path: null for a wide message, which takes
  /// run().
  const void *send;
  void *recv;
};

struct Permute : OpKind<Permute, PermutePlan> {
  static constexpr bool kCollective = false;
  /// Every member calls it: checked mode agrees on the pairs first (a
  /// header alone cannot tell a sender that its target receives nothing).
  static constexpr bool kAgreesAsCollective = true;
  static constexpr const char *kGroupsName = "source_target_pairs";
  /// Checked mode's headers: on the permute communicator, beside the data
  /// (kOwnTag), with a tag of their own.
  static MessageRoute route(const Memo<Plan> &m) {
    const Plan &p = m.plan;
    if (p.local)
      return {};
    return {.sendPeer = p.sends ? p.target : -1,
            .recvPeer = p.receives ? p.source : -1,
            .comm = p.comm,
            .tag = kOwnTag + 1};
  }
  static void describeWait(BlockedCall &b, const Memo<Plan> &m, const Call &) {
    b.waitsFor = "the exchange with its target and source (team ranks "
                 "{peers})";
    const int peers[] = {m.plan.target, m.plan.source};
    b.setPeers(peers);
  }

  static const std::vector<int64_t> *plan(Memo<Plan> &m, const Call &c) {
    // The operands first: the C ABI's arrays are checked before anything.
    OpScratch &s = opScratch();
    resolvePairs(c.inputs, c.outputs, s, /*sameShape=*/true);
    TeamState &team = lookupTeam(c.team);
    const PairLayout &layout = pairLayout(team, c.groups);
    const size_t bytes = totalBytes(s.ins);
    const bool sends = layout.target >= 0 && layout.target != team.rank;
    const bool receives = layout.source >= 0 && layout.source != team.rank;
    // Outputs that overlap inputs are written (received or zeroed) while
    // the send may still read: send from a copy then.
    const bool directSend =
        s.ins.size() == 1 && s.ins[0].dense && !anyOverlap(s);
    const bool directRecv = s.outs.size() == 1 && s.outs[0].dense;
    const ByteSpan span = byteSpan(bytes);
    const bool narrow = !span.wide();
    m.plan = {.layout = &layout,
              .comm = permuteComm(team),
              .target = layout.target,
              .source = layout.source,
              .sends = sends,
              .receives = receives,
              .local = bytes == 0 || (!sends && !receives),
              .bytes = bytes,
              .count = span.count,
              .type = span.type,
              .sendBuffer = directSend ? s.ins[0].bytes.base : nullptr,
              .recvBuffer = directRecv ? s.outs[0].bytes.base : nullptr,
              .send = directSend && narrow ? s.ins[0].bytes.base : nullptr,
              .recv = directRecv && narrow ? s.outs[0].bytes.base : nullptr};
    return &layout.key;
  }

  static bool direct(const Plan &p, bool async) {
    return !async && !p.local && (p.send || !p.sends) &&
           (p.recv || !p.receives);
  }

  /// One blocking call, no slot, with the receive checks of a wait.
  static distrt_handle_t runDirect(const Memo<Plan> &m, const DirectCall &) {
    const Plan &p = m.plan;
    if (!p.receives) {
      checkMpi(MPI_Send(p.send, p.count, MPI_BYTE, p.target, kOwnTag, p.comm),
               "MPI_Send");
      zeroAll(m.outs);
      return 0;
    }
    MPI_Status status;
    const int code = p.sends ? MPI_Sendrecv(p.send, p.count, MPI_BYTE, p.target,
                                            kOwnTag, p.recv, p.count, MPI_BYTE,
                                            p.source, kOwnTag, p.comm, &status)
                             : MPI_Recv(p.recv, p.count, MPI_BYTE, p.source,
                                        kOwnTag, p.comm, &status);
    checkBlockingReceive("collective_permute", code, status, p.count, p.source,
                         "collective_permute operands");
    return 0;
  }

  static distrt_handle_t run(Memo<Plan> &m, const Call &c) {
    const Plan &p = m.plan;
    if (p.local) {
      if (!p.receives && p.source >= 0) // a self-pair
        for (size_t k = 0; k < m.ins.size(); ++k)
          copy(m.ins[k].bytes, m.outs[k].bytes, opScratch().copy);
      else
        zeroAll(m.outs);
      return done(c.op, c.team, c.loc, c.async);
    }
    return runInSlot(c.op, c.team, c.loc, c.async, [&](RequestSlot &slot) {
      const size_t sendBytes = p.sends && !p.sendBuffer ? alignUp(p.bytes) : 0;
      const size_t total =
          sendBytes + (p.receives && !p.recvBuffer ? p.bytes : 0);
      slot.stage(total);
      if (sendBytes)
        packAll(m.ins, slot.staging.data());
      if (p.receives)
        postReceive(slot, m.outs, sendBytes, p.source, kOwnTag, p.comm,
                    "collective_permute operands");
      if (p.sends) {
        const void *data = p.sendBuffer ? p.sendBuffer : slot.staging.data();
        postRequest(slot, "MPI_Isend", [&](MPI_Request *request) {
          return MPI_Isend(data, p.count, p.type, p.target, kOwnTag, p.comm,
                           request);
        });
      }
      if (!p.receives)
        zeroAll(m.outs);
    });
  }
};

} // namespace
} // namespace distrt::detail

using namespace distrt::detail;

distrt_handle_t
distrt_collective_permute(int64_t team, const distrt_groups_t *pairs, int64_t n,
                          const distrt_operand_t *inputs,
                          const distrt_operand_t *outputs, int32_t async,
                          distrt_site_t *site, const char *loc) {
  return cEntry<Permute>("collective_permute", team, pairs, {}, n, inputs, n,
                         outputs, async, site, loc);
}

namespace distrt {

void collectivePermute(const Team &team, const Groups &pairs, Operands inputs,
                       Operands outputs, Site *site, SourceLoc loc) {
  cxxSync<Permute>("collective_permute", team, &pairs.spec(), {}, inputs,
                   outputs, site, loc);
}
Request collectivePermuteAsync(const Team &team,
                               const Groups &pairs, // source_target_pairs
                               Operands inputs, Operands outputs, Site *site,
                               SourceLoc loc) {
  return cxxAsync<Permute>("collective_permute", team, &pairs.spec(), {},
                           inputs, outputs, site, loc);
}

} // namespace distrt
