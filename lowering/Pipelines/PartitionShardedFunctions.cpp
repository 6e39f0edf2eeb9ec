//===- PartitionShardedFunctions.cpp - partition where shard ops are ------===//

#include "distruntime/Pipelines/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Shard/IR/ShardOps.h"
#include "mlir/Dialect/Shard/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/InterleavedRange.h"

namespace mlir::distruntime {
#define GEN_PASS_DEF_PARTITIONSHARDEDFUNCTIONS
#include "distruntime/Pipelines/Passes.h.inc"
} // namespace mlir::distruntime

using namespace mlir;

namespace {

struct PartitionShardedFunctions
    : public distruntime::impl::PartitionShardedFunctionsBase<
          PartitionShardedFunctions> {
  using Base::Base;

  static OpPassManager createPropagationPipeline() {
    OpPassManager pm(func::FuncOp::getOperationName());
    pm.addPass(shard::createShardingPropagation());
    return pm;
  }

  static OpPassManager createPartitionPipeline() {
    OpPassManager pm(func::FuncOp::getOperationName());
    pm.addPass(shard::createPartition());
    return pm;
  }

  void getDependentDialects(DialectRegistry &registry) const override {
    createPropagationPipeline().getDependentDialects(registry);
    createPartitionPipeline().getDependentDialects(registry);
  }

protected:
  void runOnOperation() override {
    ModuleOp module = getOperation();
    OpPassManager propagate = createPropagationPipeline();
    OpPassManager partition = createPartitionPipeline();
    for (auto func : module.getOps<func::FuncOp>()) {
      if (func.isExternal() || !hasAnnotations(func))
        continue;
      FunctionType before = func.getFunctionType();
      // Propagation first, so that every sharded value has its annotation.
      if (failed(runPipeline(propagate, func)) ||
          failed(checkEvenSplits(func)) ||
          failed(runPipeline(partition, func)) ||
          failed(checkCallers(module, func, before)))
        return signalPassFailure();
    }
  }

private:
  static bool hasAnnotations(func::FuncOp func) {
    return func.walk([](shard::ShardOp) { return WalkResult::interrupt(); })
        .wasInterrupted();
  }

  /// shard-partition gives each shard dim / n elements of a split dimension
  /// and assumes n divides it; an uneven split ends in an error on IR it
  /// made (a tensor.cast between shard and global sizes). Refuse it at the
  /// annotation instead. Explicit sharded_dims_offsets are left to upstream.
  static LogicalResult checkEvenSplits(func::FuncOp func) {
    SymbolTableCollection symbols;
    WalkResult walk = func.walk([&](shard::ShardOp op) {
      auto sharding = op.getSharding().getDefiningOp<shard::ShardingOp>();
      if (!sharding || !sharding.getStaticShardedDimsOffsets().empty())
        return WalkResult::advance();
      shard::GridOp grid =
          shard::getGridOrNull(op, sharding.getGridAttr(), symbols);
      if (!grid)
        return WalkResult::advance();
      RankedTensorType type = op.getSrc().getType();
      for (auto [d, axes] :
           llvm::enumerate(sharding.getSplitAxes().getAxes())) {
        if (axes.empty() || static_cast<int64_t>(d) >= type.getRank() ||
            type.isDynamicDim(d))
          continue;
        int64_t size = type.getDimSize(d);
        int64_t shards =
            shard::collectiveProcessGroupSize(axes.asArrayRef(), grid);
        // kDynamic is negative; an axis of size 0 is refused later.
        if (shards <= 0 || size % shards == 0)
          continue;
        std::string axesText;
        llvm::raw_string_ostream os(axesText);
        if (axes.size() == 1)
          os << "axis " << axes.asArrayRef()[0];
        else
          os << "axes " << llvm::interleaved_array(axes.asArrayRef());
        InFlightDiagnostic diag =
            op.emitOpError("dimension ")
            << d << " of size " << size << " does not divide evenly over grid "
            << axesText << " of @" << grid.getSymName() << " (" << shards
            << " processes); uneven splits need SPMD form with shard_shape "
               "(see examples/shard/jacobi.mlir)";
        // Propagation makes shardings at the location of the op it annotates.
        if (sharding.getLoc() != op.getLoc())
          diag.attachNote(sharding.getLoc()) << "split by this sharding";
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    return failure(walk.wasInterrupted());
  }

  /// shard-partition gives a function whose arguments or results are split
  /// at its boundary the local shard types; its callers still pass global
  /// ones, which would be invalid IR. Say so at each call.
  static LogicalResult checkCallers(ModuleOp module, func::FuncOp func,
                                    FunctionType before) {
    if (func.getFunctionType() == before)
      return success();
    bool ok = true;
    if (std::optional<SymbolTable::UseRange> uses =
            SymbolTable::getSymbolUses(func, module))
      for (SymbolTable::SymbolUse use : *uses) {
        if (!isa<func::CallOp>(use.getUser()))
          continue;
        use.getUser()->emitError("calls @")
            << func.getSymName()
            << ", whose arguments or results shard-partition split at the "
               "function boundary: its type became "
            << func.getFunctionType() << " (was " << before
            << "); annotate them replicated and split inside the function "
               "(as examples/shard/matmul.mlir does)";
        ok = false;
      }
    return success(ok);
  }
};

} // namespace
