//===- CallMemo.h - The last validated call of each op kind -----*- C++ -*-===//
//
// A loop calls one op on the same operands again and again. Each op kind
// remembers its last call that passed every check, with what the checks
// derived (its plan: layout, byte counts, direct/staged choices). A call whose
// team, groups (address and content), parameters and operands (rank, dtype
// and descriptor content except the allocated pointer) equal the memo's
// reuses the plan and goes straight to MPI. Anything else takes the full
// path, which refreshes the memo once it has succeeded, so every error is
// raised exactly as before. One entry per op kind and no locking: the runtime
// is MPI_THREAD_FUNNELED.
//
//===----------------------------------------------------------------------===//

#ifndef DISTRUNTIME_RUNTIME_CALLMEMO_H
#define DISTRUNTIME_RUNTIME_CALLMEMO_H

#include "Operands.h"
#include "ProcessGroups.h"
#include "Team.h"

#include <array>
#include <cstdint>
#include <cstring>
#include <vector>

namespace distrt::detail {

using MemoParams = std::array<int64_t, 3>;

/// The `count` words at `bytes` equal `words`. Inline word loads: the runs
/// are a few words long, shorter than what a memcmp call costs.
inline bool sameWords(const void *bytes, const int64_t *words, int64_t count) {
  uint64_t diff = 0;
  for (int64_t i = 0; i < count; ++i) {
    int64_t word;
    std::memcpy(&word, static_cast<const std::byte *>(bytes) + 8 * i, 8);
    diff |= static_cast<uint64_t>(word ^ words[i]);
  }
  return diff == 0;
}

/// The operands equal the memo's words at `w` (advanced past them).
inline bool sameOperands(const OperandList &list, const int64_t *&w) {
  const int64_t n = list.size();
  if (list.isC()) {
    const distrt_operand_t *array = list.array();
    if (n > 0 && !array)
      return false;
    for (int64_t k = 0; k < n; ++k) {
      const distrt_operand_t &op = array[k];
      const int64_t rank = w[0];
      // Past the allocated pointer: aligned, offset, sizes, strides.
      if (op.rank != rank || op.dtype != w[1] || !op.desc ||
          !sameWords(static_cast<const std::byte *>(op.desc) + sizeof(void *),
                     w + 2, 2 + 2 * rank))
        return false;
      w += 4 + 2 * rank;
    }
    return true;
  }
  for (int64_t k = 0; k < n; ++k) {
    const Operand &operand = list.views()[k];
    const MemrefView &view = operand.view;
    const int64_t rank = w[0];
    if (view.rank != rank || static_cast<int64_t>(operand.dtype) != w[1] ||
        reinterpret_cast<intptr_t>(view.aligned) != w[2] ||
        view.offset != w[3] ||
        (rank > 0 &&
         (!view.sizes || !view.strides || !sameWords(view.sizes, w + 4, rank) ||
          !sameWords(view.strides, w + 4 + rank, rank))))
      return false;
    w += 4 + 2 * rank;
  }
  return true;
}

struct CallMemo {
  bool valid = false;
  int64_t team = 0;
  /// gTeamGeneration when stored: the layout below lives as long as it.
  uint64_t generation = 0;
  const distrt_groups_t *groups = nullptr;
  /// The layout's key, to confirm that *groups still holds the same content.
  const std::vector<int64_t> *groupsKey = nullptr;
  MemoParams params{};
  int64_t numIns = 0, numOuts = 0;
  /// Per operand (inputs, then outputs): rank, dtype, aligned, offset, sizes,
  /// strides. The buffers' sizes and strides point here, not to the caller's
  /// descriptors, which may be gone by the next call.
  std::vector<int64_t> words;
  std::vector<Buffer> ins, outs;
  /// Block shapes of ops that derive them (all_to_all).
  std::vector<int64_t> shapes;

  /// `inputs` or `outputs` null: the op has none.
  bool matches(int64_t teamId, const distrt_groups_t *spec, const MemoParams &p,
               const OperandList *inputs, const OperandList *outputs) const {
    if (!valid || team != teamId || generation != gTeamGeneration ||
        groups != spec || params != p || (inputs && inputs->size() != numIns) ||
        (outputs && outputs->size() != numOuts) ||
        !matchesKey(*groupsKey, *spec))
      return false;
    const int64_t *w = words.data();
    return (!inputs || sameOperands(*inputs, w)) &&
           (!outputs || sameOperands(*outputs, w));
  }

  /// Records a call that passed every check; `scratch` holds its resolved
  /// operands.
  void store(int64_t teamId, const distrt_groups_t *spec,
             const std::vector<int64_t> &key, const MemoParams &p,
             const OperandList *inputs, const OperandList *outputs,
             const OpScratch &scratch);
};

template <class Plan> struct OpMemo : CallMemo { Plan plan{}; };

} // namespace distrt::detail

#endif // DISTRUNTIME_RUNTIME_CALLMEMO_H
