//===- OpCall.h - The one execution path of every collective ----*- C++ -*-===//
//
// Every StableHLO-style op, from either API, runs through perform():
//
//   C entry (ops/<Op>.cpp) ──► cEntry: site memo matches (a static site:
//        │                      team and addresses) and the plan is one
//        │                      MPI call ──► Op::runDirect ──► MPI
//        ▼ otherwise (cEntryPlanned; the C++ API's cxxCall)
//   perform: memo matches? else Op::plan + CallMemo::store
//        ├─ Op::direct(plan) ──► Op::runDirect ──► MPI
//        └─ Op::run ──► runInSlot / postRequest (Request.h) ──► MPI
//
// In checked mode or with a timeout (Check.h, Watchdog.h) the fast path
// steps aside and perform first agrees with the team on the call, and
// records what it blocks in for the watchdog; watched without checked
// mode, a sync collective runs async and waits in the runtime's loop. A
// proven site (DISTRT_SITE_PROVEN) in selective checked mode keeps the
// fast path: runsUnchecked() tells.
//
// An op kind is a struct deriving from OpKind<Op, Plan> (its sites' memos)
// with:
//   static const std::vector<int64_t> *plan(Memo<Plan> &, const Call &);
//       checks the call and fills the plan; returns the groups' content
//   static bool direct(const Plan &, bool async);
//       the call is one MPI call on the operands' own buffers
//   static distrt_handle_t runDirect(const Memo<Plan> &, const DirectCall &);
//   static distrt_handle_t run(Memo<Plan> &, const Call &);
// and, for the watchdog and checked mode, either
//   static constexpr std::array kParams{...};  // a collective: the names of
//                                              // its scalars, then tables
//   static constexpr size_t kGroupTables = n;  // optional: its last n tables
//                                              // are agreed on per group
// or
//   static constexpr bool kCollective = false;  // point to point
//   static void describeWait(BlockedCall &, const Memo<Plan> &, const Call &);
//   static MessageRoute route(const Memo<Plan> &);  // checked mode's headers
//
//===----------------------------------------------------------------------===//

#ifndef DISTRUNTIME_RUNTIME_OPCALL_H
#define DISTRUNTIME_RUNTIME_OPCALL_H

#include "CallMemo.h"
#include "Check.h"
#include "Error.h"
#include "Request.h"

#include <array>

namespace distrt::detail {

/// The base of op kind `Op`, whose plans are `P`: each kind has memos of
/// its own, so a site bound to one kind is never read as another's.
template <class Op, class P> struct OpKind {
  using Plan = P;
  static inline OpMemos<Plan> memos;
  /// Every member of the team makes the call (it agrees in checked mode).
  static constexpr bool kCollective = true;
  static constexpr std::array<const char *, 0> kParams{};
  /// How many of its last tables only the members of each process group
  /// must share (collective_broadcast's roots): checked mode agrees on
  /// their sizes over the team and on their content within each group.
  static constexpr size_t kGroupTables = 0;
  /// A point-to-point op that every member of the team calls alike
  /// (collective_permute): checked mode agrees on it as on a collective,
  /// so that members that disagree on its pairs stop there instead of
  /// sending to nobody.
  static constexpr bool kAgreesAsCollective = false;
  /// What the call's groups are, in checked mode's reports.
  static constexpr const char *kGroupsName = "replica_groups";
  /// The members' operands have one shape (global_reduce's inputs and
  /// ragged_all_to_all's rows differ: checked mode then compares their
  /// ranks).
  static constexpr bool kShapesAgree = true;
  /// How many of its last tables are each member's own (ragged_all_to_all's
  /// sizes): checked mode agrees on their sizes only.
  static constexpr size_t kOwnTables = 0;
};

/// The first steps of planning a collective over process groups: the
/// operands resolved into opScratch() (the C ABI's arrays are checked
/// before anything else), then this process's group.
inline const GroupLayout &resolveGroupCall(const Call &c, bool sameShape,
                                           bool promote = false) {
  resolvePairs(c.inputs, c.outputs, opScratch(), sameShape, promote);
  return groupLayout(lookupTeam(c.team), c.groups);
}

/// Tells the watchdog what a call of `Op` waits for (after planning: its
/// layout is then cached).
template <class Op>
void describeWait(BlockedCall &b, const Memo<typename Op::Plan> &m,
                  const Call &c) {
  if constexpr (Op::kCollective) {
    b.waitsFor = "the other members of its group (team ranks {peers})";
    const GroupLayout &layout = groupLayout(lookupTeam(c.team), c.groups);
    b.setOtherMembers(layout.members, layout.position);
  } else {
    Op::describeWait(b, m, c);
  }
}

template <class Op>
distrt_handle_t performChecked(Memo<typename Op::Plan> &m, const Call &c);

/// The site flags of `c` that checked mode reads.
[[gnu::always_inline]] inline uint64_t siteFlags(const Call &c) {
  return c.proven ? DISTRT_SITE_PROVEN : 0;
}

/// Plans the call into `m` unless the memo matches it.
/// In checked mode (either level: the check is local and runs only when
/// the call is planned, never on a memo's match) planning checks that the
/// outputs overlap nothing they may not.
template <class Op>
void planUnlessMemoized(Memo<typename Op::Plan> &m, const Call &c) {
  if (!m.matches(c)) {
    m.valid = false;
    checkTables(c.params, Op::kParams);
    const std::vector<int64_t> *groupsKey = Op::plan(m, c);
    if (gChecked) [[unlikely]]
      checkDistinctOutputs(opScratch().ins, opScratch().outs);
    m.store(c, groupsKey, opScratch());
  }
}

/// Runs the planned call: one MPI call on the operands' buffers, or the
/// general run.
template <class Op>
distrt_handle_t runPlanned(Memo<typename Op::Plan> &m, const Call &c) {
  if (Op::direct(m.plan, c.async))
    return Op::runDirect(m, directOf(c));
  return Op::run(m, c);
}

/// Where a point-to-point op's headers go in checked mode: to `sendPeer`,
/// from `recvPeer` (-1: none) on `comm` (MPI_COMM_NULL: not checked) with
/// `tag`.
struct MessageRoute {
  int sendPeer = -1, recvPeer = -1;
  MPI_Comm comm = MPI_COMM_NULL;
  int tag = 0;
};

/// Runs a planned point-to-point op in checked mode: its header goes ahead
/// of its data, and the header it receives is checked before a sync op
/// returns, or at the wait of an async one, before the data is used.
template <class Op>
distrt_handle_t runWithHeaders(Memo<typename Op::Plan> &m, const Call &c) {
  const MessageRoute r = Op::route(m);
  const bool checked = r.comm != MPI_COMM_NULL;
  if (!checked)
    return runPlanned<Op>(m, c);
  const PairsDigest pairs = digestPairs(c.groups);
  if (r.sendPeer >= 0)
    sendHeader(c.op, m.ins, pairs, r.sendPeer, r.comm, r.tag, c.loc);
  if (r.recvPeer >= 0 && !c.async)
    receiveHeader(c.op, m.outs, pairs, r.recvPeer, r.comm, r.tag);
  const distrt_handle_t handle = runPlanned<Op>(m, c);
  if (r.recvPeer >= 0 && c.async)
    deferToWait(handle, [op = c.op, outs = m.outs, pairs, r] {
      receiveHeader(op, outs, pairs, r.recvPeer, r.comm, r.tag);
    });
  return handle;
}

/// Plans the call unless the memo matches it, then runs it. Throws Failure.
template <class Op>
distrt_handle_t perform(Memo<typename Op::Plan> &m, const Call &c) {
  if (!runsUnchecked(siteFlags(c))) [[unlikely]]
    return performChecked<Op>(m, c);
  planUnlessMemoized<Op>(m, c);
  return runPlanned<Op>(m, c);
}

/// perform() in checked mode or with a timeout: agrees on the call with the
/// team (checked mode, collectives, unless the call is proven and the
/// mode selective) and watches it.
template <class Op>
[[gnu::noinline]] distrt_handle_t performChecked(Memo<typename Op::Plan> &m,
                                                 const Call &c) {
  Watch watch(c.op, c.loc, c.team, kWaitsForTeam);
  const bool checks = checksSite(siteFlags(c));
  if (checks && (Op::kCollective || Op::kAgreesAsCollective)) {
    const bool inGroup =
        agreeOnCall(c, Op::kParams, Op::kGroupTables, watch.record(),
                    Op::kGroupsName, Op::kShapesAgree, Op::kOwnTables);
    if constexpr (Op::kGroupTables > 0)
      if (!inGroup)
        agreeInGroups(c, Op::kParams, Op::kGroupTables, watch.record());
  }
  planUnlessMemoized<Op>(m, c);
  BlockedCall *b = watch.record();
  if (b)
    describeWait<Op>(*b, m, c);
  if constexpr (!Op::kCollective) {
    if (checks)
      return runWithHeaders<Op>(m, c);
  } else if (b && !c.async && !checks) {
    // Watched, a sync collective runs async and waits in the runtime's
    // loop, where it can tell the watchdog which members finished (every
    // process does the same: MPI never matches a blocking collective with
    // a nonblocking one). In checked mode the agreement names them.
    Call async = c;
    async.async = true;
    waitRequest(runPlanned<Op>(m, async));
    return 0;
  }
  return runPlanned<Op>(m, c);
}

/// Rethrows the exception being handled, with the hint of an MPI failure in
/// a collective (rethrowCollectiveFailure) that checked mode did not agree
/// on (`agreed`). Call only in a catch.
template <class Op> [[noreturn]] void rethrowOpFailure(bool agreed) {
  if constexpr (Op::kCollective)
    rethrowCollectiveFailure(agreed);
  throw;
}

/// Fails the C entry of `Op` with the exception being handled.
template <class Op>
[[noreturn, gnu::cold, gnu::noinline]] void
failEntry(const char *op, int64_t team, const char *loc, bool agreed) noexcept {
  try {
    rethrowOpFailure<Op>(agreed);
  } catch (...) {
    failCurrent(op, team, loc);
  }
}

/// A C entry point's call, as the C ABI passes it: `n` inputs and outputs
/// (-1: the op has none).
inline Call cCallOf(const char *op, int64_t team, const distrt_groups_t *groups,
                    Params params, int64_t nIns, const distrt_operand_t *inputs,
                    int64_t nOuts, const distrt_operand_t *outputs,
                    int32_t async, const char *loc) {
  return {op,
          team,
          groups,
          params,
          OperandList(inputs, nIns),
          OperandList(outputs, nOuts),
          async != 0,
          SourceLoc(loc)};
}

/// The C entry's path past its site match, out of line: the entry keeps
/// its arguments in registers, and only this path builds a Call in memory.
template <class Op>
[[gnu::noinline]] distrt_handle_t
cEntryPlanned(const char *op, int64_t team, const distrt_groups_t *groups,
              Params params, int64_t nIns, const distrt_operand_t *inputs,
              int64_t nOuts, const distrt_operand_t *outputs, int32_t async,
              distrt_site_t *site, const char *loc) noexcept {
  bool agreed = false;
  try {
    Call c = cCallOf(op, team, groups, params, nIns, inputs, nOuts, outputs,
                     async, loc);
    c.proven = site && (site->flags & DISTRT_SITE_PROVEN);
    ensureMpi(); // reads checked mode
    auto &m = Op::memos.at(site);
    const bool isStatic = site && (site->flags & DISTRT_SITE_STATIC);
    const bool checks = checksSite(siteFlags(c));
    agreed = checks && Op::kCollective;
    // Checked mode verifies what the site's flag promises.
    if (checks && isStatic && m.matchesStatic(c) && !m.matches(c)) [[unlikely]]
      raiseStaticBroken();
    m.staticSite = isStatic && !checks;
    return perform<Op>(m, c);
  } catch (...) {
    failEntry<Op>(op, team, loc, agreed);
  }
}

/// A C entry point: a call that matches its site's memo and whose plan is
/// one MPI call makes it right here; any other plans. Nothing throws across
/// (an error prints one line and aborts the job).
template <class Op>
[[gnu::always_inline]] inline distrt_handle_t
cEntry(const char *op, int64_t team, const distrt_groups_t *groups,
       Params params, int64_t nIns, const distrt_operand_t *inputs,
       int64_t nOuts, const distrt_operand_t *outputs, int32_t async,
       distrt_site_t *site, const char *loc) noexcept {
  if (Op::memos.owns(site) && runsUnchecked(site->flags)) {
    const auto &m = decltype(Op::memos)::of(site);
    const Call c = cCallOf(op, team, groups, params, nIns, inputs, nOuts,
                           outputs, async, loc);
    if (Op::direct(m.plan, c.async) &&
        (m.staticSite ? m.matchesStatic(c) : m.matches(c))) [[likely]] {
      try {
        return Op::runDirect(m, directOf(c));
      } catch (...) {
        failEntry<Op>(op, team, loc, /*agreed=*/false);
      }
    }
  }
  return cEntryPlanned<Op>(op, team, groups, params, nIns, inputs, nOuts,
                           outputs, async, site, loc);
}

/// A C++ API call: errors are thrown as distrt::Error.
template <class Op>
distrt_handle_t cxxCall(bool async, const char *op, const Team &team,
                        const distrt_groups_t *groups, Params params,
                        OperandList inputs, OperandList outputs, Site *site,
                        SourceLoc loc) {
  distrt_site_t *raw = site ? site->get() : nullptr;
  const Call c{op,     team.id(), groups,
               params, inputs,    outputs,
               async,  loc,       raw && (raw->flags & DISTRT_SITE_PROVEN)};
  return guarded(c.op, c.team, c.loc, [&] {
    try {
      return perform<Op>(Op::memos.at(raw), c);
    } catch (...) {
      rethrowOpFailure<Op>(checksSite(siteFlags(c)) && Op::kCollective);
    }
  });
}

/// The C++ API's two forms of every op: sync, and async returning a
/// Request.
template <class Op>
void cxxSync(const char *op, const Team &team, const distrt_groups_t *groups,
             Params params, OperandList inputs, OperandList outputs, Site *site,
             SourceLoc loc) {
  cxxCall<Op>(false, op, team, groups, params, inputs, outputs, site, loc);
}
template <class Op>
Request cxxAsync(const char *op, const Team &team,
                 const distrt_groups_t *groups, Params params,
                 OperandList inputs, OperandList outputs, Site *site,
                 SourceLoc loc) {
  return Request(
      cxxCall<Op>(true, op, team, groups, params, inputs, outputs, site, loc));
}

} // namespace distrt::detail

#endif // DISTRUNTIME_RUNTIME_OPCALL_H
