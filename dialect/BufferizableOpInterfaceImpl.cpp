//===- BufferizableOpInterfaceImpl.cpp - Bufferize tensor-form ops --------===//
//
// get_halo and the collectives on tensors read their inputs and return
// freshly allocated results, so their memref forms are the bufferized ops:
// nothing aliases, nothing is written (ragged_all_to_all's result starts as
// a copy of its second input). Async forms read private copies of their
// inputs, which no later op can write before the wait. update_halo is
// destination style: its result is its block, updated in place.
//
//===----------------------------------------------------------------------===//

#include "distruntime/Dialect/DistRuntime/IR/BufferizableOpInterfaceImpl.h"
#include "distruntime/Dialect/DistRuntime/IR/DistRuntimeOps.h"

#include "mlir/Dialect/Bufferization/IR/BufferizableOpInterface.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;
using namespace mlir::bufferization;
using namespace mlir::distruntime;

namespace {
/// The common analysis of distruntime ops on tensors: they read their tensor
/// operands, never write them, and return freshly allocated tensors.
template <typename Model, typename Op>
struct AllocatingOpInterface
    : public BufferizableOpInterface::ExternalModel<Model, Op> {
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
  FailureOr<BufferLikeType> getBufferType(Operation *, Value value,
                                          const BufferizationOptions &,
                                          const BufferizationState &,
                                          SmallVector<Value> &) const {
    return cast<BufferLikeType>(getMemRefTypeWithStaticIdentityLayout(
        cast<TensorType>(value.getType())));
  }
};

} // namespace

/// A private copy of `buffer`. An async op reads its inputs until its wait,
/// but in tensor form nothing ties them to the wait: once the op has read an
/// input, bufferization may let a later op write into the input's buffer.
/// The async forms therefore read copies that nothing else can reach, which
/// buffer deallocation frees at the end of the block, after the wait.
static FailureOr<Value> privateCopy(RewriterBase &rewriter, Location loc,
                                    Value buffer,
                                    const BufferizationOptions &options) {
  auto type = cast<MemRefType>(buffer.getType());
  SmallVector<Value> sizes;
  for (int64_t d = 0; d < type.getRank(); ++d)
    if (type.isDynamicDim(d))
      sizes.push_back(memref::DimOp::create(rewriter, loc, buffer, d));
  FailureOr<Value> copy = options.createAlloc(
      rewriter, loc, MemRefType::get(type.getShape(), type.getElementType()),
      sizes);
  if (failed(copy) ||
      failed(options.createMemCpy(rewriter, loc, buffer, *copy)))
    return failure();
  return copy;
}

/// Buffer deallocation frees the buffers of an op at the end of its block,
/// so an async tensor-form op must be waited in that block.
static LogicalResult checkWaitInBlock(Operation *op, Value handle) {
  for (Operation *user : handle.getUsers())
    if (isa<WaitOp>(user) && user->getBlock() == op->getBlock())
      return success();
  return op->emitOpError("is async on tensors, so it must be waited in its "
                         "own block (its buffers live until the end of the "
                         "block); wait elsewhere with the memref form");
}

namespace {

/// get_halo's memref form is its bufferization; being async, it reads a
/// private copy of `local`.
struct GetHaloOpInterface
    : public AllocatingOpInterface<GetHaloOpInterface, GetHaloOp> {
  LogicalResult bufferize(Operation *op, RewriterBase &rewriter,
                          const BufferizationOptions &options,
                          BufferizationState &state) const {
    auto haloOp = cast<GetHaloOp>(op);
    if (failed(checkWaitInBlock(op, haloOp.getHandle())))
      return failure();
    FailureOr<Value> local =
        getBuffer(rewriter, haloOp.getLocal(), options, state);
    if (succeeded(local))
      local = privateCopy(rewriter, op->getLoc(), *local, options);
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

/// update_halo reads and writes its block in place: the result is the
/// block's buffer (one-shot-bufferize copies the block first where the
/// original tensor is still used).
struct UpdateHaloOpInterface
    : public BufferizableOpInterface::ExternalModel<UpdateHaloOpInterface,
                                                    UpdateHaloOp> {
  bool bufferizesToMemoryRead(Operation *, OpOperand &,
                              const AnalysisState &) const {
    return true;
  }
  bool bufferizesToMemoryWrite(Operation *, OpOperand &,
                               const AnalysisState &) const {
    return true;
  }
  AliasingValueList getAliasingValues(Operation *op, OpOperand &,
                                      const AnalysisState &) const {
    return {{cast<UpdateHaloOp>(op).getResult(), BufferRelation::Equivalent}};
  }
  LogicalResult bufferize(Operation *op, RewriterBase &rewriter,
                          const BufferizationOptions &options,
                          BufferizationState &state) const {
    auto haloOp = cast<UpdateHaloOp>(op);
    // The buffer must live until the wait, and buffer deallocation frees it
    // at the end of its block.
    if (haloOp.getHandle() && failed(checkWaitInBlock(op, haloOp.getHandle())))
      return failure();
    FailureOr<Value> block =
        getBuffer(rewriter, haloOp.getBlock(), options, state);
    if (failed(block))
      return failure();
    Value handle = haloOp.getHandle();
    auto memrefForm = UpdateHaloOp::create(
        rewriter, op->getLoc(), Type(), handle ? handle.getType() : Type(),
        *block, haloOp.getGridValues(), haloOp.getGridAttr(),
        haloOp.getSplitAxesAttr(), haloOp.getHaloSizes(),
        haloOp.getStaticHaloSizesAttr(), haloOp.getTeamAttr(),
        haloOp.getKeyAttr());
    // distruntime.proven stays with the op, as the collectives' clones keep
    // theirs.
    memrefForm->setDiscardableAttrs(op->getDiscardableAttrDictionary());
    SmallVector<Value> replacements{*block};
    if (Value handle = memrefForm.getHandle())
      replacements.push_back(handle);
    replaceOpWithBufferizedValues(rewriter, op, replacements);
    return success();
  }
};

} // namespace

/// A new buffer of `type` whose dynamic sizes come from `size(d)`.
static Value allocate(RewriterBase &rewriter, Location loc, TensorType type,
                      function_ref<Value(int64_t)> size) {
  auto memrefType =
      cast<MemRefType>(getMemRefTypeWithStaticIdentityLayout(type));
  SmallVector<Value> sizes;
  for (int64_t d = 0; d < memrefType.getRank(); ++d)
    if (memrefType.isDynamicDim(d))
      sizes.push_back(size(d));
  return memref::AllocOp::create(rewriter, loc, memrefType, sizes);
}

/// A new buffer of `type` whose dynamic sizes are those of `like`.
static Value allocateLike(RewriterBase &rewriter, Location loc, Type type,
                          Value like) {
  return allocate(rewriter, loc, cast<TensorType>(type), [&](int64_t d) {
    return memref::DimOp::create(rewriter, loc, like, d).getResult();
  });
}

/// The buffers of `tensors`, in order.
static FailureOr<SmallVector<Value>>
getBuffers(RewriterBase &rewriter, ValueRange tensors,
           const BufferizationOptions &options,
           const BufferizationState &state) {
  SmallVector<Value> buffers;
  for (Value tensor : tensors) {
    FailureOr<Value> buffer = getBuffer(rewriter, tensor, options, state);
    if (failed(buffer))
      return failure();
    buffers.push_back(*buffer);
  }
  return buffers;
}

namespace {

/// Tensor-form collectives read their inputs and return fresh tensors: the
/// memref form with newly allocated outputs is their bufferization. Async
/// ones read private copies of their inputs (see privateCopy).
template <typename Op>
struct CollectiveOpBufferization
    : public AllocatingOpInterface<CollectiveOpBufferization<Op>, Op> {
  LogicalResult bufferize(Operation *op, RewriterBase &rewriter,
                          const BufferizationOptions &options,
                          BufferizationState &state) const {
    auto collective = cast<CollectiveOpInterface>(op);
    Location loc = op->getLoc();
    FailureOr<SmallVector<Value>> inputs =
        getBuffers(rewriter, collective.getInputs(), options, state);
    // Read when the op is issued, async or not: no private copy.
    FailureOr<SmallVector<Value>> tables = getBuffers(
        rewriter, collective.getRuntimeTableOperands(), options, state);
    Value groupTable;
    if (Value table = collective.getGroupTable()) {
      FailureOr<Value> buffer = getBuffer(rewriter, table, options, state);
      if (failed(buffer))
        return failure();
      groupTable = *buffer;
    }
    if (failed(inputs) || failed(tables))
      return failure();
    Value handle = collective.getHandle();
    if (handle && failed(checkWaitInBlock(op, handle)))
      return failure();
    // ragged_all_to_all's result starts as its second input, a copy of
    // which the memref form updates.
    Value initial;
    if constexpr (std::is_same_v<Op, RaggedAllToAllOp>)
      initial = inputs->pop_back_val();
    if (handle)
      for (Value &input : *inputs) {
        FailureOr<Value> copy = privateCopy(rewriter, loc, input, options);
        if (failed(copy))
          return failure();
        input = *copy;
      }
    if (initial) {
      Value output = allocateLike(rewriter, loc,
                                  collective->getResult(0).getType(), initial);
      memref::CopyOp::create(rewriter, loc, initial, output);
      Operation *memrefForm = collective.cloneWithBuffers(
          rewriter, *inputs, output, *tables, groupTable);
      SmallVector<Value> replacements{output};
      llvm::append_range(replacements, memrefForm->getResults());
      replaceOpWithBufferizedValues(rewriter, op, replacements);
      return success();
    }
    // A dynamic result size is the input's where the op keeps the dimension.
    SmallVector<int64_t> changed = collective.getChangedDims();
    for (auto [k, result] : llvm::enumerate(collective.getResults())) {
      auto type = cast<ShapedType>(result.getType());
      for (int64_t d = 0; d < type.getRank(); ++d)
        if (type.isDynamicDim(d) &&
            (llvm::is_contained(changed, d) || k >= inputs->size()))
          return op->emitOpError("result #")
                 << k << " needs a static size in dimension " << d
                 << " to be bufferized";
    }
    SmallVector<Value> outputs;
    for (auto [k, result] : llvm::enumerate(collective.getResults()))
      outputs.push_back(
          allocateLike(rewriter, loc, result.getType(), (*inputs)[k]));

    Operation *memrefForm = collective.cloneWithBuffers(
        rewriter, *inputs, outputs, *tables, groupTable);
    SmallVector<Value> replacements(outputs);
    llvm::append_range(replacements, memrefForm->getResults());
    replaceOpWithBufferizedValues(rewriter, op, replacements);
    return success();
  }
};

/// gather reads operand and indices and returns a new tensor.
struct GatherOpInterface
    : public AllocatingOpInterface<GatherOpInterface, GatherOp> {
  LogicalResult bufferize(Operation *op, RewriterBase &rewriter,
                          const BufferizationOptions &options,
                          BufferizationState &state) const {
    auto gather = cast<GatherOp>(op);
    Location loc = op->getLoc();
    FailureOr<Value> operand =
        getBuffer(rewriter, gather.getOperand(), options, state);
    FailureOr<Value> indices =
        getBuffer(rewriter, gather.getStartIndices(), options, state);
    if (failed(operand) || failed(indices))
      return failure();
    // Batch dims take the size of their start_indices dim, offset dims the
    // (static) slice size.
    GatherDimensionNumbersAttr dims = gather.getDimensionNumbers();
    int64_t ivd = dims.getIndexVectorDim();
    ArrayRef<int64_t> offsetDims = dims.getOffsetDims();
    SmallVector<int64_t> offsetSizes;
    for (auto [d, size] : llvm::enumerate(gather.getSliceSizes()))
      if (!llvm::is_contained(dims.getCollapsedSliceDims(), d) &&
          !llvm::is_contained(dims.getOperandBatchingDims(), d))
        offsetSizes.push_back(size);
    auto resultType = cast<TensorType>(gather.getResult().getType());
    Value output = allocate(rewriter, loc, resultType, [&](int64_t d) -> Value {
      if (auto *it = llvm::find(offsetDims, d); it != offsetDims.end())
        return arith::ConstantIndexOp::create(
            rewriter, loc, offsetSizes[it - offsetDims.begin()]);
      int64_t batch =
          d - llvm::count_if(offsetDims, [&](int64_t o) { return o < d; });
      return memref::DimOp::create(rewriter, loc, *indices,
                                   batch < ivd ? batch : batch + 1);
    });
    GatherOp::create(rewriter, loc, Type(), *operand, *indices, output, dims,
                     gather.getSliceSizesAttr(),
                     gather.getIndicesAreSortedAttr());
    replaceOpWithBufferizedValues(rewriter, op, output);
    return success();
  }
};

/// scatter never writes its input tensors: the results are new buffers that
/// start as copies of the inputs (the loop lowering copies).
struct ScatterOpInterface
    : public AllocatingOpInterface<ScatterOpInterface, ScatterOp> {
  LogicalResult bufferize(Operation *op, RewriterBase &rewriter,
                          const BufferizationOptions &options,
                          BufferizationState &state) const {
    auto scatter = cast<ScatterOp>(op);
    Location loc = op->getLoc();
    FailureOr<SmallVector<Value>> inputs =
        getBuffers(rewriter, scatter.getInputs(), options, state);
    FailureOr<SmallVector<Value>> updates =
        getBuffers(rewriter, scatter.getUpdates(), options, state);
    FailureOr<Value> indices =
        getBuffer(rewriter, scatter.getScatterIndices(), options, state);
    if (failed(inputs) || failed(updates) || failed(indices))
      return failure();
    SmallVector<Value> outputs;
    for (auto [k, result] : llvm::enumerate(scatter.getResults()))
      outputs.push_back(
          allocateLike(rewriter, loc, result.getType(), (*inputs)[k]));
    auto memrefForm = ScatterOp::create(
        rewriter, loc, TypeRange(), *inputs, *indices, *updates, outputs,
        scatter.getScatterDimensionNumbersAttr(),
        scatter.getIndicesAreSortedAttr(), scatter.getUniqueIndicesAttr());
    memrefForm.getUpdateComputation().takeBody(scatter.getUpdateComputation());
    replaceOpWithBufferizedValues(rewriter, op, outputs);
    return success();
  }
};

} // namespace

template <typename Op> static void attachIfCollective(MLIRContext *ctx) {
  if constexpr (Op::template hasTrait<CollectiveOpInterface::Trait>())
    Op::template attachInterface<CollectiveOpBufferization<Op>>(*ctx);
}

/// Attaches the collective model to each of `Ops` that is a collective:
/// given every op of the dialect, a new collective needs no line here.
template <typename... Ops>
static void attachCollectiveModels(MLIRContext *ctx) {
  (attachIfCollective<Ops>(ctx), ...);
}

void mlir::distruntime::registerBufferizableOpInterfaceExternalModels(
    DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, DistRuntimeDialect *) {
    GetHaloOp::attachInterface<GetHaloOpInterface>(*ctx);
    UpdateHaloOp::attachInterface<UpdateHaloOpInterface>(*ctx);
    attachCollectiveModels<
#define GET_OP_LIST
#include "distruntime/Dialect/DistRuntime/IR/DistRuntimeOps.cpp.inc"
        >(ctx);
    GatherOp::attachInterface<GatherOpInterface>(*ctx);
    ScatterOp::attachInterface<ScatterOpInterface>(*ctx);
  });
}
