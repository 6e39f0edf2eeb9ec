//===- DecomposeBatchingDims.cpp - batching dims into the older form ------===//
//
// The seed's "Compatibility" rewrite of gather and scatter: the operand's
// (inputs') batching dimensions become collapsed (inserted) dimensions, the
// start indices' batching dimensions become implicit batch dimensions, and
// one iota per batching dimension (the position along its start-indices
// dimension) is concatenated onto the index vectors, with start_index_map
// (scatter_dims_to_operand_dims) extended by the batching dimensions. An
// index_vector_dim equal to rank(indices) is first made explicit as a
// trailing dimension of size 1, and indices whose element type cannot hold
// every batching position are first widened to i64. Runs on tensor forms,
// before bufferization.
//
//===----------------------------------------------------------------------===//

#include "distruntime/Dialect/DistRuntime/IR/DistRuntimeOps.h"
#include "distruntime/Dialect/DistRuntime/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::distruntime {
#define GEN_PASS_DEF_DECOMPOSEBATCHINGDIMS
#include "distruntime/Dialect/DistRuntime/Transforms/Passes.h.inc"
} // namespace mlir::distruntime

using namespace mlir;
using namespace mlir::distruntime;

/// Whether every position along `batchingDims` (0 .. dim - 1) can be
/// represented in the element type of `type`.
static bool positionsFit(RankedTensorType type,
                         ArrayRef<int64_t> batchingDims) {
  Type element = type.getElementType();
  if (element.isIndex())
    return true;
  auto integer = cast<IntegerType>(element);
  unsigned width = integer.getWidth();
  if (width >= 64)
    return true;
  int64_t max = integer.isUnsigned() ? (int64_t(1) << width) - 1
                                     : (int64_t(1) << (width - 1)) - 1;
  return llvm::all_of(batchingDims, [&](int64_t d) {
    return !type.isDynamicDim(d) && type.getDimSize(d) - 1 <= max;
  });
}

/// `indices` converted element by element to i64, zero-extended when
/// unsigned, sign-extended otherwise: the same start indices.
static Value widenToI64(PatternRewriter &rewriter, Location loc,
                        Value indices) {
  auto type = cast<RankedTensorType>(indices.getType());
  auto integer = cast<IntegerType>(type.getElementType());
  Type i64 = rewriter.getI64Type();
  SmallVector<Value> dynamicSizes;
  for (int64_t d = 0; d < type.getRank(); ++d)
    if (type.isDynamicDim(d))
      dynamicSizes.push_back(tensor::DimOp::create(rewriter, loc, indices, d));
  return tensor::GenerateOp::create(
      rewriter, loc, RankedTensorType::get(type.getShape(), i64), dynamicSizes,
      [&](OpBuilder &b, Location loc, ValueRange at) {
        Value element = tensor::ExtractOp::create(b, loc, indices, at);
        if (!integer.isSignless())
          element = UnrealizedConversionCastOp::create(
                        b, loc, b.getIntegerType(integer.getWidth()), element)
                        .getResult(0);
        element =
            integer.isUnsigned()
                ? arith::ExtUIOp::create(b, loc, i64, element).getResult()
                : arith::ExtSIOp::create(b, loc, i64, element).getResult();
        tensor::YieldOp::create(b, loc, element);
      });
}

/// `indices` with index_vector_dim explicit and one iota per batching
/// dimension appended along it; the iota of `batchingDims[i]` holds the
/// position along that dimension.
static Value appendIotas(PatternRewriter &rewriter, Location loc, Value indices,
                         int64_t indexVectorDim,
                         ArrayRef<int64_t> batchingDims) {
  auto type = cast<RankedTensorType>(indices.getType());
  if (indexVectorDim == type.getRank()) {
    SmallVector<int64_t> shape(type.getShape());
    shape.push_back(1);
    SmallVector<ReassociationIndices> groups;
    for (int64_t d = 0; d < type.getRank(); ++d)
      groups.push_back({d});
    if (!groups.empty())
      groups.back().push_back(type.getRank());
    SmallVector<OpFoldResult> outputShape;
    for (int64_t d = 0; d < type.getRank(); ++d)
      outputShape.push_back(
          type.isDynamicDim(d)
              ? OpFoldResult(tensor::DimOp::create(rewriter, loc, indices, d)
                                 .getResult())
              : OpFoldResult(rewriter.getIndexAttr(type.getDimSize(d))));
    outputShape.push_back(rewriter.getIndexAttr(1));
    indices = tensor::ExpandShapeOp::create(
        rewriter, loc, RankedTensorType::get(shape, type.getElementType()),
        indices, groups, outputShape);
    type = cast<RankedTensorType>(indices.getType());
  }

  // The iotas share the indices' element type: widen the indices to i64
  // when a batching position (up to dim - 1) does not fit it, e.g. i8
  // indices along a batching dimension of 200.
  if (!positionsFit(type, batchingDims)) {
    indices = widenToI64(rewriter, loc, indices);
    type = cast<RankedTensorType>(indices.getType());
  }

  Type element = type.getElementType();
  SmallVector<int64_t> iotaShape(type.getShape());
  iotaShape[indexVectorDim] = 1;
  auto iotaType = RankedTensorType::get(iotaShape, element);
  SmallVector<Value> dynamicSizes;
  for (int64_t d = 0; d < type.getRank(); ++d)
    if (iotaType.isDynamicDim(d))
      dynamicSizes.push_back(tensor::DimOp::create(rewriter, loc, indices, d));

  SmallVector<Value> parts{indices};
  for (int64_t batchingDim : batchingDims) {
    auto iota = tensor::GenerateOp::create(
        rewriter, loc, iotaType, dynamicSizes,
        [&](OpBuilder &b, Location loc, ValueRange at) {
          Value position = at[batchingDim];
          if (!element.isIndex()) {
            auto integer = cast<IntegerType>(element);
            position = arith::IndexCastOp::create(
                b, loc, b.getIntegerType(integer.getWidth()), position);
            if (!integer.isSignless())
              position =
                  UnrealizedConversionCastOp::create(b, loc, element, position)
                      .getResult(0);
          }
          tensor::YieldOp::create(b, loc, position);
        });
    parts.push_back(iota);
  }
  return tensor::ConcatOp::create(rewriter, loc, indexVectorDim, parts);
}

static SmallVector<int64_t> sortedUnion(ArrayRef<int64_t> a,
                                        ArrayRef<int64_t> b) {
  SmallVector<int64_t> all(a);
  llvm::append_range(all, b);
  llvm::sort(all);
  return all;
}

namespace {

struct DecomposeGather : public OpRewritePattern<GatherOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(GatherOp op,
                                PatternRewriter &rewriter) const override {
    GatherDimensionNumbersAttr dims = op.getDimensionNumbers();
    if (dims.getOperandBatchingDims().empty())
      return rewriter.notifyMatchFailure(op, "no batching dimensions");
    if (!op.getResult())
      return rewriter.notifyMatchFailure(op, "memref form is left as is");
    Value indices = appendIotas(rewriter, op.getLoc(), op.getStartIndices(),
                                dims.getIndexVectorDim(),
                                dims.getStartIndicesBatchingDims());
    SmallVector<int64_t> startIndexMap(dims.getStartIndexMap());
    llvm::append_range(startIndexMap, dims.getOperandBatchingDims());
    auto newDims = GatherDimensionNumbersAttr::get(
        op.getContext(), dims.getOffsetDims(),
        sortedUnion(dims.getCollapsedSliceDims(),
                    dims.getOperandBatchingDims()),
        {}, {}, startIndexMap, dims.getIndexVectorDim());
    rewriter.replaceOpWithNewOp<GatherOp>(
        op, op.getResult().getType(), op.getOperand(), indices, Value(),
        newDims, op.getSliceSizesAttr(), op.getIndicesAreSortedAttr());
    return success();
  }
};

struct DecomposeScatter : public OpRewritePattern<ScatterOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(ScatterOp op,
                                PatternRewriter &rewriter) const override {
    ScatterDimensionNumbersAttr dims = op.getScatterDimensionNumbers();
    if (dims.getInputBatchingDims().empty())
      return rewriter.notifyMatchFailure(op, "no batching dimensions");
    if (!op.getOutputs().empty())
      return rewriter.notifyMatchFailure(op, "memref form is left as is");
    Value indices = appendIotas(rewriter, op.getLoc(), op.getScatterIndices(),
                                dims.getIndexVectorDim(),
                                dims.getScatterIndicesBatchingDims());
    SmallVector<int64_t> toOperand(dims.getScatterDimsToOperandDims());
    llvm::append_range(toOperand, dims.getInputBatchingDims());
    auto newDims = ScatterDimensionNumbersAttr::get(
        op.getContext(), dims.getUpdateWindowDims(),
        sortedUnion(dims.getInsertedWindowDims(), dims.getInputBatchingDims()),
        {}, {}, toOperand, dims.getIndexVectorDim());
    auto replacement = ScatterOp::create(
        rewriter, op.getLoc(), op.getResultTypes(), op.getInputs(), indices,
        op.getUpdates(), ValueRange(), newDims, op.getIndicesAreSortedAttr(),
        op.getUniqueIndicesAttr());
    rewriter.inlineRegionBefore(op.getUpdateComputation(),
                                replacement.getUpdateComputation(),
                                replacement.getUpdateComputation().end());
    rewriter.replaceOp(op, replacement.getResults());
    return success();
  }
};

struct DecomposeBatchingDimsPass
    : public distruntime::impl::DecomposeBatchingDimsBase<
          DecomposeBatchingDimsPass> {
protected:
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<DecomposeGather, DecomposeScatter>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
