//===- OpCall.h - The one execution path of every collective ----*- C++ -*-===//
//
// Every StableHLO-style op, from either API, runs through perform():
//
//   C entry (ops/<Op>.cpp) ──► cCall: site memo matches and the plan is
//        │                      one MPI call ──► Op::runDirect ──► MPI
//        ▼ otherwise
//   perform: memo matches? else Op::plan + CallMemo::store
//        ├─ Op::direct(plan) ──► Op::runDirect ──► MPI
//        └─ Op::run ──► runInSlot / postRequest (Request.h) ──► MPI
//
// An op kind is a struct with:
//   struct Plan;                              what planning derives
//   static inline OpMemos<Plan> memos;        its sites' memos
//   static const std::vector<int64_t> *plan(Memo<Plan> &, const Call &);
//       checks the call and fills the plan; returns the groups' content
//   static bool direct(const Plan &, bool async);
//       the call is one MPI call on the operands' own buffers
//   static distrt_handle_t runDirect(const Memo<Plan> &, const Call &);
//   static distrt_handle_t run(Memo<Plan> &, const Call &);
//
//===----------------------------------------------------------------------===//

#ifndef DISTRUNTIME_RUNTIME_OPCALL_H
#define DISTRUNTIME_RUNTIME_OPCALL_H

#include "CallMemo.h"
#include "Error.h"
#include "Request.h"

namespace distrt::detail {

/// Plans the call unless the memo matches it, then runs it. Throws Failure.
template <class Op>
distrt_handle_t perform(Memo<typename Op::Plan> &m, const Call &c) {
  if (!m.matches(c)) {
    m.valid = false;
    const std::vector<int64_t> *groupsKey = Op::plan(m, c);
    m.store(c, groupsKey, opScratch());
  }
  if (Op::direct(m.plan, c.async))
    return Op::runDirect(m, c);
  return Op::run(m, c);
}

/// The C entry's path past its site match, out of line so that the match
/// and the direct call need no more registers than they use.
template <class Op>
[[gnu::noinline]] distrt_handle_t cCallPlanned(distrt_site_t *site,
                                               const Call &c,
                                               const char *loc) noexcept {
  try {
    return perform<Op>(Op::memos.at(site), c);
  } catch (...) {
    failCurrent(c.op, c.team, loc);
  }
}

/// A C entry point: nothing throws across (an error prints one line and
/// aborts the job).
template <class Op>
[[gnu::always_inline]] inline distrt_handle_t
cCall(distrt_site_t *site, const Call &c, const char *loc) noexcept {
  if (Op::memos.owns(site)) {
    const auto &m = decltype(Op::memos)::of(site);
    if (Op::direct(m.plan, c.async) && m.matches(c)) [[likely]] {
      try {
        return Op::runDirect(m, c);
      } catch (...) {
        failCurrent(c.op, c.team, loc);
      }
    }
  }
  return cCallPlanned<Op>(site, c, loc);
}

/// A C++ API call: errors are thrown as distrt::Error.
template <class Op> distrt_handle_t cxxCall(Site *site, const Call &c) {
  return guarded(c.op, c.team, c.loc, [&] {
    return perform<Op>(Op::memos.at(site ? site->get() : nullptr), c);
  });
}

/// The C++ API's two forms of every op, from its one Call.
template <class Op> void cxxSync(Site *site, const Call &c) {
  cxxCall<Op>(site, c);
}
template <class Op> Request cxxAsync(Site *site, const Call &c) {
  return Request(cxxCall<Op>(site, c));
}

} // namespace distrt::detail

#endif // DISTRUNTIME_RUNTIME_OPCALL_H
