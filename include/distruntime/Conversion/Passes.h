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
  PassOptions::Option<bool> verifyAsync{
      *this, "verify-async",
      llvm::cl::desc("Report accesses to the buffers of a pending async op "
                     "before its wait (distruntime-verify-async)"),
      llvm::cl::init(true)};
};

/// distruntime + func/arith/scf/memref/tensor/linalg/vector -> LLVM dialect.
void buildDistRuntimeToLLVMPipeline(OpPassManager &pm,
                                    const DistRuntimeToLLVMOptions &options);

/// Options of the `shard-to-llvm` pipeline.
struct ShardToLLVMOptions : public PassPipelineOptions<ShardToLLVMOptions> {
  PassOptions::Option<int64_t> team{
      *this, "team",
      llvm::cl::desc("The distruntime team the shard grids map onto"),
      llvm::cl::init(0)};
  PassOptions::Option<bool> bufferDeallocation{
      *this, "buffer-deallocation",
      llvm::cl::desc("Insert deallocations for buffers created by "
                     "bufferizing tensors (input must have no deallocs)"),
      llvm::cl::init(false)};
};

/// A program annotated with upstream shard ops -> LLVM dialect:
/// sharding-propagation and shard-partition on every function,
/// convert-shard-to-distruntime, then distruntime-to-llvm.
void buildShardToLLVMPipeline(OpPassManager &pm,
                              const ShardToLLVMOptions &options);

/// Registers the conversion and dialect transform passes and the
/// `distruntime-to-llvm` and `shard-to-llvm` pipelines.
void registerDistRuntimePasses();

#define GEN_PASS_REGISTRATION
#include "distruntime/Conversion/Passes.h.inc"

} // namespace mlir::distruntime

#endif // DISTRUNTIME_CONVERSION_PASSES_H
