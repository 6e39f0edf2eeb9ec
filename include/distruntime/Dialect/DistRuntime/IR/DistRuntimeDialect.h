//===- DistRuntimeDialect.h - DistRuntime dialect and types -----*- C++ -*-===//
//
// The dialect, its types and attributes, and the communication resource that
// orders communicating operations.
//
//===----------------------------------------------------------------------===//

#ifndef DISTRUNTIME_DIALECT_DISTRUNTIME_IR_DISTRUNTIMEDIALECT_H
#define DISTRUNTIME_DIALECT_DISTRUNTIME_IR_DISTRUNTIMEDIALECT_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Dialect.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::distruntime {

/// The side-effect resource of team communication. Every communicating op
/// reads and writes it, so no transformation reorders, merges or erases them.
struct CommunicationResource
    : public SideEffects::Resource::Base<CommunicationResource> {
  StringRef getName() final { return "distruntime::Communication"; }
};

/// The unit attribute distruntime-verify-spmd sets on a communicating op
/// it proves every member of its team reaches alike (docs/verification.md):
/// the lowering tells the runtime (DISTRT_SITE_PROVEN), and DISTRT_CHECK=1
/// does not check the op again at run time.
constexpr StringLiteral kProvenAttrName = "distruntime.proven";

} // namespace mlir::distruntime

#include "distruntime/Dialect/DistRuntime/IR/DistRuntimeDialect.h.inc"
#include "distruntime/Dialect/DistRuntime/IR/DistRuntimeEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "distruntime/Dialect/DistRuntime/IR/DistRuntimeAttrs.h.inc"

#define GET_TYPEDEF_CLASSES
#include "distruntime/Dialect/DistRuntime/IR/DistRuntimeTypes.h.inc"

#endif // DISTRUNTIME_DIALECT_DISTRUNTIME_IR_DISTRUNTIMEDIALECT_H
