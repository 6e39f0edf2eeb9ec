//===- HaloDriver.h - The one execution path of the halo ops ----*- C++ -*-===//
//
// get_halo and update_halo, from either API, run through performHalo(), as
// the collectives run through perform() (OpCall.h):
//
//   entry (ops/<Op>.cpp) ──► performHalo: the team's plan of the key
//        │                   (Halo.h) was made for this call?
//        │                     ├─ yes: Op::checkHeld, what may still differ
//        │                     └─ no:  Op::plan, collective over the team
//        ▼
//   Op::exchange ──► runInSlot / postRequest (Request.h) ──► MPI
//
// In checked mode the ranks first agree on the call (Check.h), and on
// whether they replan it: a rank that replans while another does not would
// wait for it forever (selective checked mode skips a proven update_halo).
// With a timeout the call tells the watchdog what it waits for
// (Watchdog.h): the team's plan headers, then its peers' halos.
//
// A halo op kind is a struct with:
//   using Plan = ...;  // has `valid`, and recvs[i].peer (its sources)
//   using Args = ...;  // the call's operands
//   static constexpr const char *kName;             // "get_halo"
//   static constexpr const char *kWaitsForHeaders;  // for the watchdog,
//   static constexpr const char *kWaitsForPeers;    // "{channel}" the key
//   static PlanCache<Plan> &plans(TeamHalos &);
//   static bool holds(const Plan &, const HaloCall &, const Args &);
//   static void checkHeld(const Plan &, const Args &);
//   static void plan(TeamState &, Plan &, const HaloCall &, const Args &);
//   static distrt_handle_t exchange(TeamState &, const Plan &,
//                                   const HaloCall &, const Args &);
//   static HaloChannel *share(TeamState &, const Plan &, const HaloCall &);
//
// A held plan's second call shares its messages on this node (Op::share,
// HaloChannel.h): the call is the same one on every member.
//
//===----------------------------------------------------------------------===//

#ifndef DISTRUNTIME_RUNTIME_HALODRIVER_H
#define DISTRUNTIME_RUNTIME_HALODRIVER_H

#include "Check.h"
#include "Error.h"
#include "Halo.h"
#include "HaloChannel.h"
#include "Team.h"

namespace distrt::detail {

/// What every halo call has besides its operands.
struct HaloCall {
  int64_t team, key;
  int32_t dtype;
  /// The rank of the local block, agreed on in checked mode.
  int64_t blockRank;
  bool async;
  SourceLoc loc;
  /// The compiler proved that every member makes this call alike
  /// (DISTRT_SITE_PROVEN): selective checked mode skips it.
  bool proven = false;
};

/// Tells the watchdog that the call waits for the ranks `recvs` come from.
template <class Recvs>
void describeHaloWait(BlockedCall &b, const char *waitsFor, int64_t key,
                      const Recvs &recvs) {
  b.waitsFor = waitsFor;
  b.channel = key;
  b.peerCount = 0;
  for (const auto &recv : recvs)
    b.addPeer(recv.peer);
}

/// Plans the call anew into `plan` (collective over the team).
template <class Op>
void replan(TeamState &team, typename Op::Plan &plan, const HaloCall &c,
            const typename Op::Args &a, BlockedCall *b) {
  if (b) {
    b->waitsFor = Op::kWaitsForHeaders;
    b->channel = c.key;
  }
  Op::plan(team, plan, c, a);
}

/// Plans the call unless the plan of its key holds, then posts the
/// exchange. Throws Error.
template <class Op>
distrt_handle_t performHalo(const HaloCall &c, const typename Op::Args &a) {
  return guarded(Op::kName, c.team, c.loc, [&] {
    const uint64_t flags = c.proven ? DISTRT_SITE_PROVEN : 0;
    Watch watch(Op::kName, c.loc, c.team, kWaitsForTeam, !runsUnchecked(flags));
    TeamState &team = lookupTeam(c.team);
    typename Op::Plan &plan = Op::plans(*team.halos).at(c.key);
    const bool holds = plan.valid && Op::holds(plan, c, a);
    if (checksSite(flags)) [[unlikely]]
      agreeOnHalo(Op::kName, c.team, c.key, c.dtype, c.blockRank, !holds, c.loc,
                  watch.record());
    if (holds) [[likely]] {
      Op::checkHeld(plan, a);
      if (!plan.shareTried) [[unlikely]] {
        plan.shareTried = true;
        plan.channel = Op::share(team, plan, c);
      }
    } else {
      replan<Op>(team, plan, c, a, watch.record());
    }
    if (BlockedCall *b = watch.record())
      describeHaloWait(*b, Op::kWaitsForPeers, c.key, plan.recvs);
    return Op::exchange(team, plan, c, a);
  });
}

} // namespace distrt::detail

#endif // DISTRUNTIME_RUNTIME_HALODRIVER_H
