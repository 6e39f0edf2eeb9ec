//===- AllReduce.cpp - all_reduce and the RFC allreduce ---------*- C++ -*-===//
//
// results[k] = the reduction of inputs[k] over the group, in the output's
// element type (an input may promote to it). One typed MPI reduction per
// operand; a dense output receives it directly (the input copied or
// converted into it first unless sent as is), a strided one through
// staging. An operand of more than gMaxCount elements (LargeCount.h) is
// reduced by several calls, each on the next gMaxCount elements at most.
// The RFC's `allreduce` is this op over the whole team, in place.
//
//===----------------------------------------------------------------------===//

#include "../OpCall.h"
#include "../ReducePlan.h"

namespace distrt::detail {
namespace {

struct AllReduce : OpKind<AllReduce, ReducePlan> {
  static constexpr std::array kParams{"reduction"};
  static const std::vector<int64_t> *plan(Memo<Plan> &m, const Call &c) {
    const auto redop = static_cast<int32_t>(c.params.scalar(0));
    const GroupLayout &layout =
        resolveGroupCall(c, /*sameShape=*/true, /*promote=*/true);
    const OpScratch &s = opScratch();
    layout.requireEveryProcess();
    m.plan.start(layout);
    for (size_t k = 0; k < s.ins.size(); ++k) {
      const Buffer &in = s.ins[k], &out = s.outs[k];
      // The reduction runs in the output's (possibly promoted) type.
      MPI_Op op = reductionOp(redop, out.dtype); // before any MPI call
      if (in.count == 0)
        continue;
      // A strided output is staged: only run() serves it.
      const bool inPlace =
          !in.dense || in.dtype != out.dtype || overlaps(in, out);
      m.plan.add(k, out.dense, inPlace ? MPI_IN_PLACE : in.bytes.base, out,
                 in.count, op);
    }
    return &layout.key;
  }

  static bool direct(const Plan &p, bool async) { return p.direct(async); }

  static distrt_handle_t runDirect(const Memo<Plan> &m, const Call &) {
    for (const ReduceCall &r : m.plan.calls) {
      if (r.inPlace)
        copyPromoted(m.ins[r.operand], m.outs[r.operand]);
      checkMpi(
          allreduceCount(r.send, r.recv, r.count, r.type, r.op, m.plan.comm),
          "MPI_Allreduce");
    }
    return 0;
  }

  static distrt_handle_t run(Memo<Plan> &m, const Call &c) {
    if (m.plan.active == 0)
      return done(c.op, c.team, c.loc, c.async);
    return runInSlot(c.op, c.team, c.loc, c.async, [&](RequestSlot &slot) {
      slot.stage(stagedBytes(m.outs));
      size_t offset = 0;
      m.forEachNonEmpty([&](const Buffer &in, const Buffer &out) {
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
        MPI_Op op =
            reductionOp(static_cast<int32_t>(c.params.scalar(0)), out.dtype);
        // At most maxReduceCount() elements per call: one call unless the
        // operand is longer.
        const int64_t most = maxReduceCount();
        for (int64_t first = 0; first < in.count; first += most) {
          const auto offset = static_cast<size_t>(first) * out.type->size;
          const void *from =
              send == MPI_IN_PLACE
                  ? MPI_IN_PLACE
                  : static_cast<const std::byte *>(send) + offset;
          void *to = static_cast<std::byte *>(recv) + offset;
          const int64_t count = std::min(in.count - first, most);
          if (c.async)
            postRequest(slot, "MPI_Iallreduce", [&](MPI_Request *request) {
              return iallreduceCount(from, to, count, out.type->mpi, op,
                                     m.plan.comm, request);
            });
          else
            checkMpi(
                allreduceCount(from, to, count, out.type->mpi, op, m.plan.comm),
                "MPI_Allreduce");
        }
      });
    });
  }
};

} // namespace
} // namespace distrt::detail

using namespace distrt::detail;

distrt_handle_t distrt_all_reduce(int64_t team,
                                  const distrt_groups_t *groups, // null: RFC
                                  int32_t op, int64_t n,
                                  const distrt_operand_t *inputs,
                                  const distrt_operand_t *outputs,
                                  int32_t async, distrt_site_t *site,
                                  const char *loc) {
  // Without groups: the RFC allreduce, named so in errors.
  const char *name = groups ? "all_reduce" : "allreduce";
  const int64_t scalars[] = {op};
  return cEntry<AllReduce>(name, team, groups, Params(scalars), n, inputs, n,
                           outputs, async, site, loc);
}

namespace distrt {

void allReduce(const Team &team, const Groups &groups, RedOp op,
               Operands inputs, Operands outputs, Site *site, SourceLoc loc) {
  const int64_t scalars[] = {static_cast<int32_t>(op)};
  cxxSync<AllReduce>("all_reduce", team, &groups.spec(), Params(scalars),
                     inputs, outputs, site, loc);
}
Request allReduceAsync(const Team &team, const Groups &groups, RedOp op,
                       Operands inputs, Operands outputs, Site *site,
                       SourceLoc loc) {
  const int64_t scalars[] = {static_cast<int32_t>(op)};
  return cxxAsync<AllReduce>("all_reduce", team, &groups.spec(),
                             Params(scalars), inputs, outputs, site, loc);
}

// The RFC allreduce: one operand, in place, one group of the whole team.

void allreduce(const Team &team, RedOp op, Dtype dtype, const MemrefView &data,
               Site *site, SourceLoc loc) {
  const Operand operand[] = {{data, dtype}};
  const int64_t scalars[] = {static_cast<int32_t>(op)};
  cxxSync<AllReduce>("allreduce", team, nullptr, Params(scalars),
                     Operands(operand), Operands(operand), site, loc);
}
Request allreduceAsync(const Team &team, RedOp op, Dtype dtype,
                       const MemrefView &data, Site *site, SourceLoc loc) {
  const Operand operand[] = {{data, dtype}};
  const int64_t scalars[] = {static_cast<int32_t>(op)};
  return cxxAsync<AllReduce>("allreduce", team, nullptr, Params(scalars),
                             Operands(operand), Operands(operand), site, loc);
}

} // namespace distrt
