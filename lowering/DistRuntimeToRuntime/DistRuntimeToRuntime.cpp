//===- DistRuntimeToRuntime.cpp - distruntime ops to libdistrt calls ------===//
//
// Each op becomes a func.call into the C ABI of distrt.h. Calls that pass
// memrefs build unranked descriptors on the stack, so they sit inside a
// memref.alloca_scope: in a loop the stack does not grow per iteration.
//
//===----------------------------------------------------------------------===//

#include "RuntimeCalls.h"

#include "distruntime/Conversion/DistRuntimeToRuntime/DistRuntimeToRuntime.h"
#include "distruntime/Dialect/DistRuntime/IR/DistRuntimeOps.h"
#include "distruntime/Runtime/distrt.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/Transforms/FuncConversions.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/xxhash.h"

namespace mlir::distruntime {
#define GEN_PASS_DEF_CONVERTDISTRUNTIMETORUNTIME
#include "distruntime/Conversion/Passes.h.inc"
} // namespace mlir::distruntime

using namespace mlir;
using namespace mlir::distruntime;

/// A stack array of the i64 values `entries`, which are integer attributes or
/// index/integer values.
static Value createI64Array(OpBuilder &b, Location loc,
                            ArrayRef<OpFoldResult> entries) {
  Type i64 = b.getI64Type();
  auto type = MemRefType::get({static_cast<int64_t>(entries.size())}, i64);
  Value array = memref::AllocaOp::create(b, loc, type);
  for (auto [slot, entry] : llvm::enumerate(entries)) {
    Value value;
    if (std::optional<int64_t> constant = getConstantIntValue(entry))
      value = createI64(b, loc, *constant);
    else if ((value = cast<Value>(entry)).getType() != i64)
      value = arith::IndexCastOp::create(b, loc, i64, value);
    memref::StoreOp::create(b, loc, value, array,
                            ValueRange{arith::ConstantIndexOp::create(
                                b, loc, static_cast<int64_t>(slot))});
  }
  return array;
}

/// The constant i64 array `values` as a memref global, shared by content.
static Value getConstantI64Array(OpBuilder &b, ModuleOp module, Location loc,
                                 StringRef prefix, ArrayRef<int64_t> values) {
  auto type =
      MemRefType::get({static_cast<int64_t>(values.size())}, b.getI64Type());
  std::string text;
  for (int64_t v : values)
    text += std::to_string(v) + ",";
  std::string name =
      llvm::formatv("{0}_{1:x16}", prefix, llvm::xxh3_64bits(text));
  if (!module.lookupSymbol(name)) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(module.getBody());
    auto tensorType = RankedTensorType::get(type.getShape(), b.getI64Type());
    memref::GlobalOp::create(b, loc, name, b.getStringAttr("private"), type,
                             DenseIntElementsAttr::get(tensorType, values),
                             /*constant=*/true, /*alignment=*/IntegerAttr());
  }
  return memref::GetGlobalOp::create(b, loc, type, name);
}

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

/// dims_create: one runtime query per axis (the runtime computes each grid
/// once per team size and axis count and keeps it).
struct DimsCreateLowering : public OpConversionPattern<DimsCreateOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(DimsCreateOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto [callee, where] =
        getCalleeAndLocation(rewriter, op, RuntimeFunction::DimsCreate);
    const auto n = static_cast<int64_t>(op.getSizes().size());
    SmallVector<Value> sizes;
    for (int64_t axis = 0; axis < n; ++axis) {
      auto call = func::CallOp::create(
          rewriter, loc, callee,
          ValueRange{createI64(rewriter, loc, op.getTeam()),
                     createI64(rewriter, loc, n),
                     createI64(rewriter, loc, axis), where});
      sizes.push_back(arith::IndexCastOp::create(
          rewriter, loc, rewriter.getIndexType(), call.getResult(0)));
    }
    rewriter.replaceOp(op, sizes);
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
// check
//===----------------------------------------------------------------------===//

/// On the failing path, distrt_check_failed names the op, its location, the
/// rank and both sizes, and ends the job.
struct CheckLowering : public OpConversionPattern<CheckOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(CheckOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    createRuntimeCheck(rewriter, op.getLoc(),
                       toCmpIPredicate(op.getPredicate()), adaptor.getHave(),
                       adaptor.getWant(), op.getOpName(), op.getWhat());
    rewriter.eraseOp(op);
    return success();
  }

  static arith::CmpIPredicate toCmpIPredicate(CheckPredicate predicate) {
    switch (predicate) {
    case CheckPredicate::eq:
      return arith::CmpIPredicate::eq;
    case CheckPredicate::ne:
      return arith::CmpIPredicate::ne;
    case CheckPredicate::slt:
      return arith::CmpIPredicate::slt;
    case CheckPredicate::sle:
      return arith::CmpIPredicate::sle;
    case CheckPredicate::sgt:
      return arith::CmpIPredicate::sgt;
    case CheckPredicate::sge:
      return arith::CmpIPredicate::sge;
    }
    llvm_unreachable("unknown check predicate");
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
    auto buffer = getBufferOperand(op, local, rewriter);
    if (failed(buffer))
      return failure();
    auto [localType, dtype] = *buffer;
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
          SmallVector<OpFoldResult> entries;
          for (ValueRange values :
               {adaptor.getGShape(), adaptor.getLOffsets(),
                adaptor.getBbOffsets(), adaptor.getBbSizes()})
            llvm::append_range(entries, values);
          Value geometry = createI64Array(b, loc, entries);
          auto [localRank, localDesc] = castToUnranked(b, loc, local);
          auto [geomRank, geomDesc] = castToUnranked(b, loc, geometry);
          auto [leftRank, leftDesc] = castToUnranked(b, loc, left);
          auto [rightRank, rightDesc] = castToUnranked(b, loc, right);
          int64_t key = op.getKey() ? static_cast<int64_t>(*op.getKey()) : -1;
          auto call = func::CallOp::create(
              b, loc, callee,
              ValueRange{createI64(b, loc, op.getTeam()),
                         createI64(b, loc, key), createI32(b, loc, dtype),
                         localRank, localDesc, geomRank, geomDesc, leftRank,
                         leftDesc, rightRank, rightDesc, where});
          return SmallVector<Value>{call.getResult(0)};
        });
    rewriter.replaceOp(op, {handle[0], left, right});
    return success();
  }
};

//===----------------------------------------------------------------------===//
// update_halo
//===----------------------------------------------------------------------===//

struct UpdateHaloLowering : public OpConversionPattern<UpdateHaloOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(UpdateHaloOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value block = adaptor.getBlock();
    auto buffer = getBufferOperand(op, block, rewriter);
    if (failed(buffer))
      return failure();
    auto [blockType, dtype] = *buffer;

    // distrt.h's spec: g, grid[g], then per dimension lo, hi, k, axes[k].
    Builder attrs(getContext());
    SmallVector<OpFoldResult> spec;
    auto push = [&](int64_t v) { spec.push_back(attrs.getI64IntegerAttr(v)); };
    push(op.getGrid().size());
    llvm::append_range(
        spec, getMixedValues(op.getGrid(), adaptor.getGridValues(), rewriter));
    ArrayAttr splitAxes = op.getSplitAxes();
    SmallVector<OpFoldResult> halo = getMixedValues(
        op.getStaticHaloSizes(), adaptor.getHaloSizes(), rewriter);
    for (int64_t d = 0; d < blockType.getRank(); ++d) {
      spec.append({halo[2 * d], halo[2 * d + 1]});
      ArrayRef<int64_t> axes;
      if (d < static_cast<int64_t>(splitAxes.size()))
        axes = cast<DenseI64ArrayAttr>(splitAxes[d]).asArrayRef();
      push(axes.size());
      for (int64_t axis : axes)
        push(axis);
    }

    auto module = op->getParentOfType<ModuleOp>();
    auto [callee, where] =
        getCalleeAndLocation(rewriter, op, RuntimeFunction::UpdateHalo);
    // A static spec is a constant global, so a loop around the op stores
    // nothing per iteration.
    std::optional<SmallVector<int64_t>> staticSpec = getConstantIntValues(spec);
    Value constantSpec =
        staticSpec ? getConstantI64Array(rewriter, module, loc,
                                         "__distrt_halo_spec", *staticSpec)
                   : Value();
    int64_t key = op.getKey() ? static_cast<int64_t>(*op.getKey()) : -1;
    // Bit 0: async; DISTRT_SITE_PROVEN: the agreement is proven.
    int64_t mode = (op.getHandle() != nullptr ? 1 : 0) |
                   (op->hasAttr(kProvenAttrName) ? DISTRT_SITE_PROVEN : 0);
    replaceByHandleCall(op, rewriter, [&](OpBuilder &b) {
      Value specArray =
          constantSpec ? constantSpec : createI64Array(b, loc, spec);
      auto [blockRank, blockDesc] = castToUnranked(b, loc, block);
      auto [specRank, specDesc] = castToUnranked(b, loc, specArray);
      return func::CallOp::create(
                 b, loc, callee,
                 ValueRange{createI64(b, loc, op.getTeam()),
                            createI64(b, loc, key), createI32(b, loc, dtype),
                            blockRank, blockDesc, specRank, specDesc,
                            createI32(b, loc, mode), where})
          .getResult(0);
    });
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
               DimsCreateLowering, WaitLowering, CheckLowering, GetHaloLowering,
               UpdateHaloLowering>(converter, patterns.getContext());
}
