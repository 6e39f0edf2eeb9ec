//===- Passes.td - distruntime pipeline passes -------------*- tablegen -*-===//
//
// Passes that only the pipelines need: stages built from upstream passes,
// neither a conversion nor a transform of the distruntime dialect. The
// pipelines themselves are declared in Passes.h.
//
//===----------------------------------------------------------------------===//

#ifndef DISTRUNTIME_PIPELINES_PASSES_TD
#define DISTRUNTIME_PIPELINES_PASSES_TD

include "mlir/Pass/PassBase.td"

def PartitionShardedFunctions
    : Pass<"partition-sharded-functions", "::mlir::ModuleOp"> {
  let summary = "Run sharding-propagation and shard-partition where shard "
                "ops are";
  let description = [{
    Upstream's `sharding-propagation` and `shard-partition` are function
    passes that reject function declarations ("only one block is
    supported") and any op without a sharding interface, such as a call to
    a print function. This pass runs both only on the functions that
    are annotated, so a program can keep its driver (`main`, printing,
    calls) next to the sharded functions it calls. A function is sharded if
    it has `shard.shard` annotations; one already partitioned (only shard
    communication ops) is left as it is.
  }];
}

#endif // DISTRUNTIME_PIPELINES_PASSES_TD
