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

def LowerGatherScatter : Pass<"distruntime-lower-gather-scatter"> {
  let summary = "Lower memref-form gather and scatter to scf loop nests";
  let description = [{
    Gather and scatter run on each process's local data. Their memref forms
    become scf.for nests over memref loads and stores, with start-index
    clamping (gather), per-element bounds checks and the inlined
    update_computation (scatter). Sizes the verifier could not check (dynamic
    dimensions) are checked at run time: a mismatch calls distrt_check_failed,
    which reports the op, its location and both sizes. Tensor forms must be
    bufferized first.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::func::FuncDialect",
    "::mlir::LLVM::LLVMDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect"
  ];
}

def DecomposeBatchingDims : Pass<"distruntime-decompose-batching-dims"> {
  let summary = "Rewrite gather/scatter batching dimensions into the older form";
  let description = [{
    The seed's "Compatibility" decomposition: operand (input) batching
    dimensions become collapsed (inserted) dimensions, start-indices batching
    dimensions become implicit batch dimensions, and an iota per batching
    dimension is concatenated onto the start indices along index_vector_dim
    (made explicit first if it equals rank(indices)), with start_index_map
    (scatter_dims_to_operand_dims) extended accordingly. Results are
    unchanged. Applies to tensor forms (before bufferization).
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::tensor::TensorDialect"
  ];
}

#endif // DISTRUNTIME_CONVERSION_PASSES_TD
