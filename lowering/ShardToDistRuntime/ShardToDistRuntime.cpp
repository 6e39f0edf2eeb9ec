//===- ShardToDistRuntime.cpp - convert-shard-to-distruntime --------------===//
//
// Checks every shard op first (checkShardOp), so that what cannot be lowered
// is one clear error naming the op; then converts with the shard dialect
// illegal, so nothing is left behind silently; then drops the grids and
// shardings, which only the converted ops used.
//
//===----------------------------------------------------------------------===//

#include "ShardPatterns.h"

#include "distruntime/Conversion/RuntimeAPI/RuntimeAPI.h"
#include "distruntime/Conversion/ShardToDistRuntime/ShardToDistRuntime.h"
#include "distruntime/Dialect/DistRuntime/IR/DistRuntimeOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Shard/IR/ShardDialect.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "llvm/ADT/MapVector.h"

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

/// At the entry of `func`, checks that the team has as many processes as
/// each grid the function's shard ops use (a dynamic axis: a multiple of
/// the static ones).
static void createGridSizeChecks(func::FuncOp func,
                                 ArrayRef<shard::GridOp> grids, int64_t team) {
  OpBuilder b(func.getContext());
  b.setInsertionPointToStart(&func.getBody().front());
  for (shard::GridOp grid : grids) {
    Location loc = grid.getLoc();
    ShardGrid shape(grid, team);
    int64_t known = shape.getStaticSize();
    Value size = TeamSizeOp::create(b, loc, b.getIndexType(), team);
    Value want = arith::ConstantIndexOp::create(b, loc, known);
    std::string name = ("shard.grid @" + grid.getSymName() + " (shape " +
                        shape.describe() + ")")
                           .str();
    if (shape.isStatic()) {
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

protected:
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    SymbolTableCollection symbols;
    if (team < 0) {
      getOperation().emitError("convert-shard-to-distruntime: team ")
          << static_cast<int64_t>(team)
          << " is not a team id (a non-negative integer)";
      return signalPassFailure();
    }
    ShardLowering lowering{team, &symbols};

    // Check everything first: one clear error per op that cannot be lowered.
    bool ok = true;
    // In function order: the checks emit string globals, which the output
    // then lists in a deterministic order.
    llvm::MapVector<func::FuncOp, SetVector<shard::GridOp>> gridsOf;
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
