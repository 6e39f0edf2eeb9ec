//===- PartitionShardedFunctions.cpp - partition where shard ops are ------===//

#include "distruntime/Conversion/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Shard/IR/ShardOps.h"
#include "mlir/Dialect/Shard/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"

namespace mlir::distruntime {
#define GEN_PASS_DEF_PARTITIONSHARDEDFUNCTIONS
#include "distruntime/Conversion/Passes.h.inc"
} // namespace mlir::distruntime

using namespace mlir;

namespace {

struct PartitionShardedFunctions
    : public distruntime::impl::PartitionShardedFunctionsBase<
          PartitionShardedFunctions> {
  using Base::Base;

  static OpPassManager createPartitionPipeline() {
    OpPassManager pm(func::FuncOp::getOperationName());
    pm.addPass(shard::createShardingPropagation());
    pm.addPass(shard::createPartition());
    return pm;
  }

  void getDependentDialects(DialectRegistry &registry) const override {
    createPartitionPipeline().getDependentDialects(registry);
  }

protected:
  void runOnOperation() override {
    ModuleOp module = getOperation();
    OpPassManager pm = createPartitionPipeline();
    for (auto func : module.getOps<func::FuncOp>()) {
      if (func.isExternal() || !hasAnnotations(func))
        continue;
      FunctionType before = func.getFunctionType();
      if (failed(runPipeline(pm, func)) ||
          failed(checkCallers(module, func, before)))
        return signalPassFailure();
    }
  }

private:
  static bool hasAnnotations(func::FuncOp func) {
    return func.walk([](shard::ShardOp) { return WalkResult::interrupt(); })
        .wasInterrupted();
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
