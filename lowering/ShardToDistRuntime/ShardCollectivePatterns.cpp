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

/// The distruntime reduction of `kind` on `element`s; `average` reduces as
/// a sum. min and max compare unsigned integer types unsigned.
static ReductionKind toReductionKind(shard::ReductionKind kind, Type element) {
  bool isUnsigned = element.isUnsignedInteger();
  switch (kind) {
  case shard::ReductionKind::Product:
    return ReductionKind::Prod;
  case shard::ReductionKind::Min:
    return isUnsigned ? ReductionKind::UMin : ReductionKind::Min;
  case shard::ReductionKind::Max:
    return isUnsigned ? ReductionKind::UMax : ReductionKind::Max;
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

/// A new tensor or buffer of `type` whose dynamic sizes are those of
/// `like` (a tensor or memref of the same rank).
static Value createEmpty(OpBuilder &b, Location loc, ShapedType type,
                         Value like) {
  SmallVector<Value> sizes;
  for (int64_t d : llvm::seq<int64_t>(0, type.getRank()))
    if (type.isDynamicDim(d))
      sizes.push_back(isa<MemRefType>(like.getType())
                          ? Value(memref::DimOp::create(b, loc, like, d))
                          : Value(tensor::DimOp::create(b, loc, like, d)));
  if (auto memref = dyn_cast<MemRefType>(type))
    return memref::AllocOp::create(b, loc, memref, sizes);
  return tensor::EmptyOp::create(b, loc, type.getShape(), type.getElementType(),
                                 sizes);
}

/// The type of `shaped` with elements of `element` (an identity layout in
/// the same memory space for memrefs).
static ShapedType withElementType(Type shaped, Type element) {
  if (auto memref = dyn_cast<MemRefType>(shaped))
    return MemRefType::get(memref.getShape(), element,
                           MemRefLayoutAttrInterface(),
                           memref.getMemorySpace());
  return cast<RankedTensorType>(shaped).clone(element);
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

/// `input` with its elements converted to `element` (a no-op if equal;
/// checkShardOp admits signless integers and floats). i1 converts as
/// unsigned: true is 1, as a count of true values wants.
static Value convertElements(OpBuilder &b, Location loc, Value input,
                             Type element) {
  Type from = getElementTypeOrSelf(input.getType());
  if (from == element)
    return input;
  Value init =
      createEmpty(b, loc, withElementType(input.getType(), element), input);
  return mapElements(
      b, loc, input, init, [&](OpBuilder &nb, Location nl, Value x) {
        return convertScalarToDtype(nb, nl, x, element, from.isInteger(1));
      });
}

/// `reduced` divided by `count` elementwise (shard's `average`; checkShardOp
/// makes sure `count` fits the element type).
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
  Value init =
      isa<MemRefType>(reduced.getType())
          ? reduced
          : createEmpty(b, loc, cast<ShapedType>(reduced.getType()), reduced);
  return mapElements(b, loc, reduced, init, divide);
}

/// What all_reduce, reduce and reduce_scatter share: the input converted to
/// the result's element type, the distruntime reduction `reduce` makes of
/// it (given the converted input and the reduction), and `average`'s
/// division by the group size. A converted memref is freed after use.
static Value
lowerReduction(OpBuilder &b, Location loc, Value input, Type resultType,
               shard::ReductionKind kind, int64_t groupSize,
               function_ref<Value(Value, ReductionKindAttr)> reduce) {
  Type element = getElementTypeOrSelf(resultType);
  Value converted = convertElements(b, loc, input, element);
  Value result =
      reduce(converted, ReductionKindAttr::get(b.getContext(),
                                               toReductionKind(kind, element)));
  if (converted != input && isa<MemRefType>(converted.getType()))
    memref::DeallocOp::create(b, loc, converted);
  if (kind == shard::ReductionKind::Average)
    result = divideElements(b, loc, result, groupSize);
  return result;
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
    auto resultType = cast<ShapedType>(op.getResult().getType());
    DenseIntElementsAttr groups =
        grid.getGroupsAttr(rewriter, op.getGridAxes());
    int64_t team = this->lowering.team;
    Value result = lowerReduction(
        rewriter, loc, adaptor.getInput(), resultType, op.getReduction(),
        grid.getGroupSize(op.getGridAxes()),
        [&](Value input, ReductionKindAttr kind) -> Value {
          if (isa<RankedTensorType>(resultType))
            return AllReduceGroupOp::create(
                       rewriter, loc, /*results=*/resultType,
                       /*handle=*/Type(), /*inputs=*/input,
                       /*outputs=*/ValueRange(), /*reduction=*/kind,
                       /*reproducibility=*/nullptr, /*replica_groups=*/groups,
                       /*group_table=*/Value(), /*channel_id=*/0,
                       /*use_global_device_ids=*/false, /*team=*/team)
                .getResults()[0];
          // The memref form reduces into a new buffer of the result type.
          Value output = createEmpty(rewriter, loc, resultType, input);
          AllReduceGroupOp::create(
              rewriter, loc, /*results=*/TypeRange(), /*handle=*/Type(),
              /*inputs=*/input, /*outputs=*/output, /*reduction=*/kind,
              /*reproducibility=*/nullptr, /*replica_groups=*/groups,
              /*group_table=*/Value(), /*channel_id=*/0,
              /*use_global_device_ids=*/false, /*team=*/team);
          return output;
        });
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
        op, AllGatherOp::create(
                rewriter, op.getLoc(), /*results=*/op.getResult().getType(),
                /*handle=*/Type(), /*inputs=*/adaptor.getInput(),
                /*outputs=*/ValueRange(),
                /*all_gather_dim=*/op.getGatherAxis().getZExtValue(),
                /*replica_groups=*/
                grid.getGroupsAttr(rewriter, op.getGridAxes()),
                /*group_table=*/Value(), /*channel_id=*/0,
                /*use_global_device_ids=*/false,
                /*team=*/this->lowering.team)
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
        op,
        AllToAllOp::create(
            rewriter, op.getLoc(), /*results=*/op.getResult().getType(),
            /*handle=*/Type(), /*inputs=*/adaptor.getInput(),
            /*outputs=*/ValueRange(),
            /*split_dimension=*/op.getSplitAxis().getZExtValue(),
            /*concat_dimension=*/op.getConcatAxis().getZExtValue(),
            /*split_count=*/
            rewriter.getI64IntegerAttr(grid.getGroupSize(op.getGridAxes())),
            /*replica_groups=*/
            grid.getGroupsAttr(rewriter, op.getGridAxes()),
            /*group_table=*/Value(), /*channel_id=*/0, /*team=*/lowering.team)
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
    Type resultType = op.getResult().getType();
    Value result = lowerReduction(
        rewriter, loc, adaptor.getInput(), resultType, op.getReduction(),
        grid.getGroupSize(op.getGridAxes()),
        [&](Value input, ReductionKindAttr kind) -> Value {
          return ReduceScatterOp::create(
                     rewriter, loc, /*results=*/resultType, /*handle=*/Type(),
                     /*inputs=*/input, /*outputs=*/ValueRange(),
                     /*reduction=*/kind, /*reproducibility=*/nullptr,
                     /*scatter_dimension=*/op.getScatterAxis().getZExtValue(),
                     /*replica_groups=*/
                     grid.getGroupsAttr(rewriter, op.getGridAxes()),
                     /*group_table=*/Value(), /*channel_id=*/0,
                     /*use_global_device_ids=*/false,
                     /*team=*/lowering.team)
              .getResults()[0];
        });
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
    int64_t root = grid.getInGroupIndex(op.getGridAxes(), op.getRoot());
    Value input = adaptor.getInput();
    Value all =
        CollectiveBroadcastOp::create(
            rewriter, loc, /*results=*/input.getType(), /*handle=*/Type(),
            /*inputs=*/input, /*outputs=*/ValueRange(), /*roots=*/Value(),
            /*replica_groups=*/
            grid.getRootFirstGroupsAttr(rewriter, op.getGridAxes(), root),
            /*group_table=*/Value(), /*channel_id=*/0,
            /*team=*/this->lowering.team)
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

/// send and recv pair the two members of each group of two: `member`
/// (send's destination, recv's source, an in-group multi-index) and the
/// other one. In a group of one the member is the process itself: send
/// sends nothing and recv keeps its input.
template <typename Op> struct PointToPointLowering : public ShardPattern<Op> {
  using ShardPattern<Op>::ShardPattern;

  LogicalResult
  matchAndRewrite(Op op, typename Op::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    constexpr bool isSend = std::is_same_v<Op, shard::SendOp>;
    ShardGrid grid = this->getGrid(op);
    if (grid.getGroupSize(op.getGridAxes()) == 1) {
      rewriter.replaceOp(op, adaptor.getInput());
      return success();
    }
    int64_t member;
    if constexpr (isSend)
      member = grid.getInGroupIndex(op.getGridAxes(), op.getDestination());
    else
      member = grid.getInGroupIndex(op.getGridAxes(), *op.getSource());
    DenseIntElementsAttr pairs =
        isSend ? grid.getInGroupPairsAttr(rewriter, op.getGridAxes(),
                                          1 - member, member)
               : grid.getInGroupPairsAttr(rewriter, op.getGridAxes(), member,
                                          1 - member);
    if constexpr (isSend) {
      // The op's result is its input.
      SendOp::create(rewriter, op.getLoc(), /*results=*/TypeRange(),
                     /*handle=*/Type(), /*inputs=*/adaptor.getInput(),
                     /*outputs=*/ValueRange(), /*channel_type=*/nullptr,
                     /*is_host_transfer=*/false, /*source_target_pairs=*/pairs,
                     /*group_table=*/Value(), /*channel_id=*/0,
                     /*team=*/this->lowering.team);
      rewriter.replaceOp(op, adaptor.getInput());
    } else {
      rewriter.replaceOp(
          op, RecvOp::create(
                  rewriter, op.getLoc(), /*results=*/op.getResult().getType(),
                  /*handle=*/Type(), /*inputs=*/ValueRange(),
                  /*outputs=*/ValueRange(), /*channel_type=*/nullptr,
                  /*is_host_transfer=*/false, /*source_target_pairs=*/pairs,
                  /*group_table=*/Value(), /*channel_id=*/0,
                  /*team=*/this->lowering.team)
                  .getResults());
    }
    return success();
  }
};

struct ShiftLowering : public ShardPattern<shard::ShiftOp> {
  using ShardPattern::ShardPattern;

  LogicalResult
  matchAndRewrite(shard::ShiftOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    ShardGrid grid = getGrid(op);
    DenseIntElementsAttr pairs =
        grid.getShiftPairsAttr(rewriter, op.getShiftAxis().getZExtValue(),
                               op.getOffset(), op.getRotate());
    rewriter.replaceOp(
        op,
        CollectivePermuteOp::create(
            rewriter, op.getLoc(), /*results=*/op.getResult().getType(),
            /*handle=*/Type(), /*inputs=*/adaptor.getInput(),
            /*outputs=*/ValueRange(), /*source_target_pairs=*/pairs,
            /*group_table=*/Value(), /*channel_id=*/0, /*team=*/lowering.team)
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
      BroadcastLowering<shard::ScatterOp>, PointToPointLowering<shard::SendOp>,
      PointToPointLowering<shard::RecvOp>, ShiftLowering>(patterns.getContext(),
                                                          lowering);
}
