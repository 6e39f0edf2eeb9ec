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
      either (in the op's block; through `memref.cast`, or subviews whose
      static boxes overlap; a view it cannot bound gets a warning);
    - two outputs of one op on one buffer, or an output on the buffer of
      another operand it still reads.

    Warnings (possible): a collective in a loop whose trip count may differ
    (a loop whose bounds move together, `for i = r to r + 3`, does not),
    a return under such a branch that may skip a collective, a dynamic
    operand size that may differ, sides that may run different collectives.

    Then, without errors, it sets the unit attribute `distruntime.proven` on
    each communicating op that every member of its team certainly runs
    alike (no control over it may differ, its dynamic sizes are uniform;
    send and recv in matching pairs, update_halo with static shapes) and
    removes it from the others. The lowering passes the mark on to the
    runtime, whose checked mode `DISTRT_CHECK=1` then checks only the
    unmarked ops (`DISTRT_CHECK=all` checks every op). Each op proven, or
    not and why, is a remark (`--remarks-filter=distruntime-verify.*`).

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

def SetReproducibility : Pass<"distruntime-set-reproducibility"> {
  let summary = "Give the reductions without a reproducibility level one";
  let description = [{
    Sets `reproducibility = #distruntime.reproducibility<level>` on every op
    that takes the attribute (`all_reduce`, `reduce_scatter`, `allreduce`,
    `global_reduce`) and has none: the program's level, which an op's own
    attribute overrides. Without this pass (the pipelines' default, an
    empty `reproducibility` option) such ops take the level of the
    environment variable `DISTRT_REPRODUCIBLE` at run time, else `mpi`.
    Runs first in `distruntime-to-llvm`, before combining, so that combined
    ops agree on it.
  }];
  let options = [
    Option<"level", "level", "std::string", /*default=*/"\"\"",
           "mpi, ordered or exact">
  ];
}

def EnableRemarks : Pass<"distruntime-enable-remarks", "::mlir::ModuleOp"> {
  let summary = "Print the communication passes' remarks";
  let description = [{
    Turns on MLIR's remark engine for the passes that follow, printing
    their remarks as diagnostics (`remark: [Passed] Combined | ...`): each
    combine (which ops, how many bytes, where an async one waits), each
    overlap, each op made async or moved, each communicating op proven or
    not and why. The categories are the passes' arguments; `filter` is a
    regular expression over them. Does nothing when the driver already
    has an engine (`--remarks-filter=...`: the driver's choice wins). The
    pipelines add it first with `remarks=1`; `scripts/compile.sh
    --remarks` passes the driver's flags instead.
  }];
  let options = [
    Option<"filter", "filter", "std::string",
           /*default=*/"\"distruntime.*\"",
           "the categories (pass arguments) to report, a regular expression">
  ];
}

def CombineCollectives : Pass<"distruntime-combine-collectives"> {
  let summary = "Combine independent all_reduces (all_gathers) of a block "
                "into one multi-operand op";
  let description = [{
    Sync `all_reduce`s in one block with the same team, process groups
    (`replica_groups`, `channel_id`, `use_global_device_ids`), reduction and
    element type become one multi-operand `all_reduce`; sync `all_gather`s
    with the same team, groups and `all_gather_dim` become one `all_gather`.
    The combined op replaces the last of them; an earlier one joins only if
    it can move there: none of its results is used in between (tensor form)
    and no op in between reads a buffer it writes or writes a buffer it
    reads or writes (memref form, by the alias analysis the passes that
    move communication share: a wait counts as its async op's buffers, a
    call of a function with a body as what the body does; an op with
    unknown effects, such as an external call, or a write to memory it
    cannot name, such as a store through a pointer, stops it).

    Async ops, each waited once in their block, combine with async ops the
    same way: the combined op starts at the last start and is waited where
    the first of their waits stood, so the work between keeps overlapping
    it. Between the starts nothing may stand that could wait for other
    members (a wait, sync communication, a call that communicates or whose
    effects are unknown); another async start may.

    The runtime reduces each operand over the same group with the same
    reduction as before and packs small operands into one MPI call only
    where that cannot change a bit (integers, groups of two, or any group at
    the reproducibility levels `ordered` and `exact`; ops of different
    levels are not combined), so results are bit-identical; the gain is one
    rendezvous for many small operands (gradients).

    `max-bytes` bounds the input bytes of a combined op (0: no bound; with
    a bound, ops with dynamic shapes are not combined). Runs in
    `distruntime-to-llvm` before bufferization (`combine-collectives=0`
    turns it off). Each combine, and each op that could have joined a
    group but found another op in the way, is a remark
    (`--remarks-filter=distruntime-combine.*`).

    ```mlir
    %a = distruntime.all_reduce ins(%x : tensor<4xf32>) {...} -> tensor<4xf32>
    %b = distruntime.all_reduce ins(%y : tensor<8xf32>) {...} -> tensor<8xf32>
    // becomes
    %a, %b = distruntime.all_reduce ins(%x, %y : tensor<4xf32>, tensor<8xf32>)
        {...} -> tensor<4xf32>, tensor<8xf32>
    ```
  }];
  let options = [
    Option<"maxBytes", "max-bytes", "int64_t", /*default=*/"0",
           "Combine while the inputs' bytes stay at most this (0: no limit)">
  ];
}

def AsyncCollectives
    : Pass<"distruntime-async-collectives", "::mlir::ModuleOp"> {
  let summary = "Issue communication early and wait for it late";
  let description = [{
    Latency hiding. Sync collectives, `allreduce`, `update_halo`, `send` and
    `recv` on memrefs become their async form and a `distruntime.wait`;
    then the start of each async op waited in its own block (`get_halo`
    and ops written async included) moves up as far as its operands allow,
    and its wait moves down to the first op that reads, writes or frees a
    buffer it writes, or writes or frees one it reads:

    ```mlir
    distruntime.allreduce <sum> %a team(0) : memref<1024xf64>
    scf.for ... { ... reads and writes %b only ... }
    memref.load %a[...]
    // becomes
    %h = distruntime.allreduce <sum> %a team(0) : memref<1024xf64> -> !distruntime.async_handle
    scf.for ... { ... }
    distruntime.wait %h
    memref.load %a[...]
    ```

    Buffers are compared by alias analysis (views of one allocation
    conflict; a fresh allocation such as a halo never aliases an older
    buffer; arguments may alias each other unless one is `llvm.noalias`); an op with unknown effects (a call of an external function)
    stops both moves; a region op (`scf.for`, `scf.if`) moves as a whole
    with the effects of its body; a call of a function with a body counts
    by what the body does to its arguments. A start never moves above
    another communicating op, so every member issues communication in the
    order written. An op whose start and wait would enclose no work (an op
    with memory effects, a region or a call) is left sync, and so are
    `global_reduce` (no async form) and reductions of reproducibility
    `ordered` or `exact` (their async form gathers every member's values:
    P times the data). Results are bit-identical: the runtime's sync form
    is its async form and a wait, and every reproducible path folds alike.

    `min-bytes` leaves ops whose static buffers hold fewer bytes alone
    (dynamic shapes count as large). Runs in `distruntime-to-llvm` after
    bufferization (`async-collectives=0` turns it off). Each op made
    async, moved or left sync is a remark
    (`--remarks-filter=distruntime-async.*`).
  }];
  let options = [
    Option<"minBytes", "min-bytes", "int64_t", /*default=*/"0",
           "Leave ops with fewer bytes of buffers sync">
  ];
}

def OverlapHalo : Pass<"distruntime-overlap-halo", "::mlir::ModuleOp"> {
  let summary = "Split a loop over rows after get_halo, or a linalg "
                "stencil after update_halo, into an interior that needs no "
                "halo and boundary parts";
  let description = [{
    The stencil pattern written sync: `get_halo`, its wait, then an
    `scf.for` over the local rows whose first and last iterations read the
    halos. The loop becomes a loop over `[lb + p, ub - p)`, placed first,
    and loops over the first and last `p` iterations (p = 1, else 2): the
    smallest p for which the interior no longer reads a halo once the index
    comparisons its bounds decide (ValueBoundsConstraintSet) are folded and
    the body is canonicalized. `distruntime-async-collectives` then moves
    the wait past the interior, which runs while the halos travel.

    Only loops whose iterations are independent are split: step 1, values
    carried across iterations only as reductions whose bits do not depend
    on the order (integer min/max/and/or, IEEE maximum/minimum: heat2d's
    residual; the parts then chain them), every write a `memref.store`
    with the induction variable at one index position through a view whose
    layout keeps distinct indices apart (not a `reinterpret_cast` whose
    strides revisit elements), and no buffer the body writes read in it. The iterations then write disjoint elements with the same ops, so
    results are bit-identical.

    ```mlir
    %h, %l, %r = distruntime.get_halo %u ...
    distruntime.wait %h
    scf.for %i = %c0 to %n step %c1 { ... %l at %i = 0, %r at %i = n - 1 ... }
    // becomes
    scf.for %i = %c1 to %n_1 step %c1 { ... %u only ... }
    distruntime.wait %h
    scf.for %i = %c0 to %min step %c1 { ... }
    scf.for %i = %max to %n step %c1 { ... }
    ```

    Linalg stencils after `update_halo` on memrefs: the first linalg op
    after the exchange that touches the block, if it reads shifted views of
    it (unit-stride subviews, indexing maps `d_k + c`), is cut into an
    interior box whose iterations read only the block's core, run before
    the exchange's wait (a sync `update_halo` becomes async), and the 2n
    slabs around it (n loops), run after the wait. Along each dimension the
    exchange writes, the interior of loop k is where
    `lo - T - c <= x_k < size - hi - T - c` for every read at view offset
    `T`, as `affine.max`/`affine.min`. Only ops whose elements are
    independent are split: all loops parallel, a body without memory
    effects, permutation output maps, and outputs whose layouts keep
    distinct indices apart and that may alias neither each other, an input
    nor the block; every op between the exchange and
    the linalg op must leave the block alone.

    ```mlir
    distruntime.update_halo %u grid [2] split_axes [[0]]
        halo_sizes [1, 1, 0, 0] : memref<10x8xf64>
    linalg.generic ... ins(%north, %south : ...) outs(%vcore : ...)
    // becomes
    %h = distruntime.update_halo %u ... async : memref<10x8xf64>
    linalg.generic ... ins(<rows 1..6 of %north>, ...) outs(...)
    distruntime.wait %h
    linalg.generic ... (row 0)
    linalg.generic ... (row 7)
    ```

    Runs in `distruntime-to-llvm` before distruntime-async-collectives
    (`overlap-halo=0` turns it off). Each loop or linalg op split, or not
    and why, is a remark (`--remarks-filter=distruntime-overlap.*`).
  }];
  let dependentDialects = [
    "::mlir::affine::AffineDialect",
    "::mlir::arith::ArithDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect"
  ];
}

def CarryLoads : Pass<"distruntime-carry-loads"> {
  let summary = "Carry loads a later loop iteration repeats in iter_args";
  let description = [{
    Scalar replacement across iterations: in an `scf.for` with a constant
    step, loads of one memref at indices that differ only in one position,
    `iv + c` for constants c a multiple of the step apart, read each element
    again in a later iteration. The element is loaded once, at the highest
    offset, and carried to the iterations that need it in `iter_args`; the
    values the first iteration needs are loaded before the loop when it
    runs at all (under `lb < ub`, unless constant bounds show it runs). LLVM's loop vectorizer keeps such a recurrence in
    registers, which it does not find on its own: a stencil row then loads
    each element of its row once instead of twice, as GCC -O3 does.

    Only loads in the loop's body block (each iteration runs them) of a
    memref defined outside the loop, with the other indices defined outside
    it too, and only if nothing in the body may write that memref
    (distinct `llvm.noalias` arguments and fresh allocations are known
    apart) or has unknown effects; at most 4 values per group. Every use
    sees the value its load would have read: results are bit-identical.

    ```mlir
    scf.for %j = %c1 to %n step %c1 {
      %w = memref.load %u[%i, %jm] ...   // %jm = %j - 1
      %e = memref.load %u[%i, %jp] ...   // %jp = %j + 1
      ...
    }
    // becomes (under lb < ub: u[i, 0], u[i, 1] loaded first)
    scf.for %j = %c1 to %n step %c1 iter_args(%w = %u0, %c = %u1) {
      %e = memref.load %u[%i, %jp] ...
      ...
      scf.yield %c, %e
    }
    ```

    Runs in `distruntime-to-llvm` after the linalg ops become loops
    (`carry-loads=0` turns it off).
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect"
  ];
}

#endif // DISTRUNTIME_DIALECT_DISTRUNTIME_TRANSFORMS_PASSES_TD
