//===- ShardChecks.cpp - What convert-shard-to-distruntime refuses --------===//
//
// Every shard op is checked before anything is converted, so that what
// cannot be lowered is one error naming the op and the reason (never a
// crash, a failure on an op the conversion made, or wrong IR), and the
// patterns can assume what is checked here. Upstream's verifiers already
// check axes, roots and shapes against the grid; these are distruntime's
// own limits.
//
//===----------------------------------------------------------------------===//

#include "ShardPatterns.h"

#include "distruntime/Conversion/RuntimeAPI/RuntimeAPI.h"

#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::distruntime;

/// Ops whose lowering computes process groups at compile time.
static bool needsStaticGrid(Operation *op) {
  return !isa<shard::ProcessLinearIndexOp, shard::ProcessMultiIndexOp,
              shard::GridShapeOp, shard::NeighborsLinearIndicesOp>(op);
}

static bool isBitwise(shard::ReductionKind kind) {
  return kind == shard::ReductionKind::BitwiseAnd ||
         kind == shard::ReductionKind::BitwiseOr ||
         kind == shard::ReductionKind::BitwiseXor;
}

/// The element types every collective moves: ones the runtime has.
static LogicalResult checkElementTypes(Operation *op) {
  for (Type type :
       llvm::concat<Type>(op->getOperandTypes(), op->getResultTypes())) {
    auto shaped = dyn_cast<ShapedType>(type);
    if (shaped && !getRuntimeTypeCode(shaped.getElementType()))
      return op->emitOpError("has ")
             << shaped.getElementType()
             << " elements, which distruntime does not move";
  }
  return success();
}

/// A reduction from `input` elements to `result` elements (all_reduce,
/// reduce, reduce_scatter) over groups of `groupSize`.
static LogicalResult checkReduction(Operation *op, shard::ReductionKind kind,
                                    Type input, Type result,
                                    int64_t groupSize) {
  if (kind == shard::ReductionKind::Generic)
    return op->emitOpError(
        "has reduction `generic`, which names no element-wise operation; "
        "use sum, product, min, max, average or a bitwise reduction");
  Type from = getElementTypeOrSelf(input), to = getElementTypeOrSelf(result);
  if (isBitwise(kind) && !to.isInteger())
    return op->emitOpError("has a bitwise reduction on ")
           << to << " elements; bitwise reductions need integers";
  auto convertible = [](Type t) {
    return isa<FloatType>(t) || t.isSignlessInteger();
  };
  if (from != to && (!convertible(from) || !convertible(to)))
    return op->emitOpError("converts ")
           << from << " to " << to
           << " elements; only signless integers and floats convert";
  if (kind == shard::ReductionKind::Average && !isa<FloatType>(to)) {
    if (!to.isSignlessInteger() || to.isInteger(1))
      return op->emitOpError("averages ")
             << to << " elements; average needs floats or signless integers "
             << "wider than i1";
    if (llvm::APInt::getSignedMaxValue(to.getIntOrFloatBitWidth())
            .slt(groupSize))
      return op->emitOpError("averages ")
             << to << " elements over " << groupSize
             << " processes, a count the type cannot hold";
  }
  return success();
}

/// A root, destination or source: static (upstream's verifier checks that
/// it lies in the group).
static LogicalResult checkMember(Operation *op, StringRef what,
                                 ValueRange dynamic) {
  if (!dynamic.empty())
    return op->emitOpError("has a dynamic ")
           << what
           << "; distruntime compiles the process groups with it, so it must "
              "be a constant";
  return success();
}

/// send and recv pair the two members of each group; a group of more
/// processes has no one-to-one pattern a single send or recv describes.
static LogicalResult checkPair(Operation *op, const ShardGrid &grid,
                               ArrayRef<shard::GridAxis> axes) {
  int64_t size = grid.getGroupSize(axes);
  if (size > 2)
    return op->emitOpError("groups ")
           << size
           << " processes, but a shard.send/recv pair describes one message "
              "per group: only groups of 1 or 2 processes have a defined "
              "pairing (use shard.shift, or distruntime.send/recv with "
              "source_target_pairs)";
  return success();
}

/// Collectives whose distruntime form needs static shapes.
static LogicalResult checkStaticShapes(Operation *op) {
  for (Type type :
       llvm::concat<Type>(op->getOperandTypes(), op->getResultTypes()))
    if (auto shaped = dyn_cast<ShapedType>(type);
        shaped && !shaped.hasStaticShape())
      return op->emitOpError("needs static shapes, but has ")
             << type << " (distruntime's tensor collectives need them)";
  return success();
}

static LogicalResult checkStaticSize(Operation *op, Type type, int64_t dim,
                                     StringRef what) {
  if (cast<ShapedType>(type).isDynamicDim(dim))
    return op->emitOpError("needs a static result size along the ")
           << what << " axis " << dim;
  return success();
}

/// A device multi-index: one coordinate per grid axis.
static LogicalResult checkDevice(Operation *op, size_t coordinates,
                                 const ShardGrid &grid) {
  if (coordinates != grid.getShape().size())
    return op->emitOpError("has a device index of ")
           << coordinates << " coordinates on a grid of "
           << grid.getShape().size() << " axes";
  return success();
}

/// The grid an op uses: its own, or for shard_shape its sharding's.
static FailureOr<ShardGrid> getCheckedGrid(Operation *op,
                                           const ShardLowering &lowering) {
  Operation *user = op;
  if (auto shape = dyn_cast<shard::ShardShapeOp>(op)) {
    user = shape.getSharding().getDefiningOp<shard::ShardingOp>();
    if (!user)
      return op->emitOpError(
          "needs its sharding from a shard.sharding op in the same function");
  }
  FlatSymbolRefAttr name = user->getAttrOfType<FlatSymbolRefAttr>("grid");
  if (!name)
    return op->emitOpError("has no grid: distruntime cannot lower it");
  shard::GridOp gridOp = shard::getGrid(user, name, *lowering.symbols);
  if (!gridOp)
    return op->emitOpError("names no shard.grid ") << name;
  ShardGrid grid(gridOp, lowering.team);
  if (llvm::is_contained(grid.getShape(), 0))
    return op->emitOpError("uses ") << name << " of shape " << grid.describe()
                                    << ", which has no processes";
  if (grid.isStatic())
    return grid;
  if (needsStaticGrid(op))
    return op->emitOpError("needs a static grid, but ")
           << name << " has shape " << grid.describe()
           << (isa<shard::ShardShapeOp>(op)
                   ? ": shard sizes are computed at compile time"
                   : ": its process groups are computed at compile time");
  if (llvm::count_if(grid.getShape(), ShapedType::isDynamic) > 1)
    return op->emitOpError("uses ")
           << name << " of shape " << grid.describe()
           << ": at most one grid axis may be dynamic (its size is the "
              "team size divided by the others)";
  return grid;
}

LogicalResult mlir::distruntime::checkShardOp(Operation *op,
                                              const ShardLowering &lowering) {
  if (isa<shard::GridOp>(op))
    return success();
  if (isa<shard::ShardOp>(op))
    return op->emitOpError(
        "is a sharding annotation: partition the function first "
        "(sharding-propagation, shard-partition; `distruntime-opt "
        "--shard-to-llvm` runs both)");
  if (isa<shard::ShardingOp, shard::GetShardingOp>(op)) {
    for (Operation *user : op->getUsers())
      if (!isa<shard::ShardShapeOp, shard::GetShardingOp, shard::ShardOp>(user))
        return op->emitOpError("is used by ")
               << user->getName()
               << ", which distruntime cannot lower (shardings are "
                  "compile-time values; only shard.shard_shape may read one "
                  "after partitioning)";
    return success();
  }

  FailureOr<ShardGrid> maybeGrid = getCheckedGrid(op, lowering);
  if (failed(maybeGrid))
    return failure();
  const ShardGrid &grid = *maybeGrid;
  if (needsStaticGrid(op) && !isa<shard::ShardShapeOp>(op)) {
    if (failed(checkElementTypes(op)))
      return failure();
    // One form in, the same form out: the lowering keeps it.
    if (op->getNumOperands() && op->getNumResults() == 1 &&
        isa<MemRefType>(op->getOperand(0).getType()) !=
            isa<MemRefType>(op->getResult(0).getType()))
      return op->emitOpError("takes ")
             << op->getOperand(0).getType() << " and returns "
             << op->getResult(0).getType()
             << "; distruntime lowers tensor to tensor or memref to memref";
  }

  return TypeSwitch<Operation *, LogicalResult>(op)
      .Case<shard::AllReduceOp, shard::ReduceOp>([&](auto o) -> LogicalResult {
        if (auto memref = dyn_cast<MemRefType>(o.getResult().getType()))
          if (!memref.getLayout().isIdentity())
            return o->emitOpError("needs an identity-layout result memref");
        if constexpr (std::is_same_v<decltype(o), shard::ReduceOp>)
          if (failed(checkMember(o, "root", o.getRootDynamic())))
            return failure();
        return checkReduction(o, o.getReduction(), o.getInput().getType(),
                              o.getResult().getType(),
                              grid.getGroupSize(o.getGridAxes()));
      })
      .Case<shard::ReduceScatterOp>([&](auto o) -> LogicalResult {
        if (failed(checkStaticShapes(o)))
          return failure();
        return checkReduction(o, o.getReduction(), o.getInput().getType(),
                              o.getResult().getType(),
                              grid.getGroupSize(o.getGridAxes()));
      })
      .Case<shard::AllGatherOp, shard::AllToAllOp>(
          [&](auto o) { return checkStaticShapes(o); })
      .Case<shard::GatherOp>([&](shard::GatherOp o) -> LogicalResult {
        if (failed(checkMember(o, "root", o.getRootDynamic())))
          return failure();
        return checkStaticShapes(o);
      })
      .Case<shard::BroadcastOp>([&](shard::BroadcastOp o) {
        return checkMember(o, "root", o.getRootDynamic());
      })
      .Case<shard::ScatterOp>([&](shard::ScatterOp o) -> LogicalResult {
        if (failed(checkMember(o, "root", o.getRootDynamic())))
          return failure();
        return checkStaticSize(o, o.getResult().getType(),
                               o.getScatterAxis().getZExtValue(), "scatter");
      })
      .Case<shard::AllSliceOp>([&](shard::AllSliceOp o) {
        return checkStaticSize(o, o.getResult().getType(),
                               o.getSliceAxis().getZExtValue(), "slice");
      })
      .Case<shard::SendOp>([&](shard::SendOp o) -> LogicalResult {
        if (failed(checkMember(o, "destination", o.getDestinationDynamic())))
          return failure();
        return checkPair(o, grid, o.getGridAxes());
      })
      .Case<shard::RecvOp>([&](shard::RecvOp o) -> LogicalResult {
        if (!o.getSource())
          return o->emitOpError(
              "has no source: distruntime needs to know whom to receive "
              "from at compile time");
        if (failed(checkMember(o, "source", o.getSourceDynamic())) ||
            failed(checkStaticShapes(o)))
          return failure();
        return checkPair(o, grid, o.getGridAxes());
      })
      .Case<shard::NeighborsLinearIndicesOp>(
          [&](shard::NeighborsLinearIndicesOp o) -> LogicalResult {
            if (o.getSplitAxes().empty())
              return o->emitOpError("has no split_axes to step along");
            return checkDevice(o, o.getDevice().size(), grid);
          })
      .Case<shard::ShardShapeOp>([&](shard::ShardShapeOp o) {
        return checkDevice(o, o.getDevice().size(), grid);
      })
      .Case<shard::UpdateHaloOp>([&](shard::UpdateHaloOp o) -> LogicalResult {
        ArrayRef<shard::GridAxesAttr> axes = o.getSplitAxes().getAxes();
        int64_t rank = cast<ShapedType>(o.getDestination().getType()).getRank();
        if (int64_t(axes.size()) > rank)
          return o->emitOpError("has split_axes for ")
                 << axes.size() << " dimensions on a rank-" << rank << " block";
        int64_t split = llvm::count_if(
            axes, [](shard::GridAxesAttr a) { return !a.empty(); });
        int64_t sizes = o.getStaticHaloSizes().size();
        if (sizes != 0 && sizes != 2 * split)
          return o->emitOpError("has ")
                 << sizes << " halo sizes for " << split
                 << " split dimensions; it needs a (low, high) pair for each";
        return success();
      })
      .Default([](Operation *) { return success(); });
}
