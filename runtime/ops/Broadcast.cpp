//===- Broadcast.cpp - collective_broadcast ---------------------*- C++ -*-===//
//
// outputs[k] = inputs[k] of the member at position roots[k] of the group
// (the first member without a roots table); zeros on processes in no group.
// Operands of one root travel packed in one MPI_Bcast up to kPackLimit bytes,
// past it (or when the roots differ) one call each; a single dense operand is
// broadcast from (root) or into (others) its own buffer. Sync broadcasts in
// groups of two are one message from the root to the other member:
// MPI_Bcast's generic tree costs about a fifth more there. The choice
// depends only on the group size, sync/async and the roots, the same on
// every member, and a layout's communicator carries no other point-to-point
// traffic. Past gMaxCount bytes a message is one element of a wide type
// (LargeCount.h), by the slot path. The roots are the call's one table,
// matched by content and, in checked mode, agreed on within each group.
//
//===----------------------------------------------------------------------===//

#include "../Channels.h"
#include "../LargeCount.h"
#include "../OpCall.h"
#include "../SharedGroup.h"

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
  /// The operands' one root: its position in the group (its rank in
  /// `comm`), -1 when their roots differ (one call each); and whether it is
  /// this process.
  int rootRank;
  bool root;
  MPI_Comm comm;
  /// In a group of two, the other member (its rank in `comm`), else -1.
  int peer;
  /// The group's shared window (SharedGroup.h), looked up at the first sync
  /// call small enough for it, where every member is.
  mutable SharedGroup *group = nullptr;
};

/// Where one message comes from: the root's rank in the group's
/// communicator, and whether it is this process.
struct Source {
  int rank;
  bool self;
};

} // namespace

/// The roots table of the call, or null (every root is the first member).
static const distrt_table_t *rootsOf(const Call &c) {
  return c.params.tables().empty() ? nullptr : c.params.table(0);
}

/// Checks the roots against the call and this process's group: one per
/// input, each a position in the group. Returns their one value, or -1 if
/// they differ. A process in no group ignores them.
static int checkRoots(const Call &c, const GroupLayout &layout, size_t n) {
  const distrt_table_t *roots = rootsOf(c);
  if (!roots)
    return 0;
  if (roots->size != static_cast<int64_t>(n))
    raise("the roots table has {} entries but the op has {} inputs: it needs "
          "one root index per input",
          roots->size, n);
  if (layout.position < 0)
    return 0;
  for (size_t k = 0; k < n; ++k)
    if (roots->values[k] < 0 || roots->values[k] >= layout.size())
      raise("root index {} of input #{} is out of range [0, {}): its process "
            "group (team ranks {}) has {} members",
            roots->values[k], k, layout.size(), fmt::join(layout.members, ", "),
            layout.size());
  for (size_t k = 1; k < n; ++k)
    if (roots->values[k] != roots->values[0])
      return -1;
  return n ? static_cast<int>(roots->values[0]) : 0;
}

/// The source of operand k.
static Source sourceOf(const BroadcastPlan &p, const Call &c, size_t k) {
  if (p.rootRank >= 0)
    return {p.rootRank, p.root};
  const int rank = static_cast<int>(rootsOf(c)->values[k]);
  return {rank, rank == p.layout->position};
}

static void broadcastOnce(const BroadcastPlan &p, Source from, void *buffer,
                          int count) {
  if (p.peer < 0) {
    checkMpi(MPI_Bcast(buffer, count, MPI_BYTE, from.rank, p.comm),
             "MPI_Bcast");
  } else if (from.self) {
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
static void broadcastWide(const BroadcastPlan &p, Source from, void *buffer,
                          ByteSpan span) {
  if (p.peer < 0) {
    checkMpi(MPI_Bcast(buffer, span.count, span.type, from.rank, p.comm),
             "MPI_Bcast");
  } else if (from.self) {
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

static void broadcast(RequestSlot &slot, const BroadcastPlan &p, Source from,
                      void *buffer, ByteSpan span, bool async) {
  if (!async)
    return span.wide() ? broadcastWide(p, from, buffer, span)
                       : broadcastOnce(p, from, buffer, span.count);
  postRequest(slot, "MPI_Ibcast", [&](MPI_Request *request) {
    return MPI_Ibcast(buffer, span.count, span.type, from.rank, p.comm,
                      request);
  });
}

namespace {

/// Smaller broadcasts keep MPI: its root's message is eager and the root
/// runs ahead of its receivers, where a round of the shared window waits
/// for them to have read the round before (np 2, 8-128 B: 1.1-2.3x
/// MPI_Bcast's time through the window, 0.3-0.5 from 512 B).
constexpr size_t kSharedMinBytes = 256;

struct Broadcast : OpKind<Broadcast, BroadcastPlan> {
  static constexpr std::array kParams{"roots"};
  /// Groups may broadcast from different positions: the members of each
  /// group agree on the roots, not the whole team.
  static constexpr size_t kGroupTables = 1;

  static const std::vector<int64_t> *plan(Memo<Plan> &m, const Call &c) {
    const GroupLayout &layout = resolveGroupCall(c, /*sameShape=*/true);
    const OpScratch &s = opScratch();
    const size_t bytes = totalBytes(s.ins);
    const int rootRank = checkRoots(c, layout, s.ins.size());
    const bool root = rootRank >= 0 && layout.position == rootRank;
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
              .rootRank = rootRank,
              .root = root,
              .comm = layout.comm,
              .peer = layout.size() == 2 ? 1 - layout.position : -1};
    return &layout.key;
  }

  static bool direct(const Plan &p, bool async) {
    return !async && !p.local && p.direct;
  }

  /// A sync call of one root whose operands fit a slot of the group's
  /// shared window (SharedGroup.h): the root packs them into its slot,
  /// every member (the root too) unpacks them from there into its outputs.
  /// True if it ran there (a decision every member of the group makes
  /// alike: the group, the root, the bytes).
  static bool broadcastInGroup(const Memo<Plan> &m) {
    const Plan &p = m.plan;
    if (p.local || p.rootRank < 0 || p.bytes < kSharedMinBytes ||
        p.bytes > SharedGroup::kMaxBytes)
      return false;
    if (!p.group)
      p.group = &sharedGroup(lookupTeam(m.head[0]), p.comm); // its team
    if (!p.group->fits(p.bytes, p.bytes))
      return false;
    const auto fill = [&](std::byte *slot) {
      if (!p.root)
        return;
      for (const Buffer &in : m.ins) {
        pack(in.bytes, slot);
        slot += in.byteCount;
      }
    };
    const auto read = [&](const std::byte *slot, uint64_t sent) {
      // Only the root's bytes are read: a member expecting others is the
      // one in error, as with a message.
      if (!p.root)
        checkSlotBytes(p.layout->members[static_cast<size_t>(p.rootRank)], sent,
                       p.bytes, "collective_broadcast operands");
      for (const Buffer &out : m.outs) {
        unpack(slot, out.bytes);
        slot += out.byteCount;
      }
    };
    broadcastShared(*p.group, static_cast<size_t>(p.rootRank), p.bytes, fill,
                    read);
    return true;
  }

  static distrt_handle_t runDirect(const Memo<Plan> &m, const DirectCall &) {
    const Plan &p = m.plan;
    if (broadcastInGroup(m))
      return 0;
    if (p.copyBefore)
      copy(m.ins[0].bytes, m.outs[0].bytes, opScratch().copy);
    broadcastOnce(p, {p.rootRank, p.root}, p.direct, p.count);
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
    if (!c.async && broadcastInGroup(m))
      return 0;
    const bool each =
        m.ins.size() > 1 && (p.bytes > kPackLimit || p.rootRank < 0);
    return runInSlot(c.op, c.team, c.loc, c.async, [&](RequestSlot &slot) {
      if (each)
        broadcastEach(slot, m, c);
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
    broadcast(slot, p, {p.rootRank, p.root}, buffer, {p.count, p.type}, async);
    // MPI only reads the root's buffer: copying from it while the
    // broadcast runs is allowed.
    if (p.copyAfter)
      copy(m.ins[0].bytes, m.outs[0].bytes, opScratch().copy);
  }

  /// One MPI call per operand, each from its own root, from and into its
  /// own buffers where they allow it.
  static void broadcastEach(RequestSlot &slot, const Memo<Plan> &m,
                            const Call &c) {
    const Plan &p = m.plan;
    slot.stage(stagedBytes(m.outs));
    size_t offset = 0;
    for (size_t k = 0; k < m.ins.size(); ++k) {
      const Buffer &in = m.ins[k], &out = m.outs[k];
      if (out.count == 0)
        continue;
      const Source from = sourceOf(p, c, k);
      // The root sends from its dense input and copies it to the output
      // while MPI reads it; otherwise from (or into) the dense output, else
      // from staging.
      const bool fromInput = from.self && in.dense && !overlaps(in, out);
      void *buffer = out.bytes.base;
      if (fromInput) {
        buffer = in.bytes.base;
      } else if (!out.dense) {
        buffer = slot.staging.data() + offset;
        if (from.self)
          pack(in.bytes, slot.staging.data() + offset);
        slot.addUnpack(offset, out.bytes.base, out.rank(), out.sizes(),
                       out.strides(), out.bytes.elementSize);
        offset += alignUp(out.byteCount);
      } else if (from.self) {
        copy(in.bytes, out.bytes, opScratch().copy);
      }
      broadcast(slot, p, from, buffer, byteSpan(out.byteCount), c.async);
      if (fromInput)
        copy(in.bytes, out.bytes, opScratch().copy);
    }
  }
};

} // namespace
} // namespace distrt::detail

using namespace distrt::detail;

distrt_handle_t distrt_collective_broadcast(
    int64_t team, const distrt_groups_t *groups, const distrt_table_t *roots,
    int64_t n, const distrt_operand_t *inputs, const distrt_operand_t *outputs,
    int32_t async, distrt_site_t *site, const char *loc) {
  const distrt_table_t *tables[] = {roots};
  return cEntry<Broadcast>("collective_broadcast", team, groups,
                           Params({}, std::span(tables, roots ? 1 : 0)), n,
                           inputs, n, outputs, async, site, loc);
}

namespace distrt {

namespace {
/// Dynamic roots as the generic path takes them: the call's one table.
struct RootsTable {
  distrt_table_t table;
  const distrt_table_t *tables[1] = {&table};

  explicit RootsTable(std::span<const int64_t> roots)
      : table{static_cast<int64_t>(roots.size()), roots.data()} {}
  RootsTable(const RootsTable &) = delete;
  detail::Params params() const { return detail::Params({}, tables); }
};
} // namespace

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
void collectiveBroadcast(const Team &team, const Groups &groups,
                         std::span<const int64_t> roots, Operands inputs,
                         Operands outputs, Site *site, SourceLoc loc) {
  const RootsTable table(roots);
  cxxSync<Broadcast>("collective_broadcast", team, &groups.spec(),
                     table.params(), inputs, outputs, site, loc);
}
Request collectiveBroadcastAsync(const Team &team, const Groups &groups,
                                 std::span<const int64_t> roots,
                                 Operands inputs, Operands outputs, Site *site,
                                 SourceLoc loc) {
  const RootsTable table(roots);
  return cxxAsync<Broadcast>("collective_broadcast", team, &groups.spec(),
                             table.params(), inputs, outputs, site, loc);
}

} // namespace distrt
