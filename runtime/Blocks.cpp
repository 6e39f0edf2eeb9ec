//===- Blocks.cpp - Block exchanges: all_gather and all_to_all ------------===//

#include "Blocks.h"
#include "Request.h"

#include <cstring>

namespace distrt::detail {

/// Whether operand (in, out) is sent and received as it is: dense, with its
/// blocks contiguous byte ranges, and the input not written by the receive.
static std::pair<bool, bool> asIs(const BlockPlan &p, const Buffer &in,
                                  const Buffer &out) {
  return {in.dense &&
              (p.shape.splitDim < 0 ||
               leadingElements(in.rank(), in.sizes(), p.shape.splitDim) == 1) &&
              !overlaps(in, out),
          out.dense &&
              leadingElements(out.rank(), out.sizes(), p.shape.concatDim) == 1};
}

/// How many blocks a member sends: one (all_gather) or one per member.
static size_t sentBlocks(const BlockPlan &p) {
  return p.shape.gather ? 1 : static_cast<size_t>(p.layout->size());
}

/// The bytes of operand `in` in one member's block.
static size_t blockBytes(const BlockPlan &p, const Buffer &in) {
  return in.byteCount / sentBlocks(p);
}

/// The input's block for member j (all_to_all) or the whole input.
static StridedBytes sentSlice(const BlockPlan &p, const Buffer &in,
                              const int64_t *blockSizes, int64_t j) {
  if (p.shape.splitDim < 0)
    return in.bytes;
  return in.slice(p.shape.splitDim, j, blockSizes[p.shape.splitDim],
                  blockSizes);
}

/// The output's slice receiving member j's block.
static StridedBytes receivedSlice(const BlockPlan &p, const Buffer &out,
                                  const int64_t *blockSizes, int64_t j) {
  return out.slice(p.shape.concatDim, j, blockSizes[p.shape.concatDim],
                   blockSizes);
}

static void addUnpackOf(RequestSlot &slot, size_t offset,
                        const StridedBytes &to) {
  slot.addUnpack(offset, to.base, to.rank, to.sizes, to.strides,
                 to.elementSize);
}

static void exchange(RequestSlot &slot, const BlockPlan &p, const void *send,
                     void *recv, ByteSpan span, bool async) {
  auto [count, type] = span;
  if (!async)
    return exchangeBlocking(p, send, recv, count, type);
  postRequest(slot, p.shape.gather ? "MPI_Iallgather" : "MPI_Ialltoall",
              [&](MPI_Request *request) {
                return p.shape.gather
                           ? MPI_Iallgather(send, count, type, recv, count,
                                            type, p.comm, request)
                           : MPI_Ialltoall(send, count, type, recv, count, type,
                                           p.comm, request);
              });
}

/// All operands in one message: member j's block holds every operand's
/// block for j, one after another.
static void exchangePacked(RequestSlot &slot, const Memo<BlockPlan> &m,
                           bool async) {
  const BlockPlan &p = m.plan;
  const auto members = static_cast<size_t>(p.layout->size());
  const size_t recvOffset = p.directSend ? 0 : alignUp(p.block * sentBlocks(p));
  const size_t total = recvOffset + (p.directRecv ? 0 : p.block * members);
  slot.stage(total);
  std::byte *staging = slot.staging.data();
  size_t offset = 0;
  for (size_t j = 0; j < members; ++j) {
    const int64_t *blockSizes = m.shapes.data();
    for (size_t k = 0; k < m.ins.size(); ++k) {
      const Buffer &in = m.ins[k], &out = m.outs[k];
      const auto member = static_cast<int64_t>(j);
      if (!p.directSend && j < sentBlocks(p))
        pack(sentSlice(p, in, blockSizes, member), staging + offset);
      if (!p.directRecv)
        addUnpackOf(slot, recvOffset + offset,
                    receivedSlice(p, out, blockSizes, member));
      offset += blockBytes(p, in);
      blockSizes += in.rank();
    }
  }
  exchange(slot, p, p.directSend ? m.ins[0].bytes.base : staging,
           p.directRecv ? m.outs[0].bytes.base : staging + recvOffset,
           {p.count, p.type}, async);
}

/// One MPI call per operand, from and into its own buffers where they
/// allow it: the packing copies cost more than the extra rendezvous there.
static void exchangeEach(RequestSlot &slot, const Memo<BlockPlan> &m,
                         bool async) {
  const BlockPlan &p = m.plan;
  const auto members = static_cast<size_t>(p.layout->size());
  size_t total = 0;
  for (size_t k = 0; k < m.ins.size(); ++k) {
    const auto [sendAsIs, recvAsIs] = asIs(p, m.ins[k], m.outs[k]);
    const size_t bytes = blockBytes(p, m.ins[k]);
    total += (sendAsIs ? 0 : alignUp(bytes * sentBlocks(p))) +
             (recvAsIs ? 0 : alignUp(bytes * members));
  }
  slot.stage(total);
  size_t offset = 0;
  const int64_t *blockSizes = m.shapes.data();
  for (size_t k = 0; k < m.ins.size(); ++k) {
    const Buffer &in = m.ins[k], &out = m.outs[k];
    const int64_t *sizes = blockSizes;
    blockSizes += in.rank();
    if (in.byteCount == 0)
      continue;
    const size_t bytes = blockBytes(p, in);
    const auto [sendAsIs, recvAsIs] = asIs(p, in, out);
    const void *send = in.bytes.base;
    if (!sendAsIs) {
      std::byte *packed = slot.staging.data() + offset;
      for (size_t j = 0; j < sentBlocks(p); ++j)
        pack(sentSlice(p, in, sizes, static_cast<int64_t>(j)),
             packed + j * bytes);
      send = packed;
      offset += alignUp(bytes * sentBlocks(p));
    }
    void *recv = out.bytes.base;
    if (!recvAsIs) {
      recv = slot.staging.data() + offset;
      for (size_t j = 0; j < members; ++j)
        addUnpackOf(slot, offset + j * bytes,
                    receivedSlice(p, out, sizes, static_cast<int64_t>(j)));
      offset += alignUp(bytes * members);
    }
    exchange(slot, p, send, recv, byteSpan(bytes), async);
  }
}

/// Whether a sync call of several operands is exchangeEach() with every
/// operand as it is: then it needs neither a slot nor staging.
static bool eachAsIs(const BlockPlan &p, const OpScratch &s) {
  if (s.ins.size() < 2 || p.block <= kPackLimit)
    return false;
  for (size_t k = 0; k < s.ins.size(); ++k)
    if (asIs(p, s.ins[k], s.outs[k]) != std::pair{true, true})
      return false;
  return true;
}

void exchangeEachBlocking(const Memo<BlockPlan> &m) {
  const BlockPlan &p = m.plan;
  for (size_t k = 0; k < m.ins.size(); ++k) {
    const Buffer &in = m.ins[k];
    if (in.byteCount == 0)
      continue;
    auto [count, type] = byteSpan(blockBytes(p, in));
    exchangeBlocking(p, in.bytes.base, m.outs[k].bytes.base, count, type);
  }
}

void planBlocks(Memo<BlockPlan> &m, const GroupLayout &layout,
                const OpScratch &s, BlockShape shape, size_t block) {
  const ByteSpan span = byteSpan(block);
  m.plan = {.layout = &layout,
            .shape = shape,
            .block = block,
            .count = span.count,
            .type = span.type,
            .comm = layout.comm};
  if (s.ins.size() != 1) {
    m.plan.eachBlocking = eachAsIs(m.plan, s);
    return;
  }
  BlockPlan &p = m.plan;
  std::tie(p.directSend, p.directRecv) = asIs(p, s.ins[0], s.outs[0]);
  // A wide block takes runBlocks: the direct path is MPI_BYTE's.
  p.blocking = block > 0 && p.directSend && p.directRecv && !span.wide();
  p.send = s.ins[0].bytes.base;
  p.recv = s.outs[0].bytes.base;
}

bool exchangeInGroup(const Memo<BlockPlan> &m) {
  const BlockPlan &p = m.plan;
  const size_t sent = p.block * sentBlocks(p);
  if (p.layout->size() < 2 || p.block == 0 || sent > SharedGroup::kMaxBytes)
    return false;
  if (!p.group)
    p.group = &sharedGroup(lookupTeam(m.head[0]), p.comm); // its team
  if (!p.group->fits(sent, p.block * static_cast<size_t>(p.layout->size())))
    return false;
  const auto me = static_cast<size_t>(p.layout->position);
  // all_to_all's own block goes from the input to the output directly,
  // unless an output overlaps its input (the other blocks may have written
  // over it by then).
  bool ownInSlot = p.shape.gather;
  for (size_t k = 0; k < m.ins.size(); ++k)
    ownInSlot = ownInSlot || overlaps(m.ins[k], m.outs[k]);
  // A single operand's contiguous blocks are copied whole (the strided
  // packer costs more than a small block's bytes).
  const bool single = m.ins.size() == 1;
  const auto [sendDense, recvDense] =
      single ? asIs(p, m.ins[0], m.outs[0]) : std::pair{false, false};
  const auto fill = [&](std::byte *slot) {
    for (size_t j = 0; j < sentBlocks(p); ++j) {
      const int64_t *sizes = m.shapes.data();
      for (const Buffer &in : m.ins) {
        const size_t bytes = blockBytes(p, in);
        if (sendDense && (j != me || ownInSlot))
          std::memcpy(slot, in.bytes.base + j * bytes, bytes);
        else if (j != me || ownInSlot)
          pack(sentSlice(p, in, sizes, static_cast<int64_t>(j)), slot);
        slot += bytes;
        sizes += in.rank();
      }
    }
  };
  const auto read = [&](size_t member, const std::byte *slot, uint64_t bytes) {
    checkSlotBytes(p.layout->members[member], bytes, sent,
                   p.shape.gather ? "all_gather blocks" : "all_to_all blocks");
    slot += p.shape.gather ? 0 : me * p.block;
    const int64_t *sizes = m.shapes.data();
    for (size_t k = 0; k < m.ins.size(); ++k) {
      const StridedBytes to =
          receivedSlice(p, m.outs[k], sizes, static_cast<int64_t>(member));
      if (member == me && !ownInSlot)
        copy(sentSlice(p, m.ins[k], sizes, static_cast<int64_t>(me)), to,
             opScratch().copy);
      else if (recvDense)
        std::memcpy(to.base, slot, blockBytes(p, m.ins[k]));
      else
        unpack(slot, to);
      slot += blockBytes(p, m.ins[k]);
      sizes += m.ins[k].rank();
    }
  };
  exchangeShared(*p.group, sent, fill, read);
  return true;
}

distrt_handle_t runBlocks(Memo<BlockPlan> &m, const Call &c) {
  if (m.plan.block == 0)
    return done(c.op, c.team, c.loc, c.async);
  if (!c.async && exchangeInGroup(m))
    return 0;
  const bool each = m.ins.size() > 1 && m.plan.block > kPackLimit;
  return runInSlot(c.op, c.team, c.loc, c.async, [&](RequestSlot &slot) {
    if (each)
      exchangeEach(slot, m, c.async);
    else
      exchangePacked(slot, m, c.async);
  });
}

} // namespace distrt::detail
