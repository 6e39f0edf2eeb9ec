//===- DiagnosticUtils.h - Text shared by the verifiers ---------*- C++ -*-===//
//
// Private to dialect/: how the verifiers' diagnostics spell values.
//
//===----------------------------------------------------------------------===//

#ifndef DISTRUNTIME_DIALECT_DIAGNOSTICUTILS_H
#define DISTRUNTIME_DIALECT_DIAGNOSTICUTILS_H

#include "mlir/IR/BuiltinTypeInterfaces.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLExtras.h"

#include <string>

namespace mlir::distruntime {

/// A shape as diagnostics print it: `[4, ?, 2]`.
inline std::string shapeString(ArrayRef<int64_t> shape) {
  std::string text = "[";
  for (auto [i, d] : llvm::enumerate(shape))
    text += (i ? ", " : "") +
            (ShapedType::isDynamic(d) ? std::string("?") : std::to_string(d));
  return text + "]";
}

} // namespace mlir::distruntime

#endif // DISTRUNTIME_DIALECT_DIAGNOSTICUTILS_H
