//===- CallMemo.h - The last validated call of each call site ---*- C++ -*-===//
//
// A loop calls one op on the same operands again and again. Each call site
// remembers its last call that passed every check, with what the checks
// derived (its plan: layout, byte counts, direct/staged choices). A call
// whose team, groups (address and content), parameters and operands (rank,
// dtype and descriptor content except the allocated pointer) equal the
// memo's reuses the plan and goes straight to MPI. At a static site
// (DISTRT_SITE_STATIC, set by the compiler) everything but the team and the
// buffers' addresses is a constant, so only those are compared. Anything
// else takes the full path, which refreshes the memo once it has succeeded,
// so every error is raised exactly as before. No locking: the runtime is
// MPI_THREAD_FUNNELED.
//
// Compiled code passes its op's own distrt_site_t, which points to the
// site's entry. Callers without one (the C++ API, hand-written C) share a
// few entries per op kind, chosen by the location they pass.
//
//===----------------------------------------------------------------------===//

#ifndef DISTRUNTIME_RUNTIME_CALLMEMO_H
#define DISTRUNTIME_RUNTIME_CALLMEMO_H

#include "Error.h"
#include "Operands.h"
#include "ProcessGroups.h"
#include "Request.h"
#include "Team.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

namespace distrt::detail {

using MemoParams = std::array<int64_t, 3>;

/// The OR of the differences between the `count` words at `bytes` and
/// `words`: zero when equal.
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

/// diffWords() of a fixed count, which unrolls into a few compares.
template <int N>
[[gnu::always_inline]] inline uint64_t diffWords(const std::byte *bytes,
                                                 const int64_t *words) {
  return diffWords(bytes, words, N);
}

inline bool sameWords(const void *bytes, const int64_t *words, int64_t count) {
  return diffWords(static_cast<const std::byte *>(bytes), words, count) == 0;
}

/// Compares a memref descriptor past its allocated pointer (aligned, offset,
/// sizes, strides: 2 + 2 * rank words) with `words`.
[[gnu::always_inline]] inline uint64_t
diffDescriptor(const void *desc, const int64_t *words, int64_t rank) {
  const auto *bytes = static_cast<const std::byte *>(desc) + sizeof(void *);
  // Tests rather than a jump table: the common ranks cost a compare each.
  if (rank == 1) [[likely]]
    return diffWords<4>(bytes, words);
  if (rank == 2)
    return diffWords<6>(bytes, words);
  return diffWords(bytes, words, 2 + 2 * rank);
}

/// The C ABI's `n` operands at `array` equal the memo's words at `w`
/// (advanced past them).
[[gnu::always_inline]] inline bool sameOperands(const distrt_operand_t *array,
                                                int64_t n, const int64_t *&w) {
  if (n > 0 && !array)
    return false;
  for (int64_t k = 0; k < n; ++k) {
    const distrt_operand_t &op = array[k];
    const int64_t rank = w[0];
    if (((op.rank ^ rank) | (op.dtype ^ w[1])) != 0 || !op.desc ||
        diffDescriptor(op.desc, w + 2, rank) != 0)
      return false;
    w += 4 + 2 * rank;
  }
  return true;
}

/// The operands equal the memo's words at `w` (advanced past them).
[[gnu::always_inline]] inline bool sameOperands(const OperandList &list,
                                                const int64_t *&w) {
  const int64_t n = list.size();
  if (list.isC())
    return sameOperands(list.array(), n, w);
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

/// The aligned pointers of the C ABI's `n` operands at `array` (none if n <
/// 0) equal the words at `w` (advanced past them).
[[gnu::always_inline]] inline bool sameAligned(const distrt_operand_t *array,
                                               int64_t n, const int64_t *&w) {
  if (n > 0 && !array)
    return false; // the full path reports it
  auto same = [&](int64_t k) {
    const void *desc = array[k].desc;
    return desc && static_cast<void *const *>(desc)[1] ==
                       reinterpret_cast<void *>(static_cast<intptr_t>(w[k]));
  };
  if (n == 1) [[likely]] { // no loop: the static path needs few registers
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

/// What identifies a call besides its operands: team, team generation,
/// groups address, op parameters, operand counts (-1: the op has none; C++
/// views are told apart from C arrays by kViewsBit).
using MemoHead = std::array<int64_t, 8>;

inline constexpr int64_t kViewsBit = int64_t{1} << 62;

inline int64_t countWord(const OperandList *list) {
  return list ? list->size() | (list->isC() ? 0 : kViewsBit) : -1;
}

inline MemoHead memoHead(int64_t team, const distrt_groups_t *groups,
                         const MemoParams &p, int64_t inputsWord,
                         int64_t outputsWord) {
  return {team,
          static_cast<int64_t>(gTeamGeneration),
          reinterpret_cast<intptr_t>(groups),
          p[0],
          p[1],
          p[2],
          inputsWord,
          outputsWord};
}

/// The fast path reads the memo entry and little else: short keys and
/// operand words are kept inline (one block of cache lines, no pointer
/// chasing), longer ones on the heap.
struct CallMemo {
  /// memoHead() of the call. The generation guards the layout below: it
  /// lives as long as the teams do.
  MemoHead head{};
  bool valid = false;
  /// The groups' key (mode, num_replicas, num_partitions, num_groups,
  /// group_size, ids...), to confirm that the groups still hold the content
  /// the layout was built from: `inlineKey` or the layout's own key.
  const int64_t *key = nullptr;
  size_t keySize = 0;
  /// Per operand (inputs, then outputs): rank, dtype, aligned, offset, sizes,
  /// strides: `inlineWords` or `spilledWords`. The buffers' sizes and strides
  /// point here, not to the caller's descriptors, which may be gone by the
  /// next call.
  const int64_t *words = nullptr;
  std::array<int64_t, 16> inlineKey{};
  std::array<int64_t, 40> inlineWords{};
  std::vector<int64_t> spilledWords;
  std::vector<Buffer> ins, outs;
  /// Block shapes of ops that derive them (all_to_all).
  std::vector<int64_t> shapes;
  /// What a static site compares: team, team generation and the aligned
  /// pointer of each operand (inputs, then outputs), for up to
  /// kQuickOperands operands; `quickIns`, `quickOuts` are the counts as in
  /// memoHead(), kNoQuick when there are more.
  static constexpr int64_t kQuickOperands = 8;
  static constexpr int64_t kNoQuick = INT64_MIN;
  std::array<int64_t, 2 + kQuickOperands> quick{};
  int64_t quickIns = kNoQuick, quickOuts = kNoQuick;

  [[gnu::always_inline]] bool sameHead(int64_t teamId,
                                       const distrt_groups_t *spec,
                                       const MemoParams &p, int64_t inputsWord,
                                       int64_t outputsWord) const {
    const MemoHead now = memoHead(teamId, spec, p, inputsWord, outputsWord);
    return valid &&
           diffWords<8>(reinterpret_cast<const std::byte *>(now.data()),
                        head.data()) == 0 &&
           matchesKey(key, keySize, *spec);
  }

  /// `inputs` or `outputs` null: the op has none.
  [[gnu::always_inline]] bool
  matches(int64_t teamId, const distrt_groups_t *spec, const MemoParams &p,
          const OperandList *inputs, const OperandList *outputs) const {
    if (!sameHead(teamId, spec, p, countWord(inputs), countWord(outputs)))
      return false;
    const int64_t *w = words;
    return (!inputs || sameOperands(*inputs, w)) &&
           (!outputs || sameOperands(*outputs, w));
  }

  /// matches() for the C ABI's arrays (`nIns` or `nOuts` -1: none).
  [[gnu::always_inline]] bool
  matches(int64_t teamId, const distrt_groups_t *spec, const MemoParams &p,
          const distrt_operand_t *inputs, int64_t nIns,
          const distrt_operand_t *outputs, int64_t nOuts) const {
    if (!sameHead(teamId, spec, p, nIns, nOuts))
      return false;
    const int64_t *w = words;
    return (nIns < 0 || sameOperands(inputs, nIns, w)) &&
           (nOuts < 0 || sameOperands(outputs, nOuts, w));
  }

  /// matches() at a site whose groups, parameters and operand counts are
  /// constants (DISTRT_SITE_FIXED): the team and the operands.
  [[gnu::always_inline]] bool
  matchesFixed(int64_t teamId, const distrt_operand_t *inputs, int64_t nIns,
               const distrt_operand_t *outputs, int64_t nOuts) const {
    if (!valid || ((teamId ^ head[0]) |
                   (static_cast<int64_t>(gTeamGeneration) ^ head[1]) |
                   (nIns ^ head[6]) | (nOuts ^ head[7])) != 0)
      return false;
    const int64_t *w = words;
    return (nIns < 0 || sameOperands(inputs, nIns, w)) &&
           (nOuts < 0 || sameOperands(outputs, nOuts, w));
  }

  /// matches() at a static site (DISTRT_SITE_STATIC), whose other
  /// arguments are the same at every call.
  [[gnu::always_inline]] bool
  matchesStatic(int64_t teamId, const distrt_operand_t *inputs, int64_t nIns,
                const distrt_operand_t *outputs, int64_t nOuts) const {
    if (!valid || ((teamId ^ quick[0]) |
                   (static_cast<int64_t>(gTeamGeneration) ^ quick[1]) |
                   (nIns ^ quickIns) | (nOuts ^ quickOuts)) != 0)
      return false;
    const int64_t *w = quick.data() + 2;
    return sameAligned(inputs, nIns, w) && sameAligned(outputs, nOuts, w);
  }

  /// Records a call that passed every check; `scratch` holds its resolved
  /// operands.
  void store(int64_t teamId, const distrt_groups_t *spec,
             const std::vector<int64_t> &groupsKey, const MemoParams &p,
             const OperandList *inputs, const OperandList *outputs,
             const OpScratch &scratch);
};

template <class Plan> struct MemoEntry : CallMemo { Plan plan{}; };

/// Points `site` to `entry`, a fresh entry of the op kind `owner` (which
/// the runtime keeps).
void bindSite(distrt_site_t *site, const void *owner, CallMemo *entry);

/// The memo of one op kind: the entries of its distrt_site_t sites, and a
/// few shared by the calls without a site, one per location (by address),
/// so a loop that alternates several such calls of one kind keeps all of
/// them. Locations that share an entry take turns.
template <class Plan> struct OpMemo {
  static constexpr unsigned kSiteBits = 2;
  std::array<MemoEntry<Plan>, 1u << kSiteBits> shared;

  MemoEntry<Plan> &at(const SourceLoc &loc) {
    // Fibonacci hashing: the top bits of the product mix every bit of the
    // address (string constants are packed byte-aligned).
    return shared[(loc.site() * 0x9E3779B97F4A7C15ull) >> (64 - kSiteBits)];
  }

  /// The entry of a site bound to this op kind.
  static MemoEntry<Plan> &entryOf(distrt_site_t *site) {
    return *static_cast<MemoEntry<Plan> *>(static_cast<CallMemo *>(site->memo));
  }

  /// `site`'s entry (made on its first call), else the location's.
  MemoEntry<Plan> &at(distrt_site_t *site, const char *loc) {
    if (!site)
      return at(SourceLoc(loc));
    if (site->owner != this || !site->memo) [[unlikely]]
      bindSite(site, this, new MemoEntry<Plan>);
    return entryOf(site);
  }
};

template <class Plan> using BlockingCall = void (*)(const MemoEntry<Plan> &);
template <class Plan>
using PostingCall = MPI_Request (*)(const MemoEntry<Plan> &);

/// An op's fast path: an entry whose plan is one MPI call on the operands'
/// own buffers (plan.blocking when sync, plan.posting when async, for ops
/// with a `Post`) makes that call right away: `Blocking(m)`, or `Post(m)`,
/// whose request a fresh handle then owns.
template <class Plan, BlockingCall<Plan> Blocking,
          PostingCall<Plan> Post = nullptr>
struct FastPath {
  static bool applies(const MemoEntry<Plan> &m, int32_t async) {
    if constexpr (Post != nullptr)
      return async ? m.plan.posting : m.plan.blocking;
    return !async && m.plan.blocking;
  }

  /// `site`'s entry when the call matches it and applies() (a site with
  /// DISTRT_SITE_STATIC or DISTRT_SITE_FIXED only), else nullptr.
  [[gnu::always_inline]] static MemoEntry<Plan> *
  siteHit(const OpMemo<Plan> &memo, distrt_site_t *site, int64_t team,
          const distrt_operand_t *inputs, int64_t nIns,
          const distrt_operand_t *outputs, int64_t nOuts, int32_t async) {
    if (!site || site->owner != &memo)
      return nullptr;
    MemoEntry<Plan> &m = OpMemo<Plan>::entryOf(site);
    if (!applies(m, async))
      return nullptr;
    if (site->flags & DISTRT_SITE_STATIC) [[likely]]
      return m.matchesStatic(team, inputs, nIns, outputs, nOuts) ? &m : nullptr;
    if (site->flags & DISTRT_SITE_FIXED)
      return m.matchesFixed(team, inputs, nIns, outputs, nOuts) ? &m : nullptr;
    return nullptr;
  }

  /// Runs the plan's one call (applies() holds).
  [[gnu::always_inline]] static distrt_handle_t run(const MemoEntry<Plan> &m,
                                                    const char *op,
                                                    int64_t team, int32_t async,
                                                    const char *loc) noexcept {
    try {
      if constexpr (Post != nullptr)
        if (async)
          return adoptRequest(op, team, Post(m));
      Blocking(m);
      return 0;
    } catch (...) {
      failCurrent(op, team, loc);
    }
  }
};

/// The arguments of a memoized op's C entry point, for the general match.
struct MemoCall {
  int64_t team;
  const distrt_groups_t *groups;
  MemoParams params;
  const distrt_operand_t *inputs;
  int64_t nIns;
  const distrt_operand_t *outputs;
  int64_t nOuts;
  bool async;
};

/// The general path of a memoized op's C entry point, past its site path
/// (FastPath::siteHit): the entry of `site`, else of `loc`, is matched
/// (only the team and operands at a site with constant arguments, which
/// also serves a static site of more than kQuickOperands operands); on a
/// match with a fast plan that runs, else `full(m)` checks and plans again.
/// Nothing throws across: any error ends in failCurrent(op, team, loc).
template <class Fast, class Plan, class Full>
[[gnu::always_inline]] inline distrt_handle_t
memoized(OpMemo<Plan> &memo, const char *op, const MemoCall &call,
         distrt_site_t *site, const char *loc, Full &&full) noexcept {
  try {
    MemoEntry<Plan> &m = memo.at(site, loc);
    const bool fixed =
        site && (site->flags & (DISTRT_SITE_STATIC | DISTRT_SITE_FIXED));
    if (Fast::applies(m, call.async) &&
        (fixed ? m.matchesFixed(call.team, call.inputs, call.nIns, call.outputs,
                                call.nOuts)
               : m.matches(call.team, call.groups, call.params, call.inputs,
                           call.nIns, call.outputs, call.nOuts))) [[likely]]
      return Fast::run(m, op, call.team, call.async, loc);
    return full(m);
  } catch (...) {
    failCurrent(op, call.team, loc);
  }
}

} // namespace distrt::detail

#endif // DISTRUNTIME_RUNTIME_CALLMEMO_H
