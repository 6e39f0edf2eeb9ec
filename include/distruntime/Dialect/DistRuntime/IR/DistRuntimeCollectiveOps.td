//===- DistRuntimeCollectiveOps.td - collectives -----------*- tablegen -*-===//
//
// all_gather, all_reduce, all_to_all, all_to_all_v, ragged_all_to_all,
// reduce_scatter, collective_broadcast, collective_permute, send and recv
// with StableHLO's process groups (replica_groups, channel_id,
// use_global_device_ids) and source_target_pairs.
//
// Every op works on tensors (value results) or on memrefs (outputs passed in
// with `outs`), synchronously or, with `async`, returning an
// !distruntime.async_handle that distruntime.wait completes.
//
//===----------------------------------------------------------------------===//

#ifndef DISTRUNTIME_DIALECT_DISTRUNTIME_IR_DISTRUNTIMECOLLECTIVEOPS_TD
#define DISTRUNTIME_DIALECT_DISTRUNTIME_IR_DISTRUNTIMECOLLECTIVEOPS_TD

include "distruntime/Dialect/DistRuntime/IR/DistRuntimeBase.td"
include "distruntime/Dialect/DistRuntime/IR/DistRuntimeInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"

def DistRuntime_ChannelType : I32EnumAttr<"ChannelType",
    "kind of a send/recv channel", [
  I32EnumAttrCase<"DeviceToDevice", 1, "device_to_device">,
  I32EnumAttrCase<"DeviceToHost", 2, "device_to_host">,
  I32EnumAttrCase<"HostToDevice", 3, "host_to_device">
]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::distruntime";
}

def DistRuntime_ChannelTypeAttr
    : EnumAttr<DistRuntime_Dialect, DistRuntime_ChannelType, "channel_type"> {
  let description = [{
    ```mlir
    #distruntime.channel_type<device_to_device>
    ```
    with one of `device_to_device`, `device_to_host`, `host_to_device`.
  }];
  // `<keyword>`, parsed in C++ (DistRuntimeDialect.cpp): ODS's enum parser
  // names the C++ enum type in its error instead of the keywords.
  let assemblyFormat = ?;
  let hasCustomAssemblyFormat = 1;
}

def DistRuntime_Groups : TypedAttrBase<AnyType, "DenseIntElementsAttr",
    And<[CPred<"::llvm::isa<::mlir::DenseIntElementsAttr>($_self)">,
         CPred<"::llvm::cast<::mlir::DenseIntElementsAttr>($_self).getType()"
               ".getRank() == 2">,
         CPred<"::llvm::cast<::mlir::DenseIntElementsAttr>($_self).getType()"
               ".getElementType().isInteger(64)">]>,
    "2-D i64 dense constant"> {
  let storageType = "::mlir::DenseIntElementsAttr";
  let returnType = "::mlir::DenseIntElementsAttr";
  let convertFromStorage = "$_self";
}

// Operands and results shared by the collectives.
defvar CollectiveInputs = Arg<Variadic<DistRuntime_Array>,
                              "inputs (tensors, or memrefs read)", [MemRead]>;
defvar CollectiveOutputs = Arg<Variadic<DistRuntime_MemRef>,
                               "outputs of the memref form", [MemWrite]>;
defvar CollectiveResults = Variadic<RankedTensorOf<[DistRuntime_ElementType]>>;

// How an op names its process groups: the arguments, C++ expressions for
// its group mode and its id table, and the assembly of the table given at
// run time (the `group_table` operand, in place of the attribute).
class DistRuntime_GroupArgs<dag groupArgs, code groupMode, code groupIds,
                            string tableKeyword> {
  dag args = groupArgs;
  code mode = groupMode;
  code ids = groupIds;
  string tableFormat = "(`" # tableKeyword #
      "` `(` $group_table^ `:` type($group_table) `)`)?";
}

defvar ChannelIdArg = (ins DefaultValuedAttr<I64Attr, "0">:$channel_id);

// The groups as a 2-D i64 tensor or memref read when the op runs, in place
// of the attribute: a program that sizes its groups by the team's size.
defvar GroupTableArg = (ins Arg<Optional<AnyTypeOf<[AnyRankedTensor,
                                                    AnyMemRef]>>,
    "process groups read at run time (2-D i64)", [MemRead]>:$group_table);

// replica_groups; cross_replica or cross_partition by channel_id.
defvar ReplicaGroups = DistRuntime_GroupArgs<
    !con((ins OptionalAttr<DistRuntime_Groups>:$replica_groups),
         GroupTableArg, ChannelIdArg),
    "::mlir::distruntime::getGroupMode(getChannelId())",
    "getReplicaGroupsAttr()", "replica_groups">;

// replica_groups, also flattened ids with use_global_device_ids.
defvar GlobalIdGroups = DistRuntime_GroupArgs<
    !con(ReplicaGroups.args, (ins UnitAttr:$use_global_device_ids)),
    "::mlir::distruntime::getGroupMode(getChannelId(), getUseGlobalDeviceIds())",
    ReplicaGroups.ids, "replica_groups">;

// source_target_pairs; replicas or partitions by channel_id.
defvar PairGroups = DistRuntime_GroupArgs<
    !con((ins OptionalAttr<DistRuntime_Groups>:$source_target_pairs),
         GroupTableArg, ChannelIdArg),
    ReplicaGroups.mode, "getSourceTargetPairsAttr()", "source_target_pairs">;

defvar CollectiveIns = [{
  `ins` `(` $inputs `:` type($inputs) `)`
  (`outs` `(` $outputs^ `:` type($outputs) `)`)?
}];
defvar CollectiveAsync = [{ custom<Async>(type($handle)) attr-dict }];
defvar CollectiveResultTypes = [{ (`->` type($results)^)? }];

// A collective: `inputs`, `outputs` (memref form) or `results` (tensor form),
// an optional async `handle`, the op's own `opArgs`, its process groups and
// `team`. `runtimeFunction` names its RuntimeFunctions.def entry;
// `collectiveDeclaration` adds the op's CollectiveOpInterface methods
// (getChangedDims, getRuntimeScalars) and helpers.
class DistRuntime_CollectiveOp<string mnemonic, string runtimeFunction,
                               dag opArgs, DistRuntime_GroupArgs groups,
                               list<Trait> traits = []>
    : DistRuntime_Op<mnemonic, !listconcat(traits, [
        AttrSizedOperandSegments, AttrSizedResultSegments,
        DistRuntime_Communicates, DistRuntime_CommunicatingOpInterface,
        DistRuntime_CollectiveOpInterface])> {
  let arguments = !con(
      (ins CollectiveInputs:$inputs, CollectiveOutputs:$outputs), opArgs,
      groups.args, (ins DefaultValuedAttr<DistRuntime_TeamAttr, "0">:$team));
  let results = (outs CollectiveResults:$results,
                 Optional<DistRuntime_AsyncHandle>:$handle);
  let assemblyFormat = !strconcat(CollectiveIns, groups.tableFormat,
                                  CollectiveAsync, CollectiveResultTypes);
  code collectiveDeclaration = "";
  // The body of getRuntimeFunction (all_to_all_v picks by its form).
  code runtimeFunctionBody =
      "return ::mlir::distruntime::RuntimeFunction::" # runtimeFunction # ";";
  // CommunicatingOpInterface: what it writes agrees within its groups; it
  // pairs members.
  bit replicates = 0;
  bit pointToPoint = 0;
  let extraClassDeclaration = !if(replicates,
      "bool replicates() { return true; }\n", "") # !if(pointToPoint,
      "bool isPointToPoint() { return true; }\n", "") # [{
    ::mlir::distruntime::GroupMode getGroupMode() {
      return }] # groups.mode # [{;
    }
    ::mlir::DenseIntElementsAttr getGroupIds() { return }] # groups.ids # [{; }
    ::mlir::distruntime::RuntimeFunction getRuntimeFunction() {
      }] # runtimeFunctionBody # [{
    }
  }] # collectiveDeclaration;
  let hasVerifier = 1;
}

// all_reduce and reduce_scatter: a `reduction` attribute or a StableHLO-style
// `computation` region.
class DistRuntime_ReductionOp<string mnemonic, string runtimeFunction,
                              dag opArgs>
    : DistRuntime_CollectiveOp<mnemonic, runtimeFunction,
        !con((ins OptionalAttr<DistRuntime_ReductionKindAttr>:$reduction,
                  OptionalAttr<DistRuntime_ReproducibilityAttr>:
                      $reproducibility),
             opArgs),
        GlobalIdGroups, [DeclareOpInterfaceMethods<RegionBranchOpInterface>]> {
  let regions = (region AnyRegion:$computation);
  let assemblyFormat = !strconcat(CollectiveIns, GlobalIdGroups.tableFormat,
      CollectiveAsync, "(`computation` $computation^)?",
      CollectiveResultTypes);
  code reductionDeclaration = "";
  let collectiveDeclaration = [{
    /// The reduction: `reduction`, else the one `computation` performs.
    ::mlir::distruntime::ReductionKind getReductionKind();
    /// The element type the reduction computes in: the region's, else null
    /// (the inputs' own).
    ::mlir::Type getReductionElementType();
  }] # reductionDeclaration;
  let extraClassDefinition = [{
    ::mlir::distruntime::ReductionKind $cppClass::getReductionKind() {
      // The verifier ensures that one of the two exists.
      if (std::optional<::mlir::distruntime::ReductionKind> kind =
              getReduction())
        return *kind;
      return *::mlir::distruntime::matchReductionRegion(getComputation());
    }
    ::mlir::Type $cppClass::getReductionElementType() {
      ::mlir::Region &region = getComputation();
      if (region.empty() || region.front().getNumArguments() == 0)
        return {};
      return region.front().getArgument(0).getType();
    }
    // Control never enters `computation` from the op (the runtime reduces).
    // Saying so lets region-aware passes (buffer deallocation among them)
    // treat the op as straight-line code.
    void $cppClass::getSuccessorRegions(
        ::mlir::RegionBranchPoint point,
        ::llvm::SmallVectorImpl<::mlir::RegionSuccessor> &regions) {
      // The results (outputs or handle) come from the runtime, not from
      // values forwarded along a control-flow edge: the edge forwards none.
      if (point.isParent())
        regions.push_back(::mlir::RegionSuccessor(
            getOperation(), getOperation()->getResults().take_front(0)));
    }
  }];
}

//===----------------------------------------------------------------------===//
// AllGatherOp
//===----------------------------------------------------------------------===//

def DistRuntime_AllGatherOp : DistRuntime_CollectiveOp<"all_gather",
    "AllGather", (ins I64Attr:$all_gather_dim), GlobalIdGroups> {
  let summary = "concatenate operands across a process group (MPI_Allgather)";
  let replicates = 1;
  let description = [{
    Within each process group, concatenates the `inputs` of every member,
    in group order, along `all_gather_dim`. Process groups are
    `cross_replica(replica_groups)` if `channel_id <= 0` and not
    `use_global_device_ids`, `cross_replica_and_partition(replica_groups)` if
    `channel_id > 0` and not `use_global_device_ids`, and
    `flattened_ids(replica_groups)` if `channel_id > 0` and
    `use_global_device_ids`. Several operands (of different shapes and element
    types) are gathered in one rendezvous.

    ```mlir
    // Seed example: 2 replicas, %x@0 = [[1, 2], [3, 4]], %x@1 = [[5, 6], [7, 8]]
    %r = distruntime.all_gather ins(%x : tensor<2x2xi64>)
        {all_gather_dim = 1 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}
        -> tensor<2x4xi64>
    // %r@0 = %r@1 = [[1, 2, 5, 6], [3, 4, 7, 8]]
    %h = distruntime.all_gather ins(%a : memref<4xf32>) outs(%b : memref<8xf32>) async
        {all_gather_dim = 0 : i64, replica_groups = dense<[[1, 0]]> : tensor<1x2xi64>}
    distruntime.wait %h
    ```
  }];
  let collectiveDeclaration = [{
    ::llvm::SmallVector<int64_t> getChangedDims() {
      return {static_cast<int64_t>(getAllGatherDim())};
    }
    ::llvm::SmallVector<int64_t> getRuntimeScalars() { return getChangedDims(); }
  }];
}

//===----------------------------------------------------------------------===//
// AllReduceGroupOp
//===----------------------------------------------------------------------===//

def DistRuntime_AllReduceGroupOp
    : DistRuntime_ReductionOp<"all_reduce", "AllReduce", (ins)> {
  let summary = "element-wise reduction within process groups (MPI_Allreduce)";
  let replicates = 1;
  let description = [{
    Within each process group, reduces every operand element-wise over the
    members. The reduction is `reduction` or a StableHLO-style `computation`
    region whose body is a single add, mul, min, max, and, or or xor of its
    two arguments (`arith.addi/addf`, `muli/mulf`, `minsi/maxsi` -> `min`/
    `max`, `minui/maxui` -> `umin`/`umax`, `minimumf/maximumf`,
    `minnumf/maxnumf`, `andi`, `ori`, `xori`; on i1, where true is -1 when
    signed, `minsi` is `or` and `maxsi` is `and`). The region's element type
    may be wider than the inputs' (StableHLO's `is_promotable`, e.g. `i8`
    summed as `i32`); the results then have it. Process groups as for
    `all_gather`, but they may have different sizes (StableHLO's ragged
    groups): `replica_groups` pads them with `-1`, which means no process,
    e.g. `[[0, 1, 2], [3, -1, -1]]` is the groups {0, 1, 2} and {3}. Several
    operands are reduced in one op.

    ```mlir
    %r0, %r1 = distruntime.all_reduce ins(%a, %b : tensor<4xf32>, tensor<2x3xi16>)
        {reduction = #distruntime.reduction<sum>,
         replica_groups = dense<[[0, 1, 2]]> : tensor<1x3xi64>}
        -> tensor<4xf32>, tensor<2x3xi16>
    %s = distruntime.all_reduce ins(%x : tensor<8xf64>)
        {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} computation {
      ^bb0(%l: f64, %r: f64):
        %m = arith.maximumf %l, %r : f64
        distruntime.yield %m : f64
    } -> tensor<8xf64>
    ```
  }];
  let reductionDeclaration = [{
    ::llvm::SmallVector<int64_t> getRuntimeScalars() {
      return {getReductionArgument(getReductionKind(), getReproducibility())};
    }
  }];
}

//===----------------------------------------------------------------------===//
// AllToAllOp
//===----------------------------------------------------------------------===//

def DistRuntime_AllToAllOp : DistRuntime_CollectiveOp<"all_to_all", "AllToAll",
    (ins I64Attr:$split_dimension, I64Attr:$concat_dimension,
         OptionalAttr<I64Attr>:$split_count),
    ReplicaGroups> {
  let summary = "exchange blocks between group members (MPI_Alltoall)";
  let description = [{
    Within each process group, splits every input along `split_dimension`
    into `split_count` blocks, sends block `j` to the `j`-th member of the
    group, and concatenates the blocks received along `concat_dimension` in
    group order. Process groups are `cross_replica(replica_groups)` if
    `channel_id <= 0`, else `cross_partition(replica_groups)`.

    ```mlir
    %r = distruntime.all_to_all ins(%x : tensor<2x4xi64>)
        {split_dimension = 1 : i64, concat_dimension = 0 : i64, split_count = 2 : i64,
         replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}
        -> tensor<4x2xi64>
    ```

    Without `split_count` the count is the group's size, known when the op
    runs: one op serves every number of processes (an `MPI_Alltoall`
    written once). The split dimension must then be a multiple of the group
    size at run time, and the result's split and concat dimensions are
    dynamic unless the group size is known.

    ```mlir
    // Any number of processes P: 1 row to each member, P rows back.
    distruntime.all_to_all ins(%x : memref<?x2xf32>) outs(%y : memref<?x2xf32>)
        {split_dimension = 0 : i64, concat_dimension = 0 : i64,
         replica_groups = dense<> : tensor<0x0xi64>}
    ```
  }];
  let collectiveDeclaration = [{
    ::llvm::SmallVector<int64_t> getChangedDims() {
      return {static_cast<int64_t>(getSplitDimension()),
              static_cast<int64_t>(getConcatDimension())};
    }
    /// split_count 0: the group's size.
    ::llvm::SmallVector<int64_t> getRuntimeScalars() {
      return {static_cast<int64_t>(getSplitDimension()),
              static_cast<int64_t>(getConcatDimension()),
              static_cast<int64_t>(getSplitCount().value_or(0))};
    }
  }];
}

//===----------------------------------------------------------------------===//
// AllToAllVOp
//===----------------------------------------------------------------------===//

def DistRuntime_AllToAllVOp : DistRuntime_CollectiveOp<"all_to_all_v",
    "AllToAllV",
    (ins Arg<Variadic<AnyTypeOf<[1DTensorOf<[I32, I64]>, MemRefRankOf<[I32, I64], [1]>],
                                "1-D i32 or i64 tensor or memref">>,
             "this member's send and receive counts", [MemRead]>:$counts,
         OptionalAttr<DistRuntime_Groups>:$send_counts,
         OptionalAttr<DistRuntime_Groups>:$recv_counts),
    ReplicaGroups> {
  let summary = "exchange blocks of any size between group members "
                "(MPI_Alltoallv)";
  let description = [{
    Within each process group of `G` members, the member at position `i`
    sends the member at position `j` `send_counts[i][j]` rows (slices along
    dimension 0) of each input and receives `recv_counts[i][j]` rows from
    it. An input's rows go out in group order, consecutive: rows
    `[0, send_counts[i][0])` to member 0, the next `send_counts[i][1]` to
    member 1, and so on; rows past their sum are not sent. The received
    blocks fill the output's leading rows in group order; rows past them
    are zeros. Both tables are `G x G`, the same on every process (the
    program is SPMD, so a row per member says what each one does), and
    `recv_counts` is the transpose of `send_counts`: both sides are stated,
    as in `MPI_Alltoallv`, and checked against each other. Process groups
    are `cross_replica(replica_groups)` if `channel_id <= 0`, else
    `cross_partition(replica_groups)`. Several operands are exchanged with
    the same counts.

    ```mlir
    // 2 processes: %x@0 = [0, 1, 2], %x@1 = [10, 11, 12]
    // process 0 sends [0] to itself and [1, 2] to 1; process 1 sends
    // [10, 11, 12] to 0 and nothing to itself.
    %r = distruntime.all_to_all_v ins(%x : tensor<3xi64>)
        {send_counts = dense<[[1, 2], [3, 0]]> : tensor<2x2xi64>,
         recv_counts = dense<[[1, 3], [2, 0]]> : tensor<2x2xi64>,
         replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}
        -> tensor<4xi64>
    // %r@0 = [0, 10, 11, 12], %r@1 = [1, 2, 0, 0]
    ```

    With counts known only at run time (computed from data), each member
    passes its own row of each table as operands instead, as with
    `MPI_Alltoallv`: `send_counts(%s : T) recv_counts(%r : T)`, 1-D `i32`
    or `i64` tensors (memrefs in the memref form) of `G` values each, read
    when the op runs. What member `j` receives from `i` must be what `i`
    sends it; `DISTRT_CHECK=1` checks it at every call and names both.

    ```mlir
    distruntime.all_to_all_v ins(%x : memref<?xi64>) outs(%y : memref<?xi64>)
        send_counts(%s : memref<?xi64>) recv_counts(%r : memref<?xi64>)
        {replica_groups = dense<> : tensor<0x0xi64>}
    ```
  }];
  let assemblyFormat = [{
    `ins` `(` $inputs `:` type($inputs) `)`
    (`outs` `(` $outputs^ `:` type($outputs) `)`)?
    (`replica_groups` `(` $group_table^ `:` type($group_table) `)`)?
    custom<CountRows>($counts, type($counts), type($handle))
    attr-dict (`->` type($results)^)?
  }];
  let runtimeFunctionBody = [{
    return getCounts().empty()
               ? ::mlir::distruntime::RuntimeFunction::AllToAllV
               : ::mlir::distruntime::RuntimeFunction::AllToAllVRows;
  }];
  let collectiveDeclaration = [{
    ::llvm::SmallVector<int64_t> getChangedDims() { return {0}; }
    ::llvm::SmallVector<::llvm::SmallVector<int64_t>> getRuntimeTables() {
      if (!getSendCounts() || !getRecvCounts())
        return {};
      return {::llvm::to_vector(getSendCounts()->getValues<int64_t>()),
              ::llvm::to_vector(getRecvCounts()->getValues<int64_t>())};
    }
    ::mlir::Operation::operand_range getRuntimeTableOperands() {
      return getCounts();
    }
  }];
}

//===----------------------------------------------------------------------===//
// RaggedAllToAllOp
//===----------------------------------------------------------------------===//

def DistRuntime_RaggedAllToAllOp : DistRuntime_CollectiveOp<"ragged_all_to_all",
    "RaggedAllToAll",
    (ins Arg<Variadic<AnyTypeOf<[1DTensorOf<[I32, I64]>, MemRefRankOf<[I32, I64], [1]>],
                                "1-D i32 or i64 tensor or memref">>,
             "input_offsets, send_sizes, output_offsets, recv_sizes",
             [MemRead]>:$sizes),
    ReplicaGroups> {
  let summary = "exchange blocks sized at run time (StableHLO's "
                "ragged_all_to_all)";
  let description = [{
    Within each process group of `G` members, the member at position `i`
    sends rows (slices along dimension 0) `[input_offsets[j], input_offsets[j]
    + send_sizes[j])` of `input` to the member at position `j`, which writes
    them at rows `[output_offsets[j], output_offsets[j] + send_sizes[j])` of
    its output: `output_offsets` are offsets in the *receiver's* output, as
    in StableHLO. `recv_sizes[j]` is how many rows this member receives from
    member `j`, which must be what `j` sends it. The four are 1-D `i32` or
    `i64` tensors (memrefs in the memref form) of `G` values each, read when
    the op runs: counts computed from data. Rows of the output that nothing
    is received into keep their value. Received blocks must not overlap.
    Process groups are `cross_replica(replica_groups)` if `channel_id <= 0`,
    else `cross_partition(replica_groups)`; all groups have one size and
    every process is in one.

    The tensor form reads `input` and `output` (the result's initial value)
    as its two inputs, like StableHLO's operands; the memref form reads
    `input` and updates `output` (its `outs`) in place. Every member checks
    what it receives against what its peers send and names both when they
    differ; offsets or sizes out of range are run-time errors naming the
    op, the value and the rank.

    ```mlir
    // StableHLO's example, 2 processes:
    //   %x@0 = [1, 2, 2], input_offsets@0 = [0, 1], send_sizes@0 = [1, 2],
    //     output_offsets@0 = [0, 0], recv_sizes@0 = [1, 1]
    //   %x@1 = [3, 4, 0], input_offsets@1 = [0, 1], send_sizes@1 = [1, 1],
    //     output_offsets@1 = [1, 2], recv_sizes@1 = [2, 1]
    %r = distruntime.ragged_all_to_all ins(%x, %zeros : tensor<3xi32>, tensor<4xi32>)
        input_offsets(%io : tensor<2xi64>) send_sizes(%ss : tensor<2xi64>)
        output_offsets(%oo : tensor<2xi64>) recv_sizes(%rs : tensor<2xi64>)
        {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} -> tensor<4xi32>
    // %r@0 = [1, 3, 0, 0], %r@1 = [2, 2, 4, 0]
    distruntime.ragged_all_to_all ins(%a : memref<?xf32>) outs(%b : memref<?xf32>)
        input_offsets(%io : memref<?xi64>) send_sizes(%ss : memref<?xi64>)
        output_offsets(%oo : memref<?xi64>) recv_sizes(%rs : memref<?xi64>)
        {replica_groups = dense<> : tensor<0x0xi64>}
    ```
  }];
  let assemblyFormat = [{
    `ins` `(` $inputs `:` type($inputs) `)`
    (`outs` `(` $outputs^ `:` type($outputs) `)`)?
    (`replica_groups` `(` $group_table^ `:` type($group_table) `)`)?
    custom<RaggedSizes>($sizes, type($sizes), type($handle))
    attr-dict (`->` type($results)^)?
  }];
  let collectiveDeclaration = [{
    ::llvm::SmallVector<int64_t> getChangedDims() { return {0}; }
    ::mlir::Operation::operand_range getRuntimeTableOperands() {
      return getSizes();
    }
    /// The input whose rows are sent.
    ::mlir::Value getInput() { return getInputs().front(); }
    ::mlir::Value getInputOffsets() { return getSizes()[0]; }
    ::mlir::Value getSendSizes() { return getSizes()[1]; }
    ::mlir::Value getOutputOffsets() { return getSizes()[2]; }
    ::mlir::Value getRecvSizes() { return getSizes()[3]; }
  }];
}

//===----------------------------------------------------------------------===//
// ReduceScatterOp
//===----------------------------------------------------------------------===//

def DistRuntime_ReduceScatterOp : DistRuntime_ReductionOp<"reduce_scatter",
    "ReduceScatter", (ins I64Attr:$scatter_dimension)> {
  let summary = "reduce, then keep one block per member (MPI_Reduce_scatter)";
  let description = [{
    Within each process group, reduces the operand element-wise over the
    members, splits the result along `scatter_dimension` into one block per
    member and gives the member at position `i` of its group block `i`.
    Process groups and the reduction as for `all_reduce`.

    ```mlir
    %r = distruntime.reduce_scatter ins(%x : tensor<4x2xf32>)
        {reduction = #distruntime.reduction<sum>, scatter_dimension = 0 : i64,
         replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}
        -> tensor<2x2xf32>
    ```
  }];
  let reductionDeclaration = [{
    ::llvm::SmallVector<int64_t> getChangedDims() {
      return {static_cast<int64_t>(getScatterDimension())};
    }
    ::llvm::SmallVector<int64_t> getRuntimeScalars() {
      return {getReductionArgument(getReductionKind(), getReproducibility()),
              static_cast<int64_t>(getScatterDimension())};
    }
  }];
}

//===----------------------------------------------------------------------===//
// CollectiveBroadcastOp
//===----------------------------------------------------------------------===//

def DistRuntime_CollectiveBroadcastOp : DistRuntime_CollectiveOp<
    "collective_broadcast", "CollectiveBroadcast",
    (ins Arg<Optional<AnyTypeOf<[AnyRankedTensor, AnyMemRef],
                                "root indices: a 1-D i32 tensor or memref">>,
             "root index per input (StableHLO's has_dynamic_root)",
             [MemRead]>:$roots),
    ReplicaGroups> {
  let summary = "broadcast from a member of each group (MPI_Bcast)";
  let replicates = 1;
  let description = [{
    Within each process group, every member receives the operand of the
    group's first member (the first id listed, not the lowest). Processes in
    no group get zeros. Process groups are `cross_replica(replica_groups)` if
    `channel_id <= 0`, else `cross_partition(replica_groups)`.

    ```mlir
    // Seed example, 4 replicas: %x@i = [[2i+1, 2i+2]]
    %r = distruntime.collective_broadcast ins(%x : tensor<1x2xi64>)
        {replica_groups = dense<[[2, 1]]> : tensor<1x2xi64>} -> tensor<1x2xi64>
    // %r@0 = [[0, 0]], %r@1 = [[5, 6]], %r@2 = [[5, 6]], %r@3 = [[0, 0]]
    ```

    With `roots`, StableHLO's `has_dynamic_root` form (its last operand),
    the source of result `k` is instead the member at position `roots[k]`
    of the group (`process_groups[i, roots[k]]`), a value known at run
    time: `roots` is a 1-D `i32` tensor (a memref in the memref form) with
    one index per input, each in `[0, group size)`. Every member of a group
    must pass the same roots (StableHLO's interpreter reads each process's
    own, which MPI_Bcast cannot); different groups may pass different ones.
    A tensor constant out of range is a verifier error, any other root out
    of range a run-time error naming the op, the root and the rank; with
    `DISTRT_CHECK=1` the runtime also checks that the members of each group
    agree on the roots.

    ```mlir
    // StableHLO's has_dynamic_root_variadic, 2 replicas:
    // %a@0 = [[1, 2]], %b@0 = [[5, 6]], %a@1 = [[3, 4]], %b@1 = [[7, 8]]
    %roots = arith.constant dense<[0, 1]> : tensor<2xi32>
    %r:2 = distruntime.collective_broadcast
        ins(%a, %b : tensor<1x2xi64>, tensor<1x2xi64>)
        roots(%roots : tensor<2xi32>)
        {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}
        -> tensor<1x2xi64>, tensor<1x2xi64>
    ```

    Per member (%r#0 from position 0, %r#1 from position 1):
    ```
    before: m0: a = [[1, 2]], b = [[5, 6]]   m1: a = [[3, 4]], b = [[7, 8]]
    after:  m0, m1: r#0 = [[1, 2]], r#1 = [[7, 8]]
    ```

    Every collective takes its groups either as the `replica_groups`
    attribute or as a table read when the op runs: a 2-D `i64` tensor (a
    memref in the memref form), one row per group, with the attribute's
    meaning (`-1` may end a row of all_reduce's or collective_broadcast's
    ragged groups). A program builds it from the team's size, e.g. the rows
    of a grid from `dims_create`. Every member of the team must pass the
    same table: the runtime compares it when it first splits the team by
    it, and at every call under `DISTRT_CHECK=1`; it checks the ids as the
    verifier checks the attribute's, and names the op and the rank.

    ```mlir
    // Broadcast along the rows of a pr x pc grid (%rows : pr x pc), from
    // the member at position %roots[0] of each row.
    %h = distruntime.collective_broadcast ins(%panel : memref<?x?xf64>)
        roots(%roots : memref<1xi32>) outs(%panel : memref<?x?xf64>)
        replica_groups(%rows : memref<?x?xi64>) async
    ```
  }];
  let assemblyFormat = [{
    `ins` `(` $inputs `:` type($inputs) `)`
    (`roots` `(` $roots^ `:` type($roots) `)`)?
    (`outs` `(` $outputs^ `:` type($outputs) `)`)?
    (`replica_groups` `(` $group_table^ `:` type($group_table) `)`)?
    custom<Async>(type($handle)) attr-dict (`->` type($results)^)?
  }];
  let collectiveDeclaration = [{
    /// StableHLO's has_dynamic_root: the roots are an operand.
    bool hasDynamicRoot() { return getRoots() != nullptr; }
    ::mlir::Operation::operand_range getRuntimeTableOperands() {
      return getODSOperands(2);
    }
  }];
}

//===----------------------------------------------------------------------===//
// CollectivePermuteOp
//===----------------------------------------------------------------------===//

def DistRuntime_CollectivePermuteOp : DistRuntime_CollectiveOp<
    "collective_permute", "CollectivePermute", (ins), PairGroups> {
  let summary = "send each source's operand to its target (MPI_Sendrecv)";
  let description = [{
    For each pair `(source, target)` of `source_target_pairs`, the operand of
    `source` becomes the result of `target`. Pairs name replicas (within each
    partition) if `channel_id <= 0`, else partitions (within each replica). A
    process that is nobody's target gets zeros; a pair `(i, i)` keeps its own
    value.

    ```mlir
    // A ring over 3 replicas.
    %r = distruntime.collective_permute ins(%x : tensor<4xf32>)
        {source_target_pairs = dense<[[0, 1], [1, 2], [2, 0]]> : tensor<3x2xi64>}
        -> tensor<4xf32>
    ```

    `collective_permute`, `send` and `recv` also take their pairs as a table
    read when the op runs, an `n x 2` `i64` tensor (a memref in the memref
    form), e.g. a ring of any size built from `team_size`. It must be the
    same on every member; `DISTRT_CHECK=1` checks that each message's
    sender and receiver agree on it.

    ```mlir
    // %ring = [[0, 1], [1, 2], ..., [P - 1, 0]], filled at run time.
    distruntime.collective_permute ins(%x : memref<8xf64>)
        outs(%y : memref<8xf64>) source_target_pairs(%ring : memref<?x2xi64>)
    ```
  }];
}

//===----------------------------------------------------------------------===//
// SendOp / RecvOp
//===----------------------------------------------------------------------===//

defvar ChannelArgs = (ins OptionalAttr<DistRuntime_ChannelTypeAttr>:$channel_type,
                      DefaultValuedAttr<BoolAttr, "false">:$is_host_transfer);
// (channel_id : i64, host_transfer : i32).
defvar ChannelScalars = [{
    ::llvm::SmallVector<int64_t> getRuntimeScalars() {
      return {static_cast<int64_t>(getChannelId()), getIsHostTransfer()};
    }
}];

def DistRuntime_SendOp
    : DistRuntime_CollectiveOp<"send", "Send", ChannelArgs, PairGroups> {
  let summary = "send inputs on a channel (MPI_Isend)";
  let pointToPoint = 1;
  let description = [{
    Each process that is the source of a pair of `source_target_pairs` sends
    its `inputs` on channel `channel_id` to the pair's target, where a
    `distruntime.recv` on the same channel receives them. Pairs name replicas
    if `channel_id <= 0`, else partitions. Messages of one channel arrive in
    order; different channels never mix. With `is_host_transfer`, the inputs
    go to the channel's host queue instead (a FIFO in the process, read by a
    host-transfer `recv`). Async handles replace StableHLO's tokens: an async
    send's inputs must not change before its `wait`.

    ```mlir
    %h = distruntime.send ins(%x : memref<2x2xi64>) async
        {source_target_pairs = dense<[[0, 1], [1, 2]]> : tensor<2x2xi64>, channel_id = 1 : i64}
    distruntime.wait %h
    ```
  }];
  let collectiveDeclaration = ChannelScalars;
}

def DistRuntime_RecvOp
    : DistRuntime_CollectiveOp<"recv", "Recv", ChannelArgs, PairGroups> {
  let summary = "receive on a channel (MPI_Irecv)";
  let pointToPoint = 1;
  let description = [{
    Each process that is the target of a pair of `source_target_pairs`
    receives, on channel `channel_id`, the inputs that the pair's source sent
    with `distruntime.send`; a process that is nobody's target gets zeros.
    With `is_host_transfer`, the data comes from the channel's host queue.
    Tensor results need static shapes; memref outputs are passed with `outs`.

    ```mlir
    %r = distruntime.recv
        {source_target_pairs = dense<[[0, 1], [1, 2]]> : tensor<2x2xi64>, channel_id = 1 : i64}
        -> tensor<2x2xi64>
    distruntime.recv outs(%y : memref<2x2xi64>) {source_target_pairs = dense<[[0, 1]]> : tensor<1x2xi64>, channel_id = 1 : i64}
    ```
  }];
  let collectiveDeclaration = ChannelScalars;
  // Without inputs, `ins` is omitted.
  let assemblyFormat = [{
    (`ins` `(` $inputs^ `:` type($inputs) `)`)?
    (`outs` `(` $outputs^ `:` type($outputs) `)`)?
    (`source_target_pairs` `(` $group_table^ `:` type($group_table) `)`)?
    custom<Async>(type($handle)) attr-dict (`->` type($results)^)?
  }];
}

//===----------------------------------------------------------------------===//
// YieldOp
//===----------------------------------------------------------------------===//

def DistRuntime_YieldOp : DistRuntime_Op<"yield", [
    Pure, Terminator, ReturnLike,
    ParentOneOf<["AllReduceGroupOp", "ReduceScatterOp", "ScatterOp"]>]> {
  let summary = "result of a reduction or update computation";
  let arguments = (ins Variadic<AnyType>:$values);
  let assemblyFormat = "($values^ `:` type($values))? attr-dict";
}

#endif // DISTRUNTIME_DIALECT_DISTRUNTIME_IR_DISTRUNTIMECOLLECTIVEOPS_TD
