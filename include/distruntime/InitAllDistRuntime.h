//===- InitAllDistRuntime.h - What distruntime-opt registers ----*- C++ -*-===//
//
// The dialects and extensions every distruntime tool registers: all of
// upstream MLIR's, the distruntime dialect and its bufferization models.
// distruntime-opt and distruntime-fuzz call it, so both see the same IR.
//
//===----------------------------------------------------------------------===//

#ifndef DISTRUNTIME_INITALLDISTRUNTIME_H
#define DISTRUNTIME_INITALLDISTRUNTIME_H

#include "distruntime/Dialect/DistRuntime/IR/BufferizableOpInterfaceImpl.h"
#include "distruntime/Dialect/DistRuntime/IR/DistRuntimeDialect.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"

namespace mlir::distruntime {

inline void registerAllDistRuntimeDialects(DialectRegistry &registry) {
  registerAllDialects(registry);
  registerAllExtensions(registry);
  registry.insert<DistRuntimeDialect>();
  registerBufferizableOpInterfaceExternalModels(registry);
}

} // namespace mlir::distruntime

#endif // DISTRUNTIME_INITALLDISTRUNTIME_H
