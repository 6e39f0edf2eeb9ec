//===- RuntimeCalls.h - Helpers of the op-to-call patterns ------*- C++ -*-===//

#ifndef DISTRUNTIME_LOWERING_DISTRUNTIMETORUNTIME_RUNTIMECALLS_H
#define DISTRUNTIME_LOWERING_DISTRUNTIMETORUNTIME_RUNTIMECALLS_H

#include "distruntime/Conversion/RuntimeAPI/RuntimeAPI.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::distruntime {

inline Value createI64(OpBuilder &b, Location loc, int64_t value) {
  return arith::ConstantIntOp::create(b, loc, value, 64);
}
inline Value createI32(OpBuilder &b, Location loc, int64_t value) {
  return arith::ConstantIntOp::create(b, loc, value, 32);
}

/// The declaration of `fn` and the string naming `op`'s location: what
/// every call needs besides its own arguments.
inline std::pair<func::FuncOp, Value>
getCalleeAndLocation(OpBuilder &b, Operation *op, RuntimeFunction fn) {
  auto module = op->getParentOfType<ModuleOp>();
  return {getOrInsertRuntimeFunction(b, module, fn),
          getLocationString(b, module, op->getLoc())};
}

/// The buffer `op` hands the runtime and its element type's distrt_dtype_t
/// code; an op on tensors must have been bufferized first.
inline FailureOr<std::pair<MemRefType, int32_t>>
getBufferOperand(Operation *op, Value value,
                 ConversionPatternRewriter &rewriter) {
  auto type = dyn_cast<MemRefType>(value.getType());
  if (!type)
    return op->emitOpError("on tensors must be bufferized before "
                           "convert-distruntime-to-runtime (run "
                           "one-shot-bufferize, or the distruntime-to-llvm "
                           "pipeline)");
  std::optional<int32_t> dtype = getRuntimeTypeCode(type.getElementType());
  if (!dtype)
    return rewriter.notifyMatchFailure(op, "unsupported element type");
  return std::make_pair(type, *dtype);
}

/// Emits `body` inside a memref.alloca_scope yielding `resultTypes`.
inline ValueRange
createAllocaScope(OpBuilder &b, Location loc, TypeRange resultTypes,
                  function_ref<SmallVector<Value>(OpBuilder &)> body) {
  auto scope = memref::AllocaScopeOp::create(b, loc, resultTypes);
  OpBuilder::InsertionGuard guard(b);
  b.createBlock(&scope.getBodyRegion());
  SmallVector<Value> results = body(b);
  memref::AllocaScopeReturnOp::create(b, loc, results);
  return scope.getResults();
}

/// For ops whose only possible result is an async handle: emits `call`
/// (which makes the runtime call and returns its handle) in an alloca scope,
/// then replaces `op` by the handle if it has one, else erases it.
inline void replaceByHandleCall(Operation *op,
                                ConversionPatternRewriter &rewriter,
                                function_ref<Value(OpBuilder &)> call) {
  ValueRange handle = createAllocaScope(
      rewriter, op->getLoc(), rewriter.getI64Type(),
      [&](OpBuilder &b) { return SmallVector<Value>{call(b)}; });
  if (op->getNumResults())
    rewriter.replaceOp(op, handle);
  else
    rewriter.eraseOp(op);
}

/// Lowers allreduce, all_gather, all_reduce, all_to_all, reduce_scatter,
/// collective_broadcast, collective_permute, send and recv.
void populateCollectivesToRuntimePatterns(TypeConverter &converter,
                                          RewritePatternSet &patterns);

} // namespace mlir::distruntime

#endif // DISTRUNTIME_LOWERING_DISTRUNTIMETORUNTIME_RUNTIMECALLS_H
