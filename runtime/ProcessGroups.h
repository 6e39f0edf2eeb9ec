//===- ProcessGroups.h - StableHLO process grid and groups ------*- C++ -*-===//
//
// The process grid is num_replicas x num_partitions; the flattened id
// replica * num_partitions + partition is the rank in the team. A
// distrt_groups_t (mode + replica_groups, or source_target_pairs) is turned
// into this process's group exactly as StableHLO's cross_replica,
// cross_partition, cross_replica_and_partition and flattened_ids define it,
// order preserved. A replica_groups table may pad a group with -1 at its end
// (ragged groups, see distrt.h): the group is its ids before the padding.
//
// Layouts are cached per team: by the content of the distrt_groups_t and by
// its address for the hot path; their communicators by the groups they
// describe (one MPI_Comm_split per distinct partition of the team, never
// two, whichever mode and ids describe it). An address hit is confirmed against
// the cached content (a few words and a memcmp of the ids), so a spec on the
// stack whose address is reused for another layout is still read correctly.
//
// Everything a layout checks depends only on the static spec and the team
// size, so every rank of the team fails the same way, before any MPI call.
//
//===----------------------------------------------------------------------===//

#ifndef DISTRUNTIME_RUNTIME_PROCESSGROUPS_H
#define DISTRUNTIME_RUNTIME_PROCESSGROUPS_H

#include "SharedGroup.h"
#include "SharedPair.h"
#include "Team.h"

#include "distruntime/Runtime/distrt.h"

#include <mpi.h>

#include <cstdint>
#include <cstring>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace distrt::detail {

/// This process's group of a replica_groups layout.
struct GroupLayout {
  /// The spec as given: mode, num_replicas, num_partitions, num_groups,
  /// group_size, ids...
  std::vector<int64_t> key;
  /// Team ranks of this process's group in group order (empty if in none).
  std::vector<int> members;
  /// This process's position in `members`, or -1.
  int position = -1;
  /// The group's communicator (rank == position), MPI_COMM_NULL if in no
  /// group; the team's own communicator when the group is the whole team in
  /// rank order. Owned by the GroupCache.
  MPI_Comm comm = MPI_COMM_NULL;
  /// Why some process is in no group ("" if every process is in one).
  std::string uncovered;
  /// Why the groups are not all of one size ("" if they are): ragged
  /// groups, padded with -1 in the table.
  std::string ragged;

  int size() const { return static_cast<int>(members.size()); }
  /// Throws the `uncovered` error (ops whose every process needs a group).
  void requireEveryProcess() const {
    if (!uncovered.empty()) [[unlikely]]
      raiseUncovered();
  }
  [[noreturn, gnu::cold, gnu::noinline]] void raiseUncovered() const;
  /// Throws the `ragged` error (ops whose block sizes follow the group
  /// size: all_gather, all_to_all, reduce_scatter).
  void requireUniform() const {
    if (!ragged.empty()) [[unlikely]]
      raiseRagged();
  }
  [[noreturn, gnu::cold, gnu::noinline]] void raiseRagged() const;
};

/// This process's peers in a source_target_pairs layout (team ranks, -1 for
/// none; this rank itself for a self-pair).
struct PairLayout {
  std::vector<int64_t> key;
  int target = -1;
  int source = -1;
};

/// Checked mode's agreement within one process group (Check.cpp).
struct GroupCheck {
  /// A duplicate of the group's communicator, for agreements only.
  MPI_Comm comm = MPI_COMM_NULL;
  /// This process's rank in it, and the team rank of each of its ranks.
  int rank = 0;
  std::vector<int> teamRanks;
};

struct GroupCache {
  std::unordered_map<const distrt_groups_t *, GroupLayout *> groupsByAddress;
  std::map<std::vector<int64_t>, std::unique_ptr<GroupLayout>> groupsByKey;
  std::unordered_map<const distrt_groups_t *, PairLayout *> pairsByAddress;
  std::map<std::vector<int64_t>, std::unique_ptr<PairLayout>> pairsByKey;
  /// The communicator split off for each partition of the team into groups
  /// (sorted; team ranks in group order), MPI_COMM_NULL where this process
  /// is in no group. Layouts of different specs share them.
  std::map<std::vector<std::vector<int64_t>>, MPI_Comm> commsByLayout;
  /// Checked mode's agreement of each group communicator, made on the
  /// group's first agreement (groupCheck).
  std::map<MPI_Comm, GroupCheck> groupChecks;
  /// Dedicated duplicates for collective_permute and send/recv traffic.
  MPI_Comm permuteComm = MPI_COMM_NULL;
  MPI_Comm channelComm = MPI_COMM_NULL;
  int tagUpperBound = 0;
  /// all_reduce's groups of two sharing a node, in the order made
  /// (SharedPair.h).
  std::vector<std::unique_ptr<SharedPair>> sharedPairs;
  /// Groups on one node reducing small operands there, in the order made
  /// (SharedGroup.h).
  std::vector<std::unique_ptr<SharedGroup>> sharedGroups;
};

/// The spec's content equals the `size` words of `key` (mode, num_replicas,
/// num_partitions, num_groups, group_size, ids...): the check of an address
/// hit, here and in the call memo. A spec whose ids went missing does not
/// match, so the full path reports it.
inline bool matchesKey(const int64_t *key, size_t size,
                       const distrt_groups_t &s) {
  // The sizes first: they say how many ids `s` has.
  if (((key[0] ^ s.mode) | (key[1] ^ s.num_replicas) |
       (key[2] ^ s.num_partitions) | (key[3] ^ s.num_groups) |
       (key[4] ^ s.group_size)) != 0 ||
      (size > 5 && !s.ids))
    return false;
  // Inline: the ids are a few words, shorter than what a memcmp call costs.
  uint64_t diff = 0;
  for (size_t i = 5; i < size; ++i)
    diff |= static_cast<uint64_t>(key[i] ^ s.ids[i - 5]);
  return diff == 0;
}

/// This process's group in `spec` (collective over the team the first time
/// a layout is seen: it splits the team's communicator).
const GroupLayout &groupLayout(TeamState &team, const distrt_groups_t *spec);
/// Where a call on `spec`'s replica_groups agrees in checked mode, once the
/// team has split into those groups (a first use splits the team, so the
/// whole team agrees): this process's group, unless it is the whole team
/// (null: the team agrees). `inNone` is set for a process in no group, which
/// has no one to agree with. The duplicate is made on a group's first
/// agreement (collective over the group); the rest is local.
const GroupCheck *groupCheck(TeamState &team, const distrt_groups_t *spec,
                             bool &inNone);
/// This process's source and target in the pairs of `spec` (local, no MPI).
const PairLayout &pairLayout(TeamState &team, const distrt_groups_t *spec);

/// The team's communicator for collective_permute.
MPI_Comm permuteComm(TeamState &team);
/// The team's communicator for send/recv and the tag of `channel` on it:
/// one tag per channel_id (zigzag: 0, -1, 1, ... are 0, 1, 2, ...); throws
/// Failure for a channel_id past MPI_TAG_UB / 2.
MPI_Comm channelComm(TeamState &team);
int channelTag(TeamState &team, int64_t channel);

} // namespace distrt::detail

#endif // DISTRUNTIME_RUNTIME_PROCESSGROUPS_H
