//===- ShardIndexPatterns.cpp - shard index ops to arithmetic -------------===//
//
// The index ops need no communication: the team rank and the grid shape give
// every coordinate, so they become distruntime.team_member and arith.
//
//===----------------------------------------------------------------------===//

#include "ShardPatterns.h"

#include "distruntime/Dialect/DistRuntime/IR/DistRuntimeOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;
using namespace mlir::distruntime;

namespace {

struct ProcessLinearIndexLowering
    : public ShardPattern<shard::ProcessLinearIndexOp> {
  using ShardPattern::ShardPattern;

  LogicalResult
  matchAndRewrite(shard::ProcessLinearIndexOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<TeamMemberOp>(op, rewriter.getIndexType(),
                                              lowering.team);
    return success();
  }
};

struct ProcessMultiIndexLowering
    : public ShardPattern<shard::ProcessMultiIndexOp> {
  using ShardPattern::ShardPattern;

  LogicalResult
  matchAndRewrite(shard::ProcessMultiIndexOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(
        op, getGrid(op).createMultiIndex(rewriter, op.getLoc(), op.getAxes()));
    return success();
  }
};

struct GridShapeLowering : public ShardPattern<shard::GridShapeOp> {
  using ShardPattern::ShardPattern;

  LogicalResult
  matchAndRewrite(shard::GridShapeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    ShardGrid grid = getGrid(op);
    SmallVector<Value> shape = grid.createShape(rewriter, op.getLoc());
    rewriter.replaceOp(
        op, llvm::map_to_vector(grid.resolveAxes(op.getAxes()),
                                [&](int64_t axis) { return shape[axis]; }));
    return success();
  }
};

/// The processes before and after `device` along the linearised split axes,
/// or -1 past either end (upstream accepts one axis; several work the same
/// way on their linearised index).
struct NeighborsLinearIndicesLowering
    : public ShardPattern<shard::NeighborsLinearIndicesOp> {
  using ShardPattern::ShardPattern;

  LogicalResult
  matchAndRewrite(shard::NeighborsLinearIndicesOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    ShardGrid grid = getGrid(op);
    SmallVector<Value> shape = grid.createShape(rewriter, loc);
    SmallVector<int64_t> axes = grid.resolveAxes(op.getSplitAxes());
    SmallVector<int64_t> all = grid.resolveAxes({});
    ValueRange device = adaptor.getDevice();
    SmallVector<Value> onAxes =
        llvm::map_to_vector(axes, [&](int64_t a) { return device[a]; });
    Value index =
        ShardGrid::createLinearIndex(rewriter, loc, axes, onAxes, shape);
    Value count = arith::ConstantIndexOp::create(rewriter, loc, 1);
    for (int64_t axis : axes)
      count = arith::MulIOp::create(rewriter, loc, count, shape[axis]);
    Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
    Value none = arith::ConstantIndexOp::create(rewriter, loc, -1);

    // The process at in-group index `target`, or -1 outside [0, count).
    auto neighbor = [&](Value target) -> Value {
      SmallVector<Value> coords(device);
      Value rest = target;
      for (int64_t axis : llvm::reverse(axes)) {
        coords[axis] = arith::RemSIOp::create(rewriter, loc, rest, shape[axis]);
        rest = arith::DivSIOp::create(rewriter, loc, rest, shape[axis]);
      }
      Value linear =
          ShardGrid::createLinearIndex(rewriter, loc, all, coords, shape);
      Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
      Value below = arith::CmpIOp::create(
          rewriter, loc, arith::CmpIPredicate::slt, target, zero);
      Value above = arith::CmpIOp::create(
          rewriter, loc, arith::CmpIPredicate::sge, target, count);
      Value outside = arith::OrIOp::create(rewriter, loc, below, above);
      return arith::SelectOp::create(rewriter, loc, outside, none, linear);
    };
    Value down = arith::SubIOp::create(rewriter, loc, index, one);
    Value up = arith::AddIOp::create(rewriter, loc, index, one);
    rewriter.replaceOp(op, {neighbor(down), neighbor(up)});
    return success();
  }
};

/// The local shape of a sharded tensor on `device`, as upstream computes it:
/// the differences of sharded_dims_offsets where given, else a balanced
/// split with the remainder on the trailing shards.
struct ShardShapeLowering : public ShardPattern<shard::ShardShapeOp> {
  using ShardPattern::ShardPattern;

  LogicalResult
  matchAndRewrite(shard::ShardShapeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto sharding = op.getSharding().getDefiningOp<shard::ShardingOp>();
    ShardGrid grid = lowering.getGrid(sharding, sharding.getGridAttr());
    SmallVector<Value> shape = grid.createShape(rewriter, loc);
    SmallVector<Value> dims = getValueOrCreateConstantIndexOp(
        rewriter, loc,
        getMixedValues(op.getDims(), adaptor.getDimsDynamic(), rewriter));
    SmallVector<Value> device = getValueOrCreateConstantIndexOp(
        rewriter, loc,
        getMixedValues(op.getDevice(), adaptor.getDeviceDynamic(), rewriter));
    SmallVector<Value> offsets = getValueOrCreateConstantIndexOp(
        rewriter, loc,
        getMixedValues(sharding.getStaticShardedDimsOffsets(),
                       sharding.getDynamicShardedDimsOffsets(), rewriter));
    // Dynamic offsets are i64 values.
    for (Value &offset : offsets)
      if (!offset.getType().isIndex())
        offset = arith::IndexCastOp::create(rewriter, loc,
                                            rewriter.getIndexType(), offset);
    Value offsetTable;
    if (!offsets.empty())
      offsetTable = tensor::FromElementsOp::create(rewriter, loc, offsets);

    Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
    Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
    ArrayRef<shard::GridAxesAttr> splitAxes = sharding.getSplitAxes().getAxes();
    SmallVector<Value> result(dims);
    int64_t position = 0; // of this dimension's offsets in the table
    for (auto [d, axesAttr] : llvm::enumerate(splitAxes)) {
      if (axesAttr.empty() || d >= dims.size())
        continue;
      SmallVector<int64_t> axes = grid.resolveAxes(axesAttr.asArrayRef());
      SmallVector<Value> onAxes =
          llvm::map_to_vector(axes, [&](int64_t a) { return device[a]; });
      Value index =
          ShardGrid::createLinearIndex(rewriter, loc, axes, onAxes, shape);
      int64_t shards = grid.getGroupSize(axesAttr.asArrayRef());
      if (offsetTable) {
        Value at = arith::AddIOp::create(
            rewriter, loc, index,
            arith::ConstantIndexOp::create(rewriter, loc, position));
        Value begin = tensor::ExtractOp::create(rewriter, loc, offsetTable, at);
        Value next = arith::AddIOp::create(rewriter, loc, at, one);
        Value end = tensor::ExtractOp::create(rewriter, loc, offsetTable, next);
        result[d] = arith::SubIOp::create(rewriter, loc, end, begin);
        position += shards + 1;
        continue;
      }
      // dim / n, plus one on the last dim % n shards.
      Value n = arith::ConstantIndexOp::create(rewriter, loc, shards);
      Value base = arith::DivUIOp::create(rewriter, loc, dims[d], n);
      Value rest = arith::RemUIOp::create(rewriter, loc, dims[d], n);
      Value firstLonger = arith::SubIOp::create(rewriter, loc, n, rest);
      Value longer = arith::CmpIOp::create(
          rewriter, loc, arith::CmpIPredicate::uge, index, firstLonger);
      Value extra = arith::SelectOp::create(rewriter, loc, longer, one, zero);
      result[d] = arith::AddIOp::create(rewriter, loc, base, extra);
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void mlir::distruntime::populateShardIndexPatterns(
    RewritePatternSet &patterns, const ShardLowering &lowering) {
  patterns.add<ProcessLinearIndexLowering, ProcessMultiIndexLowering,
               GridShapeLowering, NeighborsLinearIndicesLowering,
               ShardShapeLowering>(patterns.getContext(), lowering);
}
