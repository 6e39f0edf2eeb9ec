//===- ProcessGroups.h - StableHLO process grid and groups ------*- C++ -*-===//
//
// The static side of StableHLO's process groups: which group function an op
// uses, the grid given by module attributes, and the checks of
// replica_groups / source_target_pairs. The runtime computes the groups.
//
//===----------------------------------------------------------------------===//

#ifndef DISTRUNTIME_DIALECT_DISTRUNTIME_IR_PROCESSGROUPS_H
#define DISTRUNTIME_DIALECT_DISTRUNTIME_IR_PROCESSGROUPS_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Operation.h"

#include <cstdint>
#include <optional>

namespace mlir::distruntime {

/// Group functions; values equal distrt_group_mode_t.
enum class GroupMode : int32_t {
  CrossReplica = 0,
  CrossPartition = 1,
  CrossReplicaAndPartition = 2,
  FlattenedIds = 3
};
StringRef stringifyGroupMode(GroupMode mode);

/// Module attributes giving the grid statically.
constexpr StringLiteral kNumReplicasAttrName = "distruntime.num_replicas";
constexpr StringLiteral kNumPartitionsAttrName = "distruntime.num_partitions";

/// The most processes a process grid can have: a team's ranks are MPI's
/// ints.
constexpr int64_t kMaxProcesses = INT32_MAX;

/// num_replicas x num_partitions. Without module attributes num_partitions is
/// 1 and num_replicas is the team size, known only at run time. A grid the
/// module gives with more than kMaxProcesses processes (the dialect's
/// attribute verifier rejects it) reads as unknown, so that no verifier
/// computes with it.
struct ProcessGrid {
  std::optional<int64_t> numReplicas;
  int64_t numPartitions = 1;
  bool partitionsGiven = false;

  std::optional<int64_t> numProcesses() const {
    if (!numReplicas)
      return std::nullopt;
    return *numReplicas * numPartitions;
  }
};
ProcessGrid getProcessGrid(Operation *op);

/// all_gather, all_reduce, reduce_scatter: three modes.
GroupMode getGroupMode(int64_t channelId, bool useGlobalDeviceIds);
/// all_to_all, collective_broadcast, collective_permute, send, recv.
GroupMode getGroupMode(int64_t channelId);

/// Number of ids `mode` ranges over (replicas, partitions or processes).
std::optional<int64_t> getIdSpaceSize(GroupMode mode, const ProcessGrid &grid);

/// dim(process_groups, 1): members per group; nullopt when only known at run
/// time. Empty groups mean one group of every id.
std::optional<int64_t> getGroupSize(DenseIntElementsAttr groups, GroupMode mode,
                                    const ProcessGrid &grid);

/// StableHLO's checks of replica_groups: ids unique, non-negative and below
/// `size(replica_groups)` (`boundBySize`) or below the id space; with
/// `requireCover`, size(replica_groups) equals the id space. With
/// `allowPadding` (all_reduce: hlo::verifyReplicaGroups with
/// allGroupsMustHaveSameSize = false) an id -1 is "no process", anywhere in
/// a group, and does not count in size(replica_groups); groups may then have
/// different sizes, or be all -1, but some id must name a process. Without
/// it, -1 is an error.
LogicalResult verifyGroups(Operation *op, StringRef name,
                           DenseIntElementsAttr groups, GroupMode mode,
                           const ProcessGrid &grid, bool boundBySize,
                           bool requireCover, bool allowPadding = false);

/// source_target_pairs: shape [n, 2], unique sources, unique targets, ids in
/// the id space.
LogicalResult verifyPairs(Operation *op, DenseIntElementsAttr pairs,
                          GroupMode mode, const ProcessGrid &grid);

} // namespace mlir::distruntime

#endif // DISTRUNTIME_DIALECT_DISTRUNTIME_IR_PROCESSGROUPS_H
