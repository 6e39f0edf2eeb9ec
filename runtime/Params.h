//===- Params.h - An op's scalars and constant tables -----------*- C++ -*-===//
//
// Besides its team, groups and operands, a call carries its op's own
// arguments: scalars (dimensions, a reduction, a channel ...) and constant
// i64 tables (all_to_all_v's counts), any number of each. The generic path
// (OpCall.h) passes them as one Params: the call memo matches the scalars by
// value and the tables by content, checked mode hashes both into the call's
// signature, and the op reads them by index. Nothing fixes their number: an
// entry point lists its values in local arrays, which live for the call.
//
//===----------------------------------------------------------------------===//

#ifndef DISTRUNTIME_RUNTIME_PARAMS_H
#define DISTRUNTIME_RUNTIME_PARAMS_H

#include "distruntime/Runtime/distrt.h"

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace distrt::detail {

/// A view of a call's scalars and tables, valid for the call it is passed
/// to.
class Params {
public:
  Params() = default;
  Params(std::span<const int64_t> scalars,
         std::span<const distrt_table_t *const> tables = {})
      : scalars_(scalars), tables_(tables) {}

  std::span<const int64_t> scalars() const { return scalars_; }
  std::span<const distrt_table_t *const> tables() const { return tables_; }
  int64_t scalar(size_t i) const { return scalars_[i]; }
  const distrt_table_t *table(size_t i) const { return tables_[i]; }
  /// How many of each, in one word (for the call memo).
  int64_t countWord() const {
    return static_cast<int64_t>(scalars_.size()) |
           static_cast<int64_t>(tables_.size()) << 32;
  }

private:
  std::span<const int64_t> scalars_;
  std::span<const distrt_table_t *const> tables_;
};

/// The names of an op's scalars, then of its tables, for checked mode's
/// reports and the errors of planning.
using ParamNames = std::span<const char *const>;

/// The table's values can be read: a pointer, a size in [0, 2^32) and the
/// values' pointer unless empty.
inline bool tableReadable(const distrt_table_t *t) {
  return t && t->size >= 0 && t->size < (int64_t{1} << 32) &&
         (t->values || t->size == 0);
}

/// Throws for the first table that cannot be read, named by `names`
/// (planning checks them before the op looks at them).
void checkTables(const Params &p, ParamNames names);

/// The memo's words of `p` (readable): the scalars, then each table's size
/// and values.
void appendParamWords(const Params &p, std::vector<int64_t> &words);

/// `p` equals the memo's words at `w` (advanced past them). The tables are
/// compared by content: one equal to the planned one at another address
/// (a C++ caller's on the stack) matches.
[[gnu::always_inline]] inline bool sameParams(const Params &p,
                                              const int64_t *&w) {
  uint64_t diff = 0;
  const std::span<const int64_t> scalars = p.scalars();
  for (size_t i = 0; i < scalars.size(); ++i)
    diff |= static_cast<uint64_t>(scalars[i] ^ w[i]);
  w += scalars.size();
  for (const distrt_table_t *t : p.tables()) {
    const int64_t size = w[0];
    if (!t || t->size != size || (size > 0 && !t->values))
      return false; // planning reports an unreadable one
    for (int64_t i = 0; i < size; ++i)
      diff |= static_cast<uint64_t>(t->values[i] ^ w[1 + i]);
    w += 1 + size;
  }
  return diff == 0;
}

} // namespace distrt::detail

#endif // DISTRUNTIME_RUNTIME_PARAMS_H
