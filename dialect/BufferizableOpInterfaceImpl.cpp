//===- BufferizableOpInterfaceImpl.cpp - Bufferize tensor-form ops --------===//
//
// get_halo on tensors reads `local` and returns freshly allocated halos, so
// its memref form is the bufferized op: nothing aliases, nothing is written.
//
//===----------------------------------------------------------------------===//

#include "distruntime/Dialect/DistRuntime/IR/BufferizableOpInterfaceImpl.h"
#include "distruntime/Dialect/DistRuntime/IR/DistRuntimeOps.h"

#include "mlir/Dialect/Bufferization/IR/BufferizableOpInterface.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"

using namespace mlir;
using namespace mlir::bufferization;
using namespace mlir::distruntime;

namespace {
struct GetHaloOpInterface
    : public BufferizableOpInterface::ExternalModel<GetHaloOpInterface,
                                                    GetHaloOp> {
  bool bufferizesToMemoryRead(Operation *, OpOperand &,
                              const AnalysisState &) const {
    return true;
  }
  bool bufferizesToMemoryWrite(Operation *, OpOperand &,
                               const AnalysisState &) const {
    return false;
  }
  bool bufferizesToAllocation(Operation *, Value) const { return true; }
  AliasingValueList getAliasingValues(Operation *, OpOperand &,
                                      const AnalysisState &) const {
    return {};
  }

  FailureOr<BufferLikeType> getBufferType(Operation *op, Value value,
                                          const BufferizationOptions &options,
                                          const BufferizationState &,
                                          SmallVector<Value> &) const {
    return cast<BufferLikeType>(getMemRefTypeWithStaticIdentityLayout(
        cast<TensorType>(value.getType())));
  }

  LogicalResult bufferize(Operation *op, RewriterBase &rewriter,
                          const BufferizationOptions &options,
                          BufferizationState &state) const {
    auto haloOp = cast<GetHaloOp>(op);
    FailureOr<Value> local =
        getBuffer(rewriter, haloOp.getLocal(), options, state);
    if (failed(local))
      return failure();
    auto memrefType = [](Value v) -> Type {
      return getMemRefTypeWithStaticIdentityLayout(
          cast<TensorType>(v.getType()));
    };
    replaceOpWithNewBufferizedOp<GetHaloOp>(
        rewriter, op, haloOp.getHandle().getType(),
        memrefType(haloOp.getLeft()), memrefType(haloOp.getRight()), *local,
        haloOp.getGShape(), haloOp.getLOffsets(), haloOp.getBbOffsets(),
        haloOp.getBbSizes(), haloOp.getTeamAttr(), haloOp.getKeyAttr());
    return success();
  }
};
} // namespace

void mlir::distruntime::registerBufferizableOpInterfaceExternalModels(
    DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, DistRuntimeDialect *) {
    GetHaloOp::attachInterface<GetHaloOpInterface>(*ctx);
  });
}
