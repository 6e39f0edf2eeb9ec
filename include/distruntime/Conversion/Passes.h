//===- Passes.h - distruntime conversion passes -----------------*- C++ -*-===//

#ifndef DISTRUNTIME_CONVERSION_PASSES_H
#define DISTRUNTIME_CONVERSION_PASSES_H

#include "distruntime/Conversion/DistRuntimeToRuntime/DistRuntimeToRuntime.h"

#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassOptions.h"

namespace mlir::distruntime {

#define GEN_PASS_DECL
#include "distruntime/Conversion/Passes.h.inc"

/// Options of the `distruntime-to-llvm` pipeline.
struct DistRuntimeToLLVMOptions
    : public PassPipelineOptions<DistRuntimeToLLVMOptions> {
  PassOptions::Option<bool> bufferDeallocation{
      *this, "buffer-deallocation",
      llvm::cl::desc("Insert deallocations for buffers created by "
                     "bufferizing tensors (input must have no deallocs)"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> decomposeBatchingDims{
      *this, "decompose-batching-dims",
      llvm::cl::desc("Rewrite gather/scatter batching dimensions into the "
                     "older form first (distruntime-decompose-batching-dims)"),
      llvm::cl::init(false)};
};

/// distruntime + func/arith/scf/memref/tensor/linalg/vector -> LLVM dialect.
void buildDistRuntimeToLLVMPipeline(OpPassManager &pm,
                                    const DistRuntimeToLLVMOptions &options);

/// Registers the conversion and dialect transform passes and the
/// `distruntime-to-llvm` pipeline.
void registerDistRuntimePasses();

#define GEN_PASS_REGISTRATION
#include "distruntime/Conversion/Passes.h.inc"

} // namespace mlir::distruntime

#endif // DISTRUNTIME_CONVERSION_PASSES_H
