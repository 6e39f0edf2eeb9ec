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
// (Watchdog.h) and makes DISTRT_SITE_STATIC sites match in full.
//
//===----------------------------------------------------------------------===//

#ifndef DISTRUNTIME_RUNTIME_CHECK_H
#define DISTRUNTIME_RUNTIME_CHECK_H

#include "CallMemo.h"
#include "Watchdog.h"

#include <cstdint>

namespace distrt::detail {

/// Checked mode is on.
inline bool gChecked = false;

/// Checked mode or a timeout is on: the entry points' fast paths step aside
/// for the path that agrees and watches (OpCall.h, distrt_wait).
inline bool gGuarded = false;

/// Turns checked mode on or off (every rank must do the same, between
/// collectives).
void setChecked(bool on);
/// Sets the watchdog's timeout in seconds (0: off).
void setWatchTimeout(double seconds);

/// Agrees on `c` with the other members of its team (checked mode). Throws
/// Failure naming the first field that differs. A call whose operands or
/// tables are unreadable is left to planning to report. `params` names its
/// scalars, then its tables (Params.h); a scalar named "reduction" is shown
/// as a reduction kind. Of its last `groupTables` tables only the sizes
/// count here (agreeInGroups agrees on their content). `watch`, if set, is
/// told what the agreement waits for.
void agreeOnCall(const Call &c, ParamNames params, size_t groupTables,
                 BlockedCall *watch);

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
/// checked mode agreed on it, the message says so and how to find out.
[[noreturn, gnu::cold]] void rethrowCollectiveFailure();

/// Checked mode's point-to-point check: the sender sends, ahead of the data,
/// a header saying what it sends (op, each operand's element type, bytes,
/// location) to `peer` on `comm` with `tag`; the receiver receives it
/// before using the data and compares it with what it expects, naming the
/// first difference and where the sender is.
void sendHeader(const char *op, const std::vector<Buffer> &inputs, int peer,
                MPI_Comm comm, int tag, const SourceLoc &loc);
void receiveHeader(const char *op, const std::vector<Buffer> &outputs, int peer,
                   MPI_Comm comm, int tag);

} // namespace distrt::detail

#endif // DISTRUNTIME_RUNTIME_CHECK_H
