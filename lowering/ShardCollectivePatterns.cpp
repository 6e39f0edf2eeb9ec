//===- ShardCollectivePatterns.cpp - shard collectives to distruntime -----===//
//
// Each shard collective becomes the distruntime collective with the same
// data movement and replica_groups computed from the grid at compile time
// (ShardGrid). The rooted ops have no rooted MPI counterpart in distruntime
// and take a correct superset: gather is an all_gather (the result is
// defined everywhere, not only on the root), reduce an all_reduce, scatter a
// broadcast from the root and a local slice. A result element type wider
// than the input's (all_reduce, reduce, reduce_scatter) converts the input
// first; `average` sums and divides by the group size.
//
//===----------------------------------------------------------------------===//

#include "ShardPatterns.h"

#include "distruntime/Dialect/DistRuntime/IR/DistRuntimeOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;
using namespace mlir::distruntime;

/// The distruntime reduction of `kind`; `average` reduces as a sum.
static ReductionKind toReductionKind(shard::ReductionKind kind) {
  switch (kind) {
  case shard::ReductionKind::Product:
    return ReductionKind::Prod;
  case shard::ReductionKind::Min:
    return ReductionKind::Min;
  case shard::ReductionKind::Max:
    return ReductionKind::Max;
  case shard::ReductionKind::BitwiseAnd:
    return ReductionKind::And;
  case shard::ReductionKind::BitwiseOr:
    return ReductionKind::Or;
  case shard::ReductionKind::BitwiseXor:
    return ReductionKind::Xor;
  default: // Sum, Average; checkShardOp rejects Generic.
    return ReductionKind::Sum;
  }
}

/// The dynamic sizes of `shaped` (a tensor or memref value) for an
/// allocation of the same shape.
static SmallVector<Value> getDynamicSizes(OpBuilder &b, Location loc,
                                          Value shaped) {
  SmallVector<Value> sizes;
  auto type = cast<ShapedType>(shaped.getType());
  for (int64_t d : llvm::seq<int64_t>(0, type.getRank()))
    if (type.isDynamicDim(d)) {
      if (isa<MemRefType>(type))
        sizes.push_back(memref::DimOp::create(b, loc, shaped, d));
      else
        sizes.push_back(tensor::DimOp::create(b, loc, shaped, d));
    }
  return sizes;
}

/// A new tensor or buffer shaped like `shaped` with element type `element`.
static Value createEmptyLike(OpBuilder &b, Location loc, Value shaped,
                             Type element) {
  auto type = cast<ShapedType>(shaped.getType());
  SmallVector<Value> sizes = getDynamicSizes(b, loc, shaped);
  if (auto memref = dyn_cast<MemRefType>(type))
    return memref::AllocOp::create(
        b, loc, MemRefType::get(memref.getShape(), element), sizes);
  return tensor::EmptyOp::create(b, loc, type.getShape(), element, sizes);
}

/// Applies `fn` to every element of `source` into `init` (a tensor or
/// buffer of the same shape); returns the tensor result, or `init`.
static Value mapElements(OpBuilder &b, Location loc, Value source, Value init,
                         function_ref<Value(OpBuilder &, Location, Value)> fn) {
  auto type = cast<ShapedType>(init.getType());
  AffineMap id = b.getMultiDimIdentityMap(type.getRank());
  SmallVector<utils::IteratorType> parallel(type.getRank(),
                                            utils::IteratorType::parallel);
  TypeRange results =
      isa<RankedTensorType>(type) ? TypeRange(type) : TypeRange();
  auto generic = linalg::GenericOp::create(
      b, loc, results, source, init, ArrayRef<AffineMap>{id, id}, parallel,
      [&](OpBuilder &nested, Location nestedLoc, ValueRange args) {
        linalg::YieldOp::create(nested, nestedLoc,
                                fn(nested, nestedLoc, args[0]));
      });
  return results.empty() ? init : generic.getResult(0);
}

/// `input` with its elements converted to `element` (a no-op if equal).
static Value convertElements(OpBuilder &b, Location loc, Value input,
                             Type element) {
  if (getElementTypeOrSelf(input.getType()) == element)
    return input;
  Value init = createEmptyLike(b, loc, input, element);
  return mapElements(b, loc, input, init,
                     [&](OpBuilder &nb, Location nl, Value x) {
                       return convertScalarToDtype(nb, nl, x, element,
                                                   /*isUnsignedCast=*/false);
                     });
}

/// `reduced` divided by `count` elementwise (shard's `average`).
static Value divideElements(OpBuilder &b, Location loc, Value reduced,
                            int64_t count) {
  Type element = getElementTypeOrSelf(reduced.getType());
  auto divide = [&](OpBuilder &nb, Location nl, Value x) -> Value {
    Value n = arith::ConstantOp::create(
        nb, nl, element,
        isa<FloatType>(element)
            ? TypedAttr(nb.getFloatAttr(element, double(count)))
            : TypedAttr(nb.getIntegerAttr(element, count)));
    if (isa<FloatType>(element))
      return arith::DivFOp::create(nb, nl, x, n);
    return arith::DivSIOp::create(nb, nl, x, n);
  };
  // A buffer is divided in place (it is the op's own allocation).
  Value init = isa<MemRefType>(reduced.getType())
                   ? reduced
                   : createEmptyLike(b, loc, reduced, element);
  return mapElements(b, loc, reduced, init, divide);
}

/// The in-group index of a static root multi-index on `axes`.
static int64_t getRootIndex(const ShardGrid &grid,
                            ArrayRef<shard::GridAxis> axes,
                            ArrayRef<int64_t> root) {
  int64_t index = 0;
  for (auto [axis, coord] : llvm::zip_equal(ShardGrid::toAxes(axes), root))
    index = index * grid.getShape()[axis] + coord;
  return index;
}

/// Cuts the part of `input` that the in-group index `index` owns along
/// `axis`, as all_slice does: block `index` of `result`'s size.
static Value sliceForMember(OpBuilder &b, Location loc, Value input,
                            RankedTensorType result, int64_t axis,
                            Value index) {
  SmallVector<OpFoldResult> offsets(result.getRank(), b.getIndexAttr(0));
  SmallVector<OpFoldResult> strides(result.getRank(), b.getIndexAttr(1));
  SmallVector<OpFoldResult> sizes =
      tensor::getMixedSizes(b, loc, input); // dims other than `axis`
  sizes[axis] = b.getIndexAttr(result.getDimSize(axis));
  offsets[axis] = arith::MulIOp::create(b, loc, index,
                                        arith::ConstantIndexOp::create(
                                            b, loc, result.getDimSize(axis)))
                      .getResult();
  return tensor::ExtractSliceOp::create(b, loc, result, input, offsets, sizes,
                                        strides);
}

namespace {

/// all_reduce and reduce (the root's result is the all_reduce's).
template <typename Op> struct AllReduceLowering : public ShardPattern<Op> {
  using ShardPattern<Op>::ShardPattern;

  LogicalResult
  matchAndRewrite(Op op, typename Op::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    ShardGrid grid = this->getGrid(op);
    Type resultType = op.getResult().getType();
    Value input = convertElements(rewriter, loc, adaptor.getInput(),
                                  getElementTypeOrSelf(resultType));
    auto kind = ReductionKindAttr::get(op.getContext(),
                                       toReductionKind(op.getReduction()));
    DenseIntElementsAttr groups =
        grid.getGroupsAttr(rewriter, op.getGridAxes());
    Value result;
    if (isa<MemRefType>(resultType)) {
      result = createEmptyLike(rewriter, loc, input,
                               getElementTypeOrSelf(resultType));
      AllReduceGroupOp::create(rewriter, loc, TypeRange(), Type(), input,
                               result, kind, groups, 0, false,
                               this->lowering.team);
    } else {
      result = AllReduceGroupOp::create(rewriter, loc, resultType, Type(),
                                        input, ValueRange(), kind, groups, 0,
                                        false, this->lowering.team)
                   .getResults()[0];
    }
    if (op.getReduction() == shard::ReductionKind::Average)
      result = divideElements(rewriter, loc, result,
                              grid.getGroupSize(op.getGridAxes()));
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// all_gather and gather (the result is defined on every member).
template <typename Op> struct AllGatherLowering : public ShardPattern<Op> {
  using ShardPattern<Op>::ShardPattern;

  LogicalResult
  matchAndRewrite(Op op, typename Op::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    ShardGrid grid = this->getGrid(op);
    rewriter.replaceOp(
        op, AllGatherOp::create(rewriter, op.getLoc(), op.getResult().getType(),
                                Type(), adaptor.getInput(), ValueRange(),
                                op.getGatherAxis().getZExtValue(),
                                grid.getGroupsAttr(rewriter, op.getGridAxes()),
                                0, false, this->lowering.team)
                .getResults());
    return success();
  }
};

struct AllSliceLowering : public ShardPattern<shard::AllSliceOp> {
  using ShardPattern::ShardPattern;

  LogicalResult
  matchAndRewrite(shard::AllSliceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value index =
        getGrid(op).createInGroupIndex(rewriter, loc, op.getGridAxes());
    rewriter.replaceOp(
        op, sliceForMember(rewriter, loc, adaptor.getInput(),
                           cast<RankedTensorType>(op.getResult().getType()),
                           op.getSliceAxis().getZExtValue(), index));
    return success();
  }
};

struct AllToAllLowering : public ShardPattern<shard::AllToAllOp> {
  using ShardPattern::ShardPattern;

  LogicalResult
  matchAndRewrite(shard::AllToAllOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    ShardGrid grid = getGrid(op);
    rewriter.replaceOp(
        op, AllToAllOp::create(rewriter, op.getLoc(), op.getResult().getType(),
                               Type(), adaptor.getInput(), ValueRange(),
                               op.getSplitAxis().getZExtValue(),
                               op.getConcatAxis().getZExtValue(),
                               grid.getGroupSize(op.getGridAxes()),
                               grid.getGroupsAttr(rewriter, op.getGridAxes()),
                               0, lowering.team)
                .getResults());
    return success();
  }
};

struct ReduceScatterLowering : public ShardPattern<shard::ReduceScatterOp> {
  using ShardPattern::ShardPattern;

  LogicalResult
  matchAndRewrite(shard::ReduceScatterOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    ShardGrid grid = getGrid(op);
    auto resultType = cast<RankedTensorType>(op.getResult().getType());
    Value input = convertElements(rewriter, loc, adaptor.getInput(),
                                  resultType.getElementType());
    Value result = ReduceScatterOp::create(
                       rewriter, loc, resultType, Type(), input, ValueRange(),
                       ReductionKindAttr::get(
                           op.getContext(), toReductionKind(op.getReduction())),
                       op.getScatterAxis().getZExtValue(),
                       grid.getGroupsAttr(rewriter, op.getGridAxes()), 0, false,
                       lowering.team)
                       .getResults()[0];
    if (op.getReduction() == shard::ReductionKind::Average)
      result = divideElements(rewriter, loc, result,
                              grid.getGroupSize(op.getGridAxes()));
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// broadcast and scatter: the root's input to every member (scatter then
/// keeps each member's block).
template <typename Op> struct BroadcastLowering : public ShardPattern<Op> {
  using ShardPattern<Op>::ShardPattern;

  LogicalResult
  matchAndRewrite(Op op, typename Op::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    ShardGrid grid = this->getGrid(op);
    int64_t root = getRootIndex(grid, op.getGridAxes(), op.getRoot());
    Value input = adaptor.getInput();
    Value all =
        CollectiveBroadcastOp::create(
            rewriter, loc, input.getType(), Type(), input, ValueRange(),
            grid.getRootFirstGroupsAttr(rewriter, op.getGridAxes(), root), 0,
            this->lowering.team)
            .getResults()[0];
    if constexpr (std::is_same_v<Op, shard::ScatterOp>) {
      Value index = grid.createInGroupIndex(rewriter, loc, op.getGridAxes());
      all = sliceForMember(rewriter, loc, all,
                           cast<RankedTensorType>(op.getResult().getType()),
                           op.getScatterAxis().getZExtValue(), index);
    }
    rewriter.replaceOp(op, all);
    return success();
  }
};

/// send: the other member of each group of two sends to `destination`;
/// the op's result is its input.
struct SendLowering : public ShardPattern<shard::SendOp> {
  using ShardPattern::ShardPattern;

  LogicalResult
  matchAndRewrite(shard::SendOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    ShardGrid grid = getGrid(op);
    int64_t to = getRootIndex(grid, op.getGridAxes(), op.getDestination());
    SendOp::create(
        rewriter, op.getLoc(), TypeRange(), Type(), adaptor.getInput(),
        ValueRange(), nullptr, false,
        grid.getInGroupPairsAttr(rewriter, op.getGridAxes(), 1 - to, to), 0,
        lowering.team);
    rewriter.replaceOp(op, adaptor.getInput());
    return success();
  }
};

/// recv: each group's member other than `source` receives from it.
struct RecvLowering : public ShardPattern<shard::RecvOp> {
  using ShardPattern::ShardPattern;

  LogicalResult
  matchAndRewrite(shard::RecvOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    ShardGrid grid = getGrid(op);
    int64_t from = getRootIndex(grid, op.getGridAxes(), *op.getSource());
    rewriter.replaceOp(
        op, RecvOp::create(rewriter, op.getLoc(), op.getResult().getType(),
                           Type(), ValueRange(), ValueRange(), nullptr, false,
                           grid.getInGroupPairsAttr(rewriter, op.getGridAxes(),
                                                    from, 1 - from),
                           0, lowering.team)
                .getResults());
    return success();
  }
};

struct ShiftLowering : public ShardPattern<shard::ShiftOp> {
  using ShardPattern::ShardPattern;

  LogicalResult
  matchAndRewrite(shard::ShiftOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    ShardGrid grid = getGrid(op);
    rewriter.replaceOp(op, CollectivePermuteOp::create(
                               rewriter, op.getLoc(), op.getResult().getType(),
                               Type(), adaptor.getInput(), ValueRange(),
                               grid.getShiftPairsAttr(
                                   rewriter, op.getShiftAxis().getZExtValue(),
                                   op.getOffset(), op.getRotate()),
                               0, lowering.team)
                               .getResults());
    return success();
  }
};

} // namespace

void mlir::distruntime::populateShardCollectivePatterns(
    RewritePatternSet &patterns, const ShardLowering &lowering) {
  patterns.add<
      AllReduceLowering<shard::AllReduceOp>, AllReduceLowering<shard::ReduceOp>,
      AllGatherLowering<shard::AllGatherOp>, AllGatherLowering<shard::GatherOp>,
      AllSliceLowering, AllToAllLowering, ReduceScatterLowering,
      BroadcastLowering<shard::BroadcastOp>,
      BroadcastLowering<shard::ScatterOp>, SendLowering, RecvLowering,
      ShiftLowering>(patterns.getContext(), lowering);
}
