//===- DistRuntimeOps.td - DistRuntime operations ----------*- tablegen -*-===//
//
// The operations of the DistRuntime RFC: team_size, team_member, wait,
// allreduce and get_halo; update_halo, the n-D halo exchange that
// shard.update_halo maps onto; and check, a run-time size check.
//
//===----------------------------------------------------------------------===//

#ifndef DISTRUNTIME_DIALECT_DISTRUNTIME_IR_DISTRUNTIMEOPS_TD
#define DISTRUNTIME_DIALECT_DISTRUNTIME_IR_DISTRUNTIMEOPS_TD

include "distruntime/Dialect/DistRuntime/IR/DistRuntimeBase.td"
include "distruntime/Dialect/DistRuntime/IR/DistRuntimeInterfaces.td"
include "mlir/IR/OpAsmInterface.td"

//===----------------------------------------------------------------------===//
// TeamSizeOp
//===----------------------------------------------------------------------===//

def DistRuntime_TeamSizeOp : DistRuntime_Op<"team_size", [Pure]> {
  let summary = "number of members of a team (MPI_Comm_size)";
  let description = [{
    Returns the number of members of `team`. Does not communicate.

    ```mlir
    %n = distruntime.team_size team(0)
    // RFC generic form:
    %n = "distruntime.team_size"() {team = 0 : i64} : () -> index
    ```
  }];
  let arguments = (ins DistRuntime_TeamAttr:$team);
  let results = (outs Index:$size);
  let assemblyFormat = "`team` `(` $team `)` attr-dict";
}

//===----------------------------------------------------------------------===//
// TeamMemberOp
//===----------------------------------------------------------------------===//

def DistRuntime_TeamMemberOp : DistRuntime_Op<"team_member", [Pure]> {
  let summary = "member id of the caller in a team (MPI_Comm_rank)";
  let description = [{
    Returns the id of the calling member in `team`, in `[0, team_size)`.
    Does not communicate.

    ```mlir
    %me = distruntime.team_member team(0)
    ```
  }];
  let arguments = (ins DistRuntime_TeamAttr:$team);
  let results = (outs Index:$member);
  let assemblyFormat = "`team` `(` $team `)` attr-dict";
}

//===----------------------------------------------------------------------===//
// DimsCreateOp
//===----------------------------------------------------------------------===//

def DistRuntime_DimsCreateOp : DistRuntime_Op<"dims_create", [Pure]> {
  let summary = "a balanced process grid for a team's size (MPI_Dims_create)";
  let description = [{
    Returns the sizes of an n-D process grid with as many processes as
    `team` has members, one per result: as close to each other as
    possible, the largest first, what `MPI_Dims_create` is meant to choose
    (among the factorizations in non-increasing order, the one whose sizes
    are smallest from the first on: 12 members on 2 axes give 4 x 3, 72
    give 9 x 8, 8 on 3 give 2 x 2 x 2, 7 on 2 give 7 x 1). The runtime
    computes it, so it is the same on every member and on every MPI
    (MPICH's `MPI_Dims_create` agrees; Open MPI 4.1's gives 12 x 6 for
    72). A program written once runs at any team size: pass the sizes to
    `update_halo`'s `grid` and compute each block's extent from them. Does
    not communicate.

    ```mlir
    %g:2 = distruntime.dims_create team(0) : index, index
    distruntime.update_halo %block grid [%g#0 : index, %g#1 : index]
        split_axes [[0], [1]] halo_sizes [1, 1, 1, 1] : memref<?x?xf64>
    ```
  }];
  let arguments = (ins DistRuntime_TeamAttr:$team);
  let results = (outs Variadic<Index>:$sizes);
  let assemblyFormat = "`team` `(` $team `)` attr-dict `:` type($sizes)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// WaitOp
//===----------------------------------------------------------------------===//

def DistRuntime_WaitOp : DistRuntime_Op<"wait", [
    DistRuntime_Communicates,
    MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "complete an asynchronous operation (MPI_Wait)";
  let description = [{
    Blocks until the asynchronous operation that returned `handle` is complete.
    Its results (data written in place or returned as values) may be used only
    after the wait. Every handle is waited exactly once; waiting a handle twice
    is diagnosed by the verifier where it is visible in the IR and by the
    runtime otherwise.

    ```mlir
    %h = distruntime.allreduce <sum> %buf team(0) : memref<8xf64> -> !distruntime.async_handle
    // ... independent work overlaps the reduction ...
    distruntime.wait %h
    ```
  }];
  let arguments = (ins DistRuntime_AsyncHandle:$handle);
  let assemblyFormat = "$handle attr-dict";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// AllReduceOp
//===----------------------------------------------------------------------===//

def DistRuntime_AllReduceOp : DistRuntime_Op<"allreduce", [
    DistRuntime_Communicates, DistRuntime_CommunicatingOpInterface]> {
  let summary = "in-place element-wise reduction over a team (MPI_Allreduce)";
  let description = [{
    Reduces `data` element-wise over all members of `team` with `op` and
    writes the result to `data` on every member. The shape of `data` must be
    the same on all members. `data` may have any rank and any strided layout.

    Without a result the operation completes before it returns. With a
    `!distruntime.async_handle` result it is issued asynchronously (as
    `MPI_Iallreduce`) and `data` may be used only after `distruntime.wait`.

    `and`, `or` and `xor` need integer elements. On `i1`, `sum` is addition
    modulo 2, `prod` and `min` are `and`, `max` is `or`. `min`/`max` compare
    signless integers as signed, `ui*` as unsigned, and floats as
    `MPI_MIN`/`MPI_MAX` do (a NaN operand gives an unspecified result).
    `umin`/`umax` compare integers as unsigned. On floats only, `minimum`/
    `maximum` are IEEE 754-2019's (a NaN operand gives NaN, -0 < +0) and
    `minnum`/`maxnum` its minimumNumber/maximumNumber (a NaN operand gives
    the other), as `arith.minimumf`/`maximumf`/`minnumf`/`maxnumf`.

    ```mlir
    distruntime.allreduce <sum> %buf team(0) : memref<4x4xf64>
    %h = distruntime.allreduce <max> %r team(0) : memref<1xf64> -> !distruntime.async_handle
    distruntime.wait %h
    ```

    Per member, with `<sum>` over a team of 3:
    ```
    before: m0: [1, 2]   m1: [10, 20]   m2: [100, 200]
    after:  m0, m1, m2: [111, 222]
    ```
  }];
  let arguments = (ins
    Arg<DistRuntime_MemRef, "data reduced in place", [MemRead, MemWrite]>:$data,
    DistRuntime_ReductionKindAttr:$op,
    DistRuntime_TeamAttr:$team,
    OptionalAttr<DistRuntime_ReproducibilityAttr>:$reproducibility);
  let results = (outs Optional<DistRuntime_AsyncHandle>:$handle);
  let assemblyFormat = [{
    $op $data `team` `(` $team `)` attr-dict `:` type($data)
    (`->` type($handle)^)?
  }];
  let extraClassDeclaration = [{
    // CommunicatingOpInterface: every member gets the reduction.
    bool replicates() { return true; }
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// GlobalReduceOp
//===----------------------------------------------------------------------===//

def DistRuntime_GlobalReduceOp : DistRuntime_Op<"global_reduce", [
    DistRuntime_Communicates, DistRuntime_CommunicatingOpInterface]> {
  let summary = "reduce every element of every member's buffer to one value";
  let description = [{
    Reduces all elements of `data` on every member of `team` with `op`
    (`sum`, `prod`, `min` or `max`) into one value, the same on every
    member: a dot product's or a norm's last step. Members may pass buffers
    of different sizes (their parts of a distributed array), empty ones
    included; `data` may have any rank and any strided layout.

    Each member first folds its elements in row-major order, then the
    members' values are reduced as `allreduce` reduces them, at the op's
    `reproducibility` level. Under `exact` a floating-point sum is instead
    the correctly rounded sum of every element of every member, computed
    without intermediate rounding: the same bits however the elements are
    split over the members, at any number of them. Float `min`/`max` above
    `mpi` are IEEE 754's minimum/maximum (-0 < +0, NaN propagates).

    ```mlir
    %s = distruntime.global_reduce <sum> %products team(0)
        {reproducibility = #distruntime.reproducibility<exact>}
        : memref<?x?xf64> -> f64
    ```

    Per member, with `<sum>` over a team of 3:
    ```
    data:   m0: [1, 2]   m1: []   m2: [10, 20, 30]
    result: m0, m1, m2: 63
    ```
  }];
  let arguments = (ins
    Arg<DistRuntime_MemRef, "the member's elements", [MemRead]>:$data,
    DistRuntime_ReductionKindAttr:$op,
    DistRuntime_TeamAttr:$team,
    OptionalAttr<DistRuntime_ReproducibilityAttr>:$reproducibility);
  let results = (outs AnyTypeOf<[AnySignlessInteger, AnyFloat]>:$result);
  let assemblyFormat = [{
    $op $data `team` `(` $team `)` attr-dict `:` type($data) `->` type($result)
  }];
  let extraClassDeclaration = [{
    // CommunicatingOpInterface: every member gets the reduction, and the
    // members' buffers differ in size.
    bool replicates() { return true; }
    bool needsEqualSizes() { return false; }
    // Always sync: no handle.
    bool hasAsyncForm() { return false; }
    ::mlir::TypedValue<::mlir::distruntime::AsyncHandleType> getHandle() {
      return {};
    }
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// GetHaloOp
//===----------------------------------------------------------------------===//

def DistRuntime_GetHaloOp : DistRuntime_Op<"get_halo", [
    AttrSizedOperandSegments, DistRuntime_Communicates,
    DistRuntime_CommunicatingOpInterface]> {
  let summary = "fetch the halos of a block-distributed array (Isend/Irecv)";
  let description = [{
    For an array of global shape `gShape` distributed along its first
    dimension, `local` is the caller's block, starting at `lOffsets` in the
    global array. The op returns the parts of the bounding box
    `[bbOffsets, bbOffsets + bbSizes)` that are not locally owned: the *left*
    halo holds the requested rows before the local block, the *right* halo
    the requested rows after it, each with the bounding box's extent in the
    other dimensions. Either halo may be empty. `local` is not modified.

    `gShape`, `lOffsets`, `bbOffsets` and `bbSizes` have one value per
    dimension of `local`. The operation is always asynchronous: the halos may
    be read only after `distruntime.wait` on the returned handle. On memrefs
    the halos are freshly allocated buffers owned by the caller.

    The runtime exchanges data only with the members that own requested rows.
    With a `key`, the communication plan is cached and reused while the
    geometry is unchanged; a geometry change must happen on all members at
    the same call (as any redistribution in an SPMD program does).

    ```mlir
    %h, %left, %right = distruntime.get_halo %local
        gshape [%n, %m] loffsets [%off, %c0]
        bboffsets [%lo, %c0] bbsizes [%len, %m] team(0) key(1)
        : memref<?x?xf64> -> memref<?x?xf64>, memref<?x?xf64>
    distruntime.wait %h
    ```

    Rows of a 10-row array on 3 members (4, 3, 3 rows), each member asking for
    its rows plus one on each side:
    ```
    m0: rows 0-3, bbox 0-4 -> left: none        right: row 4 (from m1)
    m1: rows 4-6, bbox 3-7 -> left: row 3 (m0)  right: row 7 (from m2)
    m2: rows 7-9, bbox 6-9 -> left: row 6 (m1)  right: none
    ```
  }];
  let arguments = (ins
    Arg<DistRuntime_Array, "locally owned block", [MemRead]>:$local,
    Variadic<Index>:$gShape,
    Variadic<Index>:$lOffsets,
    Variadic<Index>:$bbOffsets,
    Variadic<Index>:$bbSizes,
    DistRuntime_TeamAttr:$team,
    OptionalAttr<DistRuntime_KeyAttr>:$key);
  // The halos are allocated and then written (by the wait): an allocation
  // alone would let bufferization.dealloc's canonicalization erase the op
  // when one halo is only deallocated, while the other or the handle is used.
  let results = (outs
    DistRuntime_AsyncHandle:$handle,
    Res<DistRuntime_Array, "left halo", [MemAlloc, MemWrite]>:$left,
    Res<DistRuntime_Array, "right halo", [MemAlloc, MemWrite]>:$right);
  let assemblyFormat = [{
    $local `gshape` `[` $gShape `]` `loffsets` `[` $lOffsets `]`
    `bboffsets` `[` $bbOffsets `]` `bbsizes` `[` $bbSizes `]`
    `team` `(` $team `)` (`key` `(` $key^ `)`)? attr-dict
    `:` type($local) `->` type($left) `,` type($right)
  }];
  let extraClassDeclaration = [{
    /// Halo shape implied by constant geometry operands; kDynamic where an
    /// input is not a constant.
    ::llvm::SmallVector<int64_t> getStaticHaloShape(bool left);
    // CommunicatingOpInterface: members own blocks of different sizes; the
    // runtime call takes no proven mark.
    bool needsEqualSizes() { return false; }
    bool takesProvenMark() { return false; }
  }];
  let hasVerifier = 1;
  let hasCanonicalizer = 1;
}

//===----------------------------------------------------------------------===//
// UpdateHaloOp
//===----------------------------------------------------------------------===//

// Per dimension of the block, the grid axes it is split along.
def DistRuntime_SplitAxesAttr
    : TypedArrayAttrBase<DenseI64ArrayAttr, "grid axes per dimension">;

def DistRuntime_UpdateHaloOp : DistRuntime_Op<"update_halo", [
    AttrSizedOperandSegments, AttrSizedResultSegments, DistRuntime_Communicates,
    DistRuntime_CommunicatingOpInterface]> {
  let summary = "in-place halo exchange of a Cartesian block decomposition "
                "(Isend/Irecv)";
  let description = [{
    The n-D array is split into blocks over a process grid of shape `grid`,
    whose sizes are constants or `index`/`i64` values (the same on every
    member: `distruntime.dims_create` chooses them for the team's size, as
    `MPI_Dims_create` does); team member `m` sits at the row-major
    coordinates of `m` in the grid. Dimension `d` of the array is split along the grid axes
    `split_axes[d]` (first listed slowest, as `shard.update_halo`); fewer
    lists than dimensions leave the others unsplit. `block` is the caller's
    block *including* its halo frame: along `d` its core is
    `[lo_d, size_d - hi_d)`, with `halo_sizes = [lo_0, hi_0, lo_1, hi_1, ...]`.
    The op fills the frame from the cores of the neighbouring blocks along
    the split dimensions, corners included; frame parts with no neighbour
    (at the grid's edge, along unsplit dimensions) keep their values. Cores
    are only read. Blocks may differ in size (uneven splits); members with
    the same block index along `d` have the same core extent along `d`.

    On memrefs the update is in place. On tensors it returns the updated
    tensor, which bufferizes into the block's own buffer (destination
    style). With `async` it also returns an `!distruntime.async_handle`; the
    block may be used only after `distruntime.wait`. With a `key`, the
    communication plan is cached while the block's geometry is unchanged.
    The team has as many members as the grid has processes. The dynamic
    halo sizes are `index` or `i64` values, printed with their type.

    ```mlir
    distruntime.update_halo %block grid [2, 2] split_axes [[0], [1]]
        halo_sizes [1, 1, %w : index, 0] key(3) : memref<18x?xf32>
    %g:2 = distruntime.dims_create team(0) : index, index
    distruntime.update_halo %b grid [%g#0 : index, %g#1 : index]
        split_axes [[0], [1]] halo_sizes [1, 1, 1, 1] : memref<?x?xf64>
    %h = distruntime.update_halo %b grid [2, 2] split_axes [[0], []]
        halo_sizes [1, 1, 0, 0] key(4) async : memref<18x18xf64>
    distruntime.wait %h
    %t = distruntime.update_halo %tensor grid [4] split_axes [[0]]
        halo_sizes [2, 1, 0, 0] : tensor<10x8xf32>
    ```

    Rows of a 1-D array split over `grid [3]`, `halo_sizes [1, 1]`
    (`|` bounds the core, `.` a frame element the op leaves alone):
    ```
    before: m0: .|0 1 2|x   m1: x|3 4 5|x   m2: x|6 7 8|.
    after:  m0: .|0 1 2|3   m1: 2|3 4 5|6   m2: 5|6 7 8|.
    ```
  }];
  let arguments = (ins
    Arg<DistRuntime_Array, "block with its halo frame, updated in place",
        [MemRead, MemWrite]>:$block,
    Variadic<AnyTypeOf<[Index, I64]>>:$grid_values,
    DenseI64ArrayAttr:$grid,
    DistRuntime_SplitAxesAttr:$split_axes,
    Variadic<AnyTypeOf<[Index, I64]>>:$halo_sizes,
    DenseI64ArrayAttr:$static_halo_sizes,
    DefaultValuedAttr<DistRuntime_TeamAttr, "0">:$team,
    OptionalAttr<DistRuntime_KeyAttr>:$key);
  let results = (outs
    Optional<RankedTensorOf<[DistRuntime_ElementType]>>:$result,
    Optional<DistRuntime_AsyncHandle>:$handle);
  let assemblyFormat = [{
    $block `grid` custom<HaloSizes>($grid_values, $grid, type($grid_values))
    `split_axes` custom<SplitAxes>($split_axes)
    `halo_sizes` custom<HaloSizes>($halo_sizes, $static_halo_sizes,
                                   type($halo_sizes))
    (`team` `(` $team^ `)`)? (`key` `(` $key^ `)`)? custom<Async>(type($handle))
    attr-dict
    `:` custom<BlockType>(type($block), type($result))
  }];
  let builders = [
    // The form follows `block`'s type: a tensor result on tensors.
    OpBuilder<(ins "::mlir::Value":$block,
      "::llvm::ArrayRef<int64_t>":$grid,
      "::llvm::ArrayRef<::llvm::SmallVector<int64_t>>":$splitAxes,
      "::llvm::ArrayRef<::mlir::OpFoldResult>":$haloSizes,
      CArg<"int64_t", "0">:$team,
      CArg<"std::optional<int64_t>", "std::nullopt">:$key,
      CArg<"bool", "false">:$async)>
  ];
  let extraClassDeclaration = [{
    // CommunicatingOpInterface: it writes the block's frame only, and
    // members own blocks of different sizes.
    bool writesAllOf(::mlir::Value) { return false; }
    bool needsEqualSizes() { return false; }
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// CheckOp
//===----------------------------------------------------------------------===//

def DistRuntime_CheckPredicate : I64EnumAttr<"CheckPredicate",
    "relation between two sizes that distruntime.check requires", [
  I64EnumAttrCase<"eq", 0>,
  I64EnumAttrCase<"ne", 1>,
  I64EnumAttrCase<"slt", 2>,
  I64EnumAttrCase<"sle", 3>,
  I64EnumAttrCase<"sgt", 4>,
  I64EnumAttrCase<"sge", 5>
]> {
  let cppNamespace = "::mlir::distruntime";
}

// Not Pure: a failing check ends the job, so it is never erased or moved
// past the accesses it guards.
def DistRuntime_CheckOp : DistRuntime_Op<"check", [
    MemoryEffects<[MemWrite]>]> {
  let summary = "end the job with a message unless two sizes relate";
  let description = [{
    Checks at run time that `have <predicate> want` holds for two index
    values (sizes the verifier could not compare because they are dynamic).
    If it does not, the job ends with one line per failing rank naming
    `op_name`, the op's location, the rank, `what` and both sizes:

    ```
    distrt: error: gather at prog.mlir:7:3: rank 0: result dimension 0 against indices dimension 0: 5 vs 3
    ```

    Passes that lower distruntime ops into loops (such as
    `distruntime-lower-gather-scatter`) emit it;
    `convert-distruntime-to-runtime` lowers it to a call of
    `distrt_check_failed` on the failing path. Does not communicate.

    ```mlir
    distruntime.check eq %rows, %n, "gather", "result dimension 0 against indices dimension 0"
    ```
  }];
  let arguments = (ins
    DistRuntime_CheckPredicate:$predicate,
    Index:$have,
    Index:$want,
    StrAttr:$op_name,
    StrAttr:$what);
  let assemblyFormat = [{
    $predicate $have `,` $want `,` $op_name `,` $what attr-dict
  }];
}

include "distruntime/Dialect/DistRuntime/IR/DistRuntimeCollectiveOps.td"
include "distruntime/Dialect/DistRuntime/IR/DistRuntimeGatherScatterOps.td"

#endif // DISTRUNTIME_DIALECT_DISTRUNTIME_IR_DISTRUNTIMEOPS_TD
