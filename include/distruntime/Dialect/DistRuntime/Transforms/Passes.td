//===- Passes.td - distruntime dialect transforms ----------*- tablegen -*-===//
//
// Rewrites within the distruntime dialect and of its ops into loops; the
// lowering to libdistrt calls is in Conversion/Passes.td.
//
//===----------------------------------------------------------------------===//

#ifndef DISTRUNTIME_DIALECT_DISTRUNTIME_TRANSFORMS_PASSES_TD
#define DISTRUNTIME_DIALECT_DISTRUNTIME_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

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

def VerifyAsync : Pass<"distruntime-verify-async"> {
  let summary = "Report accesses to the buffers of a pending async op";
  let description = [{
    Between an async op and its `wait`, MPI owns the op's buffers. This pass
    reports, as errors naming the access, the async op and its wait: a write
    to a buffer the op reads, a read or write of a buffer the op writes, and
    the deallocation of either, in the async op's block (regions nested in
    it included) before the op that holds the wait. Only the same buffer
    (through `memref.cast`) counts, so a correct program is never rejected.
    Runs first in `distruntime-to-llvm` (`verify-async=0` turns it off).
  }];
}

#endif // DISTRUNTIME_DIALECT_DISTRUNTIME_TRANSFORMS_PASSES_TD
