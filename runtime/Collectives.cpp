//===- Collectives.cpp - StableHLO-style group collectives ------*- C++ -*-===//
//
// all_gather, all_reduce, all_to_all, reduce_scatter and collective_broadcast
// over the process groups of a distrt_groups_t (ProcessGroups.h), one cached
// communicator per group layout whose rank is the position in the group.
//
// One rendezvous per op where MPI allows it: the operands of all_gather,
// all_to_all and collective_broadcast travel packed as bytes in one MPI call
// up to kPackLimit bytes per member; past it, one call per operand beats
// the packing copies. all_reduce and reduce_scatter need typed reductions:
// one call per operand. A dense operand whose blocks are contiguous byte
// ranges is handed to MPI as is (no staging); everything else is packed
// into the request's staging buffer and unpacked into strided outputs at
// completion. Sync calls use MPI's blocking collectives (its tuned
// algorithms; on Open MPI the nonblocking ones cost up to 1.6 times as
// much), async ones the nonblocking ones, waited together.
//
//===----------------------------------------------------------------------===//

#include "CallMemo.h"
#include "Error.h"
#include "Operands.h"
#include "Operations.h"
#include "ProcessGroups.h"
#include "Reduce.h"
#include "Request.h"
#include "Team.h"

#include <algorithm>

namespace distrt::detail {
namespace {

/// Packing several operands into one message pays off while the message is
/// small (one rendezvous instead of several); past this many bytes per
/// member each operand travels on its own. Kept under the eager limit of
/// shared-memory transports (Open MPI's vader: 4 KiB with its headers), past
/// which a packed message costs several times the separate ones.
constexpr size_t kPackLimit = 2048;

[[noreturn, gnu::cold, gnu::noinline]] void
raiseDim(size_t k, const char *name, int64_t dim, int64_t rank) {
  raise("operand {}: {} {} is out of range for rank {}", k, name, dim, rank);
}

inline void checkDim(size_t k, const char *name, int64_t dim, int64_t rank) {
  if (dim < 0 || dim >= rank) [[unlikely]]
    raiseDim(k, name, dim, rank);
}

[[noreturn, gnu::cold, gnu::noinline]] void
raiseShape(size_t k, const Buffer &in, const Buffer &out, int64_t dim,
           int64_t times, int64_t divide, const char *rule) {
  std::vector<int64_t> expected(in.sizes(), in.sizes() + in.rank());
  expected[static_cast<size_t>(dim)] =
      expected[static_cast<size_t>(dim)] / divide * times;
  raise("operand {}: the output has shape {}, expected {} ({})", k,
        shapeText(out.rank(), out.sizes()), shapeText(expected), rule);
}

/// Checks that operand k's output has the input's shape with dimension
/// `dim` multiplied by `times` and `divided` by divide (`dim` < 0: none).
inline void checkShape(size_t k, const Buffer &in, const Buffer &out,
                       int64_t dim, int64_t times, int64_t divide,
                       const char *rule) {
  bool ok = true;
  for (int64_t d = 0; d < out.rank(); ++d)
    ok &= out.sizes()[d] ==
          (d == dim ? in.sizes()[d] / divide * times : in.sizes()[d]);
  if (!ok) [[unlikely]]
    raiseShape(k, in, out, dim, times, divide, rule);
}

} // namespace

//===----------------------------------------------------------------------===//
// all_gather
//===----------------------------------------------------------------------===//

namespace {

/// all_gather and all_to_all: every member exchanges `block` bytes.
struct BlockPlan {
  const GroupLayout *layout;
  size_t block;
  int count;
  bool directSend, directRecv;
  /// A sync call is one MPI call from `send` to `recv` (the operands' own
  /// buffers) on `comm`.
  bool blocking;
  const void *send;
  void *recv;
  MPI_Comm comm;
};
OpMemo<BlockPlan> gGatherMemo;

[[gnu::noinline]] void planAllGather(MemoEntry<BlockPlan> &m, int64_t teamId,
                                     const distrt_groups_t *groups, int64_t dim,
                                     const OperandList &inputs,
                                     const OperandList &outputs) {
  m.valid = false;
  // The operands first: the C ABI's arrays are checked before anything.
  OpScratch &s = opScratch();
  resolvePairs(inputs, outputs, s, /*sameShape=*/false);
  TeamState &team = lookupTeam(teamId);
  const GroupLayout &layout = groupLayout(team, groups);
  layout.requireEveryProcess();
  const int64_t G = layout.size();
  const size_t n = s.ins.size();
  size_t block = 0;
  for (size_t k = 0; k < n; ++k) {
    const Buffer &in = s.ins[k], &out = s.outs[k];
    checkDim(k, "all_gather_dim", dim, in.rank());
    checkShape(k, in, out, dim, G, 1,
               "the input shape with all_gather_dim times the group size");
    block += in.byteCount;
  }
  const int count = mpiCount(static_cast<int64_t>(block), "block bytes");
  const Buffer *in0 = n == 1 ? &s.ins[0] : nullptr;
  const Buffer *out0 = n == 1 ? &s.outs[0] : nullptr;
  const bool directSend = in0 && in0->dense && !overlaps(*in0, *out0);
  const bool directRecv =
      out0 && out0->dense &&
      leadingElements(out0->rank(), out0->sizes(), dim) == 1;
  m.plan = {&layout,
            block,
            count,
            directSend,
            directRecv,
            block > 0 && directSend && directRecv,
            in0 ? in0->bytes.base : nullptr,
            out0 ? out0->bytes.base : nullptr,
            layout.comm};
  m.store(teamId, groups, layout.key, {dim}, &inputs, &outputs, s);
}

void allGatherBlocking(const MemoEntry<BlockPlan> &m) {
  const BlockPlan &p = m.plan;
  checkMpi(MPI_Allgather(p.send, p.count, MPI_BYTE, p.recv, p.count, MPI_BYTE,
                         p.comm),
           "MPI_Allgather");
}

/// all_gather of several operands, each in an MPI call of its own from and
/// into its own buffers where they allow it: blocking ones when sync (MPI's
/// tuned algorithms), nonblocking ones waited together when async.
void allGatherEach(RequestSlot &slot, const MemoEntry<BlockPlan> &m,
                   int64_t dim, bool async) {
  const BlockPlan &p = m.plan;
  const size_t G = static_cast<size_t>(p.layout->size());
  auto direct = [&](const Buffer &in, const Buffer &out) {
    return std::pair{in.dense && !overlaps(in, out),
                     out.dense &&
                         leadingElements(out.rank(), out.sizes(), dim) == 1};
  };
  size_t total = 0;
  for (size_t k = 0; k < m.ins.size(); ++k) {
    const auto [sendAsIs, recvAsIs] = direct(m.ins[k], m.outs[k]);
    total += (sendAsIs ? 0 : alignUp(m.ins[k].byteCount)) +
             (recvAsIs ? 0 : alignUp(m.ins[k].byteCount * G));
  }
  if (slot.staging.size() < total)
    slot.staging.resize(total);
  size_t offset = 0;
  for (size_t k = 0; k < m.ins.size(); ++k) {
    const Buffer &in = m.ins[k], &out = m.outs[k];
    if (in.byteCount == 0)
      continue;
    const auto [sendAsIs, recvAsIs] = direct(in, out);
    const void *send = in.bytes.base;
    if (!sendAsIs) {
      pack(in.bytes, slot.staging.data() + offset);
      send = slot.staging.data() + offset;
      offset += alignUp(in.byteCount);
    }
    void *recv = out.bytes.base;
    if (!recvAsIs) {
      recv = slot.staging.data() + offset;
      for (size_t j = 0; j < G; ++j) {
        const StridedBytes target = out.slice(dim, static_cast<int64_t>(j),
                                              in.sizes()[dim], in.sizes());
        slot.addUnpack(offset + j * in.byteCount, target.base, out.rank(),
                       in.sizes(), out.strides(), out.bytes.elementSize);
      }
      offset += alignUp(in.byteCount * G);
    }
    const int count = static_cast<int>(in.byteCount);
    if (async)
      postRequest(slot, "MPI_Iallgather", [&](MPI_Request *request) {
        return MPI_Iallgather(send, count, MPI_BYTE, recv, count, MPI_BYTE,
                              p.comm, request);
      });
    else
      checkMpi(
          MPI_Allgather(send, count, MPI_BYTE, recv, count, MPI_BYTE, p.comm),
          "MPI_Allgather");
  }
}

[[gnu::noinline]] distrt_handle_t
allGatherFull(MemoEntry<BlockPlan> &m, int64_t teamId,
              const distrt_groups_t *groups, int64_t dim,
              const OperandList &inputs, const OperandList &outputs,
              bool async) {
  if (!m.matches(teamId, groups, {dim}, &inputs, &outputs))
    planAllGather(m, teamId, groups, dim, inputs, outputs);
  const auto &[layout, block, count, directSend, directRecv, blocking, send0,
               recv0, comm] = m.plan;
  if (block == 0)
    return done("all_gather", teamId, async);
  if (!async && blocking) {
    allGatherBlocking(m);
    return 0;
  }
  const size_t n = m.ins.size();
  const int64_t G = layout->size();
  if (n > 1 && block > kPackLimit)
    return runInSlot("all_gather", teamId, async, [&](RequestSlot &slot) {
      allGatherEach(slot, m, dim, async);
    });
  return runInSlot("all_gather", teamId, async, [&](RequestSlot &slot) {
    const size_t recvOffset = directSend ? 0 : alignUp(block);
    const size_t total =
        recvOffset + (directRecv ? 0 : block * static_cast<size_t>(G));
    if (slot.staging.size() < total)
      slot.staging.resize(total);
    std::byte *staging = slot.staging.data();
    const void *send = directSend ? m.ins[0].bytes.base : staging;
    if (!directSend)
      packAll(m.ins, staging);
    void *recv = directRecv ? m.outs[0].bytes.base : staging + recvOffset;
    if (!directRecv) {
      // Member j's block holds every operand; operand k goes to the
      // output's j-th slice along dim.
      size_t offset = recvOffset;
      for (int64_t j = 0; j < G; ++j)
        for (size_t k = 0; k < n; ++k) {
          const Buffer &in = m.ins[k], &out = m.outs[k];
          const StridedBytes target =
              out.slice(dim, j, in.sizes()[dim], in.sizes());
          slot.addUnpack(offset, target.base, out.rank(), in.sizes(),
                         out.strides(), out.bytes.elementSize);
          offset += in.byteCount;
        }
    }
    if (async)
      postRequest(slot, "MPI_Iallgather", [&](MPI_Request *request) {
        return MPI_Iallgather(send, count, MPI_BYTE, recv, count, MPI_BYTE,
                              layout->comm, request);
      });
    else
      checkMpi(MPI_Allgather(send, count, MPI_BYTE, recv, count, MPI_BYTE,
                             layout->comm),
               "MPI_Allgather");
  });
}

} // namespace

//===----------------------------------------------------------------------===//
// all_reduce
//===----------------------------------------------------------------------===//

namespace {

/// One operand's blocking reduction (MPI_Allreduce, MPI_Reduce_scatter_block)
/// of `count` elements of `type` from `send` to `recv`, its dense output;
/// with `inPlace` (all_reduce), the input is first copied (or converted)
/// into the output.
struct ReduceCall {
  const void *send;
  void *recv;
  int count;
  MPI_Datatype type;
  MPI_Op op;
  bool inPlace;
  uint32_t operand;
};

struct AllReducePlan {
  const GroupLayout *layout;
  size_t active; // operands with elements
  size_t staged; // staging bytes of the strided outputs
  /// A sync call is `calls`, one blocking MPI_Allreduce per operand with
  /// elements, every output being dense.
  bool blocking;
  std::vector<ReduceCall> calls;
  MPI_Comm comm;
};
OpMemo<AllReducePlan> gAllReduceMemo;

[[gnu::noinline]] void planAllReduce(MemoEntry<AllReducePlan> &m,
                                     int64_t teamId,
                                     const distrt_groups_t *groups,
                                     int32_t redop, const OperandList &inputs,
                                     const OperandList &outputs) {
  m.valid = false;
  // The operands first: the C ABI's arrays are checked before anything.
  OpScratch &s = opScratch();
  resolvePairs(inputs, outputs, s, /*sameShape=*/true, /*promote=*/true);
  TeamState &team = lookupTeam(teamId);
  const GroupLayout &layout = groupLayout(team, groups);
  layout.requireEveryProcess();
  const size_t n = s.ins.size();
  AllReducePlan &p = m.plan;
  p.calls.clear();
  size_t active = 0, staged = 0;
  for (size_t k = 0; k < n; ++k) {
    const Buffer &in = s.ins[k], &out = s.outs[k];
    // The reduction runs in the output's (possibly promoted) type.
    const MPI_Op op = reductionOp(redop, out.dtype); // before any MPI call
    const int count = mpiCount(in.count, "elements");
    if (in.count == 0)
      continue;
    ++active;
    if (!out.dense) { // staged: only the slot path serves it
      staged += alignUp(out.byteCount);
      continue;
    }
    const bool inPlace =
        !in.dense || in.dtype != out.dtype || overlaps(in, out);
    p.calls.push_back({inPlace ? MPI_IN_PLACE : in.bytes.base, out.bytes.base,
                       count, out.type->mpi, op, inPlace,
                       static_cast<uint32_t>(k)});
  }
  p.layout = &layout;
  p.active = active;
  p.staged = staged;
  p.blocking = active > 0 && staged == 0;
  p.comm = layout.comm;
  m.store(teamId, groups, layout.key, {redop}, &inputs, &outputs, s);
}

void allReduceBlocking(const MemoEntry<AllReducePlan> &m) {
  const AllReducePlan &p = m.plan;
  for (const ReduceCall &c : p.calls) {
    if (c.inPlace) {
      const Buffer &in = m.ins[c.operand], &out = m.outs[c.operand];
      if (in.dtype == out.dtype) // nothing to do when in place already
        copy(in.bytes, out.bytes, opScratch().copy);
      else
        packPromoted(in.bytes, in.dtype, out.bytes.base, out.dtype,
                     opScratch().copy);
    }
    checkMpi(MPI_Allreduce(c.send, c.recv, c.count, c.type, c.op, p.comm),
             "MPI_Allreduce");
  }
}

[[gnu::noinline]] distrt_handle_t
allReduceFull(MemoEntry<AllReducePlan> &m, int64_t teamId,
              const distrt_groups_t *groups, int32_t redop,
              const OperandList &inputs, const OperandList &outputs,
              bool async) {
  if (!m.matches(teamId, groups, {redop}, &inputs, &outputs))
    planAllReduce(m, teamId, groups, redop, inputs, outputs);
  const auto &[layout, active, staged, blocking, calls, comm] = m.plan;
  if (active == 0)
    return done("all_reduce", teamId, async);
  if (!async && blocking) {
    allReduceBlocking(m);
    return 0;
  }
  const size_t n = m.ins.size();
  OpScratch &s = opScratch();
  return runInSlot("all_reduce", teamId, async, [&](RequestSlot &slot) {
    if (slot.staging.size() < staged)
      slot.staging.resize(staged);
    size_t offset = 0;
    for (size_t k = 0; k < n; ++k) {
      const Buffer &in = m.ins[k], &out = m.outs[k];
      if (in.count == 0)
        continue;
      const void *send = MPI_IN_PLACE;
      void *recv = out.bytes.base;
      if (!out.dense) {
        recv = slot.staging.data() + offset;
        packPromoted(in.bytes, in.dtype, static_cast<std::byte *>(recv),
                     out.dtype, s.copy);
        slot.addUnpack(offset, out.bytes.base, out.rank(), out.sizes(),
                       out.strides(), out.bytes.elementSize);
        offset += alignUp(out.byteCount);
      } else if (in.dtype != out.dtype) {
        packPromoted(in.bytes, in.dtype, out.bytes.base, out.dtype, s.copy);
      } else if (in.dense && !overlaps(in, out)) {
        send = in.bytes.base;
      } else {
        copy(in.bytes, out.bytes, s.copy);
      }
      const MPI_Op op = reductionOp(redop, out.dtype);
      const int count = static_cast<int>(in.count);
      if (async)
        postRequest(slot, "MPI_Iallreduce", [&](MPI_Request *request) {
          return MPI_Iallreduce(send, recv, count, out.type->mpi, op,
                                layout->comm, request);
        });
      else
        checkMpi(
            MPI_Allreduce(send, recv, count, out.type->mpi, op, layout->comm),
            "MPI_Allreduce");
    }
  });
}

} // namespace

//===----------------------------------------------------------------------===//
// all_to_all
//===----------------------------------------------------------------------===//

namespace {

OpMemo<BlockPlan> gAllToAllMemo;

[[gnu::noinline]] void planAllToAll(MemoEntry<BlockPlan> &m, int64_t teamId,
                                    const distrt_groups_t *groups,
                                    int64_t splitDim, int64_t concatDim,
                                    int64_t splitCount,
                                    const OperandList &inputs,
                                    const OperandList &outputs) {
  m.valid = false;
  // The operands first: the C ABI's arrays are checked before anything.
  OpScratch &s = opScratch();
  resolvePairs(inputs, outputs, s, /*sameShape=*/false);
  TeamState &team = lookupTeam(teamId);
  const GroupLayout &layout = groupLayout(team, groups);
  layout.requireEveryProcess();
  const int64_t G = layout.size();
  if (splitCount != G) [[unlikely]]
    raise("split_count {} differs from the group size {}", splitCount, G);
  const size_t n = s.ins.size();
  // The block shapes (input shape with split_dim divided by the group
  // size), one after another, and the output shapes after them.
  m.shapes.clear();
  size_t block = 0;
  for (size_t k = 0; k < n; ++k) {
    const Buffer &in = s.ins[k], &out = s.outs[k];
    checkDim(k, "split_dimension", splitDim, in.rank());
    checkDim(k, "concat_dimension", concatDim, in.rank());
    const int64_t size = in.sizes()[splitDim];
    if (size % G != 0) [[unlikely]]
      raise("operand {}: dimension {} (split_dimension) has size {}, not "
            "divisible by split_count {}",
            k, splitDim, size, G);
    const size_t at = m.shapes.size();
    const auto r = static_cast<size_t>(in.rank());
    m.shapes.resize(at + 2 * r);
    int64_t *blockSizes = m.shapes.data() + at, *outSizes = blockSizes + r;
    std::copy(in.sizes(), in.sizes() + r, blockSizes);
    blockSizes[splitDim] /= G;
    std::copy(blockSizes, blockSizes + r, outSizes);
    outSizes[concatDim] *= G;
    bool ok = true;
    for (int64_t d = 0; d < in.rank(); ++d)
      ok &= out.sizes()[d] == outSizes[d];
    if (!ok) [[unlikely]]
      raise("operand {}: the output has shape {}, expected {} (the input "
            "shape with split_dimension divided and concat_dimension "
            "multiplied by split_count)",
            k, shapeText(out.rank(), out.sizes()),
            shapeText(in.rank(), outSizes));
    block += in.byteCount / static_cast<size_t>(G);
  }
  const int count = mpiCount(static_cast<int64_t>(block), "block bytes");
  const Buffer *in0 = n == 1 ? &s.ins[0] : nullptr;
  const Buffer *out0 = n == 1 ? &s.outs[0] : nullptr;
  const bool directSend =
      in0 && in0->dense &&
      leadingElements(in0->rank(), in0->sizes(), splitDim) == 1 &&
      !overlaps(*in0, *out0);
  const bool directRecv =
      out0 && out0->dense &&
      leadingElements(out0->rank(), out0->sizes(), concatDim) == 1;
  m.plan = {&layout,
            block,
            count,
            directSend,
            directRecv,
            block > 0 && directSend && directRecv,
            in0 ? in0->bytes.base : nullptr,
            out0 ? out0->bytes.base : nullptr,
            layout.comm};
  m.store(teamId, groups, layout.key, {splitDim, concatDim, splitCount},
          &inputs, &outputs, s);
}

void allToAllBlocking(const MemoEntry<BlockPlan> &m) {
  const BlockPlan &p = m.plan;
  checkMpi(MPI_Alltoall(p.send, p.count, MPI_BYTE, p.recv, p.count, MPI_BYTE,
                        p.comm),
           "MPI_Alltoall");
}

/// all_to_all of several operands, each in an MPI call of its own from and
/// into its own buffers where they allow it (as allGatherEach).
void allToAllEach(RequestSlot &slot, const MemoEntry<BlockPlan> &m,
                  int64_t splitDim, int64_t concatDim, bool async) {
  const BlockPlan &p = m.plan;
  const int64_t G = p.layout->size();
  auto direct = [&](const Buffer &in, const Buffer &out) {
    return std::pair{
        in.dense && leadingElements(in.rank(), in.sizes(), splitDim) == 1 &&
            !overlaps(in, out),
        out.dense && leadingElements(out.rank(), out.sizes(), concatDim) == 1};
  };
  size_t total = 0;
  for (size_t k = 0; k < m.ins.size(); ++k) {
    const auto [sendAsIs, recvAsIs] = direct(m.ins[k], m.outs[k]);
    total += (sendAsIs ? 0 : alignUp(m.ins[k].byteCount)) +
             (recvAsIs ? 0 : alignUp(m.outs[k].byteCount));
  }
  if (slot.staging.size() < total)
    slot.staging.resize(total);
  size_t offset = 0, at = 0;
  for (size_t k = 0; k < m.ins.size(); ++k) {
    const Buffer &in = m.ins[k], &out = m.outs[k];
    const int64_t *blockSizes = m.shapes.data() + at;
    at += 2 * static_cast<size_t>(in.rank());
    if (in.byteCount == 0)
      continue;
    const size_t blockBytes = in.byteCount / static_cast<size_t>(G);
    const auto [sendAsIs, recvAsIs] = direct(in, out);
    // Block j for member j: the j-th split along split_dimension.
    const void *send = in.bytes.base;
    if (!sendAsIs) {
      std::byte *packed = slot.staging.data() + offset;
      for (int64_t j = 0; j < G; ++j)
        pack(in.slice(splitDim, j, blockSizes[splitDim], blockSizes),
             packed + static_cast<size_t>(j) * blockBytes);
      send = packed;
      offset += alignUp(in.byteCount);
    }
    void *recv = out.bytes.base;
    if (!recvAsIs) {
      recv = slot.staging.data() + offset;
      for (int64_t j = 0; j < G; ++j) {
        const StridedBytes target =
            out.slice(concatDim, j, blockSizes[concatDim], blockSizes);
        slot.addUnpack(offset + static_cast<size_t>(j) * blockBytes,
                       target.base, out.rank(), blockSizes, out.strides(),
                       out.bytes.elementSize);
      }
      offset += alignUp(out.byteCount);
    }
    const int count = static_cast<int>(blockBytes);
    if (async)
      postRequest(slot, "MPI_Ialltoall", [&](MPI_Request *request) {
        return MPI_Ialltoall(send, count, MPI_BYTE, recv, count, MPI_BYTE,
                             p.comm, request);
      });
    else
      checkMpi(
          MPI_Alltoall(send, count, MPI_BYTE, recv, count, MPI_BYTE, p.comm),
          "MPI_Alltoall");
  }
}

[[gnu::noinline]] distrt_handle_t
allToAllFull(MemoEntry<BlockPlan> &m, int64_t teamId,
             const distrt_groups_t *groups, int64_t splitDim, int64_t concatDim,
             int64_t splitCount, const OperandList &inputs,
             const OperandList &outputs, bool async) {
  if (!m.matches(teamId, groups, {splitDim, concatDim, splitCount}, &inputs,
                 &outputs))
    planAllToAll(m, teamId, groups, splitDim, concatDim, splitCount, inputs,
                 outputs);
  const auto &[layout, block, count, directSend, directRecv, blocking, send0,
               recv0, comm] = m.plan;
  if (block == 0)
    return done("all_to_all", teamId, async);
  if (!async && blocking) {
    allToAllBlocking(m);
    return 0;
  }
  const int64_t G = layout->size();
  const size_t n = m.ins.size();
  if (n > 1 && block > kPackLimit)
    return runInSlot("all_to_all", teamId, async, [&](RequestSlot &slot) {
      allToAllEach(slot, m, splitDim, concatDim, async);
    });
  return runInSlot("all_to_all", teamId, async, [&](RequestSlot &slot) {
    const size_t all = block * static_cast<size_t>(G);
    const size_t recvOffset = directSend ? 0 : alignUp(all);
    const size_t total = recvOffset + (directRecv ? 0 : all);
    if (slot.staging.size() < total)
      slot.staging.resize(total);
    std::byte *staging = slot.staging.data();
    // Block j for member j: the j-th split of every operand.
    size_t offset = 0;
    for (int64_t j = 0; j < G; ++j) {
      size_t at = 0;
      for (size_t k = 0; k < n; ++k) {
        const Buffer &in = m.ins[k];
        const int64_t *blockSizes = m.shapes.data() + at;
        at += 2 * static_cast<size_t>(in.rank());
        if (!directSend) {
          pack(in.slice(splitDim, j, blockSizes[splitDim], blockSizes),
               staging + offset);
        }
        if (!directRecv) {
          const Buffer &out = m.outs[k];
          const StridedBytes target =
              out.slice(concatDim, j, blockSizes[concatDim], blockSizes);
          slot.addUnpack(recvOffset + offset, target.base, out.rank(),
                         blockSizes, out.strides(), out.bytes.elementSize);
        }
        offset += in.byteCount / static_cast<size_t>(G);
      }
    }
    const void *send = directSend ? m.ins[0].bytes.base : staging;
    void *recv = directRecv ? m.outs[0].bytes.base : staging + recvOffset;
    if (async)
      postRequest(slot, "MPI_Ialltoall", [&](MPI_Request *request) {
        return MPI_Ialltoall(send, count, MPI_BYTE, recv, count, MPI_BYTE,
                             layout->comm, request);
      });
    else
      checkMpi(MPI_Alltoall(send, count, MPI_BYTE, recv, count, MPI_BYTE,
                            layout->comm),
               "MPI_Alltoall");
  });
}

} // namespace

//===----------------------------------------------------------------------===//
// reduce_scatter
//===----------------------------------------------------------------------===//

namespace {

struct ReduceScatterPlan {
  const GroupLayout *layout;
  size_t active; // operands with output elements
  /// A sync call is `calls`, one blocking MPI_Reduce_scatter_block per
  /// operand with elements (`count` per member), every operand being sent
  /// and received as is.
  bool blocking;
  std::vector<ReduceCall> calls;
  MPI_Comm comm;
};
OpMemo<ReduceScatterPlan> gReduceScatterMemo;

/// The input is sent as is: dense, already G consecutive blocks (scatter_dim
/// is its leading non-unit dimension), and not promoted.
bool scatterDirectSend(const Buffer &in, const Buffer &out,
                       int64_t scatterDim) {
  return in.dense && in.dtype == out.dtype &&
         leadingElements(in.rank(), in.sizes(), scatterDim) == 1;
}
bool scatterDirectRecv(const Buffer &in, const Buffer &out,
                       int64_t scatterDim) {
  return out.dense &&
         !(scatterDirectSend(in, out, scatterDim) && overlaps(in, out));
}

[[gnu::noinline]] void planReduceScatter(MemoEntry<ReduceScatterPlan> &m,
                                         int64_t teamId,
                                         const distrt_groups_t *groups,
                                         int32_t redop, int64_t scatterDim,
                                         const OperandList &inputs,
                                         const OperandList &outputs) {
  m.valid = false;
  // The operands first: the C ABI's arrays are checked before anything.
  OpScratch &s = opScratch();
  resolvePairs(inputs, outputs, s, /*sameShape=*/false, /*promote=*/true);
  TeamState &team = lookupTeam(teamId);
  const GroupLayout &layout = groupLayout(team, groups);
  layout.requireEveryProcess();
  const int64_t G = layout.size();
  const size_t n = s.ins.size();
  ReduceScatterPlan &p = m.plan;
  p.calls.clear();
  size_t active = 0;
  bool direct = true;
  for (size_t k = 0; k < n; ++k) {
    const Buffer &in = s.ins[k], &out = s.outs[k];
    const MPI_Op op = reductionOp(redop, out.dtype);
    checkDim(k, "scatter_dimension", scatterDim, in.rank());
    const int64_t size = in.sizes()[scatterDim];
    if (size % G != 0) [[unlikely]]
      raise("operand {}: dimension {} (scatter_dimension) has size {}, not "
            "divisible by the group size {}",
            k, scatterDim, size, G);
    checkShape(k, in, out, scatterDim, 1, G,
               "the input shape with scatter_dimension divided by the group "
               "size");
    mpiCount(in.count, "elements");
    if (out.count == 0)
      continue;
    ++active;
    if (scatterDirectSend(in, out, scatterDim) &&
        scatterDirectRecv(in, out, scatterDim))
      p.calls.push_back({in.bytes.base, out.bytes.base,
                         static_cast<int>(out.count), out.type->mpi, op, false,
                         static_cast<uint32_t>(k)});
    else
      direct = false;
  }
  p.layout = &layout;
  p.active = active;
  p.blocking = active > 0 && direct;
  p.comm = layout.comm;
  m.store(teamId, groups, layout.key, {redop, scatterDim}, &inputs, &outputs,
          s);
}

void reduceScatterBlocking(const MemoEntry<ReduceScatterPlan> &m) {
  const ReduceScatterPlan &p = m.plan;
  for (const ReduceCall &c : p.calls)
    checkMpi(
        MPI_Reduce_scatter_block(c.send, c.recv, c.count, c.type, c.op, p.comm),
        "MPI_Reduce_scatter_block");
}

[[gnu::noinline]] distrt_handle_t
reduceScatterFull(MemoEntry<ReduceScatterPlan> &m, int64_t teamId,
                  const distrt_groups_t *groups, int32_t redop,
                  int64_t scatterDim, const OperandList &inputs,
                  const OperandList &outputs, bool async) {
  if (!m.matches(teamId, groups, {redop, scatterDim}, &inputs, &outputs))
    planReduceScatter(m, teamId, groups, redop, scatterDim, inputs, outputs);
  const auto &[layout, active, blocking, calls, comm] = m.plan;
  if (active == 0)
    return done("reduce_scatter", teamId, async);
  if (!async && blocking) {
    reduceScatterBlocking(m);
    return 0;
  }
  const int64_t G = layout->size();
  const size_t n = m.ins.size();
  return runInSlot("reduce_scatter", teamId, async, [&](RequestSlot &slot) {
    size_t total = 0;
    for (size_t k = 0; k < n; ++k) {
      if (!scatterDirectSend(m.ins[k], m.outs[k], scatterDim))
        total +=
            alignUp(static_cast<size_t>(m.ins[k].count) * m.outs[k].type->size);
      if (!scatterDirectRecv(m.ins[k], m.outs[k], scatterDim))
        total += alignUp(m.outs[k].byteCount);
    }
    if (slot.staging.size() < total)
      slot.staging.resize(total);
    size_t offset = 0;
    for (size_t k = 0; k < n; ++k) {
      const Buffer &in = m.ins[k], &out = m.outs[k];
      if (out.count == 0)
        continue;
      const void *send = in.bytes.base;
      if (!scatterDirectSend(in, out, scatterDim)) {
        // Block j of the scatter dimension goes j-th, in the output's type.
        std::byte *packed = slot.staging.data() + offset;
        send = packed;
        const int64_t blockSize = out.sizes()[scatterDim];
        for (int64_t j = 0; j < G; ++j) {
          const StridedBytes block =
              in.slice(scatterDim, j, blockSize, out.sizes());
          packPromoted(block, in.dtype,
                       packed + static_cast<size_t>(j) * out.byteCount,
                       out.dtype, opScratch().copy);
        }
        offset += alignUp(static_cast<size_t>(in.count) * out.type->size);
      }
      void *recv = out.bytes.base;
      if (!scatterDirectRecv(in, out, scatterDim)) {
        recv = slot.staging.data() + offset;
        slot.addUnpack(offset, out.bytes.base, out.rank(), out.sizes(),
                       out.strides(), out.bytes.elementSize);
        offset += alignUp(out.byteCount);
      }
      const MPI_Op op = reductionOp(redop, out.dtype);
      const int count = static_cast<int>(out.count);
      if (async)
        postRequest(
            slot, "MPI_Ireduce_scatter_block", [&](MPI_Request *request) {
              return MPI_Ireduce_scatter_block(send, recv, count, out.type->mpi,
                                               op, layout->comm, request);
            });
      else
        checkMpi(MPI_Reduce_scatter_block(send, recv, count, out.type->mpi, op,
                                          layout->comm),
                 "MPI_Reduce_scatter_block");
    }
  });
}

} // namespace

//===----------------------------------------------------------------------===//
// collective_broadcast
//===----------------------------------------------------------------------===//

namespace {

struct BroadcastPlan {
  const GroupLayout *layout;
  size_t bytes;
  int count;
  /// Nothing to communicate: in no group, alone in it, or no bytes.
  bool local;
  /// The single operand's buffer MPI_Bcast uses as is, else null.
  void *direct;
  /// The root copies its input to its output before the broadcast (the
  /// output is the buffer sent) or after it (the input is).
  bool copyBefore, copyAfter;
  /// A sync call is one broadcast on `direct`.
  bool blocking;
  MPI_Comm comm;
  /// In a group of two, the other member (its rank in `comm`), else -1.
  int peer;
};
OpMemo<BroadcastPlan> gBroadcastMemo;

// Sync broadcasts in groups of two are one message from the root to the
// other member: MPI_Bcast's generic tree costs about a fifth more there. The
// choice depends only on the group size and sync/async, the same on every
// member, and a layout's communicator carries no other point-to-point
// traffic (collectives match apart from it).
constexpr int kBroadcastTag = 0;

void broadcastOnce(void *buffer, int count, int peer, bool root,
                   MPI_Comm comm) {
  if (peer < 0) {
    checkMpi(MPI_Bcast(buffer, count, MPI_BYTE, 0, comm), "MPI_Bcast");
  } else if (root) {
    checkMpi(MPI_Send(buffer, count, MPI_BYTE, peer, kBroadcastTag, comm),
             "MPI_Send");
  } else {
    MPI_Status status;
    const int code =
        MPI_Recv(buffer, count, MPI_BYTE, peer, kBroadcastTag, comm, &status);
    checkBlockingReceive("collective_broadcast", code, status, count, peer,
                         "collective_broadcast operands");
  }
}

[[gnu::noinline]] void planBroadcast(MemoEntry<BroadcastPlan> &m,
                                     int64_t teamId,
                                     const distrt_groups_t *groups,
                                     const OperandList &inputs,
                                     const OperandList &outputs) {
  m.valid = false;
  // The operands first: the C ABI's arrays are checked before anything.
  OpScratch &s = opScratch();
  resolvePairs(inputs, outputs, s, /*sameShape=*/true);
  TeamState &team = lookupTeam(teamId);
  const GroupLayout &layout = groupLayout(team, groups);
  const size_t n = s.ins.size();
  const size_t bytes = totalBytes(s.ins);
  const int count = mpiCount(static_cast<int64_t>(bytes), "bytes");
  const bool root = layout.position == 0;
  const Buffer *in0 = n == 1 ? &s.ins[0] : nullptr;
  const Buffer *out0 = n == 1 ? &s.outs[0] : nullptr;
  // The root sends from its dense input, then copies it to the output;
  // the others receive into a dense output directly.
  void *direct = nullptr;
  if (n == 1) {
    if (root && in0->dense &&
        (sameElements(in0->bytes, out0->bytes) || !overlaps(*in0, *out0)))
      direct = in0->bytes.base;
    else if (out0->dense)
      direct = out0->bytes.base;
  }
  const bool toOutput = root && direct && direct == out0->bytes.base;
  const bool local = layout.position < 0 || layout.size() == 1 || bytes == 0;
  m.plan = {&layout,
            bytes,
            count,
            local,
            direct,
            toOutput && !sameElements(in0->bytes, out0->bytes),
            root && direct && !toOutput,
            !local && direct,
            layout.comm,
            layout.size() == 2 ? 1 - layout.position : -1};
  m.store(teamId, groups, layout.key, {}, &inputs, &outputs, s);
}

void broadcastBlocking(const MemoEntry<BroadcastPlan> &m) {
  const BroadcastPlan &p = m.plan;
  if (p.copyBefore)
    copy(m.ins[0].bytes, m.outs[0].bytes, opScratch().copy);
  broadcastOnce(p.direct, p.count, p.peer, p.layout->position == 0, p.comm);
  if (p.copyAfter)
    copy(m.ins[0].bytes, m.outs[0].bytes, opScratch().copy);
}

/// collective_broadcast of several operands, each in an MPI call of its own
/// from and into its own buffers where they allow it (as allGatherEach).
void broadcastEach(RequestSlot &slot, const MemoEntry<BroadcastPlan> &m,
                   bool async) {
  const BroadcastPlan &p = m.plan;
  const bool root = p.layout->position == 0;
  OpScratch &s = opScratch();
  size_t total = 0;
  for (const Buffer &out : m.outs)
    total += out.dense ? 0 : alignUp(out.byteCount);
  if (slot.staging.size() < total)
    slot.staging.resize(total);
  size_t offset = 0;
  for (size_t k = 0; k < m.ins.size(); ++k) {
    const Buffer &in = m.ins[k], &out = m.outs[k];
    if (out.byteCount == 0)
      continue;
    // The root sends from its dense input and copies it to the output
    // while MPI reads it; otherwise from (or into) the dense output, else
    // from staging.
    const bool fromInput = root && in.dense && !overlaps(in, out);
    void *buffer = out.bytes.base;
    if (fromInput) {
      buffer = in.bytes.base;
    } else if (!out.dense) {
      buffer = slot.staging.data() + offset;
      if (root)
        pack(in.bytes, slot.staging.data() + offset);
      slot.addUnpack(offset, out.bytes.base, out.rank(), out.sizes(),
                     out.strides(), out.bytes.elementSize);
      offset += alignUp(out.byteCount);
    } else if (root && !sameElements(in.bytes, out.bytes)) {
      copy(in.bytes, out.bytes, s.copy);
    }
    const int count = static_cast<int>(out.byteCount);
    if (async)
      postRequest(slot, "MPI_Ibcast", [&](MPI_Request *request) {
        return MPI_Ibcast(buffer, count, MPI_BYTE, 0, p.comm, request);
      });
    else
      broadcastOnce(buffer, count, p.peer, root, p.comm);
    if (fromInput)
      copy(in.bytes, out.bytes, s.copy);
  }
}

[[gnu::noinline]] distrt_handle_t
broadcastFull(MemoEntry<BroadcastPlan> &m, int64_t teamId,
              const distrt_groups_t *groups, const OperandList &inputs,
              const OperandList &outputs, bool async) {
  if (!m.matches(teamId, groups, {}, &inputs, &outputs))
    planBroadcast(m, teamId, groups, inputs, outputs);
  const auto &[layout, bytes, count, local, direct, copyBefore, copyAfter,
               blocking, comm, peer] = m.plan;
  OpScratch &s = opScratch();
  const size_t n = m.ins.size();
  if (local) {
    // Not in any group: zeros. Alone in its group: its own value.
    for (size_t k = 0; k < n; ++k) {
      if (layout->position < 0)
        zero(m.outs[k].bytes);
      else
        copy(m.ins[k].bytes, m.outs[k].bytes, s.copy);
    }
    return done("collective_broadcast", teamId, async);
  }
  if (!async && blocking) {
    broadcastBlocking(m);
    return 0;
  }
  if (n > 1 && bytes > kPackLimit)
    return runInSlot("collective_broadcast", teamId, async,
                     [&](RequestSlot &slot) { broadcastEach(slot, m, async); });
  return runInSlot(
      "collective_broadcast", teamId, async, [&](RequestSlot &slot) {
        void *buffer = direct;
        if (!direct) {
          if (slot.staging.size() < bytes)
            slot.staging.resize(bytes);
          buffer = slot.staging.data();
          const bool root = layout->position == 0;
          size_t offset = 0;
          for (size_t k = 0; k < n; ++k) {
            if (root)
              pack(m.ins[k].bytes, slot.staging.data() + offset);
            const Buffer &out = m.outs[k];
            slot.addUnpack(offset, out.bytes.base, out.rank(), out.sizes(),
                           out.strides(), out.bytes.elementSize);
            offset += out.byteCount;
          }
        } else if (copyBefore) {
          copy(m.ins[0].bytes, m.outs[0].bytes, s.copy);
        }
        if (async)
          postRequest(slot, "MPI_Ibcast", [&](MPI_Request *request) {
            return MPI_Ibcast(buffer, count, MPI_BYTE, 0, layout->comm,
                              request);
          });
        else
          broadcastOnce(buffer, count, peer, layout->position == 0,
                        layout->comm);
        // MPI only reads the root's buffer: copying from it
        // while the broadcast runs is allowed.
        if (copyAfter)
          copy(m.ins[0].bytes, m.outs[0].bytes, s.copy);
      });
}

} // namespace

} // namespace distrt::detail

//===----------------------------------------------------------------------===//
// C ABI (distrt.h): operand arrays are passed on as they are, read once when
// the op resolves them. Nothing throws across (see CApi.cpp).
//===----------------------------------------------------------------------===//

namespace distrt::detail {
namespace {

using GatherFast = FastPath<BlockPlan, allGatherBlocking>;
using AllReduceFast = FastPath<AllReducePlan, allReduceBlocking>;
using AllToAllFast = FastPath<BlockPlan, allToAllBlocking>;
using ReduceScatterFast = FastPath<ReduceScatterPlan, reduceScatterBlocking>;
using BroadcastFast = FastPath<BroadcastPlan, broadcastBlocking>;

// The C entry points past their static paths.

[[gnu::noinline]] distrt_handle_t
allGatherCall(int64_t team, const distrt_groups_t *groups, int64_t dim,
              int64_t n, const distrt_operand_t *inputs,
              const distrt_operand_t *outputs, int32_t async,
              distrt_site_t *site, const char *loc) noexcept {
  return memoized<GatherFast>(
      gGatherMemo, "all_gather",
      {team, groups, {dim}, inputs, n, outputs, n, async != 0}, site, loc,
      [&](auto &m) {
        return allGatherFull(m, team, groups, dim, OperandList(inputs, n),
                             OperandList(outputs, n), async != 0);
      });
}

[[gnu::noinline]] distrt_handle_t
allReduceCall(int64_t team, const distrt_groups_t *groups, int32_t op,
              int64_t n, const distrt_operand_t *inputs,
              const distrt_operand_t *outputs, int32_t async,
              distrt_site_t *site, const char *loc) noexcept {
  return memoized<AllReduceFast>(
      gAllReduceMemo, "all_reduce",
      {team, groups, {op}, inputs, n, outputs, n, async != 0}, site, loc,
      [&](auto &m) {
        return allReduceFull(m, team, groups, op, OperandList(inputs, n),
                             OperandList(outputs, n), async != 0);
      });
}

[[gnu::noinline]] distrt_handle_t
allToAllCall(int64_t team, const distrt_groups_t *groups, int64_t splitDim,
             int64_t concatDim, int64_t splitCount, int64_t n,
             const distrt_operand_t *inputs, const distrt_operand_t *outputs,
             int32_t async, distrt_site_t *site, const char *loc) noexcept {
  return memoized<AllToAllFast>(gAllToAllMemo, "all_to_all",
                                {team,
                                 groups,
                                 {splitDim, concatDim, splitCount},
                                 inputs,
                                 n,
                                 outputs,
                                 n,
                                 async != 0},
                                site, loc, [&](auto &m) {
                                  return allToAllFull(
                                      m, team, groups, splitDim, concatDim,
                                      splitCount, OperandList(inputs, n),
                                      OperandList(outputs, n), async != 0);
                                });
}

[[gnu::noinline]] distrt_handle_t
reduceScatterCall(int64_t team, const distrt_groups_t *groups, int32_t op,
                  int64_t scatterDim, int64_t n, const distrt_operand_t *inputs,
                  const distrt_operand_t *outputs, int32_t async,
                  distrt_site_t *site, const char *loc) noexcept {
  return memoized<ReduceScatterFast>(
      gReduceScatterMemo, "reduce_scatter",
      {team, groups, {op, scatterDim}, inputs, n, outputs, n, async != 0}, site,
      loc, [&](auto &m) {
        return reduceScatterFull(m, team, groups, op, scatterDim,
                                 OperandList(inputs, n),
                                 OperandList(outputs, n), async != 0);
      });
}

[[gnu::noinline]] distrt_handle_t
broadcastCall(int64_t team, const distrt_groups_t *groups, int64_t n,
              const distrt_operand_t *inputs, const distrt_operand_t *outputs,
              int32_t async, distrt_site_t *site, const char *loc) noexcept {
  return memoized<BroadcastFast>(
      gBroadcastMemo, "collective_broadcast",
      {team, groups, {}, inputs, n, outputs, n, async != 0}, site, loc,
      [&](auto &m) {
        return broadcastFull(m, team, groups, OperandList(inputs, n),
                             OperandList(outputs, n), async != 0);
      });
}

} // namespace
} // namespace distrt::detail

// A static site's matching call is a few compares and its MPI call; any
// other call is a tail call to the general path (see PointToPoint.cpp).

distrt_handle_t distrt_all_gather(int64_t team, const distrt_groups_t *groups,
                                  int64_t dim, int64_t n,
                                  const distrt_operand_t *inputs,
                                  const distrt_operand_t *outputs,
                                  int32_t async, distrt_site_t *site,
                                  const char *loc) {
  using namespace distrt::detail;
  if (auto *m = GatherFast::siteHit(gGatherMemo, site, team, inputs, n, outputs,
                                    n, async)) [[likely]]
    return GatherFast::run(*m, "all_gather", team, async, loc);
  return allGatherCall(team, groups, dim, n, inputs, outputs, async, site, loc);
}

distrt_handle_t distrt_all_reduce(int64_t team, const distrt_groups_t *groups,
                                  int32_t op, int64_t n,
                                  const distrt_operand_t *inputs,
                                  const distrt_operand_t *outputs,
                                  int32_t async, distrt_site_t *site,
                                  const char *loc) {
  using namespace distrt::detail;
  if (auto *m = AllReduceFast::siteHit(gAllReduceMemo, site, team, inputs, n,
                                       outputs, n, async)) [[likely]]
    return AllReduceFast::run(*m, "all_reduce", team, async, loc);
  return allReduceCall(team, groups, op, n, inputs, outputs, async, site, loc);
}

distrt_handle_t distrt_all_to_all(int64_t team, const distrt_groups_t *groups,
                                  int64_t split_dim, int64_t concat_dim,
                                  int64_t split_count, int64_t n,
                                  const distrt_operand_t *inputs,
                                  const distrt_operand_t *outputs,
                                  int32_t async, distrt_site_t *site,
                                  const char *loc) {
  using namespace distrt::detail;
  if (auto *m = AllToAllFast::siteHit(gAllToAllMemo, site, team, inputs, n,
                                      outputs, n, async)) [[likely]]
    return AllToAllFast::run(*m, "all_to_all", team, async, loc);
  return allToAllCall(team, groups, split_dim, concat_dim, split_count, n,
                      inputs, outputs, async, site, loc);
}

distrt_handle_t distrt_reduce_scatter(int64_t team,
                                      const distrt_groups_t *groups, int32_t op,
                                      int64_t scatter_dim, int64_t n,
                                      const distrt_operand_t *inputs,
                                      const distrt_operand_t *outputs,
                                      int32_t async, distrt_site_t *site,
                                      const char *loc) {
  using namespace distrt::detail;
  if (auto *m = ReduceScatterFast::siteHit(gReduceScatterMemo, site, team,
                                           inputs, n, outputs, n, async))
      [[likely]]
    return ReduceScatterFast::run(*m, "reduce_scatter", team, async, loc);
  return reduceScatterCall(team, groups, op, scatter_dim, n, inputs, outputs,
                           async, site, loc);
}

distrt_handle_t
distrt_collective_broadcast(int64_t team, const distrt_groups_t *groups,
                            int64_t n, const distrt_operand_t *inputs,
                            const distrt_operand_t *outputs, int32_t async,
                            distrt_site_t *site, const char *loc) {
  using namespace distrt::detail;
  if (auto *m = BroadcastFast::siteHit(gBroadcastMemo, site, team, inputs, n,
                                       outputs, n, async)) [[likely]]
    return BroadcastFast::run(*m, "collective_broadcast", team, async, loc);
  return broadcastCall(team, groups, n, inputs, outputs, async, site, loc);
}

//===----------------------------------------------------------------------===//
// C++ API
//===----------------------------------------------------------------------===//

namespace distrt {

using detail::guarded;

void allGather(const Team &team, const distrt_groups_t &groups, int64_t dim,
               Operands inputs, Operands outputs, SourceLoc loc) {
  guarded("all_gather", team.id(), loc, [&] {
    return detail::allGatherFull(detail::gGatherMemo.at(loc), team.id(),
                                 &groups, dim, inputs, outputs, false);
  });
}
Request allGatherAsync(const Team &team, const distrt_groups_t &groups,
                       int64_t dim, Operands inputs, Operands outputs,
                       SourceLoc loc) {
  return Request(guarded("all_gather", team.id(), loc, [&] {
    return detail::allGatherFull(detail::gGatherMemo.at(loc), team.id(),
                                 &groups, dim, inputs, outputs, true);
  }));
}

void allReduce(const Team &team, const distrt_groups_t &groups, RedOp op,
               Operands inputs, Operands outputs, SourceLoc loc) {
  guarded("all_reduce", team.id(), loc, [&] {
    return detail::allReduceFull(detail::gAllReduceMemo.at(loc), team.id(),
                                 &groups, static_cast<int32_t>(op), inputs,
                                 outputs, false);
  });
}
Request allReduceAsync(const Team &team, const distrt_groups_t &groups,
                       RedOp op, Operands inputs, Operands outputs,
                       SourceLoc loc) {
  return Request(guarded("all_reduce", team.id(), loc, [&] {
    return detail::allReduceFull(detail::gAllReduceMemo.at(loc), team.id(),
                                 &groups, static_cast<int32_t>(op), inputs,
                                 outputs, true);
  }));
}

void allToAll(const Team &team, const distrt_groups_t &groups, int64_t splitDim,
              int64_t concatDim, int64_t splitCount, Operands inputs,
              Operands outputs, SourceLoc loc) {
  guarded("all_to_all", team.id(), loc, [&] {
    return detail::allToAllFull(detail::gAllToAllMemo.at(loc), team.id(),
                                &groups, splitDim, concatDim, splitCount,
                                inputs, outputs, false);
  });
}
Request allToAllAsync(const Team &team, const distrt_groups_t &groups,
                      int64_t splitDim, int64_t concatDim, int64_t splitCount,
                      Operands inputs, Operands outputs, SourceLoc loc) {
  return Request(guarded("all_to_all", team.id(), loc, [&] {
    return detail::allToAllFull(detail::gAllToAllMemo.at(loc), team.id(),
                                &groups, splitDim, concatDim, splitCount,
                                inputs, outputs, true);
  }));
}

void reduceScatter(const Team &team, const distrt_groups_t &groups, RedOp op,
                   int64_t scatterDim, Operands inputs, Operands outputs,
                   SourceLoc loc) {
  guarded("reduce_scatter", team.id(), loc, [&] {
    return detail::reduceScatterFull(
        detail::gReduceScatterMemo.at(loc), team.id(), &groups,
        static_cast<int32_t>(op), scatterDim, inputs, outputs, false);
  });
}
Request reduceScatterAsync(const Team &team, const distrt_groups_t &groups,
                           RedOp op, int64_t scatterDim, Operands inputs,
                           Operands outputs, SourceLoc loc) {
  return Request(guarded("reduce_scatter", team.id(), loc, [&] {
    return detail::reduceScatterFull(
        detail::gReduceScatterMemo.at(loc), team.id(), &groups,
        static_cast<int32_t>(op), scatterDim, inputs, outputs, true);
  }));
}

void collectiveBroadcast(const Team &team, const distrt_groups_t &groups,
                         Operands inputs, Operands outputs, SourceLoc loc) {
  guarded("collective_broadcast", team.id(), loc, [&] {
    return detail::broadcastFull(detail::gBroadcastMemo.at(loc), team.id(),
                                 &groups, inputs, outputs, false);
  });
}
Request collectiveBroadcastAsync(const Team &team,
                                 const distrt_groups_t &groups, Operands inputs,
                                 Operands outputs, SourceLoc loc) {
  return Request(guarded("collective_broadcast", team.id(), loc, [&] {
    return detail::broadcastFull(detail::gBroadcastMemo.at(loc), team.id(),
                                 &groups, inputs, outputs, true);
  }));
}

} // namespace distrt
