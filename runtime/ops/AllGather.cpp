//===- AllGather.cpp - all_gather -------------------------------*- C++ -*-===//
//
// results[k] = concat(inputs[k] of every group member, in group order,
// all_gather_dim): a block exchange (Blocks.h) whose block is the input.
//
//===----------------------------------------------------------------------===//

#include "../Blocks.h"
#include "../OpCall.h"

namespace distrt::detail {
namespace {

struct AllGather {
  using Plan = BlockPlan;
  static inline OpMemos<Plan> memos;

  static const std::vector<int64_t> *plan(Memo<Plan> &m, const Call &c) {
    const int64_t dim = c.params[0];
    // The operands first: the C ABI's arrays are checked before anything.
    OpScratch &s = opScratch();
    resolvePairs(c.inputs, c.outputs, s, /*sameShape=*/false);
    const GroupLayout &layout = groupLayout(lookupTeam(c.team), c.groups);
    layout.requireEveryProcess();
    m.shapes.clear();
    size_t block = 0;
    for (size_t k = 0; k < s.ins.size(); ++k) {
      const Buffer &in = s.ins[k], &out = s.outs[k];
      checkDim(k, "all_gather_dim", dim, in.rank());
      checkShape(k, in, out, dim, layout.size(), 1,
                 "the input shape with all_gather_dim times the group size");
      block += in.byteCount;
      m.shapes.insert(m.shapes.end(), in.sizes(), in.sizes() + in.rank());
    }
    planBlocks(m, layout, s, /*gather=*/true, /*splitDim=*/-1, dim, block);
    return &layout.key;
  }

  static bool direct(const Plan &p, bool async) {
    return blocksDirect(p, async);
  }
  static distrt_handle_t runDirect(const Memo<Plan> &m, const Call &) {
    return runBlocksDirect(m.plan);
  }
  static distrt_handle_t run(Memo<Plan> &m, const Call &c) {
    return runBlocks(m, c);
  }
};

Call allGatherCall(int64_t team, const distrt_groups_t *groups, int64_t dim,
                   OperandList inputs, OperandList outputs, bool async,
                   SourceLoc loc) {
  return {"all_gather", team, groups, {dim, 0, 0}, inputs, outputs, async,
          loc};
}

} // namespace
} // namespace distrt::detail

using namespace distrt::detail;

distrt_handle_t distrt_all_gather(int64_t team, const distrt_groups_t *groups,
                                  int64_t dim, int64_t n,
                                  const distrt_operand_t *inputs,
                                  const distrt_operand_t *outputs,
                                  int32_t async, distrt_site_t *site,
                                  const char *loc) {
  return cCall<AllGather>(site,
                          allGatherCall(team, groups, dim, {inputs, n},
                                        {outputs, n}, async != 0, loc),
                          loc);
}

namespace distrt {

void allGather(const Team &team, const Groups &groups, int64_t dim,
               Operands inputs, Operands outputs, Site *site, SourceLoc loc) {
  cxxSync<AllGather>(site, allGatherCall(team.id(), &groups.spec(), dim,
                                         inputs, outputs, false, loc));
}
Request allGatherAsync(const Team &team, const Groups &groups, int64_t dim,
                       Operands inputs, Operands outputs, Site *site,
                       SourceLoc loc) {
  return cxxAsync<AllGather>(site, allGatherCall(team.id(), &groups.spec(),
                                                 dim, inputs, outputs, true,
                                                 loc));
}

} // namespace distrt
