//===- GetHaloCanonicalize.cpp - Static halo shapes from constants --------===//
//
// When the geometry operands of get_halo are constants, the halo shapes are
// known at compile time: give the results static types (and cast back for
// existing users), so later passes allocate fixed-size buffers.
//
//===----------------------------------------------------------------------===//

#include "distruntime/Dialect/DistRuntime/IR/DistRuntimeOps.h"

#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::distruntime;

namespace {
struct StaticHaloShapes : public OpRewritePattern<GetHaloOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(GetHaloOp op,
                                PatternRewriter &rewriter) const override {
    auto refine = [&](Value halo, bool left) -> Type {
      auto type = cast<ShapedType>(halo.getType());
      SmallVector<int64_t> shape(type.getShape());
      SmallVector<int64_t> known = op.getStaticHaloShape(left);
      for (auto [dim, size] : llvm::zip(shape, known))
        if (ShapedType::isDynamic(dim))
          dim = size;
      return type.clone(shape);
    };
    Type leftType = refine(op.getLeft(), /*left=*/true);
    Type rightType = refine(op.getRight(), /*left=*/false);
    if (leftType == op.getLeft().getType() &&
        rightType == op.getRight().getType())
      return rewriter.notifyMatchFailure(op, "no dimension becomes static");

    auto refined = GetHaloOp::create(
        rewriter, op.getLoc(), op.getHandle().getType(), leftType, rightType,
        op.getLocal(), op.getGShape(), op.getLOffsets(), op.getBbOffsets(),
        op.getBbSizes(), op.getTeamAttr(), op.getKeyAttr());
    auto castBack = [&](Value refinedHalo, Type original) -> Value {
      if (refinedHalo.getType() == original)
        return refinedHalo;
      if (isa<MemRefType>(original))
        return memref::CastOp::create(rewriter, op.getLoc(), original,
                                      refinedHalo);
      return tensor::CastOp::create(rewriter, op.getLoc(), original,
                                    refinedHalo);
    };
    rewriter.replaceOp(op,
                       {refined.getHandle(),
                        castBack(refined.getLeft(), op.getLeft().getType()),
                        castBack(refined.getRight(), op.getRight().getType())});
    return success();
  }
};
} // namespace

void GetHaloOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                            MLIRContext *context) {
  results.add<StaticHaloShapes>(context);
}
