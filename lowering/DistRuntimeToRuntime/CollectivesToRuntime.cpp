//===- CollectivesToRuntime.cpp - Collectives to libdistrt calls ----------===//
//
// Each collective becomes one call: (team, groups descriptor, op-specific
// scalars and constant tables, n, inputs[], outputs[], async, site,
// location). The groups descriptor and the tables are constant globals, so
// the runtime caches its communicators per pointer; the site is the op's own
// mutable global, where the runtime remembers its last call and whose flags
// say what the compiler knows of it (static shapes; agreement proven by
// distruntime-verify-spmd: `distruntime.proven`). The RFC's in-place
// allreduce is the same call with no groups descriptor (one group: the team)
// and inputs = outputs.
//
//===----------------------------------------------------------------------===//

#include "RuntimeCalls.h"

#include "distruntime/Dialect/DistRuntime/IR/DistRuntimeOps.h"
#include "distruntime/Dialect/DistRuntime/IR/ProcessGroups.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

using namespace mlir;
using namespace mlir::distruntime;

namespace {
/// The arguments every collective call shares around its own params and
/// operand lists.
struct CollectiveCall {
  func::FuncOp callee;
  Value location;
  Value site;
  int64_t team;
  Value groups;
  bool async;
};
} // namespace

/// Emits the call; each scalar gets the width the callee declares for it,
/// each table a constant global. `packLists` builds the operand lists, after
/// the params.
static Value
createCollectiveCall(OpBuilder &b, Location loc, CollectiveCall call,
                     const RuntimeParams &params, int64_t count,
                     function_ref<SmallVector<Value>()> packLists) {
  SmallVector<Value> args{createI64(b, loc, call.team), call.groups};
  FunctionType type = call.callee.getFunctionType();
  for (int64_t scalar : params.scalars)
    args.push_back(arith::ConstantIntOp::create(
        b, loc, type.getInput(args.size()), scalar));
  auto module = call.callee->getParentOfType<ModuleOp>();
  for (ArrayRef<int64_t> table : params.tables)
    args.push_back(getTableDescriptor(b, module, loc, table));
  args.push_back(createI64(b, loc, count));
  llvm::append_range(args, packLists());
  args.push_back(createI32(b, loc, call.async));
  args.push_back(call.site);
  args.push_back(call.location);
  return func::CallOp::create(b, loc, call.callee, args).getResult(0);
}

namespace {

//===----------------------------------------------------------------------===//
// StableHLO-style collectives
//===----------------------------------------------------------------------===//

struct CollectiveLowering
    : public OpInterfaceConversionPattern<CollectiveOpInterface> {
  using OpInterfaceConversionPattern::OpInterfaceConversionPattern;

  LogicalResult
  matchAndRewrite(CollectiveOpInterface op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto module = op->getParentOfType<ModuleOp>();
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
        rewriter, module, loc, static_cast<int32_t>(op.getGroupMode()),
        grid.numReplicas ? *grid.numReplicas : -1, grid.numPartitions,
        op.getGroupIds());
    RuntimeFunction fn = op.getRuntimeFunction();
    auto [callee, where] = getCalleeAndLocation(rewriter, op, fn);
    CollectiveCall call{
        callee,
        where,
        createSite(rewriter, module, loc, op->getName().stripDialect(),
                   op->getOperands(), op->hasAttr(kProvenAttrName)),
        static_cast<int64_t>(op.getTeam()),
        groups,
        op.getHandle() != nullptr};
    // Memref form: the adaptor's operands are the inputs, then the outputs.
    auto inputs = ValueRange(operands).take_front(op.getInputs().size());
    auto outputs = ValueRange(operands).drop_front(op.getInputs().size());
    RuntimeParams params{op.getRuntimeScalars(), op.getRuntimeTables()};
    replaceByHandleCall(op, rewriter, [&](OpBuilder &b) {
      // send and recv pass the operands they have, inputs or outputs.
      if (getOperandLists(fn) == OperandLists::One)
        return createCollectiveCall(b, loc, call, params, operands.size(), [&] {
          return SmallVector<Value>{packOperands(b, loc, operands)};
        });
      return createCollectiveCall(b, loc, call, params, inputs.size(), [&] {
        return SmallVector<Value>{packOperands(b, loc, inputs),
                                  packOperands(b, loc, outputs)};
      });
    });
    return success();
  }
};

//===----------------------------------------------------------------------===//
// allreduce
//===----------------------------------------------------------------------===//

struct AllReduceLowering : public OpConversionPattern<AllReduceOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(AllReduceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto module = op->getParentOfType<ModuleOp>();
    auto [callee, where] =
        getCalleeAndLocation(rewriter, op, RuntimeFunction::AllReduce);
    // A null groups descriptor: one group, the whole team in rank order.
    CollectiveCall call{
        callee,
        where,
        createSite(rewriter, module, loc, op->getName().stripDialect(),
                   op.getData(), op->hasAttr(kProvenAttrName)),
        static_cast<int64_t>(op.getTeam()),
        LLVM::ZeroOp::create(rewriter, loc,
                             LLVM::LLVMPointerType::get(getContext())),
        op.getHandle() != nullptr};
    replaceByHandleCall(op, rewriter, [&](OpBuilder &b) {
      // The one operand array serves as inputs and outputs: in place.
      RuntimeParams params{{static_cast<int64_t>(op.getOp())}, {}};
      return createCollectiveCall(b, loc, call, params, /*count=*/1, [&] {
        Value data = packOperands(b, loc, adaptor.getData());
        return SmallVector<Value>{data, data};
      });
    });
    return success();
  }
};

} // namespace

void mlir::distruntime::populateCollectivesToRuntimePatterns(
    TypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<CollectiveLowering, AllReduceLowering>(converter,
                                                      patterns.getContext());
}
