//===- Broadcast.cpp - collective_broadcast ---------------------*- C++ -*-===//
//
// outputs[k] = inputs[k] of the first member of the group; zeros on
// processes in no group. The operands travel packed in one MPI_Bcast up to
// kPackLimit bytes, past it one call each; a single dense operand is
// broadcast from (root) or into (others) its own buffer. Sync broadcasts in
// groups of two are one message from the root to the other member:
// MPI_Bcast's generic tree costs about a fifth more there. The choice
// depends only on the group size and sync/async, the same on every member,
// and a layout's communicator carries no other point-to-point traffic.
// Past gMaxCount bytes a message is one element of a wide type
// (LargeCount.h), by the slot path.
//
//===----------------------------------------------------------------------===//

#include "../Channels.h"
#include "../LargeCount.h"
#include "../OpCall.h"

namespace distrt::detail {

namespace {

struct BroadcastPlan {
  const GroupLayout *layout;
  size_t bytes;
  /// `bytes` as MPI is given them (LargeCount.h).
  int count;
  MPI_Datatype type;
  /// Nothing to communicate: in no group, alone in it, or no bytes.
  bool local;
  /// The single operand's buffer MPI uses as is, else null.
  void *buffer;
  /// `buffer` for the direct path: null for a wide message, which takes
  /// run().
  void *direct;
  /// The root copies its input to its output before the broadcast (the
  /// output is the buffer sent) or after it (the input is).
  bool copyBefore, copyAfter;
  bool root;
  MPI_Comm comm;
  /// In a group of two, the other member (its rank in `comm`), else -1.
  int peer;
};

} // namespace

static void broadcastOnce(const BroadcastPlan &p, void *buffer, int count) {
  if (p.peer < 0) {
    checkMpi(MPI_Bcast(buffer, count, MPI_BYTE, 0, p.comm), "MPI_Bcast");
  } else if (p.root) {
    checkMpi(MPI_Send(buffer, count, MPI_BYTE, p.peer, kOwnTag, p.comm),
             "MPI_Send");
  } else {
    MPI_Status status;
    const int code =
        MPI_Recv(buffer, count, MPI_BYTE, p.peer, kOwnTag, p.comm, &status);
    checkBlockingReceive("collective_broadcast", code, status, count, p.peer,
                         "collective_broadcast operands");
  }
}

/// broadcastOnce() of a wide span (LargeCount.h).
static void broadcastWide(const BroadcastPlan &p, void *buffer, ByteSpan span) {
  if (p.peer < 0) {
    checkMpi(MPI_Bcast(buffer, span.count, span.type, 0, p.comm), "MPI_Bcast");
  } else if (p.root) {
    checkMpi(MPI_Send(buffer, span.count, span.type, p.peer, kOwnTag, p.comm),
             "MPI_Send");
  } else {
    MPI_Status status;
    const int code = MPI_Recv(buffer, span.count, span.type, p.peer, kOwnTag,
                              p.comm, &status);
    checkSpanReceive("collective_broadcast", code, status, span, p.peer,
                     "collective_broadcast operands");
  }
}

static void broadcast(RequestSlot &slot, const BroadcastPlan &p, void *buffer,
                      ByteSpan span, bool async) {
  if (!async)
    return span.wide() ? broadcastWide(p, buffer, span)
                       : broadcastOnce(p, buffer, span.count);
  postRequest(slot, "MPI_Ibcast", [&](MPI_Request *request) {
    return MPI_Ibcast(buffer, span.count, span.type, 0, p.comm, request);
  });
}

namespace {

struct Broadcast : OpKind<Broadcast, BroadcastPlan> {
  static const std::vector<int64_t> *plan(Memo<Plan> &m, const Call &c) {
    const GroupLayout &layout = resolveGroupCall(c, /*sameShape=*/true);
    const OpScratch &s = opScratch();
    const size_t bytes = totalBytes(s.ins);
    const bool root = layout.position == 0;
    // The root sends from its dense input, then copies it to the output;
    // the others receive into a dense output directly.
    void *buffer = nullptr;
    bool toOutput = false, same = false;
    if (s.ins.size() == 1) {
      const Buffer &in = s.ins[0], &out = s.outs[0];
      same = sameElements(in.bytes, out.bytes);
      if (root && in.dense && (same || !overlaps(in, out)))
        buffer = in.bytes.base;
      else if (out.dense)
        buffer = out.bytes.base;
      toOutput = root && buffer && buffer == out.bytes.base;
    }
    const ByteSpan span = byteSpan(bytes);
    m.plan = {.layout = &layout,
              .bytes = bytes,
              .count = span.count,
              .type = span.type,
              .local = layout.position < 0 || layout.size() == 1 || bytes == 0,
              .buffer = buffer,
              .direct = span.wide() ? nullptr : buffer,
              .copyBefore = toOutput && !same,
              .copyAfter = root && buffer && !toOutput,
              .root = root,
              .comm = layout.comm,
              .peer = layout.size() == 2 ? 1 - layout.position : -1};
    return &layout.key;
  }

  static bool direct(const Plan &p, bool async) {
    return !async && !p.local && p.direct;
  }

  static distrt_handle_t runDirect(const Memo<Plan> &m, const Call &) {
    const Plan &p = m.plan;
    if (p.copyBefore)
      copy(m.ins[0].bytes, m.outs[0].bytes, opScratch().copy);
    broadcastOnce(p, p.direct, p.count);
    if (p.copyAfter)
      copy(m.ins[0].bytes, m.outs[0].bytes, opScratch().copy);
    return 0;
  }

  static distrt_handle_t run(Memo<Plan> &m, const Call &c) {
    const Plan &p = m.plan;
    if (p.local) {
      // Not in any group: zeros. Alone in its group: its own value.
      for (size_t k = 0; k < m.ins.size(); ++k)
        if (p.layout->position < 0)
          zero(m.outs[k].bytes);
        else
          copy(m.ins[k].bytes, m.outs[k].bytes, opScratch().copy);
      return done(c.op, c.team, c.loc, c.async);
    }
    const bool each = m.ins.size() > 1 && p.bytes > kPackLimit;
    return runInSlot(c.op, c.team, c.loc, c.async, [&](RequestSlot &slot) {
      if (each)
        broadcastEach(slot, m, c.async);
      else
        broadcastPacked(slot, m, c.async);
    });
  }

private:
  /// All operands in one message (or the single operand's own buffer).
  static void broadcastPacked(RequestSlot &slot, const Memo<Plan> &m,
                              bool async) {
    const Plan &p = m.plan;
    void *buffer = p.buffer;
    if (!buffer) {
      slot.stage(p.bytes);
      buffer = slot.staging.data();
      size_t offset = 0;
      for (size_t k = 0; k < m.ins.size(); ++k) {
        if (p.root)
          pack(m.ins[k].bytes, slot.staging.data() + offset);
        const Buffer &out = m.outs[k];
        slot.addUnpack(offset, out.bytes.base, out.rank(), out.sizes(),
                       out.strides(), out.bytes.elementSize);
        offset += out.byteCount;
      }
    } else if (p.copyBefore) {
      copy(m.ins[0].bytes, m.outs[0].bytes, opScratch().copy);
    }
    broadcast(slot, p, buffer, {p.count, p.type}, async);
    // MPI only reads the root's buffer: copying from it while the
    // broadcast runs is allowed.
    if (p.copyAfter)
      copy(m.ins[0].bytes, m.outs[0].bytes, opScratch().copy);
  }

  /// One MPI call per operand, from and into its own buffers where they
  /// allow it.
  static void broadcastEach(RequestSlot &slot, const Memo<Plan> &m,
                            bool async) {
    const Plan &p = m.plan;
    slot.stage(stagedBytes(m.outs));
    size_t offset = 0;
    m.forEachNonEmpty([&](const Buffer &in, const Buffer &out) {
      // The root sends from its dense input and copies it to the output
      // while MPI reads it; otherwise from (or into) the dense output, else
      // from staging.
      const bool fromInput = p.root && in.dense && !overlaps(in, out);
      void *buffer = out.bytes.base;
      if (fromInput) {
        buffer = in.bytes.base;
      } else if (!out.dense) {
        buffer = slot.staging.data() + offset;
        if (p.root)
          pack(in.bytes, slot.staging.data() + offset);
        slot.addUnpack(offset, out.bytes.base, out.rank(), out.sizes(),
                       out.strides(), out.bytes.elementSize);
        offset += alignUp(out.byteCount);
      } else if (p.root) {
        copy(in.bytes, out.bytes, opScratch().copy);
      }
      broadcast(slot, p, buffer, byteSpan(out.byteCount), async);
      if (fromInput)
        copy(in.bytes, out.bytes, opScratch().copy);
    });
  }
};

} // namespace
} // namespace distrt::detail

using namespace distrt::detail;

distrt_handle_t
distrt_collective_broadcast(int64_t team, const distrt_groups_t *groups,
                            int64_t n, const distrt_operand_t *inputs,
                            const distrt_operand_t *outputs, int32_t async,
                            distrt_site_t *site, const char *loc) {
  return cEntry<Broadcast>("collective_broadcast", team, groups, {}, n, inputs,
                           n, outputs, async, site, loc);
}

namespace distrt {

void collectiveBroadcast(const Team &team, const Groups &groups,
                         Operands inputs, Operands outputs, Site *site,
                         SourceLoc loc) {
  cxxSync<Broadcast>("collective_broadcast", team, &groups.spec(), {}, inputs,
                     outputs, site, loc);
}
Request collectiveBroadcastAsync(const Team &team, const Groups &groups,
                                 Operands inputs, Operands outputs, Site *site,
                                 SourceLoc loc) {
  return cxxAsync<Broadcast>("collective_broadcast", team, &groups.spec(), {},
                             inputs, outputs, site, loc);
}

} // namespace distrt
