//===- AllToAll.cpp - all_to_all --------------------------------*- C++ -*-===//
//
// Splits inputs[k] into splitCount blocks (0: as many as the group has
// members) along split_dimension, sends
// block j to group member j and concatenates the received blocks along
// concat_dimension in group order: a block exchange (Blocks.h).
//
//===----------------------------------------------------------------------===//

#include "../Blocks.h"

namespace distrt::detail {
namespace {

struct AllToAll : BlockOp<AllToAll> {
  static constexpr std::array kParams{"split_dimension", "concat_dimension",
                                      "split_count"};
  static const std::vector<int64_t> *plan(Memo<Plan> &m, const Call &c) {
    // split_count 0: the group's size (the op left it to the run time).
    const int64_t splitDim = c.params.scalar(0), concatDim = c.params.scalar(1),
                  splitCount = c.params.scalar(2);
    const GroupLayout &layout = resolveGroupCall(c, /*sameShape=*/false);
    const OpScratch &s = opScratch();
    layout.requireEveryProcess();
    layout.requireUniform();
    const int64_t members = layout.size();
    if (splitCount != 0 && splitCount != members) [[unlikely]]
      raise("split_count {} differs from the group size {}", splitCount,
            members);
    m.shapes.clear();
    size_t block = 0;
    for (size_t k = 0; k < s.ins.size(); ++k) {
      const Buffer &in = s.ins[k], &out = s.outs[k];
      checkDim(k, "split_dimension", splitDim, in.rank());
      checkDim(k, "concat_dimension", concatDim, in.rank());
      checkDivisible(k, in, splitDim, "split_dimension", members,
                     splitCount ? "split_count" : "the group size");
      // The block: the input with split_dimension divided by the group size.
      const size_t at = m.shapes.size();
      m.shapes.insert(m.shapes.end(), in.sizes(), in.sizes() + in.rank());
      m.shapes[at + static_cast<size_t>(splitDim)] /= members;
      checkBlockShape(k, out, m.shapes.data() + at, concatDim, members);
      block += in.byteCount / static_cast<size_t>(members);
    }
    planBlocks(m, layout, s,
               {.gather = false, .splitDim = splitDim, .concatDim = concatDim},
               block);
    return &layout.key;
  }

  /// The output is the block with concat_dimension times the group size.
  static void checkBlockShape(size_t k, const Buffer &out, const int64_t *block,
                              int64_t concatDim, int64_t members) {
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

} // namespace
} // namespace distrt::detail

using namespace distrt::detail;

distrt_handle_t distrt_all_to_all(int64_t team, const distrt_groups_t *groups,
                                  int64_t splitDim, int64_t concatDim,
                                  int64_t splitCount, int64_t n,
                                  const distrt_operand_t *inputs,
                                  const distrt_operand_t *outputs,
                                  int32_t async, distrt_site_t *site,
                                  const char *loc) {
  const int64_t scalars[] = {splitDim, concatDim, splitCount};
  return cEntry<AllToAll>("all_to_all", team, groups, Params(scalars), n,
                          inputs, n, outputs, async, site, loc);
}

namespace distrt {

void allToAll(const Team &team, const Groups &groups, int64_t splitDim,
              int64_t concatDim, int64_t splitCount, Operands inputs,
              Operands outputs, Site *site, SourceLoc loc) {
  const int64_t scalars[] = {splitDim, concatDim, splitCount};
  cxxSync<AllToAll>("all_to_all", team, &groups.spec(), Params(scalars), inputs,
                    outputs, site, loc);
}
Request allToAllAsync(const Team &team, const Groups &groups, int64_t splitDim,
                      int64_t concatDim, int64_t splitCount, Operands inputs,
                      Operands outputs, Site *site, SourceLoc loc) {
  const int64_t scalars[] = {splitDim, concatDim, splitCount};
  return cxxAsync<AllToAll>("all_to_all", team, &groups.spec(), Params(scalars),
                            inputs, outputs, site, loc);
}

} // namespace distrt
