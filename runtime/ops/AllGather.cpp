//===- AllGather.cpp - all_gather -------------------------------*- C++ -*-===//
//
// results[k] = concat(inputs[k] of every group member, in group order,
// all_gather_dim): a block exchange (Blocks.h) whose block is the input.
//
//===----------------------------------------------------------------------===//

#include "../Blocks.h"

namespace distrt::detail {
namespace {

struct AllGather : BlockOp<AllGather> {
  static constexpr std::array kParams{"all_gather_dim"};
  static const std::vector<int64_t> *plan(Memo<Plan> &m, const Call &c) {
    const int64_t dim = c.params.scalar(0);
    const GroupLayout &layout = resolveGroupCall(c, /*sameShape=*/false);
    const OpScratch &s = opScratch();
    layout.requireEveryProcess();
    layout.requireUniform();
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
    planBlocks(m, layout, s, {.gather = true, .splitDim = -1, .concatDim = dim},
               block);
    return &layout.key;
  }
};

} // namespace
} // namespace distrt::detail

using namespace distrt::detail;

distrt_handle_t distrt_all_gather(int64_t team, const distrt_groups_t *groups,
                                  int64_t dim, int64_t n,
                                  const distrt_operand_t *inputs,
                                  const distrt_operand_t *outputs,
                                  int32_t async, distrt_site_t *site,
                                  const char *loc) {
  const int64_t scalars[] = {dim};
  return cEntry<AllGather>("all_gather", team, groups, Params(scalars), n,
                           inputs, n, outputs, async, site, loc);
}

namespace distrt {

void allGather(const Team &team, const Groups &groups, int64_t dim,
               Operands inputs, Operands outputs, Site *site, SourceLoc loc) {
  const int64_t scalars[] = {dim};
  cxxSync<AllGather>("all_gather", team, &groups.spec(), Params(scalars),
                     inputs, outputs, site, loc);
}
Request allGatherAsync(const Team &team, const Groups &groups, int64_t dim,
                       Operands inputs, Operands outputs, Site *site,
                       SourceLoc loc) {
  const int64_t scalars[] = {dim};
  return cxxAsync<AllGather>("all_gather", team, &groups.spec(),
                             Params(scalars), inputs, outputs, site, loc);
}

} // namespace distrt
