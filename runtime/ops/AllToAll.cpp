//===- AllToAll.cpp - all_to_all --------------------------------*- C++ -*-===//
//
// Splits inputs[k] into split_count blocks along split_dimension, sends
// block j to group member j and concatenates the received blocks along
// concat_dimension in group order: a block exchange (Blocks.h).
//
//===----------------------------------------------------------------------===//

#include "../Blocks.h"
#include "../OpCall.h"

namespace distrt::detail {
namespace {

struct AllToAll {
  using Plan = BlockPlan;
  static inline OpMemos<Plan> memos;

  static const std::vector<int64_t> *plan(Memo<Plan> &m, const Call &c) {
    const auto [splitDim, concatDim, splitCount] = c.params;
    // The operands first: the C ABI's arrays are checked before anything.
    OpScratch &s = opScratch();
    resolvePairs(c.inputs, c.outputs, s, /*sameShape=*/false);
    const GroupLayout &layout = groupLayout(lookupTeam(c.team), c.groups);
    layout.requireEveryProcess();
    const int64_t members = layout.size();
    if (splitCount != members) [[unlikely]]
      raise("split_count {} differs from the group size {}", splitCount,
            members);
    m.shapes.clear();
    size_t block = 0;
    for (size_t k = 0; k < s.ins.size(); ++k) {
      const Buffer &in = s.ins[k], &out = s.outs[k];
      checkDim(k, "split_dimension", splitDim, in.rank());
      checkDim(k, "concat_dimension", concatDim, in.rank());
      checkDivisible(k, in, splitDim, "split_dimension", members,
                     "split_count");
      // The block: the input with split_dimension divided by the group size.
      const size_t at = m.shapes.size();
      m.shapes.insert(m.shapes.end(), in.sizes(), in.sizes() + in.rank());
      m.shapes[at + static_cast<size_t>(splitDim)] /= members;
      checkBlockShape(k, out, m.shapes.data() + at, concatDim, members);
      block += in.byteCount / static_cast<size_t>(members);
    }
    planBlocks(m, layout, s, /*gather=*/false, splitDim, concatDim, block);
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

private:
  /// The output is the block with concat_dimension times the group size.
  static void checkBlockShape(size_t k, const Buffer &out,
                              const int64_t *block, int64_t concatDim,
                              int64_t members) {
    std::vector<int64_t> expected(block, block + out.rank());
    expected[static_cast<size_t>(concatDim)] *= members;
    if (std::equal(expected.begin(), expected.end(), out.sizes())) [[likely]]
      return;
    raise("operand {}: the output has shape {}, expected {} (the input "
          "shape with split_dimension divided and concat_dimension "
          "multiplied by split_count)",
          k, shapeText(out.rank(), out.sizes()), shapeText(expected));
  }
};

Call allToAllCall(int64_t team, const distrt_groups_t *groups,
                  int64_t splitDim, int64_t concatDim, int64_t splitCount,
                  OperandList inputs, OperandList outputs, bool async,
                  SourceLoc loc) {
  return {"all_to_all",
          team,
          groups,
          {splitDim, concatDim, splitCount},
          inputs,
          outputs,
          async,
          loc};
}

} // namespace
} // namespace distrt::detail

using namespace distrt::detail;

distrt_handle_t distrt_all_to_all(int64_t team, const distrt_groups_t *groups,
                                  int64_t split_dim, int64_t concat_dim,
                                  int64_t split_count, int64_t n,
                                  const distrt_operand_t *inputs,
                                  const distrt_operand_t *outputs,
                                  int32_t async, distrt_site_t *site,
                                  const char *loc) {
  return cCall<AllToAll>(site,
                         allToAllCall(team, groups, split_dim, concat_dim,
                                      split_count, {inputs, n}, {outputs, n},
                                      async != 0, loc),
                         loc);
}

namespace distrt {

void allToAll(const Team &team, const Groups &groups, int64_t splitDim,
              int64_t concatDim, int64_t splitCount, Operands inputs,
              Operands outputs, Site *site, SourceLoc loc) {
  cxxSync<AllToAll>(site, allToAllCall(team.id(), &groups.spec(), splitDim,
                                       concatDim, splitCount, inputs, outputs,
                                       false, loc));
}
Request allToAllAsync(const Team &team, const Groups &groups, int64_t splitDim,
                      int64_t concatDim, int64_t splitCount, Operands inputs,
                      Operands outputs, Site *site, SourceLoc loc) {
  return cxxAsync<AllToAll>(site, allToAllCall(team.id(), &groups.spec(),
                                               splitDim, concatDim, splitCount,
                                               inputs, outputs, true, loc));
}

} // namespace distrt
