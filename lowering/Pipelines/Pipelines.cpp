//===- Pipelines.cpp - distruntime-to-llvm and pass registration ----------===//

#include "distruntime/Pipelines/Passes.h"

#include "distruntime/Conversion/Passes.h"
#include "distruntime/Dialect/DistRuntime/Transforms/Passes.h"

// The conversions one by one: mlir/Conversion/Passes.h declares every
// conversion MLIR has and doubled this file's compile time.
#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVMPass.h"
#include "mlir/Conversion/IndexToLLVM/IndexToLLVM.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Conversion/VectorToLLVM/ConvertVectorToLLVMPass.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;
using namespace mlir::distruntime;

void mlir::distruntime::buildDistRuntimeToLLVMPipeline(
    OpPassManager &pm, const DistRuntimeToLLVMOptions &options) {
  if (options.remarks)
    pm.addPass(createEnableRemarks());
  // The program as written, before bufferization adds copies.
  if (options.verifySPMD) {
    VerifySPMDOptions verify;
    verify.warningsAsErrors = options.spmdWarningsAsErrors;
    pm.addPass(createVerifySPMD(verify));
  }
  // Before combining: combined ops agree on their level.
  if (!options.reproducibility.empty()) {
    SetReproducibilityOptions level;
    level.level = options.reproducibility;
    pm.addPass(createSetReproducibility(level));
  }
  // Tensors first become memrefs, so the conversion only sees memref forms.
  if (options.decomposeBatchingDims)
    pm.addPass(createDecomposeBatchingDims());
  // On tensors (values: only uses order them) and memrefs as written.
  if (options.combineCollectives) {
    CombineCollectivesOptions combine;
    combine.maxBytes = options.combineMaxBytes;
    pm.addPass(createCombineCollectives(combine));
  }
  bufferization::OneShotBufferizePassOptions bufferize;
  bufferize.bufferizeFunctionBoundaries = true;
  bufferize.functionBoundaryTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  // A loop may carry a collective's result: each iteration's result is a
  // new buffer (freed with buffer-deallocation=1).
  bufferize.allowReturnAllocsFromLoops = true;
  pm.addPass(bufferization::createOneShotBufferizePass(bufferize));
  if (options.bufferDeallocation)
    bufferization::buildBufferDeallocationPipeline(pm);
  pm.addPass(createLowerGatherScatter());
  // On memrefs, with the deallocations placed: a wait stays before them.
  if (options.overlapHalo)
    pm.addPass(createOverlapHalo());
  if (options.asyncCollectives) {
    AsyncCollectivesOptions async;
    async.minBytes = options.asyncMinBytes;
    pm.addPass(createAsyncCollectives(async));
  }
  pm.addPass(createConvertDistRuntimeToRuntime());

  // Then the upstream lowering of everything else, as in mlir-runner tests.
  pm.addNestedPass<func::FuncOp>(createConvertLinalgToLoopsPass());
  // Stencil rows load each element once (LLVM keeps the recurrence). On
  // the module: what a call writes is read from its callee's body.
  if (options.carryLoads)
    pm.addPass(createCarryLoads());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(createConvertVectorToLLVMPass());
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertControlFlowToLLVMPass());
  pm.addPass(createConvertIndexToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
}

void mlir::distruntime::buildShardToLLVMPipeline(
    OpPassManager &pm, const ShardToLLVMOptions &options) {
  pm.addPass(createPartitionShardedFunctions());
  if (options.shardSimplify) {
    ShardSimplifyOptions simplify;
    simplify.reassociate = options.reassociate;
    pm.addPass(createShardSimplify(simplify));
  }
  ConvertShardToDistRuntimeOptions convert;
  convert.team = options.team;
  pm.addPass(createConvertShardToDistRuntime(convert));
  // Folds the index arithmetic the partitioner and the conversion leave.
  pm.addPass(createCanonicalizerPass());
  DistRuntimeToLLVMOptions llvm;
  llvm.assignShared(options);
  buildDistRuntimeToLLVMPipeline(pm, llvm);
}

void mlir::distruntime::registerDistRuntimePasses() {
  registerDistRuntimeConversionPasses();
  registerDistRuntimeTransformsPasses();
  registerDistRuntimePipelinesPasses();
  PassPipelineRegistration<DistRuntimeToLLVMOptions>(
      "distruntime-to-llvm",
      "Lower distruntime and func/arith/scf/memref/tensor/linalg/vector to "
      "the LLVM dialect, calling libdistrt",
      buildDistRuntimeToLLVMPipeline);
  PassPipelineRegistration<ShardToLLVMOptions>(
      "shard-to-llvm",
      "Partition a program annotated with upstream shard ops and lower it "
      "through distruntime to the LLVM dialect",
      buildShardToLLVMPipeline);
}
