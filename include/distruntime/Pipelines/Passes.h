//===- Passes.h - distruntime pipelines -------------------------*- C++ -*-===//
//
// The `distruntime-to-llvm` and `shard-to-llvm` pipelines, the passes only
// they need, and the registration of every distruntime pass: the top of the
// compiler (dialect <- Transforms <- Conversion <- Pipelines <- tools).
//
//===----------------------------------------------------------------------===//

#ifndef DISTRUNTIME_PIPELINES_PASSES_H
#define DISTRUNTIME_PIPELINES_PASSES_H

#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassOptions.h"

namespace mlir::distruntime {

#define GEN_PASS_DECL
#include "distruntime/Pipelines/Passes.h.inc"

/// The options both pipelines take: how tensors are bufferized and which
/// of the distruntime-to-llvm passes run (the shard pipeline ends in it).
/// (The base is dependent: its PassOptions is named in full.)
template <typename Derived>
struct LoweringOptions : public PassPipelineOptions<Derived> {
  mlir::detail::PassOptions::Option<bool> bufferDeallocation{
      *this, "buffer-deallocation",
      llvm::cl::desc("Insert deallocations for buffers created by "
                     "bufferizing tensors (input must have no deallocs)"),
      llvm::cl::init(false)};
  mlir::detail::PassOptions::Option<bool> verifySPMD{
      *this, "verify-spmd",
      llvm::cl::desc("Check statically that the members of a team agree "
                     "(distruntime-verify-spmd); errors fail the compile"),
      llvm::cl::init(true)};
  mlir::detail::PassOptions::Option<bool> spmdWarningsAsErrors{
      *this, "spmd-warnings-as-errors",
      llvm::cl::desc("Fail the compile on the warnings of "
                     "distruntime-verify-spmd too"),
      llvm::cl::init(false)};
  mlir::detail::PassOptions::Option<std::string> reproducibility{
      *this, "reproducibility",
      llvm::cl::desc("The reproducibility level of reductions without one: "
                     "mpi, ordered or exact (empty: DISTRT_REPRODUCIBLE at "
                     "run time; distruntime-set-reproducibility)"),
      llvm::cl::init("")};
  mlir::detail::PassOptions::Option<bool> combineCollectives{
      *this, "combine-collectives",
      llvm::cl::desc("Combine independent all_reduces (all_gathers) of a "
                     "block into one op (distruntime-combine-collectives)"),
      llvm::cl::init(true)};
  mlir::detail::PassOptions::Option<int64_t> combineMaxBytes{
      *this, "combine-max-bytes",
      llvm::cl::desc("The inputs' bytes a combined op may have (0: no "
                     "limit; distruntime-combine-collectives' max-bytes)"),
      llvm::cl::init(0)};
  mlir::detail::PassOptions::Option<bool> overlapHalo{
      *this, "overlap-halo",
      llvm::cl::desc("Split a loop over rows after get_halo so its interior "
                     "overlaps the exchange (distruntime-overlap-halo)"),
      llvm::cl::init(true)};
  mlir::detail::PassOptions::Option<bool> asyncCollectives{
      *this, "async-collectives",
      llvm::cl::desc("Issue communication early and wait for it late "
                     "(distruntime-async-collectives)"),
      llvm::cl::init(true)};
  mlir::detail::PassOptions::Option<int64_t> asyncMinBytes{
      *this, "async-min-bytes",
      llvm::cl::desc("Leave ops with fewer bytes of buffers sync "
                     "(distruntime-async-collectives' min-bytes)"),
      llvm::cl::init(0)};
  mlir::detail::PassOptions::Option<bool> carryLoads{
      *this, "carry-loads",
      llvm::cl::desc("Carry loads a later loop iteration repeats in "
                     "iter_args (distruntime-carry-loads)"),
      llvm::cl::init(true)};

  mlir::detail::PassOptions::Option<bool> remarks{
      *this, "remarks",
      llvm::cl::desc("Print what the communication passes did and did not "
                     "do, as remarks (distruntime-enable-remarks)"),
      llvm::cl::init(false)};

  /// Takes the shared options of `other`.
  template <typename Other>
  void assignShared(const LoweringOptions<Other> &other) {
    bufferDeallocation = other.bufferDeallocation;
    verifySPMD = other.verifySPMD;
    spmdWarningsAsErrors = other.spmdWarningsAsErrors;
    reproducibility = other.reproducibility;
    combineCollectives = other.combineCollectives;
    combineMaxBytes = other.combineMaxBytes;
    overlapHalo = other.overlapHalo;
    asyncCollectives = other.asyncCollectives;
    asyncMinBytes = other.asyncMinBytes;
    carryLoads = other.carryLoads;
    remarks = other.remarks;
  }
};

/// Options of the `distruntime-to-llvm` pipeline.
struct DistRuntimeToLLVMOptions
    : public LoweringOptions<DistRuntimeToLLVMOptions> {
  PassOptions::Option<bool> decomposeBatchingDims{
      *this, "decompose-batching-dims",
      llvm::cl::desc("Rewrite gather/scatter batching dimensions into the "
                     "older form first (distruntime-decompose-batching-dims)"),
      llvm::cl::init(false)};
};

/// distruntime + func/arith/scf/memref/tensor/linalg/vector -> LLVM dialect.
void buildDistRuntimeToLLVMPipeline(OpPassManager &pm,
                                    const DistRuntimeToLLVMOptions &options);

/// Options of the `shard-to-llvm` pipeline.
struct ShardToLLVMOptions : public LoweringOptions<ShardToLLVMOptions> {
  PassOptions::Option<int64_t> team{
      *this, "team",
      llvm::cl::desc("The distruntime team the shard grids map onto"),
      llvm::cl::init(0)};
  PassOptions::Option<bool> shardSimplify{
      *this, "shard-simplify",
      llvm::cl::desc("Rewrite shard.all_reduce + shard.all_slice into "
                     "shard.reduce_scatter (distruntime-shard-simplify)"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> reassociate{
      *this, "reassociate",
      llvm::cl::desc("Let shard-simplify rewrite floating-point reductions "
                     "over groups of more than two too (last bits may "
                     "change)"),
      llvm::cl::init(false)};
};

/// A program annotated with upstream shard ops -> LLVM dialect:
/// partition-sharded-functions (sharding-propagation and shard-partition on
/// the annotated functions), distruntime-shard-simplify,
/// convert-shard-to-distruntime, then distruntime-to-llvm.
void buildShardToLLVMPipeline(OpPassManager &pm,
                              const ShardToLLVMOptions &options);

/// Registers every distruntime pass (the conversions, the dialect transforms
/// and partition-sharded-functions) and the `distruntime-to-llvm` and
/// `shard-to-llvm` pipelines.
void registerDistRuntimePasses();

#define GEN_PASS_REGISTRATION
#include "distruntime/Pipelines/Passes.h.inc"

} // namespace mlir::distruntime

#endif // DISTRUNTIME_PIPELINES_PASSES_H
