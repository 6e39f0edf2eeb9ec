//===- ProcessGroups.cpp - StableHLO process grid and groups --------------===//

#include "distruntime/Dialect/DistRuntime/IR/ProcessGroups.h"

#include "mlir/IR/BuiltinOps.h"

#include <unordered_set>

using namespace mlir;
using namespace mlir::distruntime;

StringRef mlir::distruntime::stringifyGroupMode(GroupMode mode) {
  switch (mode) {
  case GroupMode::CrossReplica:
    return "cross_replica";
  case GroupMode::CrossPartition:
    return "cross_partition";
  case GroupMode::CrossReplicaAndPartition:
    return "cross_replica_and_partition";
  case GroupMode::FlattenedIds:
    return "flattened_ids";
  }
  llvm_unreachable("unknown group mode");
}

ProcessGrid mlir::distruntime::getProcessGrid(Operation *op) {
  ProcessGrid grid;
  auto module = op->getParentOfType<ModuleOp>();
  if (!module)
    return grid;
  if (auto replicas = module->getAttrOfType<IntegerAttr>(kNumReplicasAttrName))
    grid.numReplicas = replicas.getInt();
  if (auto partitions =
          module->getAttrOfType<IntegerAttr>(kNumPartitionsAttrName)) {
    grid.numPartitions = partitions.getInt();
    grid.partitionsGiven = true;
  }
  if (grid.numPartitions <= 0 || grid.numPartitions > kMaxProcesses ||
      (grid.numReplicas &&
       (*grid.numReplicas <= 0 ||
        *grid.numReplicas > kMaxProcesses / grid.numPartitions)))
    return ProcessGrid();
  return grid;
}

GroupMode mlir::distruntime::getGroupMode(int64_t channelId,
                                          bool useGlobalDeviceIds) {
  if (channelId <= 0)
    return GroupMode::CrossReplica;
  return useGlobalDeviceIds ? GroupMode::FlattenedIds
                            : GroupMode::CrossReplicaAndPartition;
}

GroupMode mlir::distruntime::getGroupMode(int64_t channelId) {
  return channelId <= 0 ? GroupMode::CrossReplica : GroupMode::CrossPartition;
}

std::optional<int64_t>
mlir::distruntime::getIdSpaceSize(GroupMode mode, const ProcessGrid &grid) {
  switch (mode) {
  case GroupMode::CrossReplica:
  case GroupMode::CrossReplicaAndPartition:
    return grid.numReplicas;
  case GroupMode::CrossPartition:
    return grid.numPartitions;
  case GroupMode::FlattenedIds:
    return grid.numProcesses();
  }
  llvm_unreachable("unknown group mode");
}

std::optional<int64_t>
mlir::distruntime::getGroupSize(DenseIntElementsAttr groups, GroupMode mode,
                                const ProcessGrid &grid) {
  // Groups read at run time.
  if (!groups)
    return std::nullopt;
  int64_t perGroup = groups.getType().getDimSize(1);
  if (groups.empty()) {
    // One group of every id.
    auto all = getIdSpaceSize(mode, grid);
    if (!all)
      return std::nullopt;
    perGroup = *all;
  }
  if (mode == GroupMode::CrossReplicaAndPartition)
    return perGroup * grid.numPartitions;
  return perGroup;
}

LogicalResult
mlir::distruntime::verifyGroups(Operation *op, StringRef name,
                                DenseIntElementsAttr groups, GroupMode mode,
                                const ProcessGrid &grid, bool boundBySize,
                                bool requireCover, bool allowPadding) {
  // Groups read at run time: the runtime checks them.
  if (!groups)
    return success();
  // -1 is "no process" (StableHLO's ragged groups); the other ids count.
  int64_t size = 0;
  int64_t perGroup = groups.getType().getDimSize(1);
  for (auto [index, value] : llvm::enumerate(groups.getValues<APInt>())) {
    if (value.getSExtValue() != -1) {
      ++size;
      continue;
    }
    if (!allowPadding)
      return op->emitOpError("'")
             << name << "' pads group #"
             << static_cast<int64_t>(index) / perGroup
             << " with -1, but only all_reduce accepts groups of different "
                "sizes";
  }
  if (size == 0 && !groups.empty())
    return op->emitOpError("'")
           << name << "' names no process (every id is -1)";
  std::optional<int64_t> space = getIdSpaceSize(mode, grid);
  // Not a DenseSet: it reserves INT64_MAX and INT64_MAX - 1 as keys.
  std::unordered_set<int64_t> seen;
  for (APInt value : groups.getValues<APInt>()) {
    int64_t id = value.getSExtValue();
    if (id == -1)
      continue;
    if (!seen.insert(id).second)
      return op->emitOpError("'")
             << name << "' contains id " << id << " more than once";
    std::optional<int64_t> bound = boundBySize ? size : space;
    if (id < 0 || (bound && id >= *bound))
      return op->emitOpError("'")
             << name << "' id " << id << " is out of range [0, "
             << (bound ? std::to_string(*bound) : std::string("?")) << ")"
             << (boundBySize ? " (the number of ids in the groups)"
                             : " of " + stringifyGroupMode(mode).str());
  }
  if (requireCover && size > 0 && space && size != *space)
    return op->emitOpError("'") << name << "' has " << size << " ids but "
                                << stringifyGroupMode(mode) << " needs all "
                                << *space << " of the process grid";
  return success();
}

LogicalResult mlir::distruntime::verifyPairs(Operation *op,
                                             DenseIntElementsAttr pairs,
                                             GroupMode mode,
                                             const ProcessGrid &grid) {
  // Pairs read at run time: the runtime checks them.
  if (!pairs)
    return success();
  if (pairs.getType().getDimSize(1) != 2)
    return op->emitOpError("'source_target_pairs' must have shape [n, 2], got ")
           << pairs.getType();
  std::optional<int64_t> space = getIdSpaceSize(mode, grid);
  std::unordered_set<int64_t> sources, targets;
  auto values = llvm::to_vector(pairs.getValues<int64_t>());
  for (size_t i = 0; i + 1 < values.size(); i += 2) {
    for (int64_t id : {values[i], values[i + 1]})
      if (id < 0 || (space && id >= *space)) {
        auto diag = op->emitOpError("'source_target_pairs' id ")
                    << id << " is out of range [0, "
                    << (space ? std::to_string(*space) : std::string("?"))
                    << ") of " << stringifyGroupMode(mode);
        if (mode == GroupMode::CrossPartition && !grid.partitionsGiven)
          diag << " (channel_id > 0 names partitions; set the module "
                  "attribute distruntime.num_partitions)";
        return diag;
      }
    if (!sources.insert(values[i]).second)
      return op->emitOpError("'source_target_pairs' has source ")
             << values[i] << " more than once";
    if (!targets.insert(values[i + 1]).second)
      return op->emitOpError("'source_target_pairs' has target ")
             << values[i + 1] << " more than once";
  }
  return success();
}
