//===- Check.h - Checked mode: the ranks agree before each call -*- C++ -*-===//
//
// In checked mode (DISTRT_CHECK=1 in the environment, or distrt_set_check)
// every collective first agrees with the other members of its team on what
// it is: the op, its location, its groups, each operand's element type and
// shape, its scalars (dims, reduction, ...), its tables (by content; a table
// that may differ between process groups, collective_broadcast's roots, by
// size, then by content within each group) and whether it is async. The
// agreement is one MPI_Allreduce of a 64-bit hash of those fields and its
// complement under MPI_BAND, on a communicator of its own: the results are
// complements exactly when every rank had the same hash. Only when they are
// not do the ranks exchange the fields as text; each reports the first one
// in which it differs from the lowest rank that differs from it:
//
//   all_reduce at prog.mlir:12:8: team 0, rank 1: element type f32 here,
//   i32 on rank 0
//
// get_halo and update_halo agree on their key, element type, rank, location and
// whether the key's geometry changed (a rank that replans while another does
// not would hang); finalization agrees too, so a rank that skipped a collective
// is named at the op the others are in. Checked mode also turns the watchdog on
// (Watchdog.h, 120 s unless a timeout is set explicitly) and makes the
// DISTRT_SITE_STATIC sites it checks match in full.
//
// Selective checked mode: DISTRT_CHECK=1 checks only the sites the compiler
// could not prove; a site marked DISTRT_SITE_PROVEN (distruntime-verify-spmd
// proved that every member runs it alike) runs as in unchecked mode, fast
// path included, and is watched only with a timeout set explicitly.
// DISTRT_CHECK=all checks every site.
//
//===----------------------------------------------------------------------===//

#ifndef DISTRUNTIME_RUNTIME_CHECK_H
#define DISTRUNTIME_RUNTIME_CHECK_H

#include "CallMemo.h"
#include "Watchdog.h"

#include <cstdint>

namespace distrt::detail {

/// Checked mode is on, at either level.
inline bool gChecked = false;
/// DISTRT_CHECK=all: proven sites are checked too.
inline bool gCheckAll = false;

/// Checked mode or a timeout is on: the entry points' fast paths step aside
/// for the path that agrees and watches (OpCall.h, distrt_wait), unless the
/// call's site runsUnchecked().
inline bool gGuarded = false;

/// A site flag no site carries.
inline constexpr uint64_t kNoSiteFlag = uint64_t{1} << 63;
/// The flags a site needs to run as in unchecked mode: none when nothing is
/// checked or watched; DISTRT_SITE_PROVEN in selective checked mode
/// without an explicit timeout; kNoSiteFlag when every site is checked or
/// watched.
inline uint64_t gUncheckedFlags = 0;

/// A call at a site with `flags` runs as in unchecked mode: nothing agrees
/// on it, checks its headers or watches it.
[[gnu::always_inline]] inline bool runsUnchecked(uint64_t flags) {
  return (flags & gUncheckedFlags) == gUncheckedFlags;
}

/// Checked mode checks a call at a site with `flags` (agreement, headers,
/// a DISTRT_SITE_STATIC site's full match).
inline bool checksSite(uint64_t flags) {
  return gChecked && (gCheckAll || !(flags & DISTRT_SITE_PROVEN));
}

/// Checked mode's levels (distrt_check_level_t).
enum class CheckLevel : int32_t { Off = 0, Unproven = 1, All = 2 };

/// Sets checked mode's level (every rank must do the same, between
/// collectives); the watchdog's default follows unless a timeout was set
/// explicitly.
void setChecked(CheckLevel level);
/// Sets the watchdog's timeout in seconds (0: off), explicitly: it then
/// watches every site.
void setWatchTimeout(double seconds);

/// Agrees on `c` with the other members of its team (checked mode). Throws
/// Failure naming the first field that differs. A call whose operands or
/// tables are unreadable is left to planning to report. `params` names its
/// scalars, then its tables (Params.h); a scalar named "reduction" is shown
/// as a reduction kind. Of its last `groupTables` tables only the sizes
/// count here (agreeInGroups agrees on their content). `watch`, if set, is
/// told what the agreement waits for. `groupsName` names c.groups in a
/// report (collective_permute's are its source_target_pairs). Without
/// `shapesAgree`, the operands' ranks are compared instead of their shapes.
/// The last `ownTables` tables are each member's own (ragged_all_to_all's
/// sizes): only their sizes count, in any group.
/// A call on replica_groups whose partition of the team is split already
/// agrees within its group only, tables in full (a process in no group has
/// no one to agree with): the groups' members need not meet the others,
/// as MPI matches them apart. Returns true then (agreeInGroups is not
/// needed); false after the team's agreement.
bool agreeOnCall(const Call &c, ParamNames params, size_t groupTables,
                 BlockedCall *watch, const char *groupsName = "replica_groups",
                 bool shapesAgree = true, size_t ownTables = 0);

/// Checked mode's local check of a call's buffers, as distruntime-verify-spmd
/// checks them statically: no two outputs share a byte (the last write would
/// win), and no output shares a byte with an input other than its own (the
/// op may write it before it reads the input; an operand's own input and
/// output may: in place). Throws Failure naming both operands.
void checkDistinctOutputs(const std::vector<Buffer> &ins,
                          const std::vector<Buffer> &outs);

/// After agreeOnCall: agrees on the content of the last `groupTables`
/// tables of `c` within each of its process groups (processes in none take
/// part without a say), in one MPI_Allreduce over the team. Throws Failure
/// on the members of a group that differ, naming the table, both values and
/// the other rank:
///
///   collective_broadcast at prog.mlir:9:5: team 0, rank 2: roots [1] here,
///   [0] on rank 3 of this process group
void agreeInGroups(const Call &c, ParamNames params, size_t groupTables,
                   BlockedCall *watch);

/// get_halo's and update_halo's (`op`) agreement: `replans` is whether this
/// rank plans the key anew.
void agreeOnHalo(const char *op, int64_t team, int64_t key, int32_t dtype,
                 int64_t rank, bool replans, const SourceLoc &loc,
                 BlockedCall *watch);

/// Rethrows the exception being handled, a collective's: an MPI failure
/// inside one most often means its ranks disagree on the call, so unless
/// checked mode agreed on it (`agreed`), the message says so and how to
/// find out (DISTRT_CHECK=all where DISTRT_CHECK=1 skipped a proven site).
[[noreturn, gnu::cold]] void rethrowCollectiveFailure(bool agreed);

/// An op's source_target_pairs as a point-to-point header carries them: a
/// hash of the whole table and its first pairs, for the report.
struct PairsDigest {
  static constexpr int kIds = 16;
  uint64_t hash = 0;
  int64_t pairs = 0;
  int64_t ids[kIds] = {};
};
PairsDigest digestPairs(const distrt_groups_t *pairs);

/// Checked mode's point-to-point check: the sender sends, ahead of the data,
/// a header saying what it sends (op, each operand's element type, bytes,
/// source_target_pairs, location) to `peer` on `comm` with `tag`; the
/// receiver receives it before using the data and compares it with what it
/// expects, its own pairs included, naming the first difference and where
/// the sender is. A header no receiver took is reported at finalization
/// (findUnreceivedHeaders).
void sendHeader(const char *op, const std::vector<Buffer> &inputs,
                const PairsDigest &pairs, int peer, MPI_Comm comm, int tag,
                const SourceLoc &loc);
void receiveHeader(const char *op, const std::vector<Buffer> &outputs,
                   const PairsDigest &pairs, int peer, MPI_Comm comm, int tag);

} // namespace distrt::detail

#endif // DISTRUNTIME_RUNTIME_CHECK_H
