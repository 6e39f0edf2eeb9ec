//===- ShardHaloPattern.cpp - shard.update_halo to distruntime ------------===//

#include "ShardPatterns.h"

using namespace mlir;
using namespace mlir::distruntime;

void mlir::distruntime::populateShardHaloPatterns(
    RewritePatternSet &patterns, const ShardLowering &lowering) {}
