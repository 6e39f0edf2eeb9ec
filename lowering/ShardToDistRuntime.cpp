//===- ShardToDistRuntime.cpp - convert-shard-to-distruntime --------------===//
//
// Checks every shard op first (checkShardOp), so that what cannot be lowered
// is one clear error naming the op; then converts with the shard dialect
// illegal, so nothing is left behind silently; then drops the grids and
// shardings, which only the converted ops used.
//
//===----------------------------------------------------------------------===//

#include "ShardPatterns.h"

#include "distruntime/Conversion/Passes.h"
#include "distruntime/Conversion/RuntimeAPI.h"
#include "distruntime/Dialect/DistRuntime/IR/DistRuntimeOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Shard/IR/ShardDialect.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "llvm/ADT/TypeSwitch.h"

namespace mlir::distruntime {
#define GEN_PASS_DEF_CONVERTSHARDTODISTRUNTIME
#include "distruntime/Conversion/Passes.h.inc"
} // namespace mlir::distruntime

using namespace mlir;
using namespace mlir::distruntime;

/// The grid `op` names through its `grid` attribute, if it has one.
static FlatSymbolRefAttr getGridName(Operation *op) {
  return op->getAttrOfType<FlatSymbolRefAttr>("grid");
}

static std::string formatShape(ArrayRef<int64_t> shape) {
  std::string text;
  llvm::raw_string_ostream os(text);
  llvm::interleave(
      shape, os,
      [&](int64_t s) {
        if (ShapedType::isDynamic(s))
          os << '?';
        else
          os << s;
      },
      "x");
  return text;
}

/// Ops whose lowering computes process groups at compile time.
static bool needsStaticGrid(Operation *op) {
  return !isa<shard::ProcessLinearIndexOp, shard::ProcessMultiIndexOp,
              shard::GridShapeOp, shard::NeighborsLinearIndicesOp>(op);
}

static LogicalResult checkReduction(Operation *op, shard::ReductionKind kind,
                                    Type resultType) {
  if (kind == shard::ReductionKind::Generic)
    return op->emitOpError(
        "has reduction `generic`, which names no element-wise operation; "
        "use sum, product, min, max, average or a bitwise reduction");
  bool bitwise = kind == shard::ReductionKind::BitwiseAnd ||
                 kind == shard::ReductionKind::BitwiseOr ||
                 kind == shard::ReductionKind::BitwiseXor;
  Type element = getElementTypeOrSelf(resultType);
  if (bitwise && !element.isInteger())
    return op->emitOpError("has a bitwise reduction on ")
           << element << " elements; bitwise reductions need integers";
  if (!getRuntimeTypeCode(element))
    return op->emitOpError("reduces ")
           << element << " elements, which distruntime does not support";
  return success();
}

/// A root, destination or source: static (the shard verifier checks that
/// it lies in the group).
static LogicalResult checkMember(Operation *op, StringRef what,
                                 ValueRange dynamic) {
  if (!dynamic.empty())
    return op->emitOpError("has a dynamic ")
           << what
           << "; distruntime compiles the process groups with it, so it must "
              "be a constant";
  return success();
}

/// send and recv pair the two members of each group; a group of more
/// processes has no one-to-one pattern a single send or recv describes.
static LogicalResult checkPair(Operation *op, const ShardGrid &grid,
                               ArrayRef<shard::GridAxis> axes) {
  int64_t size = grid.getGroupSize(axes);
  if (size > 2)
    return op->emitOpError("groups ")
           << size
           << " processes, but a shard.send/recv pair describes one message "
              "per group: only groups of 1 or 2 processes have a defined "
              "pairing (use shard.shift, or distruntime.send/recv with "
              "source_target_pairs)";
  return success();
}

static LogicalResult checkStaticSize(Operation *op, Type type, int64_t dim,
                                     StringRef what) {
  if (cast<ShapedType>(type).isDynamicDim(dim))
    return op->emitOpError("needs a static result size along the ")
           << what << " axis " << dim;
  return success();
}

LogicalResult mlir::distruntime::checkShardOp(Operation *op,
                                              const ShardLowering &lowering) {
  if (isa<shard::GridOp>(op))
    return success();
  if (isa<shard::ShardOp>(op))
    return op->emitOpError(
        "is a sharding annotation: partition the function first "
        "(sharding-propagation, shard-partition; `distruntime-opt "
        "--shard-to-llvm` runs both)");
  if (isa<shard::ShardingOp, shard::GetShardingOp>(op)) {
    for (Operation *user : op->getUsers())
      if (!isa<shard::ShardShapeOp, shard::GetShardingOp, shard::ShardOp>(user))
        return op->emitOpError("is used by ")
               << user->getName()
               << ", which distruntime cannot lower (shardings are "
                  "compile-time values; only shard.shard_shape may read one "
                  "after "
                  "partitioning)";
    return success();
  }

  FlatSymbolRefAttr name = getGridName(op);
  if (auto shape = dyn_cast<shard::ShardShapeOp>(op)) {
    auto sharding = shape.getSharding().getDefiningOp<shard::ShardingOp>();
    if (!sharding)
      return op->emitOpError(
          "needs its sharding from a shard.sharding op in the same function");
    op = sharding;
    name = sharding.getGridAttr();
  }
  if (!name)
    return op->emitOpError("has no grid: distruntime cannot lower it");
  shard::GridOp gridOp = shard::getGrid(op, name, *lowering.symbols);
  if (!gridOp)
    return op->emitOpError("names no shard.grid ") << name;
  ShardGrid grid(gridOp, lowering.team);
  if (!grid.isStatic()) {
    if (needsStaticGrid(op))
      return op->emitOpError("needs a static grid, but ")
             << name << " has shape " << formatShape(grid.getShape())
             << ": its process groups are computed at compile time";
    if (llvm::count_if(grid.getShape(), ShapedType::isDynamic) > 1)
      return op->emitOpError("uses ")
             << name << " of shape " << formatShape(grid.getShape())
             << ": at most one grid axis may be dynamic (its size is the "
                "team size divided by the others)";
  }

  return TypeSwitch<Operation *, LogicalResult>(op)
      .Case<shard::AllReduceOp, shard::ReduceOp>([&](auto o) -> LogicalResult {
        if (auto memref = dyn_cast<MemRefType>(o.getResult().getType()))
          if (!memref.getLayout().isIdentity())
            return o->emitOpError("needs an identity-layout result memref");
        if constexpr (std::is_same_v<decltype(o), shard::ReduceOp>)
          if (failed(checkMember(o, "root", o.getRootDynamic())))
            return failure();
        return checkReduction(o, o.getReduction(), o.getResult().getType());
      })
      .Case<shard::ReduceScatterOp>([&](auto o) -> LogicalResult {
        return checkReduction(o, o.getReduction(), o.getResult().getType());
      })
      .Case<shard::BroadcastOp, shard::GatherOp>([&](auto o) -> LogicalResult {
        return checkMember(o, "root", o.getRootDynamic());
      })
      .Case<shard::ScatterOp>([&](shard::ScatterOp o) -> LogicalResult {
        if (failed(checkMember(o, "root", o.getRootDynamic())))
          return failure();
        return checkStaticSize(o, o.getResult().getType(),
                               o.getScatterAxis().getZExtValue(), "scatter");
      })
      .Case<shard::AllSliceOp>([&](shard::AllSliceOp o) -> LogicalResult {
        return checkStaticSize(o, o.getResult().getType(),
                               o.getSliceAxis().getZExtValue(), "slice");
      })
      .Case<shard::SendOp>([&](shard::SendOp o) -> LogicalResult {
        if (failed(checkMember(o, "destination", o.getDestinationDynamic())))
          return failure();
        return checkPair(o, grid, o.getGridAxes());
      })
      .Case<shard::RecvOp>([&](shard::RecvOp o) -> LogicalResult {
        if (!o.getSource())
          return o->emitOpError(
              "has no source: distruntime needs to know whom to receive "
              "from at compile time");
        if (failed(checkMember(o, "source", o.getSourceDynamic())))
          return failure();
        return checkPair(o, grid, o.getGridAxes());
      })
      .Case<shard::UpdateHaloOp>([&](shard::UpdateHaloOp o) -> LogicalResult {
        int64_t split = llvm::count_if(
            o.getSplitAxes().getAxes(),
            [](shard::GridAxesAttr axes) { return !axes.empty(); });
        int64_t sizes = o.getStaticHaloSizes().size();
        if (sizes != 0 && sizes != 2 * split)
          return o->emitOpError("has ")
                 << sizes << " halo sizes for " << split
                 << " split dimensions; it needs a (low, high) pair for each";
        return success();
      })
      .Default([](Operation *) { return success(); });
}

/// At the entry of `func`, checks that the team has as many processes as
/// each grid the function's shard ops use (a dynamic axis: a multiple of
/// the static ones).
static void createGridSizeChecks(func::FuncOp func,
                                 ArrayRef<shard::GridOp> grids, int64_t team) {
  OpBuilder b(func.getContext());
  b.setInsertionPointToStart(&func.getBody().front());
  for (shard::GridOp grid : grids) {
    Location loc = grid.getLoc();
    int64_t known = 1;
    for (int64_t extent : grid.getShape())
      if (!ShapedType::isDynamic(extent))
        known *= extent;
    Value size = TeamSizeOp::create(b, loc, b.getIndexType(), team);
    Value want = arith::ConstantIndexOp::create(b, loc, known);
    std::string name = ("shard.grid @" + grid.getSymName() + " (shape " +
                        formatShape(grid.getShape()) + ")")
                           .str();
    if (ShardGrid(grid, team).isStatic()) {
      createRuntimeCheck(b, loc, arith::CmpIPredicate::eq, size, want, name,
                         "processes in team " + std::to_string(team));
      continue;
    }
    Value rest = arith::RemUIOp::create(b, loc, size, want);
    Value zero = arith::ConstantIndexOp::create(b, loc, 0);
    createRuntimeCheck(b, loc, arith::CmpIPredicate::eq, rest, zero, name,
                       "processes in team " + std::to_string(team) +
                           " modulo the static axes' " + std::to_string(known));
  }
}

namespace {

struct ConvertShardToDistRuntime
    : public distruntime::impl::ConvertShardToDistRuntimeBase<
          ConvertShardToDistRuntime> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    SymbolTableCollection symbols;
    ShardLowering lowering{team, &symbols};

    // Check everything first: one clear error per op that cannot be lowered.
    bool ok = true;
    DenseMap<func::FuncOp, SetVector<shard::GridOp>> gridsOf;
    module.walk([&](Operation *op) {
      if (!isa<shard::ShardDialect>(op->getDialect()))
        return;
      if (failed(checkShardOp(op, lowering))) {
        ok = false;
        return;
      }
      FlatSymbolRefAttr name = getGridName(op);
      auto func = op->getParentOfType<func::FuncOp>();
      if (name && func && !isa<shard::GridOp>(op))
        if (shard::GridOp grid = shard::getGrid(op, name, symbols))
          gridsOf[func].insert(grid);
    });
    if (!ok)
      return signalPassFailure();

    for (auto &[func, grids] : gridsOf)
      createGridSizeChecks(func, grids.getArrayRef(), team);

    ConversionTarget target(*ctx);
    target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
    target.addIllegalDialect<shard::ShardDialect>();
    // Dropped below, once the ops that read them are converted.
    target.addLegalOp<shard::GridOp, shard::ShardingOp, shard::GetShardingOp>();
    RewritePatternSet patterns(ctx);
    populateShardIndexPatterns(patterns, lowering);
    populateShardCollectivePatterns(patterns, lowering);
    populateShardHaloPatterns(patterns, lowering);
    if (failed(applyPartialConversion(module, target, std::move(patterns))))
      return signalPassFailure();

    // Users before what they use: shardings, then the grids.
    SmallVector<Operation *> dropped;
    module.walk([&](Operation *op) {
      if (isa<shard::GetShardingOp, shard::ShardingOp>(op))
        dropped.push_back(op);
    });
    for (Operation *op : llvm::reverse(dropped))
      if (op->use_empty())
        op->erase();
    module.walk([&](shard::GridOp grid) { grid->erase(); });
  }
};

} // namespace
