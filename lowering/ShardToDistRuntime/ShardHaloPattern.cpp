//===- ShardHaloPattern.cpp - shard.update_halo to distruntime ------------===//
//
// shard.update_halo and distruntime.update_halo describe the same exchange:
// a block with its halo frame, split over grid axes per dimension. Upstream
// lists halo sizes for the split dimensions only; distruntime for every
// dimension (zero for the unsplit ones). Each op gets a plan key of its own
// from kKeyBase up, clear of the small keys programs write by hand.
//
//===----------------------------------------------------------------------===//

#include "ShardPatterns.h"

#include "distruntime/Dialect/DistRuntime/IR/DistRuntimeOps.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"

#include <atomic>

using namespace mlir;
using namespace mlir::distruntime;

namespace {

constexpr int64_t kKeyBase = int64_t(1) << 32;

struct UpdateHaloLowering : public ShardPattern<shard::UpdateHaloOp> {
  UpdateHaloLowering(MLIRContext *ctx, const ShardLowering &lowering,
                     std::shared_ptr<std::atomic<int64_t>> nextKey)
      : ShardPattern(ctx, lowering), nextKey(std::move(nextKey)) {}

  LogicalResult
  matchAndRewrite(shard::UpdateHaloOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value block = adaptor.getDestination();
    int64_t rank = cast<ShapedType>(block.getType()).getRank();
    SmallVector<OpFoldResult> given = getMixedValues(
        op.getStaticHaloSizes(), adaptor.getHaloSizes(), rewriter);
    ArrayRef<shard::GridAxesAttr> split = op.getSplitAxes().getAxes();
    SmallVector<SmallVector<int64_t>> splitAxes;
    SmallVector<OpFoldResult> haloSizes;
    size_t next = 0; // in `given`, which has pairs for split dims only
    for (int64_t d : llvm::seq<int64_t>(0, rank)) {
      bool isSplit = d < int64_t(split.size()) && !split[d].empty();
      splitAxes.push_back(isSplit ? ShardGrid::toAxes(split[d].asArrayRef())
                                  : SmallVector<int64_t>());
      if (isSplit && next + 1 < given.size()) {
        haloSizes.append({given[next], given[next + 1]});
        next += 2;
      } else {
        haloSizes.append({rewriter.getIndexAttr(0), rewriter.getIndexAttr(0)});
      }
    }
    ShardGrid grid = getGrid(op);
    auto halo = UpdateHaloOp::create(
        rewriter, op.getLoc(), block, /*grid=*/grid.getShape(), splitAxes,
        haloSizes, /*team=*/lowering.team, /*key=*/kKeyBase + (*nextKey)++);
    // The memref form updates in place: its result is the block itself.
    rewriter.replaceOp(op, isa<MemRefType>(block.getType()) ? block
                                                            : halo.getResult());
    return success();
  }

  std::shared_ptr<std::atomic<int64_t>> nextKey;
};

} // namespace

void mlir::distruntime::populateShardHaloPatterns(
    RewritePatternSet &patterns, const ShardLowering &lowering) {
  patterns.add<UpdateHaloLowering>(patterns.getContext(), lowering,
                                   std::make_shared<std::atomic<int64_t>>(0));
}
