//===- CallMemo.h - The last planned call of each call site -----*- C++ -*-===//
//
// A loop calls one op on the same operands again and again. Each call site
// (a distrt_site_t: one per op in compiled code, a distrt::Site in C++)
// remembers its last call that passed every check, with the plan derived
// from it (layout, byte counts, direct or staged buffers). A call matches
// when everything the plan depends on is equal: team and team generation,
// the groups (address and content), the op's scalars and tables (by
// content: Params.h), the operand counts and each operand's descriptor
// (rank, dtype, aligned pointer, offset, sizes, strides). A matching call
// reuses the plan; any other call plans again, so every error is raised exactly
// as without the memo. Calls without a site plan every time. No locking: the
// runtime is MPI_THREAD_FUNNELED.
//
//===----------------------------------------------------------------------===//

#ifndef DISTRUNTIME_RUNTIME_CALLMEMO_H
#define DISTRUNTIME_RUNTIME_CALLMEMO_H

#include "Operands.h"
#include "Params.h"
#include "ProcessGroups.h"
#include "Team.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

namespace distrt::detail {

/// One call of an op, as either API passes it.
struct Call {
  /// The op's name in errors.
  const char *op;
  int64_t team;
  /// replica_groups or source_target_pairs; null: the whole team.
  const distrt_groups_t *groups;
  /// The op's scalars (dimensions, reduction, channel ...) and tables.
  Params params;
  /// OperandList::none() for an op without inputs (recv) or outputs (send).
  OperandList inputs, outputs;
  bool async;
  SourceLoc loc;
  /// Its site says DISTRT_SITE_PROVEN: the compiler proved that every
  /// member makes this call alike (selective checked mode skips it).
  bool proven = false;
};

/// What a direct run (Op::runDirect, OpCall.h) reads of its call besides
/// its memo: four words, so that the C entry's fast path, whose Call stays
/// in registers, stores only these.
struct DirectCall {
  const char *op;
  int64_t team;
  bool async;
  SourceLoc loc;
};

inline DirectCall directOf(const Call &c) {
  return {c.op, c.team, c.async, c.loc};
}

/// The OR of the differences between `count` words at `bytes` and `words`.
[[gnu::always_inline]] inline uint64_t
diffWords(const std::byte *bytes, const int64_t *words, int64_t count) {
  uint64_t diff = 0;
  for (int64_t i = 0; i < count; ++i) {
    int64_t word;
    std::memcpy(&word, bytes + 8 * i, 8);
    diff |= static_cast<uint64_t>(word ^ words[i]);
  }
  return diff;
}

/// Compares a memref descriptor past its allocated pointer (aligned, offset,
/// sizes, strides: 2 + 2 * rank words) with `words`.
[[gnu::always_inline]] inline uint64_t
diffDescriptor(const void *desc, const int64_t *words, int64_t rank) {
  const auto *bytes = static_cast<const std::byte *>(desc) + sizeof(void *);
  // Fixed counts for the common ranks unroll into a few compares.
  if (rank == 1) [[likely]]
    return diffWords(bytes, words, 4);
  if (rank == 2)
    return diffWords(bytes, words, 6);
  return diffWords(bytes, words, 2 + 2 * rank);
}

/// The operands equal the memo's words at `w` (advanced past them): per
/// operand rank, dtype, aligned pointer, offset, sizes, strides.
[[gnu::always_inline]] inline bool sameOperands(const OperandList &list,
                                                const int64_t *&w) {
  const int64_t n = list.size();
  if (list.isC()) {
    const distrt_operand_t *array = list.array();
    if (n > 0 && !array)
      return false; // planning reports it
    // Inlined: a call here costs the fast path its registers.
    auto same = [&](const distrt_operand_t &op) __attribute__((always_inline)) {
      const int64_t rank = w[0];
      const bool equal = ((op.rank ^ rank) | (op.dtype ^ w[1])) == 0 &&
                         op.desc && diffDescriptor(op.desc, w + 2, rank) == 0;
      w += 4 + 2 * rank;
      return equal;
    };
    if (n == 1) [[likely]] // no loop: the fast path needs few registers
      return same(array[0]);
    for (int64_t k = 0; k < n; ++k)
      if (!same(array[k]))
        return false;
    return true;
  }
  for (int64_t k = 0; k < n; ++k) {
    const MemrefView &view = list.views()[k].view;
    const int64_t rank = w[0];
    if (view.rank != rank ||
        static_cast<int64_t>(list.views()[k].dtype) != w[1] ||
        reinterpret_cast<intptr_t>(view.aligned) != w[2] ||
        view.offset != w[3] ||
        (rank > 0 &&
         (!view.sizes || !view.strides ||
          diffWords(reinterpret_cast<const std::byte *>(view.sizes), w + 4,
                    rank) != 0 ||
          diffWords(reinterpret_cast<const std::byte *>(view.strides),
                    w + 4 + rank, rank) != 0)))
      return false;
    w += 4 + 2 * rank;
  }
  return true;
}

/// The aligned pointers of C operands `list` (none if its size is -1)
/// equal the words at `w` (advanced past them).
[[gnu::always_inline]] inline bool sameAligned(const OperandList &list,
                                               const int64_t *&w) {
  const int64_t n = list.size();
  const distrt_operand_t *array = list.array();
  if (n > 0 && !array)
    return false; // planning reports it
  auto same = [&](int64_t k) {
    const void *desc = array[k].desc;
    return desc && static_cast<void *const *>(desc)[1] ==
                       reinterpret_cast<void *>(static_cast<intptr_t>(w[k]));
  };
  if (n == 1) [[likely]] { // no loop: the fast path needs few registers
    const bool equal = same(0);
    ++w;
    return equal;
  }
  for (int64_t k = 0; k < n; ++k)
    if (!same(k))
      return false;
  w += n > 0 ? n : 0;
  return true;
}

/// A call's words besides its params and operands: team, team generation,
/// groups address, how many scalars and tables, operand counts (C++ views
/// told apart from C arrays).
using CallHead = std::array<int64_t, 6>;

inline CallHead callHead(const Call &c) {
  return {c.team,
          static_cast<int64_t>(gTeamGeneration),
          reinterpret_cast<intptr_t>(c.groups),
          c.params.countWord(),
          c.inputs.countWord(),
          c.outputs.countWord()};
}

/// The fast path reads the memo and little else: short keys and operand
/// words are kept inline (one block of cache lines, no pointer chasing),
/// longer ones on the heap.
struct CallMemo {
  // Virtual: a distrt::Site frees its memo without knowing the op.
  virtual ~CallMemo() = default;
  bool valid = false;
  /// callHead() of the call. The generation guards the layout pointers of
  /// the plan: it lives as long as the teams do.
  CallHead head{};
  /// The groups' content (mode, num_replicas, num_partitions, num_groups,
  /// group_size, ids...), so that a table whose address is reused for
  /// other content is not mistaken for the one planned.
  const int64_t *key = nullptr;
  size_t keySize = 0;
  /// The params' words (Params.h), then per operand (inputs, then outputs):
  /// rank, dtype, aligned, offset, sizes, strides. The buffers' sizes and
  /// strides point here, not to the caller's descriptors, which may be gone
  /// by the next call.
  const int64_t *words = nullptr;
  std::array<int64_t, 16> inlineKey{};
  std::array<int64_t, 40> inlineWords{};
  std::vector<int64_t> spilledKey, spilledWords;
  std::vector<Buffer> ins, outs;
  /// Block shapes of the ops that derive them (all_gather, all_to_all).
  std::vector<int64_t> shapes;
  /// What a DISTRT_SITE_STATIC site compares: team, team generation and
  /// the aligned pointer of each operand (inputs, then outputs), inline for
  /// up to kQuickOperands operands, else in `quickSpilled` (a combined
  /// gradient sync has a hundred); `quickIns`, `quickOuts` count them, -1
  /// before the first call. The groups and scalars are the op's attributes.
  static constexpr int64_t kQuickOperands = 8;
  std::array<int64_t, 2 + kQuickOperands> quick{};
  std::vector<int64_t> quickSpilled;
  int64_t quickIns = -1, quickOuts = -1;
  /// The site is DISTRT_SITE_STATIC and the runtime unchecked: its direct
  /// calls use matchesStatic().
  bool staticSite = false;

  /// Calls f(in, out) for each operand with elements (in order).
  template <class F> void forEachNonEmpty(F &&f) const {
    for (size_t k = 0; k < ins.size(); ++k)
      if (outs[k].count > 0)
        f(ins[k], outs[k]);
  }

  [[gnu::always_inline]] bool matches(const Call &c) const {
    // Word by word in registers, not through a CallHead on the stack.
    const uint64_t diff =
        static_cast<uint64_t>(c.team ^ head[0]) |
        (gTeamGeneration ^ static_cast<uint64_t>(head[1])) |
        static_cast<uint64_t>(reinterpret_cast<intptr_t>(c.groups) ^ head[2]) |
        static_cast<uint64_t>(c.params.countWord() ^ head[3]) |
        static_cast<uint64_t>(c.inputs.countWord() ^ head[4]) |
        static_cast<uint64_t>(c.outputs.countWord() ^ head[5]);
    if (!valid || diff != 0 ||
        (keySize && !matchesKey(key, keySize, *c.groups)))
      return false;
    const int64_t *w = words;
    return sameParams(c.params, w) && sameOperands(c.inputs, w) &&
           sameOperands(c.outputs, w);
  }

  /// matches() at a DISTRT_SITE_STATIC site of the C ABI, whose other words
  /// are constants of the compiled op.
  [[gnu::always_inline]] bool matchesStatic(const Call &c) const {
    const int64_t nIns = c.inputs.size(), nOuts = c.outputs.size();
    if (!valid || !c.inputs.isC() || !c.outputs.isC() ||
        ((c.team ^ quick[0]) |
         static_cast<int64_t>(gTeamGeneration ^
                              static_cast<uint64_t>(quick[1])) |
         (nIns ^ quickIns) | (nOuts ^ quickOuts)) != 0)
      return false;
    const int64_t *w =
        quickSpilled.empty() ? quick.data() + 2 : quickSpilled.data();
    return sameAligned(c.inputs, w) && sameAligned(c.outputs, w);
  }

  /// Records a call that passed every check (its tables readable):
  /// `groupsKey` is its groups' content (null without groups), `scratch`
  /// holds its resolved operands.
  void store(const Call &c, const std::vector<int64_t> *groupsKey,
             const OpScratch &scratch);
};

template <class Plan> struct Memo : CallMemo {
  // The op's plan, kept while the memo matches.
  Plan plan{};
};

/// Makes `site` own a fresh memo of the op kind `owner`.
void bindSite(distrt_site_t *site, const void *owner, CallMemo *memo);

/// Throws the error of a call that breaks its site's DISTRT_SITE_STATIC.
[[noreturn, gnu::cold]] void raiseStaticBroken();

/// Each op kind's memos: the one of a site bound to it, or, for calls
/// without a site, `transient`, planned at every call.
template <class Plan> struct OpMemos {
  Memo<Plan> transient;

  [[gnu::always_inline]] bool owns(const distrt_site_t *site) const {
    return site && site->owner == this;
  }
  static Memo<Plan> &of(distrt_site_t *site) {
    return *static_cast<Memo<Plan> *>(static_cast<CallMemo *>(site->memo));
  }
  /// The memo to plan into: the site's (bound on its first call).
  Memo<Plan> &at(distrt_site_t *site) {
    if (!site) {
      transient.valid = false;
      return transient;
    }
    if (!owns(site) || !site->memo) [[unlikely]]
      bindSite(site, this, new Memo<Plan>);
    return of(site);
  }
};

} // namespace distrt::detail

#endif // DISTRUNTIME_RUNTIME_CALLMEMO_H
