//===- AllReduce.cpp - all_reduce and the RFC allreduce ---------*- C++ -*-===//
//
// results[k] = the reduction of inputs[k] over the group, in the output's
// element type (an input may promote to it). One typed MPI reduction per
// operand; a dense output receives it directly (the input copied or
// converted into it first unless sent as is), a strided one through
// staging. The RFC's `allreduce` is this op over the whole team, in place.
//
//===----------------------------------------------------------------------===//

#include "../OpCall.h"
#include "../Reduce.h"

namespace distrt::detail {
namespace {

struct AllReduce {
  using Plan = ReducePlan;
  static inline OpMemos<Plan> memos;

  static const std::vector<int64_t> *plan(Memo<Plan> &m, const Call &c) {
    const auto redop = static_cast<int32_t>(c.params[0]);
    // The operands first: the C ABI's arrays are checked before anything.
    OpScratch &s = opScratch();
    resolvePairs(c.inputs, c.outputs, s, /*sameShape=*/true, /*promote=*/true);
    const GroupLayout &layout = groupLayout(lookupTeam(c.team), c.groups);
    layout.requireEveryProcess();
    Plan &p = m.plan;
    p = {.layout = &layout,
         .active = 0,
         .blocking = true,
         .calls = std::move(p.calls),
         .comm = layout.comm};
    p.calls.clear();
    for (size_t k = 0; k < s.ins.size(); ++k) {
      const Buffer &in = s.ins[k], &out = s.outs[k];
      // The reduction runs in the output's (possibly promoted) type.
      const MPI_Op op = reductionOp(redop, out.dtype); // before any MPI call
      const int count = mpiCount(in.count, "elements");
      if (in.count == 0)
        continue;
      ++p.active;
      if (!out.dense) { // staged: only run() serves it
        p.blocking = false;
        continue;
      }
      const bool inPlace =
          !in.dense || in.dtype != out.dtype || overlaps(in, out);
      p.calls.push_back({.send = inPlace ? MPI_IN_PLACE : in.bytes.base,
                         .recv = out.bytes.base,
                         .count = count,
                         .type = out.type->mpi,
                         .op = op,
                         .inPlace = inPlace,
                         .operand = static_cast<uint32_t>(k)});
    }
    p.blocking &= p.active > 0;
    return &layout.key;
  }

  static bool direct(const Plan &p, bool async) {
    return !async && p.blocking;
  }

  static distrt_handle_t runDirect(const Memo<Plan> &m, const Call &) {
    for (const ReduceCall &r : m.plan.calls) {
      if (r.inPlace)
        copyPromoted(m.ins[r.operand], m.outs[r.operand]);
      checkMpi(MPI_Allreduce(r.send, r.recv, r.count, r.type, r.op,
                             m.plan.comm),
               "MPI_Allreduce");
    }
    return 0;
  }

  static distrt_handle_t run(Memo<Plan> &m, const Call &c) {
    if (m.plan.active == 0)
      return done(c.op, c.team, c.async);
    return runInSlot(c.op, c.team, c.async, [&](RequestSlot &slot) {
      size_t staged = 0;
      for (const Buffer &out : m.outs)
        staged += out.dense ? 0 : alignUp(out.byteCount);
      if (slot.staging.size() < staged)
        slot.staging.resize(staged);
      size_t offset = 0;
      for (size_t k = 0; k < m.ins.size(); ++k) {
        const Buffer &in = m.ins[k], &out = m.outs[k];
        if (in.count == 0)
          continue;
        const void *send = MPI_IN_PLACE;
        void *recv = out.bytes.base;
        if (!out.dense) {
          recv = slot.staging.data() + offset;
          packPromoted(in.bytes, in.dtype, static_cast<std::byte *>(recv),
                       out.dtype, opScratch().copy);
          slot.addUnpack(offset, out.bytes.base, out.rank(), out.sizes(),
                         out.strides(), out.bytes.elementSize);
          offset += alignUp(out.byteCount);
        } else if (in.dtype == out.dtype && in.dense && !overlaps(in, out)) {
          send = in.bytes.base;
        } else {
          copyPromoted(in, out);
        }
        const MPI_Op op = reductionOp(static_cast<int32_t>(c.params[0]),
                                      out.dtype);
        const auto count = static_cast<int>(in.count);
        if (c.async)
          postRequest(slot, "MPI_Iallreduce", [&](MPI_Request *request) {
            return MPI_Iallreduce(send, recv, count, out.type->mpi, op,
                                  m.plan.comm, request);
          });
        else
          checkMpi(MPI_Allreduce(send, recv, count, out.type->mpi, op,
                                 m.plan.comm),
                   "MPI_Allreduce");
      }
    });
  }
};

Call allReduceCall(int64_t team, const distrt_groups_t *groups, int32_t redop,
                   OperandList inputs, OperandList outputs, bool async,
                   SourceLoc loc) {
  return {groups ? "all_reduce" : "allreduce",
          team,
          groups,
          {redop, 0, 0},
          inputs,
          outputs,
          async,
          loc};
}

} // namespace
} // namespace distrt::detail

using namespace distrt::detail;

distrt_handle_t distrt_all_reduce(int64_t team, const distrt_groups_t *groups,
                                  int32_t op, int64_t n,
                                  const distrt_operand_t *inputs,
                                  const distrt_operand_t *outputs,
                                  int32_t async, distrt_site_t *site,
                                  const char *loc) {
  return cCall<AllReduce>(site,
                          allReduceCall(team, groups, op, {inputs, n},
                                        {outputs, n}, async != 0, loc),
                          loc);
}

namespace distrt {

void allReduce(const Team &team, const Groups &groups, RedOp op,
               Operands inputs, Operands outputs, Site *site, SourceLoc loc) {
  cxxSync<AllReduce>(site, allReduceCall(team.id(), &groups.spec(),
                                         static_cast<int32_t>(op), inputs,
                                         outputs, false, loc));
}
Request allReduceAsync(const Team &team, const Groups &groups, RedOp op,
                       Operands inputs, Operands outputs, Site *site,
                       SourceLoc loc) {
  return cxxAsync<AllReduce>(site, allReduceCall(team.id(), &groups.spec(),
                                                 static_cast<int32_t>(op),
                                                 inputs, outputs, true, loc));
}

void allreduce(const Team &team, RedOp op, Dtype dtype, const MemrefView &data,
               Site *site, SourceLoc loc) {
  const Operand operand{data, dtype};
  cxxSync<AllReduce>(site, allReduceCall(team.id(), nullptr,
                                         static_cast<int32_t>(op), Operands(&operand, 1),
                                         Operands(&operand, 1), false, loc));
}
Request allreduceAsync(const Team &team, RedOp op, Dtype dtype,
                       const MemrefView &data, Site *site, SourceLoc loc) {
  const Operand operand{data, dtype};
  return cxxAsync<AllReduce>(
      site, allReduceCall(team.id(), nullptr, static_cast<int32_t>(op),
                          Operands(&operand, 1), Operands(&operand, 1), true, loc));
}

} // namespace distrt
