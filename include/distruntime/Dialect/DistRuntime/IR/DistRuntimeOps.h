//===- DistRuntimeOps.h - DistRuntime operations ----------------*- C++ -*-===//

#ifndef DISTRUNTIME_DIALECT_DISTRUNTIME_IR_DISTRUNTIMEOPS_H
#define DISTRUNTIME_DIALECT_DISTRUNTIME_IR_DISTRUNTIMEOPS_H

#include "distruntime/Dialect/DistRuntime/IR/DistRuntimeDialect.h"
#include "distruntime/Dialect/DistRuntime/IR/ProcessGroups.h"
#include "distruntime/Dialect/DistRuntime/IR/RuntimeFunction.h"
#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"

namespace mlir::distruntime::detail {
/// The memrefs `op`'s memory effects read and write (allocations left out;
/// a buffer both read and written is listed as written only):
/// CommunicatingOpInterface's default buffers in flight.
void getEffectBuffers(Operation *op, SmallVectorImpl<Value> &reads,
                      SmallVectorImpl<Value> &writes);
} // namespace mlir::distruntime::detail

#include "distruntime/Dialect/DistRuntime/IR/DistRuntimeInterfaces.h.inc"

namespace mlir::distruntime {
/// The runtime's reduction argument: `kind`, with `level` in the bits from
/// DISTRT_REPRO_SHIFT (8) on, 0 there if absent (the environment decides).
inline int64_t getReductionArgument(ReductionKind kind,
                                    std::optional<Reproducibility> level) {
  return static_cast<int64_t>(kind) |
         (level ? static_cast<int64_t>(*level) << 8 : 0);
}
} // namespace mlir::distruntime

#define GET_OP_CLASSES
#include "distruntime/Dialect/DistRuntime/IR/DistRuntimeOps.h.inc"

namespace mlir::distruntime {
/// The reduction a StableHLO-style `computation` region performs, if its
/// body is one the runtime implements.
std::optional<ReductionKind> matchReductionRegion(Region &region);

/// StableHLO's is_promotable(from, to) on the dialect's element types: the
/// same kind (i1 only to i1, integers to integers, floats to floats) and a
/// bit width no larger.
bool isPromotable(Type from, Type to);

/// Checks that `kind` is defined on `elementType`: and/or/xor/umin/umax need
/// integers, minimum/maximum/minnum/maxnum floats. `operand` names the
/// operand in the diagnostic.
LogicalResult verifyReductionElementType(Operation *op, ReductionKind kind,
                                         Type elementType,
                                         const Twine &operand);

/// Checks that `level` fits `kind` on `elementType`: `exact` rounds sums,
/// so a floating-point product cannot ask for it.
LogicalResult verifyReproducibility(Operation *op, ReductionKind kind,
                                    Type elementType,
                                    std::optional<Reproducibility> level,
                                    const Twine &operand);
} // namespace mlir::distruntime

#endif // DISTRUNTIME_DIALECT_DISTRUNTIME_IR_DISTRUNTIMEOPS_H
