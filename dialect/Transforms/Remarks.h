//===- Remarks.h - what the communication passes did ------------*- C++ -*-===//
//
// The passes that prove, combine, overlap and place communication report
// each decision through MLIR's remark engine: `--remarks-filter=distruntime`
// (mlir-opt, distruntime-opt), `scripts/compile.sh --remarks`, or the
// pipelines' `remarks=1`. A remark's category is the pass's argument, so a
// filter can pick one pass; with no engine a remark costs a pointer test.
//
//===----------------------------------------------------------------------===//

#ifndef DISTRUNTIME_DIALECT_TRANSFORMS_REMARKS_H
#define DISTRUNTIME_DIALECT_TRANSFORMS_REMARKS_H

#include "mlir/IR/Operation.h"
#include "mlir/IR/Remarks.h"

#include <string>

namespace mlir::distruntime {

/// The options of remark `name` of `pass` about `op`, in `op`'s function.
remark::RemarkOpts remarkAbout(Operation *op, StringRef pass, StringRef name);

/// `op` as a remark names it: "distruntime.all_reduce at file:line:col".
std::string describeOp(Operation *op);

/// Whether remarks are wanted at all: callers that build a remark's
/// text at some cost ask first.
bool remarksEnabled(MLIRContext *context);

} // namespace mlir::distruntime

#endif // DISTRUNTIME_DIALECT_TRANSFORMS_REMARKS_H
