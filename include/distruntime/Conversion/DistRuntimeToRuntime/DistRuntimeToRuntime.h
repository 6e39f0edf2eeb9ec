//===- DistRuntimeToRuntime.h - ops to libdistrt calls ----------*- C++ -*-===//
//
// convert-distruntime-to-runtime, and its pieces for pipelines that lower
// distruntime ops together with other dialects in one conversion.
//
//===----------------------------------------------------------------------===//

#ifndef DISTRUNTIME_CONVERSION_DISTRUNTIMETORUNTIME_DISTRUNTIMETORUNTIME_H
#define DISTRUNTIME_CONVERSION_DISTRUNTIMETORUNTIME_DISTRUNTIMETORUNTIME_H

#include "mlir/Pass/Pass.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::distruntime {

#define GEN_PASS_DECL_CONVERTDISTRUNTIMETORUNTIME
#include "distruntime/Conversion/Passes.h.inc"

/// Converts !distruntime.async_handle to i64, the runtime's handle, and
/// keeps every other type; casts bridge converted and unconverted values.
class DistRuntimeToRuntimeTypeConverter : public TypeConverter {
public:
  DistRuntimeToRuntimeTypeConverter();
};

/// Patterns lowering every distruntime op (memref forms) to libdistrt calls;
/// async handles convert through `converter`.
void populateDistRuntimeToRuntimeConversionPatterns(
    TypeConverter &converter, RewritePatternSet &patterns);

} // namespace mlir::distruntime

#endif // DISTRUNTIME_CONVERSION_DISTRUNTIMETORUNTIME_DISTRUNTIMETORUNTIME_H
