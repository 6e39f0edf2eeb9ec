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

  void runOnOperation() override {
    OpPassManager pm = createPartitionPipeline();
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      bool sharded = !func.isExternal() && func.walk([](shard::ShardOp) {
                                                 return WalkResult::interrupt();
                                               })
                                               .wasInterrupted();
      if (sharded && failed(runPipeline(pm, func)))
        return signalPassFailure();
    }
  }
};

} // namespace
