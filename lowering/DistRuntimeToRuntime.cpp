//===- DistRuntimeToRuntime.cpp - distruntime ops to libdistrt calls ------===//
//
// Each op becomes a func.call into the C ABI of distrt.h. Calls that pass
// memrefs build unranked descriptors on the stack, so they sit inside a
// memref.alloca_scope: in a loop the stack does not grow per iteration.
//
//===----------------------------------------------------------------------===//

#include "RuntimeCalls.h"

#include "distruntime/Conversion/DistRuntimeToRuntime/DistRuntimeToRuntime.h"
#include "distruntime/Conversion/Passes.h"
#include "distruntime/Dialect/DistRuntime/IR/DistRuntimeOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/Transforms/FuncConversions.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::distruntime {
#define GEN_PASS_DEF_CONVERTDISTRUNTIMETORUNTIME
#include "distruntime/Conversion/Passes.h.inc"
} // namespace mlir::distruntime

using namespace mlir;
using namespace mlir::distruntime;

namespace {

//===----------------------------------------------------------------------===//
// team_size, team_member
//===----------------------------------------------------------------------===//

template <typename Op, RuntimeFunction fn>
struct TeamQueryLowering : public OpConversionPattern<Op> {
  using OpConversionPattern<Op>::OpConversionPattern;

  LogicalResult
  matchAndRewrite(Op op, typename Op::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto [callee, where] = getCalleeAndLocation(rewriter, op, fn);
    auto call = func::CallOp::create(
        rewriter, loc, callee,
        ValueRange{createI64(rewriter, loc, op.getTeam()), where});
    rewriter.replaceOpWithNewOp<arith::IndexCastOp>(op, rewriter.getIndexType(),
                                                    call.getResult(0));
    return success();
  }
};

//===----------------------------------------------------------------------===//
// wait
//===----------------------------------------------------------------------===//

struct WaitLowering : public OpConversionPattern<WaitOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(WaitOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto [callee, where] =
        getCalleeAndLocation(rewriter, op, RuntimeFunction::Wait);
    func::CallOp::create(rewriter, op.getLoc(), callee,
                         ValueRange{adaptor.getHandle(), where});
    rewriter.eraseOp(op);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// get_halo
//===----------------------------------------------------------------------===//

struct GetHaloLowering : public OpConversionPattern<GetHaloOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(GetHaloOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value local = adaptor.getLocal();
    auto localType = dyn_cast<MemRefType>(local.getType());
    if (!localType)
      return op.emitOpError("on tensors must be bufferized before "
                            "convert-distruntime-to-runtime (run "
                            "one-shot-bufferize, or the distruntime-to-llvm "
                            "pipeline)");
    auto dtype = getRuntimeTypeCode(localType.getElementType());
    if (!dtype)
      return rewriter.notifyMatchFailure(op, "unsupported element type");
    int64_t rank = localType.getRank();

    // Halo shapes, computed here so the runtime only moves data. Sizes are
    // clamped at 0 for the allocation; the runtime reports bad geometry.
    auto cst = [&](int64_t v) -> Value {
      return arith::ConstantIndexOp::create(rewriter, loc, v);
    };
    auto max0 = [&](Value v) -> Value {
      return arith::MaxSIOp::create(rewriter, loc, v, cst(0));
    };
    Value bbOffset = adaptor.getBbOffsets()[0];
    Value bbEnd =
        arith::AddIOp::create(rewriter, loc, bbOffset, adaptor.getBbSizes()[0]);
    Value lOffset = adaptor.getLOffsets()[0];
    Value lEnd = arith::AddIOp::create(
        rewriter, loc, lOffset, memref::DimOp::create(rewriter, loc, local, 0));
    Value leftRows = max0(arith::SubIOp::create(
        rewriter, loc, arith::MinSIOp::create(rewriter, loc, bbEnd, lOffset),
        bbOffset));
    Value rightRows = max0(arith::SubIOp::create(
        rewriter, loc, bbEnd,
        arith::MaxSIOp::create(rewriter, loc, bbOffset, lEnd)));
    auto allocHalo = [&](Type type, Value rows) -> Value {
      auto haloType = cast<MemRefType>(type);
      SmallVector<Value> dynamicSizes;
      for (int64_t d = 0; d < rank; ++d)
        if (haloType.isDynamicDim(d))
          dynamicSizes.push_back(d == 0 ? rows : max0(adaptor.getBbSizes()[d]));
      return memref::AllocOp::create(rewriter, loc, haloType, dynamicSizes);
    };
    Value left = allocHalo(op.getLeft().getType(), leftRows);
    Value right = allocHalo(op.getRight().getType(), rightRows);

    // Not a structured binding: the lambda below captures them.
    func::FuncOp callee;
    Value where;
    std::tie(callee, where) =
        getCalleeAndLocation(rewriter, op, RuntimeFunction::GetHalo);
    ValueRange handle = createAllocaScope(
        rewriter, loc, rewriter.getI64Type(), [&](OpBuilder &b) {
          // gShape, lOffsets, bbOffsets, bbSizes as one i64 array.
          auto geometryType = MemRefType::get({4 * rank}, b.getI64Type());
          Value geometry = memref::AllocaOp::create(b, loc, geometryType);
          int64_t slot = 0;
          for (ValueRange values :
               {adaptor.getGShape(), adaptor.getLOffsets(),
                adaptor.getBbOffsets(), adaptor.getBbSizes()})
            for (Value v : values) {
              Value asI64 =
                  arith::IndexCastOp::create(b, loc, b.getI64Type(), v);
              memref::StoreOp::create(
                  b, loc, asI64, geometry,
                  ValueRange{arith::ConstantIndexOp::create(b, loc, slot++)});
            }
          auto [localRank, localDesc] = castToUnranked(b, loc, local);
          auto [geomRank, geomDesc] = castToUnranked(b, loc, geometry);
          auto [leftRank, leftDesc] = castToUnranked(b, loc, left);
          auto [rightRank, rightDesc] = castToUnranked(b, loc, right);
          int64_t key = op.getKey() ? static_cast<int64_t>(*op.getKey()) : -1;
          auto call = func::CallOp::create(
              b, loc, callee,
              ValueRange{createI64(b, loc, op.getTeam()),
                         createI64(b, loc, key), createI32(b, loc, *dtype),
                         localRank, localDesc, geomRank, geomDesc, leftRank,
                         leftDesc, rightRank, rightDesc, where});
          return SmallVector<Value>{call.getResult(0)};
        });
    rewriter.replaceOp(op, {handle[0], left, right});
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Pass
//===----------------------------------------------------------------------===//

struct ConvertDistRuntimeToRuntimePass
    : public distruntime::impl::ConvertDistRuntimeToRuntimeBase<
          ConvertDistRuntimeToRuntimePass> {
protected:
  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    DistRuntimeToRuntimeTypeConverter converter;

    ConversionTarget target(*ctx);
    target.addIllegalDialect<DistRuntimeDialect>();
    target.addLegalOp<UnrealizedConversionCastOp>();
    // Handles may flow through functions, branches and scf regions.
    target.markUnknownOpDynamicallyLegal(
        [&](Operation *op) { return converter.isLegal(op); });
    target.addDynamicallyLegalOp<func::FuncOp>([&](func::FuncOp op) {
      return converter.isSignatureLegal(op.getFunctionType()) &&
             converter.isLegal(&op.getBody());
    });

    RewritePatternSet patterns(ctx);
    populateDistRuntimeToRuntimeConversionPatterns(converter, patterns);
    populateFunctionOpInterfaceTypeConversionPattern<func::FuncOp>(patterns,
                                                                   converter);
    populateCallOpTypeConversionPattern(patterns, converter);
    populateReturnOpTypeConversionPattern(patterns, converter);
    populateBranchOpInterfaceTypeConversionPattern(patterns, converter);
    scf::populateSCFStructuralTypeConversionsAndLegality(converter, patterns,
                                                         target);
    if (failed(applyPartialConversion(getOperation(), target,
                                      std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace

DistRuntimeToRuntimeTypeConverter::DistRuntimeToRuntimeTypeConverter() {
  addConversion([](Type type) { return type; });
  addConversion([](AsyncHandleType type) {
    return IntegerType::get(type.getContext(), 64);
  });
  auto materialize = [](OpBuilder &b, Type type, ValueRange inputs,
                        Location loc) -> Value {
    return UnrealizedConversionCastOp::create(b, loc, type, inputs)
        .getResult(0);
  };
  addSourceMaterialization(materialize);
  addTargetMaterialization(materialize);
}

void mlir::distruntime::populateDistRuntimeToRuntimeConversionPatterns(
    TypeConverter &converter, RewritePatternSet &patterns) {
  populateCollectivesToRuntimePatterns(converter, patterns);
  patterns.add<TeamQueryLowering<TeamSizeOp, RuntimeFunction::TeamSize>,
               TeamQueryLowering<TeamMemberOp, RuntimeFunction::TeamMember>,
               WaitLowering, GetHaloLowering>(converter, patterns.getContext());
}
