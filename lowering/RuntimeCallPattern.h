//===- RuntimeCallPattern.h - Base of the op-to-call patterns ---*- C++ -*-===//

#ifndef DISTRUNTIME_LOWERING_RUNTIMECALLPATTERN_H
#define DISTRUNTIME_LOWERING_RUNTIMECALLPATTERN_H

#include "RuntimeAPI.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::distruntime {

/// Shared helpers of the op patterns.
template <typename Op>
struct RuntimeCallPattern : public OpConversionPattern<Op> {
  using OpConversionPattern<Op>::OpConversionPattern;

  ModuleOp getModule(Op op) const {
    return op->template getParentOfType<ModuleOp>();
  }

  /// The declaration of `fn` and the string naming `op`'s location: what
  /// every call needs besides its own arguments.
  std::pair<func::FuncOp, Value> calleeAndLocation(Op op, OpBuilder &b,
                                                   RuntimeFunction fn) const {
    ModuleOp module = getModule(op);
    return {getOrInsertRuntimeFunction(b, module, fn),
            getLocationString(b, module, op.getLoc())};
  }

  Value i64(OpBuilder &b, Location loc, int64_t value) const {
    return arith::ConstantIntOp::create(b, loc, value, 64);
  }
  Value i32(OpBuilder &b, Location loc, int64_t value) const {
    return arith::ConstantIntOp::create(b, loc, value, 32);
  }

  /// Emits `body` inside a memref.alloca_scope yielding `resultTypes`.
  ValueRange inAllocaScope(
      ConversionPatternRewriter &rewriter, Location loc, TypeRange resultTypes,
      llvm::function_ref<SmallVector<Value>(OpBuilder &)> body) const {
    auto scope = memref::AllocaScopeOp::create(rewriter, loc, resultTypes);
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.createBlock(&scope.getBodyRegion());
    SmallVector<Value> results = body(rewriter);
    memref::AllocaScopeReturnOp::create(rewriter, loc, results);
    return scope.getResults();
  }

  /// For ops that may return an async handle: emits `call` (which makes the
  /// runtime call and returns its handle) in an alloca scope, then replaces
  /// `op` by the handle if it has one, else erases it.
  LogicalResult
  replaceByHandleCall(Op op, ConversionPatternRewriter &rewriter,
                      llvm::function_ref<Value(OpBuilder &)> call) const {
    ValueRange handle = inAllocaScope(
        rewriter, op.getLoc(), rewriter.getI64Type(),
        [&](OpBuilder &b) { return SmallVector<Value>{call(b)}; });
    if (op.getHandle())
      rewriter.replaceOp(op, handle);
    else
      rewriter.eraseOp(op);
    return success();
  }
};

/// Lowers all_gather, all_reduce, all_to_all, reduce_scatter,
/// collective_broadcast, collective_permute, send and recv.
void populateCollectivesToRuntimePatterns(TypeConverter &converter,
                                          RewritePatternSet &patterns);

} // namespace mlir::distruntime

#endif // DISTRUNTIME_LOWERING_RUNTIMECALLPATTERN_H
