//===- RuntimeFunction.h - libdistrt entry points ---------------*- C++ -*-===//
//
// The runtime functions lowered IR calls, one per RuntimeFunctions.def row.
// Collectives name theirs through CollectiveOpInterface.
//
//===----------------------------------------------------------------------===//

#ifndef DISTRUNTIME_DIALECT_DISTRUNTIME_IR_RUNTIMEFUNCTION_H
#define DISTRUNTIME_DIALECT_DISTRUNTIME_IR_RUNTIMEFUNCTION_H

namespace mlir::distruntime {

enum class RuntimeFunction {
#define DISTRT_FUNCTION(Enum, symbol, result, arguments) Enum,
#include "distruntime/Runtime/RuntimeFunctions.def"
};

} // namespace mlir::distruntime

#endif // DISTRUNTIME_DIALECT_DISTRUNTIME_IR_RUNTIMEFUNCTION_H
