//===- Pipelines.cpp - distruntime-to-llvm and pass registration ----------===//

#include "distruntime/Conversion/Passes.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::distruntime;

void mlir::distruntime::buildDistRuntimeToLLVMPipeline(
    OpPassManager &pm, const DistRuntimeToLLVMOptions &options) {
  // Tensors first become memrefs, so the conversion only sees memref forms;
  // then the upstream lowering of everything else, as in mlir-runner tests.
  std::string pipeline = llvm::formatv(
      "{1}"
      "one-shot-bufferize{{bufferize-function-boundaries "
      "function-boundary-type-conversion=identity-layout-map},"
      "{0}"
      "distruntime-lower-gather-scatter,"
      "convert-distruntime-to-runtime,"
      "func.func(convert-linalg-to-loops),"
      "expand-strided-metadata,"
      "lower-affine,"
      "convert-scf-to-cf,"
      "convert-vector-to-llvm,"
      "convert-math-to-llvm,"
      "finalize-memref-to-llvm,"
      "convert-func-to-llvm,"
      "convert-arith-to-llvm,"
      "convert-cf-to-llvm,"
      "convert-index-to-llvm,"
      "reconcile-unrealized-casts",
      options.bufferDeallocation ? "buffer-deallocation-pipeline," : "",
      options.decomposeBatchingDims ? "distruntime-decompose-batching-dims,"
                                    : "");
  if (failed(parsePassPipeline(pipeline, pm, llvm::errs())))
    llvm::report_fatal_error("distruntime-to-llvm: a pass is not registered");
}

void mlir::distruntime::registerDistRuntimePasses() {
  registerDistRuntimeConversionPasses();
  PassPipelineRegistration<DistRuntimeToLLVMOptions>(
      "distruntime-to-llvm",
      "Lower distruntime and func/arith/scf/memref/tensor/linalg/vector to "
      "the LLVM dialect, calling libdistrt",
      buildDistRuntimeToLLVMPipeline);
}
