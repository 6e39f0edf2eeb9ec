//===- CallMemo.cpp - The last planned call of each call site -------------===//

#include "CallMemo.h"
#include "Error.h"

#include <algorithm>

namespace distrt::detail {

/// Appends the memo words of `operands` (already resolved, so valid).
static void appendWords(const OperandList &operands,
                        std::vector<int64_t> &words) {
  for (int64_t k = 0; k < operands.size(); ++k) {
    MemrefView view;
    int64_t dtype = 0;
    if (operands.isC()) {
      const distrt_operand_t &op = operands.array()[k];
      view = MemrefView::fromUnranked(op.rank, op.desc);
      dtype = op.dtype;
    } else {
      view = operands.views()[k].view;
      dtype = static_cast<int64_t>(operands.views()[k].dtype);
    }
    words.insert(words.end(),
                 {view.rank, dtype, reinterpret_cast<intptr_t>(view.aligned),
                  view.offset});
    words.insert(words.end(), view.sizes, view.sizes + view.rank);
    words.insert(words.end(), view.strides, view.strides + view.rank);
  }
}

/// Copies `from` to `to`, pointing the sizes and strides at the words.
static void copyBuffers(const std::vector<Buffer> &from,
                        std::vector<Buffer> &to, const int64_t *&w) {
  to = from;
  for (Buffer &buffer : to) {
    buffer.bytes.sizes = w + 4;
    buffer.bytes.strides = w + 4 + buffer.bytes.rank;
    w += 4 + 2 * buffer.bytes.rank;
  }
}

/// Points `data` at `inlined` when `words` fit there, else at `spilled`.
template <size_t N>
static void keep(const std::vector<int64_t> &words,
                 std::array<int64_t, N> &inlined, std::vector<int64_t> &spilled,
                 const int64_t *&data) {
  if (words.size() <= N) {
    std::copy(words.begin(), words.end(), inlined.begin());
    data = inlined.data();
    return;
  }
  spilled = words;
  data = spilled.data();
}

/// The memos bound to sites: leaked on purpose, like the teams (a compiled
/// site may be called until the very end, even from exit hooks; the
/// generation check keeps a stale plan from being used), and kept
/// reachable from here. A distrt::Site frees its own.
static std::vector<CallMemo *> &siteMemos() {
  static auto *const memos = new std::vector<CallMemo *>;
  return *memos;
}

void CallMemo::store(const Call &c, const std::vector<int64_t> *groupsKey,
                     const OpScratch &scratch) {
  static_assert(sizeof(void *) == sizeof(int64_t) &&
                    sizeof(intptr_t) == sizeof(int64_t),
                "descriptors are compared as 64-bit words");
  head = callHead(c);
  // Without a table (the whole team) or without a layout (host transfers)
  // the address alone identifies the call.
  keySize = c.groups && groupsKey ? groupsKey->size() : 0;
  if (keySize)
    keep(*groupsKey, inlineKey, spilledKey, key);
  std::vector<int64_t> &all = spilledWords;
  std::vector<int64_t> gathered;
  appendParamWords(c.params, gathered);
  const size_t paramWords = gathered.size();
  appendWords(c.inputs, gathered);
  appendWords(c.outputs, gathered);
  keep(gathered, inlineWords, all, words);
  const int64_t *const operandWords = words + paramWords;
  const int64_t *w = operandWords;
  copyBuffers(scratch.ins, ins, w);
  copyBuffers(scratch.outs, outs, w);
  // A static site's words: each operand's aligned pointer is its third.
  quick[0] = head[0];
  quick[1] = head[1];
  const size_t operands = ins.size() + outs.size();
  quickIns = c.inputs.size();
  quickOuts = c.outputs.size();
  quickSpilled.clear();
  int64_t *aligned = quick.data() + 2;
  if (operands > kQuickOperands) {
    quickSpilled.resize(operands);
    aligned = quickSpilled.data();
  }
  w = operandWords;
  for (size_t k = 0; k < operands; ++k) {
    aligned[k] = w[2];
    w += 4 + 2 * w[0];
  }
  valid = true;
}

void raiseStaticBroken() {
  raise("the call differs from the previous call of its site in more than "
        "its buffers' addresses, but the site is marked DISTRT_SITE_STATIC "
        "(constant operand shapes, groups, scalars and tables)");
}

/// Frees `memo` if the runtime made it (anything else a caller's site
/// holds is left alone).
static void dropMemo(CallMemo *memo) {
  if (!memo)
    return;
  std::vector<CallMemo *> &memos = siteMemos();
  auto it = std::ranges::find(memos, memo);
  if (it == memos.end())
    return;
  memos.erase(it);
  delete memo;
}

void bindSite(distrt_site_t *site, const void *owner, CallMemo *memo) {
  // A site taken by another op kind before: its memo goes, so that a site
  // alternating between two kinds does not grow the registry call by call.
  dropMemo(static_cast<CallMemo *>(site->memo));
  siteMemos().push_back(memo);
  site->owner = owner;
  site->memo = memo;
}

} // namespace distrt::detail

namespace distrt {

Site::~Site() { detail::dropMemo(static_cast<detail::CallMemo *>(site_.memo)); }

Site &Site::operator=(Site &&other) noexcept {
  std::swap(site_, other.site_); // `other` frees what this held
  return *this;
}

} // namespace distrt
