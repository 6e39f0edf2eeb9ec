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
    dimensions) are checked at run time by `distruntime.check` ops: a mismatch
    ends the job with a message naming the op, its location and both sizes.
    Tensor forms must be bufferized first.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
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

def VerifySPMD : Pass<"distruntime-verify-spmd", "::mlir::ModuleOp"> {
  let summary = "Check statically that the members of a team agree";
  let description = [{
    Runs a uniformity analysis (which values may differ between the members
    of a team) on MLIR's dataflow framework and reports, with locations:

    Errors (definite):
    - the sides of a branch whose condition may differ run different
      collectives on one team (op, groups or pairs, reduction, dimensions,
      element type, static shape, async-ness; a collective against none),
      naming both collectives, the branch and where its condition comes
      from (the member id, a load, received data);
    - an async handle never waited, waited on some paths only, or waited in
      a loop that does not issue it;
    - an access to a buffer of a pending async op before its wait: a write
      to a buffer it reads, a read or write of one it writes, a dealloc of
      either (same buffer through `memref.cast`, in the op's block);
    - two outputs of one op on one buffer, or an output on the buffer of
      another operand it still reads.

    Warnings (possible): a collective in a loop whose trip count may differ,
    a return under such a branch that may skip a collective, a dynamic
    operand size that may differ, sides that may run different collectives.

    Then, without errors, it sets the unit attribute `distruntime.proven` on
    each communicating op that every member of its team certainly runs
    alike (no control over it may differ, its dynamic sizes are uniform;
    send and recv in matching pairs, update_halo with static shapes) and
    removes it from the others. The lowering passes the mark on to the
    runtime, whose checked mode `DISTRT_CHECK=1` then checks only the
    unmarked ops (`DISTRT_CHECK=all` checks every op).

    Runs first in `distruntime-to-llvm` (`verify-spmd=0` turns it off,
    `spmd-warnings-as-errors=1` fails on warnings). See
    docs/verification.md.
  }];
  let options = [
    Option<"warningsAsErrors", "warnings-as-errors", "bool",
           /*default=*/"false", "Report possible disagreements as errors">,
    Option<"markProven", "mark-proven", "bool", /*default=*/"true",
           "Set `distruntime.proven` on the ops whose agreement is proven "
           "(and remove it from the others)">,
    Option<"printUniformity", "print-uniformity", "bool", /*default=*/"false",
           "Remark the uniformity of the results of ops that carry the unit "
           "attribute `spmd.probe` (tests)">
  ];
}

#endif // DISTRUNTIME_DIALECT_DISTRUNTIME_TRANSFORMS_PASSES_TD
