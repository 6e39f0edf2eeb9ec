//===- ShardPatterns.h - Pieces of convert-shard-to-distruntime -*- C++ -*-===//

#ifndef DISTRUNTIME_LOWERING_SHARDTODISTRUNTIME_SHARDPATTERNS_H
#define DISTRUNTIME_LOWERING_SHARDTODISTRUNTIME_SHARDPATTERNS_H

#include "ShardGrid.h"

#include "mlir/IR/SymbolTable.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::distruntime {

/// What every shard pattern needs: the team the grids map onto and the
/// symbol tables that resolve grid names.
struct ShardLowering {
  int64_t team;
  SymbolTableCollection *symbols;

  /// The grid `op` names (the conversion checked first that it exists).
  ShardGrid getGrid(Operation *op, FlatSymbolRefAttr name) const {
    return ShardGrid(shard::getGrid(op, name, *symbols), team);
  }
};

/// A pattern for shard op `Op` with the lowering's context.
template <typename Op> struct ShardPattern : public OpConversionPattern<Op> {
  ShardPattern(MLIRContext *ctx, const ShardLowering &lowering)
      : OpConversionPattern<Op>(ctx), lowering(lowering) {}

  ShardGrid getGrid(Op op) const {
    return lowering.getGrid(op, op.getGridAttr());
  }

  ShardLowering lowering;
};

/// Emits a diagnostic on `op` and fails if the conversion cannot lower it:
/// the patterns assume what this accepts.
LogicalResult checkShardOp(Operation *op, const ShardLowering &lowering);

/// process_linear_index, process_multi_index, grid_shape,
/// neighbors_linear_indices, shard_shape: arithmetic on the team rank.
void populateShardIndexPatterns(RewritePatternSet &patterns,
                                const ShardLowering &lowering);
/// all_reduce, all_gather, all_slice, all_to_all, reduce_scatter, broadcast,
/// gather, scatter, reduce, send, recv, shift: distruntime collectives.
void populateShardCollectivePatterns(RewritePatternSet &patterns,
                                     const ShardLowering &lowering);
/// update_halo: distruntime.update_halo.
void populateShardHaloPatterns(RewritePatternSet &patterns,
                               const ShardLowering &lowering);

} // namespace mlir::distruntime

#endif // DISTRUNTIME_LOWERING_SHARDTODISTRUNTIME_SHARDPATTERNS_H
