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
    become `i64`. Each collective, send and recv gets a call-site global
    (`distrt_site_t`) whose flags say what the compiler knows: static shapes
    (`DISTRT_SITE_STATIC`), and agreement proven by
    `distruntime-verify-spmd` (`DISTRT_SITE_PROVEN`, from the op's
    `distruntime.proven`; update_halo passes it in its `async` argument), so
    that `DISTRT_CHECK=1` does not check the op again at run time. The
    dialect is illegal: an operation that cannot be converted (e.g. a
    tensor-form op that was not bufferized) is an error.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::func::FuncDialect",
    "::mlir::LLVM::LLVMDialect",
    "::mlir::memref::MemRefDialect"
  ];
}

def ConvertShardToDistRuntime
    : Pass<"convert-shard-to-distruntime", "::mlir::ModuleOp"> {
  let summary = "Lower upstream shard ops (after shard-partition) to distruntime";
  let description = [{
    Makes distruntime the back end of upstream MLIR's SPMD partitioner. A
    `shard.grid` is laid over the ranks of team `team`, row-major (last grid
    axis fastest); a function that uses a grid first checks at run time that
    the team has the grid's number of processes, naming the grid. Grid axes
    become `replica_groups` computed at compile time, so the runtime keeps
    one communicator per distinct group layout. Index ops become arithmetic
    on `distruntime.team_member`; collectives become distruntime
    collectives (tensor forms, bufferized later; the memref forms of
    `all_reduce` and `update_halo` stay memrefs); `update_halo` becomes
    `distruntime.update_halo`. The rooted `gather`, `reduce` and `scatter`
    lower to `all_gather`, `all_reduce` and broadcast plus slice, which give
    the root its result and every other member a defined one. Anything that
    cannot be lowered (an unpartitioned `shard.shard`, a dynamic grid where
    groups are needed, a dynamic root, a `generic` reduction) is an error
    naming the op, and the pass fails.
  }];
  let options = [
    Option<"team", "team", "int64_t", /*default=*/"0",
           "The distruntime team the grids map onto">
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::distruntime::DistRuntimeDialect",
    "::mlir::func::FuncDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::LLVM::LLVMDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::tensor::TensorDialect"
  ];
}

#endif // DISTRUNTIME_CONVERSION_PASSES_TD
