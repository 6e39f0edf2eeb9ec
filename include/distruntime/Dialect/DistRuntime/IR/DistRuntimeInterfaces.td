//===- DistRuntimeInterfaces.td - Communicating ops --------*- tablegen -*-===//
//
// What every communicating op does (CommunicatingOpInterface), asked by the
// analyses and the passes; and the facts in which the StableHLO-style
// collectives differ, asked by their verifiers, bufferization and the
// lowering to libdistrt (CollectiveOpInterface).
//
//===----------------------------------------------------------------------===//

#ifndef DISTRUNTIME_DIALECT_DISTRUNTIME_IR_DISTRUNTIMEINTERFACES_TD
#define DISTRUNTIME_DIALECT_DISTRUNTIME_IR_DISTRUNTIMEINTERFACES_TD

include "mlir/IR/OpBase.td"

def DistRuntime_CommunicatingOpInterface
    : OpInterface<"CommunicatingOpInterface"> {
  let cppNamespace = "::mlir::distruntime";
  let description = [{
    What an op that communicates does, declared once by the op: its team,
    whether it is async (and so holds its buffers until its wait), the
    buffers it reads and writes while in flight, and what it guarantees of
    the data it writes. The uniformity analysis, verify-spmd, the proven
    marks, and the passes that move communication (combine, async, overlap)
    ask this interface instead of keeping lists of op types.
  }];
  let methods = [
    InterfaceMethod<"The team it communicates over.", "uint64_t", "getTeam">,
    InterfaceMethod<"The async handle, or null for a synchronous op.",
      "::mlir::TypedValue<::mlir::distruntime::AsyncHandleType>",
      "getHandle">,
    InterfaceMethod<[{
        The memrefs it reads and writes, from its start until it completes
        (its wait when async; a halo get_halo allocates is written).
      }], "void", "getBuffersInFlight",
      (ins "::llvm::SmallVectorImpl<::mlir::Value> &":$reads,
           "::llvm::SmallVectorImpl<::mlir::Value> &":$writes), "", [{
        ::mlir::distruntime::detail::getEffectBuffers($_op, reads, writes);
      }]>,
    InterfaceMethod<[{
        Whether it writes every element of `buffer`, one of the memrefs it
        writes: update_halo writes its block's frame only.
      }], "bool", "writesAllOf", (ins "::mlir::Value":$buffer), "",
      "return true;">,
    InterfaceMethod<[{
        Whether what it writes agrees within each of its process groups
        (all_reduce, all_gather, collective_broadcast, the RFC's allreduce);
        otherwise it writes received data, which may differ between
        members.
      }], "bool", "replicates", (ins), "", "return false;">,
    InterfaceMethod<[{
        Whether it pairs members (send, recv) rather than running once on
        every member of its groups.
      }], "bool", "isPointToPoint", (ins), "", "return false;">,
    InterfaceMethod<[{
        Whether it may be issued async (with a handle result): global_reduce
        returns its value instead.
      }], "bool", "hasAsyncForm", (ins), "", "return true;">,
    InterfaceMethod<[{
        Whether its members must pass operands of equal sizes; halo
        exchanges do not (their local blocks differ).
      }], "bool", "needsEqualSizes", (ins), "", "return true;">,
    InterfaceMethod<[{
        Whether its runtime call takes the `distruntime.proven` mark (and so
        lets checked mode skip what the compiler proved).
      }], "bool", "takesProvenMark", (ins), "", "return true;">,
  ];
}

def DistRuntime_CollectiveOpInterface : OpInterface<"CollectiveOpInterface"> {
  let cppNamespace = "::mlir::distruntime";
  let description = [{
    A collective over process groups: `inputs` (tensors or memrefs read),
    `outputs` (memrefs written) or tensor `results`, an optional async
    `handle`, the `team`, and the process groups given by `getGroupMode` and
    `getGroupIds`. The op's shared operands and results come from
    `DistRuntime_CollectiveOp` in ODS; the methods below are what differs.
  }];
  let methods = [
    InterfaceMethod<"The inputs (tensors, or memrefs read).",
      "::mlir::Operation::operand_range", "getInputs">,
    InterfaceMethod<"The outputs of the memref form.",
      "::mlir::Operation::operand_range", "getOutputs">,
    InterfaceMethod<"The results of the tensor form.",
      "::mlir::Operation::result_range", "getResults">,
    InterfaceMethod<"The async handle, or null for a synchronous op.",
      "::mlir::TypedValue<::mlir::distruntime::AsyncHandleType>",
      "getHandle">,
    InterfaceMethod<"The team the process groups are drawn from.",
      "uint64_t", "getTeam">,
    InterfaceMethod<[{
        The group function StableHLO assigns from `channel_id` (and
        `use_global_device_ids` where the op has it).
      }], "::mlir::distruntime::GroupMode", "getGroupMode">,
    InterfaceMethod<[{
        `replica_groups` or `source_target_pairs`; null when the groups are
        read at run time (getGroupTable).
      }], "::mlir::DenseIntElementsAttr", "getGroupIds">,
    InterfaceMethod<[{
        The groups (or pairs) as a 2-D i64 tensor or memref read when the op
        runs, in place of getGroupIds; null if they are an attribute.
      }], "::mlir::Value", "getGroupTable">,
    InterfaceMethod<[{
        Dimensions in which results may differ in size from the inputs; the
        others keep the inputs' sizes.
      }], "::llvm::SmallVector<int64_t>", "getChangedDims", (ins), "",
      "return {};">,
    InterfaceMethod<"The libdistrt entry point the op lowers to.",
      "::mlir::distruntime::RuntimeFunction", "getRuntimeFunction">,
    InterfaceMethod<[{
        The op's own scalar arguments of the runtime call, after the team
        and the groups, in order; their widths are the entry point's.
      }], "::llvm::SmallVector<int64_t>", "getRuntimeScalars", (ins), "",
      "return {};">,
    InterfaceMethod<[{
        The op's constant i64 tables (all_to_all_v's counts), in order: the
        runtime call's arguments after its scalars. Each is emitted as a
        constant global, as the groups are; the runtime matches them by
        content and checked mode hashes them.
      }], "::llvm::SmallVector<::llvm::SmallVector<int64_t>>",
      "getRuntimeTables", (ins), "", "return {};">,
    InterfaceMethod<[{
        The op's tables read when it runs (collective_broadcast's dynamic
        roots): 1-D integer tensors, or memrefs in the memref form, one
        operand segment after the outputs. The runtime call takes them after
        the constant tables, loaded into tables on the stack; the runtime
        matches and hashes them as it does the constant ones.
      }], "::mlir::Operation::operand_range", "getRuntimeTableOperands",
      (ins), "", "return $_op->getOperands().take_back(0);">,
    InterfaceMethod<[{
        Creates the memref form of this op: the same attributes and regions,
        reading `inputs` (and `tables`, its getRuntimeTableOperands) and
        writing `outputs`, with a handle if this op has one and no tensor
        results.
      }], "::mlir::Operation *", "cloneWithBuffers",
      (ins "::mlir::OpBuilder &":$builder, "::mlir::ValueRange":$inputs,
           "::mlir::ValueRange":$outputs, "::mlir::ValueRange":$tables,
           "::mlir::Value":$groupTable), "", [{
        typename ConcreteOp::Properties properties = $_op.getProperties();
        auto &segments = properties.operandSegmentSizes;
        segments[0] = static_cast<int32_t>(inputs.size());
        segments[1] = static_cast<int32_t>(outputs.size());
        // The table operands, if the op has them, are the segment after;
        // the group table is the last.
        if constexpr (std::tuple_size_v<
                          std::decay_t<decltype(segments)>> > 3)
          segments[2] = static_cast<int32_t>(tables.size());
        else
          assert(tables.empty() && "the op has no table operands");
        segments.back() = groupTable ? 1 : 0;
        bool async = $_op.getHandle() != nullptr;
        properties.resultSegmentSizes = {0, async};
        ::llvm::SmallVector<::mlir::Value> operands(inputs);
        ::llvm::append_range(operands, outputs);
        ::llvm::append_range(operands, tables);
        if (groupTable)
          operands.push_back(groupTable);
        ::llvm::SmallVector<::mlir::Type, 1> handle;
        if (async)
          handle.push_back($_op.getHandle().getType());
        auto clone = ConcreteOp::create(
            builder, $_op.getLoc(), handle, operands, properties,
            ::llvm::to_vector($_op->getDiscardableAttrs()));
        ::mlir::IRMapping mapping;
        for (auto [from, to] :
             ::llvm::zip($_op->getRegions(), clone->getRegions()))
          from.cloneInto(&to, mapping);
        return clone;
      }]>,
  ];
}

#endif // DISTRUNTIME_DIALECT_DISTRUNTIME_IR_DISTRUNTIMEINTERFACES_TD
