//===- Passes.h - distruntime conversion passes -----------------*- C++ -*-===//
//
// Every distruntime conversion, one header per conversion as upstream
// MLIR's Conversion/Passes.h; the pipelines are in Pipelines/Passes.h.
//
//===----------------------------------------------------------------------===//

#ifndef DISTRUNTIME_CONVERSION_PASSES_H
#define DISTRUNTIME_CONVERSION_PASSES_H

#include "distruntime/Conversion/DistRuntimeToRuntime/DistRuntimeToRuntime.h"
#include "distruntime/Conversion/ShardToDistRuntime/ShardToDistRuntime.h"

namespace mlir::distruntime {

#define GEN_PASS_REGISTRATION
#include "distruntime/Conversion/Passes.h.inc"

} // namespace mlir::distruntime

#endif // DISTRUNTIME_CONVERSION_PASSES_H
