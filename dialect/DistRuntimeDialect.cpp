//===- DistRuntimeDialect.cpp - DistRuntime dialect -----------------------===//

#include "distruntime/Dialect/DistRuntime/IR/DistRuntimeDialect.h"
#include "distruntime/Dialect/DistRuntime/IR/DistRuntimeOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::distruntime;

#include "distruntime/Dialect/DistRuntime/IR/DistRuntimeDialect.cpp.inc"
#include "distruntime/Dialect/DistRuntime/IR/DistRuntimeEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "distruntime/Dialect/DistRuntime/IR/DistRuntimeAttrs.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "distruntime/Dialect/DistRuntime/IR/DistRuntimeTypes.cpp.inc"

void DistRuntimeDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "distruntime/Dialect/DistRuntime/IR/DistRuntimeOps.cpp.inc"
      >();
  addTypes<
#define GET_TYPEDEF_LIST
#include "distruntime/Dialect/DistRuntime/IR/DistRuntimeTypes.cpp.inc"
      >();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "distruntime/Dialect/DistRuntime/IR/DistRuntimeAttrs.cpp.inc"
      >();
}
