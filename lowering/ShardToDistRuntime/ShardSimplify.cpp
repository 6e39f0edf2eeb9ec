//===- ShardSimplify.cpp - all_reduce + all_slice to reduce_scatter -------===//
//
// shard.all_slice(shard.all_reduce(x)) over the same grid and grid axes, the
// all_reduce used by the slice alone, becomes shard.reduce_scatter(x) along
// the slice axis, into the slice's type: both give the member at in-group
// index i block i (of the slice's size along the slice axis) of the
// reduction of x over its group, the ordering ShardGrid gives groups and
// in-group indices alike. Made only where the slice is static and even
// (its size times the group size is the input's) on a static grid, and
// where MPI's order of combining values cannot change a bit
// (isOrderInsensitive), unless `reassociate` allows it.
//
//===----------------------------------------------------------------------===//

#include "ShardGrid.h"

#include "distruntime/Conversion/ShardToDistRuntime/ShardToDistRuntime.h"

#include "mlir/Dialect/Shard/IR/ShardDialect.h"
#include "mlir/Dialect/Shard/IR/ShardOps.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir::distruntime {
#define GEN_PASS_DEF_SHARDSIMPLIFY
#include "distruntime/Conversion/Passes.h.inc"
} // namespace mlir::distruntime

using namespace mlir;
using namespace mlir::distruntime;

/// Whether any order of combining the group's values gives the same bits:
/// integer reductions are associative and commutative (sums wrap), and in a
/// group of at most two each element is one application of the reduction,
/// commutative bit for bit for a floating-point sum or product (average is a
/// sum, then the same division). Floating-point min and max lower to
/// MPI_MIN/MPI_MAX, which return one operand by position for -0 and +0.
static bool isOrderInsensitive(Type element, shard::ReductionKind kind,
                               int64_t groupSize) {
  if (isa<IntegerType>(element) || groupSize <= 1)
    return true;
  return groupSize == 2 && (kind == shard::ReductionKind::Sum ||
                            kind == shard::ReductionKind::Average ||
                            kind == shard::ReductionKind::Product);
}

/// Replaces `slice` and the all_reduce it slices by one reduce_scatter;
/// failure where the rewrite does not apply.
static LogicalResult simplify(shard::AllSliceOp slice,
                              SymbolTableCollection &symbols,
                              bool reassociate) {
  auto reduce = slice.getInput().getDefiningOp<shard::AllReduceOp>();
  if (!reduce || !reduce->hasOneUse() ||
      reduce.getGridAttr() != slice.getGridAttr() ||
      reduce.getGridAxes() != slice.getGridAxes())
    return failure();
  auto input = dyn_cast<RankedTensorType>(reduce.getInput().getType());
  auto result = dyn_cast<RankedTensorType>(slice.getResult().getType());
  shard::GridOp gridOp = shard::getGrid(slice, slice.getGridAttr(), symbols);
  if (!input || !result || !gridOp || !input.hasStaticShape() ||
      !result.hasStaticShape())
    return failure();
  ShardGrid grid(gridOp, /*team=*/0);
  if (!grid.isStatic())
    return failure();
  int64_t groupSize = grid.getGroupSize(slice.getGridAxes());
  uint64_t axis = slice.getSliceAxis().getZExtValue();
  // The slice's shape is what reduce_scatter gives: the input's with the
  // slice axis divided by the group size.
  SmallVector<int64_t> scattered(input.getShape());
  if (axis >= scattered.size() || scattered[axis] % groupSize != 0)
    return failure();
  scattered[axis] /= groupSize;
  if (ArrayRef<int64_t>(scattered) != result.getShape() ||
      cast<ShapedType>(reduce.getResult().getType()).getElementType() !=
          result.getElementType())
    return failure();
  if (!reassociate && !isOrderInsensitive(result.getElementType(),
                                          reduce.getReduction(), groupSize))
    return failure();
  OpBuilder builder(slice);
  auto scatter = shard::ReduceScatterOp::create(
      builder, builder.getFusedLoc({reduce.getLoc(), slice.getLoc()}), result,
      slice.getGridAttr(), slice.getGridAxesAttr(), reduce.getInput(),
      reduce.getReductionAttr(), slice.getSliceAxisAttr());
  slice.getResult().replaceAllUsesWith(scatter.getResult());
  slice->erase();
  reduce->erase();
  return success();
}

namespace {

struct ShardSimplify
    : public distruntime::impl::ShardSimplifyBase<ShardSimplify> {
  using Base::Base;

protected:
  void runOnOperation() override {
    SymbolTableCollection symbols;
    SmallVector<shard::AllSliceOp> slices;
    getOperation().walk(
        [&](shard::AllSliceOp slice) { slices.push_back(slice); });
    bool changed = false;
    for (shard::AllSliceOp slice : slices)
      changed |= succeeded(simplify(slice, symbols, reassociate));
    // Unchanged IR: the pass manager skips verifying it again.
    if (!changed)
      markAllAnalysesPreserved();
  }
};

} // namespace
