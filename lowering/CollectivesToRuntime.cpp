//===- CollectivesToRuntime.cpp - StableHLO collectives to libdistrt ------===//
//
// Each collective becomes one call: (team, groups descriptor, op-specific
// scalars, n, inputs[], outputs[], async, site, location). The groups
// descriptor is a constant global, so the runtime caches its communicators
// per pointer; the site is the op's own mutable global, where the runtime
// remembers its last call.
//
//===----------------------------------------------------------------------===//

#include "RuntimeCallPattern.h"

#include "distruntime/Dialect/DistRuntime/IR/DistRuntimeOps.h"
#include "distruntime/Dialect/DistRuntime/IR/ProcessGroups.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

using namespace mlir;
using namespace mlir::distruntime;

namespace {

/// The parts of the call that differ between ops.
template <typename Op> struct CollectiveTraits;

template <> struct CollectiveTraits<AllGatherOp> {
  static constexpr RuntimeFunction fn = RuntimeFunction::AllGather;
  static GroupMode mode(AllGatherOp op) {
    return getGroupMode(op.getChannelId(), op.getUseGlobalDeviceIds());
  }
  static DenseIntElementsAttr ids(AllGatherOp op) {
    return op.getReplicaGroups();
  }
  static SmallVector<int64_t> scalars(AllGatherOp op) {
    // The verifier bounds the dimensions by the rank: they fit an i64.
    return {static_cast<int64_t>(op.getAllGatherDim())};
  }
};

template <typename Op> static int64_t reductionOf(Op op) {
  if (auto kind = op.getReduction())
    return static_cast<int64_t>(*kind);
  return static_cast<int64_t>(*matchReductionRegion(op.getComputation()));
}

template <> struct CollectiveTraits<AllReduceGroupOp> {
  static constexpr RuntimeFunction fn = RuntimeFunction::AllReduceGroups;
  static GroupMode mode(AllReduceGroupOp op) {
    return getGroupMode(op.getChannelId(), op.getUseGlobalDeviceIds());
  }
  static DenseIntElementsAttr ids(AllReduceGroupOp op) {
    return op.getReplicaGroups();
  }
  // The reduction travels as an i32 (distrt_redop_t).
  static SmallVector<int64_t> scalars(AllReduceGroupOp op) {
    return {reductionOf(op)};
  }
  static constexpr bool firstScalarIsI32 = true;
};

template <> struct CollectiveTraits<AllToAllOp> {
  static constexpr RuntimeFunction fn = RuntimeFunction::AllToAll;
  static GroupMode mode(AllToAllOp op) {
    return getGroupMode(op.getChannelId());
  }
  static DenseIntElementsAttr ids(AllToAllOp op) {
    return op.getReplicaGroups();
  }
  static SmallVector<int64_t> scalars(AllToAllOp op) {
    return {static_cast<int64_t>(op.getSplitDimension()),
            static_cast<int64_t>(op.getConcatDimension()),
            static_cast<int64_t>(op.getSplitCount())};
  }
};

template <> struct CollectiveTraits<ReduceScatterOp> {
  static constexpr RuntimeFunction fn = RuntimeFunction::ReduceScatter;
  static GroupMode mode(ReduceScatterOp op) {
    return getGroupMode(op.getChannelId(), op.getUseGlobalDeviceIds());
  }
  static DenseIntElementsAttr ids(ReduceScatterOp op) {
    return op.getReplicaGroups();
  }
  static SmallVector<int64_t> scalars(ReduceScatterOp op) {
    return {reductionOf(op), static_cast<int64_t>(op.getScatterDimension())};
  }
  static constexpr bool firstScalarIsI32 = true;
};

template <> struct CollectiveTraits<CollectiveBroadcastOp> {
  static constexpr RuntimeFunction fn = RuntimeFunction::CollectiveBroadcast;
  static GroupMode mode(CollectiveBroadcastOp op) {
    return getGroupMode(op.getChannelId());
  }
  static DenseIntElementsAttr ids(CollectiveBroadcastOp op) {
    return op.getReplicaGroups();
  }
  static SmallVector<int64_t> scalars(CollectiveBroadcastOp) { return {}; }
};

template <> struct CollectiveTraits<CollectivePermuteOp> {
  static constexpr RuntimeFunction fn = RuntimeFunction::CollectivePermute;
  static GroupMode mode(CollectivePermuteOp op) {
    return getGroupMode(op.getChannelId());
  }
  static DenseIntElementsAttr ids(CollectivePermuteOp op) {
    return op.getSourceTargetPairs();
  }
  static SmallVector<int64_t> scalars(CollectivePermuteOp) { return {}; }
};

/// send/recv: (channel_id : i64, host_transfer : i32) and one operand list.
template <typename Op> struct ChannelTraits {
  static GroupMode mode(Op op) { return getGroupMode(op.getChannelId()); }
  static DenseIntElementsAttr ids(Op op) { return op.getSourceTargetPairs(); }
};
template <> struct CollectiveTraits<SendOp> : ChannelTraits<SendOp> {
  static constexpr RuntimeFunction fn = RuntimeFunction::Send;
};
template <> struct CollectiveTraits<RecvOp> : ChannelTraits<RecvOp> {
  static constexpr RuntimeFunction fn = RuntimeFunction::Recv;
};

template <typename T>
concept HasI32Reduction = requires {
  T::firstScalarIsI32;
};

template <typename Op>
struct CollectiveLowering : public RuntimeCallPattern<Op> {
  using RuntimeCallPattern<Op>::RuntimeCallPattern;
  using Traits = CollectiveTraits<Op>;

  LogicalResult
  matchAndRewrite(Op op, typename Op::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    ModuleOp module = this->getModule(op);
    for (Value v : op.getInputs())
      if (!isa<MemRefType>(v.getType()))
        return op.emitOpError("on tensors must be bufferized before "
                              "convert-distruntime-to-runtime (run "
                              "one-shot-bufferize, or the distruntime-to-llvm "
                              "pipeline)");
    if (!op.getResults().empty())
      return op.emitOpError("with tensor results must be bufferized before "
                            "convert-distruntime-to-runtime");

    ProcessGrid grid = getProcessGrid(op);
    Value groups = getGroupsDescriptor(
        rewriter, module, loc, static_cast<int32_t>(Traits::mode(op)),
        grid.numReplicas ? *grid.numReplicas : -1, grid.numPartitions,
        Traits::ids(op));
    auto [callee, where] = this->calleeAndLocation(op, rewriter, Traits::fn);
    bool async = op.getHandle() != nullptr;
    // Groups, scalars and counts are constants here: the site is static
    // when the operands' layouts are too.
    SmallVector<Value> memrefs;
    if constexpr (!std::is_same_v<Op, RecvOp>)
      llvm::append_range(memrefs, adaptor.getInputs());
    if constexpr (!std::is_same_v<Op, SendOp>)
      llvm::append_range(memrefs, adaptor.getOutputs());
    Value site = createSite(rewriter, module, loc, op->getName().stripDialect(),
                            getSiteFlags(ValueRange(memrefs)));

    return this->replaceByHandleCall(op, rewriter, [&](OpBuilder &b) {
      SmallVector<Value> args{this->i64(b, loc, op.getTeam()), groups};
      if constexpr (std::is_same_v<Op, SendOp> || std::is_same_v<Op, RecvOp>) {
        args.push_back(this->i64(b, loc, op.getChannelId()));
        args.push_back(this->i32(b, loc, op.getIsHostTransfer()));
        ValueRange operands = std::is_same_v<Op, SendOp> ? adaptor.getInputs()
                                                         : adaptor.getOutputs();
        args.push_back(this->i64(b, loc, operands.size()));
        args.push_back(packOperands(b, loc, operands));
      } else {
        for (auto [i, v] : llvm::enumerate(Traits::scalars(op)))
          args.push_back(HasI32Reduction<Traits> && i == 0
                             ? this->i32(b, loc, v)
                             : this->i64(b, loc, v));
        args.push_back(this->i64(b, loc, adaptor.getInputs().size()));
        args.push_back(packOperands(b, loc, adaptor.getInputs()));
        args.push_back(packOperands(b, loc, adaptor.getOutputs()));
      }
      args.push_back(this->i32(b, loc, async));
      args.push_back(site);
      args.push_back(where);
      return func::CallOp::create(b, loc, callee, args).getResult(0);
    });
  }
};

} // namespace

void mlir::distruntime::populateCollectivesToRuntimePatterns(
    TypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<
      CollectiveLowering<AllGatherOp>, CollectiveLowering<AllReduceGroupOp>,
      CollectiveLowering<AllToAllOp>, CollectiveLowering<ReduceScatterOp>,
      CollectiveLowering<CollectiveBroadcastOp>,
      CollectiveLowering<CollectivePermuteOp>, CollectiveLowering<SendOp>,
      CollectiveLowering<RecvOp>>(converter, patterns.getContext());
}
