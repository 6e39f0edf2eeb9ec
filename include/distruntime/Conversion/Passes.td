//===- Passes.td - distruntime conversion passes -----------*- tablegen -*-===//

#ifndef DISTRUNTIME_CONVERSION_PASSES_TD
#define DISTRUNTIME_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertDistRuntimeToRuntime
    : Pass<"convert-distruntime-to-runtime", "::mlir::ModuleOp"> {
  let summary = "Lower distruntime ops to calls into libdistrt";
  let description = [{
    Replaces every `distruntime` operation by a call to the C ABI of
    `libdistrt` (`include/distruntime/Runtime/distrt.h`). Memrefs are passed
    as unranked memref descriptors, element types and reductions as enum
    values, and each call carries the op's source location as a string so a
    run-time error names the `.mlir` file and line. `get_halo` halo shapes are
    computed and allocated in IR; the runtime only moves data. Async handles
    become `i64`. The dialect is illegal: an operation that cannot be
    converted (e.g. a tensor-form op that was not bufferized) is an error.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::func::FuncDialect",
    "::mlir::LLVM::LLVMDialect",
    "::mlir::memref::MemRefDialect"
  ];
}

#endif // DISTRUNTIME_CONVERSION_PASSES_TD
