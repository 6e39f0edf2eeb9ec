//===- ShardToDistRuntime.h - shard ops to distruntime ops ------*- C++ -*-===//
//
// convert-shard-to-distruntime: upstream shard ops (after shard-partition)
// to distruntime ops; distruntime-shard-simplify, the shard-level rewrite
// before it.
//
//===----------------------------------------------------------------------===//

#ifndef DISTRUNTIME_CONVERSION_SHARDTODISTRUNTIME_SHARDTODISTRUNTIME_H
#define DISTRUNTIME_CONVERSION_SHARDTODISTRUNTIME_SHARDTODISTRUNTIME_H

#include "mlir/Pass/Pass.h"

namespace mlir::distruntime {

#define GEN_PASS_DECL_CONVERTSHARDTODISTRUNTIME
#define GEN_PASS_DECL_SHARDSIMPLIFY
#include "distruntime/Conversion/Passes.h.inc"

} // namespace mlir::distruntime

#endif // DISTRUNTIME_CONVERSION_SHARDTODISTRUNTIME_SHARDTODISTRUNTIME_H
