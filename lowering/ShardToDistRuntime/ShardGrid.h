//===- ShardGrid.h - shard grids as distruntime teams -----------*- C++ -*-===//
//
// A shard.grid is laid over the ranks of one team, row-major (the last grid
// axis varies fastest), as upstream's process_linear_index numbers devices.
// The processes that differ only in the coordinates of some grid axes form a
// process group; their in-group index linearises those coordinates in the
// order the op lists the axes (the first listed slowest), the order in which
// all_gather and all_to_all concatenate. For a static grid the groups are
// constants, so every collective gets compile-time replica_groups and the
// runtime splits one communicator per distinct layout.
//
//===----------------------------------------------------------------------===//

#ifndef DISTRUNTIME_LOWERING_SHARDTODISTRUNTIME_SHARDGRID_H
#define DISTRUNTIME_LOWERING_SHARDTODISTRUNTIME_SHARDGRID_H

#include "mlir/Dialect/Shard/IR/ShardOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"

namespace mlir::distruntime {

class ShardGrid {
public:
  ShardGrid(shard::GridOp grid, int64_t team)
      : shape(grid.getShape()), team(team) {}

  ArrayRef<int64_t> getShape() const { return shape; }
  /// The shape as written in the IR: "2x?".
  std::string describe() const;
  bool isStatic() const;
  /// Processes of a static grid.
  int64_t getSize() const;
  /// The product of the static axis sizes.
  int64_t getStaticSize() const;

  /// `axes`, or every axis of the grid when `axes` is empty (shard's
  /// convention for process_multi_index and grid_shape).
  SmallVector<int64_t> resolveAxes(ArrayRef<shard::GridAxis> axes) const;
  /// `axes` as they are: for collectives no grid_axes means groups of one
  /// process (upstream folds such collectives away).
  static SmallVector<int64_t> toAxes(ArrayRef<shard::GridAxis> axes);

  /// The members of one group over `axes` (static grid).
  int64_t getGroupSize(ArrayRef<shard::GridAxis> axes) const;
  /// The in-group index of the process at `coords` (one per axis of
  /// `axes`): a root, source or destination given as a multi-index.
  int64_t getInGroupIndex(ArrayRef<shard::GridAxis> axes,
                          ArrayRef<int64_t> coords) const;
  /// One row per group of team ranks, each in in-group order (static grid).
  SmallVector<SmallVector<int64_t>>
  getGroups(ArrayRef<shard::GridAxis> axes) const;
  /// getGroups as replica_groups.
  DenseIntElementsAttr getGroupsAttr(Builder &b,
                                     ArrayRef<shard::GridAxis> axes) const;
  /// getGroups with each row rotated so that the member at in-group index
  /// `root` comes first (collective_broadcast sends from the first member).
  DenseIntElementsAttr getRootFirstGroupsAttr(Builder &b,
                                              ArrayRef<shard::GridAxis> axes,
                                              int64_t root) const;
  /// (source, target) pairs moving every process's data `offset` steps along
  /// grid axis `axis`; with `rotate` they wrap around, else processes whose
  /// target lies outside the grid send nothing.
  DenseIntElementsAttr getShiftPairsAttr(Builder &b, int64_t axis,
                                         int64_t offset, bool rotate) const;
  /// Pairs (member at in-group index `from`, member at `to`) of every group
  /// over `axes`.
  DenseIntElementsAttr getInGroupPairsAttr(Builder &b,
                                           ArrayRef<shard::GridAxis> axes,
                                           int64_t from, int64_t to) const;

  /// The grid's axis sizes as index values: constants, and for the one
  /// dynamic axis a grid may have, team_size / (product of the others).
  SmallVector<Value> createShape(OpBuilder &b, Location loc) const;
  /// This process's coordinates on `axes` (all axes when empty), for the
  /// axis sizes `shape` (createShape's) or its own.
  SmallVector<Value> createMultiIndex(OpBuilder &b, Location loc,
                                      ArrayRef<shard::GridAxis> axes) const;
  SmallVector<Value> createMultiIndex(OpBuilder &b, Location loc,
                                      ArrayRef<shard::GridAxis> axes,
                                      ValueRange shape) const;
  /// This process's in-group index over `axes`.
  Value createInGroupIndex(OpBuilder &b, Location loc,
                           ArrayRef<shard::GridAxis> axes) const;
  /// Linearises `coords` on `axes` (first slowest) with axis sizes `shape`.
  static Value createLinearIndex(OpBuilder &b, Location loc,
                                 ArrayRef<int64_t> axes, ValueRange coords,
                                 ValueRange shape);

private:
  SmallVector<int64_t> shape;
  int64_t team;
};

} // namespace mlir::distruntime

#endif // DISTRUNTIME_LOWERING_SHARDTODISTRUNTIME_SHARDGRID_H
