//===- Passes.h - distruntime dialect transforms ----------------*- C++ -*-===//

#ifndef DISTRUNTIME_DIALECT_DISTRUNTIME_TRANSFORMS_PASSES_H
#define DISTRUNTIME_DIALECT_DISTRUNTIME_TRANSFORMS_PASSES_H

#include "mlir/Pass/Pass.h"

namespace mlir::distruntime {

#define GEN_PASS_DECL
#include "distruntime/Dialect/DistRuntime/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "distruntime/Dialect/DistRuntime/Transforms/Passes.h.inc"

} // namespace mlir::distruntime

#endif // DISTRUNTIME_DIALECT_DISTRUNTIME_TRANSFORMS_PASSES_H
