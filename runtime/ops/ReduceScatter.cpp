//===- ReduceScatter.cpp - reduce_scatter -----------------------*- C++ -*-===//
//
// Reduces inputs[k] over the group and keeps the block of scatter_dimension
// at this member's position: one MPI_Reduce_scatter_block per operand, in
// the output's element type. An input whose blocks are already G
// consecutive byte ranges of that type is sent as is, others are packed
// (and converted) into staging first.
//
// Open MPI 4.1's MPI_Reduce_scatter_block falls off a cliff past a few
// hundred KiB (np 2, 512 KiB of f64: 2.7 ms, against 77 us for the G
// MPI_Reduce calls rooted at each member and 192 us for an MPI_Allreduce of
// it all; np 3 and 4 from 256 KiB on): past kRootedBytes an input is
// reduced by the rooted calls below, which move the same data. In a group
// of two a sync call is one MPI_Sendrecv of the peer's block and a local
// reduction (MPI_Reduce_local) of it into this member's, the least data
// there is (44 us at 512 KiB), for blocks of 1 KiB or more, where the
// reduction is commutative bit for bit (packingExact, ReducePlan.h): each
// element is then one application of it to the two values, the bits MPI's
// algorithms give.
//
// With MPI 4's large-count functions (MPICH) an input of any length is one
// MPI_Reduce_scatter_block_c call past gMaxCount elements. Without them
// (Open MPI 4.1), an input of more than gMaxCount elements (LargeCount.h) is
// reduced instead by one MPI_Reduce per member, rooted at it, on its block,
// split into calls of at most gMaxCount elements. MPI_Reduce_scatter_block
// itself cannot be split: one chunk of it would send a piece of every member's
// block, G ranges apart, which MPI's predefined reduction ops take only as
// predefined types (not as a derived type spanning them), and restaging the
// whole input chunk by chunk would cost another copy of it. The rooted
// reductions read the blocks where they are.
//
//===----------------------------------------------------------------------===//

#include "../Channels.h"
#include "../LargeCount.h"
#include "../OpCall.h"
#include "../ReducePlan.h"

#include <cstring>

namespace distrt::detail {
namespace {

struct ReduceScatter : OpKind<ReduceScatter, ReducePlan> {
  static constexpr std::array kParams{"reduction", "reproducibility",
                                      "scatter_dimension"};

  /// An own reduction (Reproducible.h) of `dtype` over the plan's group.
  static bool own(const ReducePlan &p, Reduction red, int32_t dtype) {
    return ownReduction(p.layout->size(), red.redop, dtype, red.level);
  }
  /// Inputs of at least this many bytes (in the output's type) are reduced
  /// by rooted MPI_Reduce calls rather than MPI_Reduce_scatter_block.
  static constexpr size_t kRootedBytes = size_t{256} << 10;

  /// Blocks of fewer bytes are left to MPI_Reduce_scatter_block on the
  /// operands' own buffers: as fast as the exchange there, without the
  /// staging of run().
  static constexpr size_t kExchangeBytes = 1024;

  /// A sync operand in a group of two with a bit-commutative reduction
  /// (and a block MPI can count, of kExchangeBytes or more) is exchanged
  /// and reduced locally.
  static bool exchanges(const GroupLayout &layout, Reduction red,
                        const Buffer &out, bool async) {
    return !async && layout.size() == 2 && out.byteCount >= kExchangeBytes &&
           out.count <= gMaxCount &&
           packingExact(2, levelRedop(red.redop, out.dtype, red.level),
                        out.dtype, Repro::Mpi);
  }
  /// The operand is reduced by rooted calls.
  static bool rootedFor(const Buffer &in, const Buffer &out, bool exchange) {
    return in.count > maxReduceCount() ||
           (!exchange &&
            static_cast<size_t>(in.count) * out.type->size >= kRootedBytes);
  }
  /// The input is sent as is: dense, already G consecutive blocks
  /// (scatter_dimension is its leading non-unit dimension), not promoted.
  static bool sendAsIs(const Buffer &in, const Buffer &out, int64_t dim) {
    return in.dense && in.dtype == out.dtype &&
           leadingElements(in.rank(), in.sizes(), dim) == 1;
  }
  static bool recvAsIs(const Buffer &in, const Buffer &out, int64_t dim) {
    return out.dense && !(sendAsIs(in, out, dim) && overlaps(in, out));
  }

  /// The reduction of an input past gMaxCount elements, G blocks of `out`'s
  /// size and type at `send`: block j reduced into member j's `recv` by
  /// MPI_Reduce calls rooted at j, of at most gMaxCount elements each.
  static void reduceRooted(RequestSlot &slot, const ReducePlan &p,
                           const void *send, void *recv, const Buffer &out,
                           MPI_Op op, bool async) {
    const size_t size = out.type->size;
    for (int root = 0; root < p.layout->size(); ++root) {
      const std::byte *block = static_cast<const std::byte *>(send) +
                               static_cast<size_t>(root) * out.byteCount;
      for (int64_t first = 0; first < out.count; first += gMaxCount) {
        const auto offset = static_cast<size_t>(first) * size;
        const void *from = block + offset;
        // Only the root's receive buffer is used.
        void *to = root == p.layout->position
                       ? static_cast<std::byte *>(recv) + offset
                       : nullptr;
        const auto count =
            static_cast<int>(std::min<int64_t>(out.count - first, gMaxCount));
        if (async)
          postRequest(slot, "MPI_Ireduce", [&](MPI_Request *request) {
            return MPI_Ireduce(from, to, count, out.type->mpi, op, root, p.comm,
                               request);
          });
        else
          checkMpi(MPI_Reduce(from, to, count, out.type->mpi, op, root, p.comm),
                   "MPI_Reduce");
      }
    }
  }

  static const std::vector<int64_t> *plan(Memo<Plan> &m, const Call &c) {
    const Reduction red = reductionOf(c.params);
    const int64_t dim = c.params.scalar(2);
    const GroupLayout &layout =
        resolveGroupCall(c, /*sameShape=*/false, /*promote=*/true);
    const OpScratch &s = opScratch();
    layout.requireEveryProcess();
    layout.requireUniform();
    const int64_t members = layout.size();
    m.plan.start(layout);
    for (size_t k = 0; k < s.ins.size(); ++k) {
      const Buffer &in = s.ins[k], &out = s.outs[k];
      MPI_Op op =
          reductionOp(levelRedop(red.redop, out.dtype, red.level), out.dtype);
      checkDim(k, "scatter_dimension", dim, in.rank());
      checkDivisible(k, in, dim, "scatter_dimension", members,
                     "the group size");
      checkShape(k, in, out, dim, 1, members,
                 "the input shape with scatter_dimension divided by the "
                 "group size");
      if (out.count == 0)
        continue;
      // Rooted reductions and exchanges are run()'s (planned per call: a
      // sync call exchanges, an async one does not).
      const bool special =
          exchanges(layout, red, out, /*async=*/false) ||
          rootedFor(in, out, /*exchange=*/false) ||
          ownReduction(layout.size(), red.redop, out.dtype, red.level);
      m.plan.add(k,
                 !special && sendAsIs(in, out, dim) && recvAsIs(in, out, dim),
                 in.bytes.base, out, out.count, op);
    }
    Plan &p = m.plan;
    p.scatterDim = dim;
    p.shareable.assign(s.ins.size(), false);
    for (size_t k = 0; k < s.ins.size(); ++k) {
      const Buffer &in = s.ins[k], &out = s.outs[k];
      p.shareable[k] =
          out.count > 0 &&
          sharedReduction(layout.size(), red.redop, out.dtype, red.level,
                          own(p, red, out.dtype), sentBytes(in, out), in.count);
    }
    for (ReduceCall &call : p.calls)
      call.shared = p.shareable[call.operand];
    return &layout.key;
  }

  /// The bytes an input takes in the output's type.
  static size_t sentBytes(const Buffer &in, const Buffer &out) {
    return static_cast<size_t>(in.count) * out.type->size;
  }

  /// The staging run() gives an operand: its packed input, its received
  /// block and, exchanged, the peer's block.
  static size_t operandStaging(const GroupLayout &layout, Reduction red,
                               const Buffer &in, const Buffer &out, int64_t dim,
                               bool async) {
    const bool exchange = exchanges(layout, red, out, async);
    return (sendAsIs(in, out, dim) ? 0 : alignUp(sentBytes(in, out))) +
           (recvAsIs(in, out, dim) ? 0 : alignUp(out.byteCount)) +
           (exchange ? alignUp(out.byteCount) : 0);
  }

  /// Operand k of a sync call folded in shared memory into `target` (its
  /// dense output or staging), if the group can (foldInGroup): every
  /// member sends its G blocks, in the output's type, and folds the
  /// members' blocks at its position.
  static bool reduceInGroup(const Memo<Plan> &m, size_t k, int64_t dim,
                            std::byte *target, MPI_Op op) {
    const Buffer &in = m.ins[k], &out = m.outs[k];
    const int64_t members = m.plan.layout->size();
    const auto fill = [&](std::byte *slot) {
      if (sendAsIs(in, out, dim)) // G consecutive blocks of the output's type
        return static_cast<void>(
            std::memcpy(slot, in.bytes.base, sentBytes(in, out)));
      for (int64_t j = 0; j < members; ++j)
        packPromoted(in.slice(dim, j, out.sizes()[dim], out.sizes()), in.dtype,
                     slot + static_cast<size_t>(j) * out.byteCount, out.dtype,
                     opScratch().copy);
    };
    const auto at = static_cast<size_t>(m.plan.layout->position);
    return foldInGroup(m.plan, m.head[0], sentBytes(in, out), fill,
                       at * out.byteCount, target, out, op,
                       "reduce_scatter operand");
  }

  static bool direct(const Plan &p, bool async) { return p.direct(async); }

  static distrt_handle_t runDirect(const Memo<Plan> &m, const DirectCall &) {
    for (const ReduceCall &r : m.plan.calls)
      if (!r.shared || !reduceInGroup(m, r.operand, m.plan.scatterDim,
                                      static_cast<std::byte *>(r.recv), r.op))
        checkMpi(reduceScatterBlockCount(r.send, r.recv, r.count,
                                         r.count * m.plan.layout->size(),
                                         r.type, r.op, m.plan.comm),
                 "MPI_Reduce_scatter_block");
    return 0;
  }

  /// A sync exchange in a group of two: the peer's block of `send` to it,
  /// its block of this member's into `theirs`, then this member's block
  /// (copied to `recv`) reduced with it.
  static void exchange(const ReducePlan &p, const std::byte *send, void *recv,
                       std::byte *theirs, const Buffer &out, MPI_Op op) {
    const int peer = 1 - p.layout->position;
    const auto count = static_cast<int>(out.count);
    MPI_Status status;
    const int code =
        MPI_Sendrecv(send + static_cast<size_t>(peer) * out.byteCount, count,
                     out.type->mpi, peer, kOwnTag, theirs, count, out.type->mpi,
                     peer, kOwnTag, p.comm, &status);
    int received = -1;
    if (code == MPI_SUCCESS)
      MPI_Get_count(&status, out.type->mpi, &received);
    if (code != MPI_SUCCESS || received != count) [[unlikely]]
      failBlockingReceive(
          "reduce_scatter",
          {0, count, peer, out.type->mpi, "reduce_scatter block"}, code,
          status);
    const std::byte *mine =
        send + static_cast<size_t>(p.layout->position) * out.byteCount;
    if (mine != recv)
      std::memmove(recv, mine, out.byteCount);
    checkMpi(MPI_Reduce_local(theirs, recv, count, out.type->mpi, op),
             "MPI_Reduce_local");
  }

  /// run()'s sync operand (in, out), folded in shared memory if it may and
  /// the group can: into the output, or the part of the operand's staging
  /// (at `offset`, moved past it) that receives into it.
  static bool runInGroup(RequestSlot &slot, const Memo<Plan> &m,
                         const Buffer &in, const Buffer &out, Reduction red,
                         size_t &offset) {
    const auto k = static_cast<size_t>(&in - m.ins.data());
    const int64_t dim = m.plan.scatterDim;
    if (!m.plan.shareable[k])
      return false;
    const size_t at =
        offset + (sendAsIs(in, out, dim) ? 0 : alignUp(sentBytes(in, out)));
    std::byte *target = out.dense ? out.bytes.base : slot.staging.data() + at;
    MPI_Op op =
        reductionOp(levelRedop(red.redop, out.dtype, red.level), out.dtype);
    if (!reduceInGroup(m, k, dim, target, op))
      return false;
    if (!out.dense)
      slot.addUnpack(at, out.bytes.base, out.rank(), out.sizes(), out.strides(),
                     out.bytes.elementSize);
    offset += operandStaging(*m.plan.layout, red, in, out, dim, false);
    return true;
  }

  static distrt_handle_t run(Memo<Plan> &m, const Call &c) {
    if (m.plan.active == 0)
      return done(c.op, c.team, c.loc, c.async);
    const int64_t dim = c.params.scalar(2);
    const Reduction red = reductionOf(c.params);
    const int64_t members = m.plan.layout->size();
    return runInSlot(c.op, c.team, c.loc, c.async, [&](RequestSlot &slot) {
      size_t total = 0;
      for (size_t k = 0; k < m.ins.size(); ++k)
        total += operandStaging(*m.plan.layout, red, m.ins[k], m.outs[k], dim,
                                c.async);
      slot.stage(total);
      size_t offset = 0;
      m.forEachNonEmpty([&](const Buffer &in, const Buffer &out) {
        if (!c.async && runInGroup(slot, m, in, out, red, offset))
          return;
        const void *send = in.bytes.base;
        if (!sendAsIs(in, out, dim)) {
          // Block j of the scatter dimension goes j-th, in the output's type.
          std::byte *packed = slot.staging.data() + offset;
          send = packed;
          for (int64_t j = 0; j < members; ++j)
            packPromoted(in.slice(dim, j, out.sizes()[dim], out.sizes()),
                         in.dtype,
                         packed + static_cast<size_t>(j) * out.byteCount,
                         out.dtype, opScratch().copy);
          offset += alignUp(sentBytes(in, out));
        }
        void *recv = out.bytes.base;
        if (!recvAsIs(in, out, dim)) {
          recv = slot.staging.data() + offset;
          slot.addUnpack(offset, out.bytes.base, out.rank(), out.sizes(),
                         out.strides(), out.bytes.elementSize);
          offset += alignUp(out.byteCount);
        }
        if (own(m.plan, red, out.dtype))
          return ownReduceScatter(ownReduceOver(*m.plan.layout, red, out.dtype),
                                  c.async ? &slot : nullptr,
                                  static_cast<const std::byte *>(send),
                                  static_cast<std::byte *>(recv), out.count);
        MPI_Op op =
            reductionOp(levelRedop(red.redop, out.dtype, red.level), out.dtype);
        if (exchanges(*m.plan.layout, red, out, c.async)) {
          std::byte *theirs = slot.staging.data() + offset;
          offset += alignUp(out.byteCount);
          return exchange(m.plan, static_cast<const std::byte *>(send), recv,
                          theirs, out, op);
        }
        if (rootedFor(in, out, /*exchange=*/false))
          return reduceRooted(slot, m.plan, send, recv, out, op, c.async);
        const int64_t count = out.count;
        if (c.async)
          postRequest(
              slot, "MPI_Ireduce_scatter_block", [&](MPI_Request *request) {
                return ireduceScatterBlockCount(send, recv, count, in.count,
                                                out.type->mpi, op, m.plan.comm,
                                                request);
              });
        else
          checkMpi(reduceScatterBlockCount(send, recv, count, in.count,
                                           out.type->mpi, op, m.plan.comm),
                   "MPI_Reduce_scatter_block");
      });
    });
  }
};

} // namespace
} // namespace distrt::detail

using namespace distrt::detail;

distrt_handle_t distrt_reduce_scatter(
    int64_t team, const distrt_groups_t *groups, int32_t op, int64_t scatterDim,
    int64_t n, const distrt_operand_t *inputs, const distrt_operand_t *outputs,
    int32_t async, distrt_site_t *site, const char *loc) {
  const int64_t scalars[] = {redopOf(op), requestedLevel(op), scatterDim};
  return cEntry<ReduceScatter>("reduce_scatter", team, groups, Params(scalars),
                               n, inputs, n, outputs, async, site, loc);
}

namespace distrt {

void reduceScatter(const Team &team, const Groups &groups, RedOp op,
                   int64_t scatterDim, Operands inputs, Operands outputs,
                   Site *site, SourceLoc loc) {
  const int64_t scalars[] = {redopOf(static_cast<int32_t>(op)),
                             requestedLevel(static_cast<int32_t>(op)),
                             scatterDim};
  cxxSync<ReduceScatter>("reduce_scatter", team, &groups.spec(),
                         Params(scalars), inputs, outputs, site, loc);
}
Request reduceScatterAsync(const Team &team, const Groups &groups, RedOp op,
                           int64_t scatterDim, Operands inputs,
                           Operands outputs, Site *site, SourceLoc loc) {
  const int64_t scalars[] = {redopOf(static_cast<int32_t>(op)),
                             requestedLevel(static_cast<int32_t>(op)),
                             scatterDim};
  return cxxAsync<ReduceScatter>("reduce_scatter", team, &groups.spec(),
                                 Params(scalars), inputs, outputs, site, loc);
}

} // namespace distrt
