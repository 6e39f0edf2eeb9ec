//===- CollectivesToRuntime.cpp - Collectives to libdistrt calls ----------===//
//
// Each collective becomes one call: (team, groups descriptor, op-specific
// scalars and tables, n, inputs[], outputs[], async, site, location). The
// groups descriptor and the constant tables are constant globals, so the
// runtime caches its communicators per pointer; tables read at run time
// (collective_broadcast's dynamic roots) are loaded onto the stack. The site
// is the op's own mutable global, where the runtime remembers its last call
// and whose flags say what the compiler knows of it (static shapes; agreement
// proven by distruntime-verify-spmd: `distruntime.proven`). The RFC's
// in-place allreduce is the same call with no groups descriptor (one group:
// the team) and inputs = outputs.
//
//===----------------------------------------------------------------------===//

#include "RuntimeCalls.h"

#include "distruntime/Dialect/DistRuntime/IR/DistRuntimeOps.h"
#include "distruntime/Dialect/DistRuntime/IR/ProcessGroups.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "llvm/ADT/SmallVectorExtras.h"

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
  /// The callee's table arguments (getTableCount).
  unsigned tableSlots;
  /// Groups read at run time (then `groups` is null): a dense 2-D i64
  /// memref, and the grid it is read in.
  Value groupTable = {};
  int32_t groupMode = 0;
  int64_t numReplicas = -1, numPartitions = 1;
};
} // namespace

/// Emits the call; each scalar gets the width the callee declares for it,
/// each constant table a constant global, each memref table a table on the
/// stack, each table slot left a null pointer. `packLists` builds the operand
/// lists, after the params.
static Value
createCollectiveCall(OpBuilder &b, Location loc, CollectiveCall call,
                     const RuntimeParams &params, int64_t count,
                     function_ref<SmallVector<Value>()> packLists) {
  Value groups = call.groups;
  if (call.groupTable)
    groups = createGroupsFromTable(b, loc, call.groupMode, call.numReplicas,
                                   call.numPartitions, call.groupTable);
  SmallVector<Value> args{createI64(b, loc, call.team), groups};
  FunctionType type = call.callee.getFunctionType();
  for (int64_t scalar : params.scalars)
    args.push_back(arith::ConstantIntOp::create(
        b, loc, type.getInput(args.size()), scalar));
  auto module = call.callee->getParentOfType<ModuleOp>();
  for (ArrayRef<int64_t> table : params.tables)
    args.push_back(getTableDescriptor(b, module, loc, table));
  for (Value table : params.memrefTables)
    args.push_back(createMemrefTable(b, loc, table));
  Type ptr = LLVM::LLVMPointerType::get(b.getContext());
  for (size_t k = params.tables.size() + params.memrefTables.size();
       k < call.tableSlots; ++k)
    args.push_back(LLVM::ZeroOp::create(b, loc, ptr));
  args.push_back(createI64(b, loc, count));
  llvm::append_range(args, packLists());
  args.push_back(createI32(b, loc, call.async));
  args.push_back(call.site);
  args.push_back(call.location);
  return func::CallOp::create(b, loc, call.callee, args).getResult(0);
}

/// The values of `memref` if it is a constant global of integers (a constant
/// tensor, bufferized), else nullopt.
static std::optional<SmallVector<int64_t>> getConstantTable(Value memref) {
  auto get = memref.getDefiningOp<memref::GetGlobalOp>();
  if (!get)
    return std::nullopt;
  auto global = SymbolTable::lookupNearestSymbolFrom<memref::GlobalOp>(
      get, get.getNameAttr());
  auto values = global && global.getConstant()
                    ? dyn_cast_or_null<DenseIntElementsAttr>(
                          global.getConstantInitValue())
                    : DenseIntElementsAttr();
  if (!values)
    return std::nullopt;
  return llvm::map_to_vector(values.getValues<APInt>(),
                             [](const APInt &v) { return v.getSExtValue(); });
}

/// The op's params: its scalars and constant tables, then the tables read
/// from `tables`, which are constant tables too when all are constant
/// globals.
static RuntimeParams getParams(CollectiveOpInterface op, ValueRange tables) {
  RuntimeParams params{op.getRuntimeScalars(), op.getRuntimeTables()};
  SmallVector<SmallVector<int64_t>> constants;
  for (Value table : tables)
    if (std::optional<SmallVector<int64_t>> values = getConstantTable(table))
      constants.push_back(std::move(*values));
  if (constants.size() == tables.size())
    llvm::append_range(params.tables, constants);
  else
    params.memrefTables = llvm::to_vector(tables);
  return params;
}

/// The call of `op` over its whole team: a null groups descriptor (one
/// group, the team in rank order) and a site for `data`.
static CollectiveCall getTeamCall(OpBuilder &b, Operation *op,
                                  RuntimeFunction fn, Value data, int64_t team,
                                  bool async) {
  Location loc = op->getLoc();
  auto [callee, where] = getCalleeAndLocation(b, op, fn);
  return {
      callee,
      where,
      createSite(b, op->getParentOfType<ModuleOp>(), loc,
                 op->getName().stripDialect(), data,
                 op->hasAttr(kProvenAttrName)),
      team,
      LLVM::ZeroOp::create(b, loc, LLVM::LLVMPointerType::get(b.getContext())),
      async,
      getTableCount(fn)};
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
    auto mode = static_cast<int32_t>(op.getGroupMode());
    int64_t numReplicas = grid.numReplicas ? *grid.numReplicas : -1;
    Value groups;
    if (op.getGroupIds())
      groups = getGroupsDescriptor(rewriter, module, loc, mode, numReplicas,
                                   grid.numPartitions, op.getGroupIds());
    RuntimeFunction fn = op.getRuntimeFunction();
    auto [callee, where] = getCalleeAndLocation(rewriter, op, fn);
    // Memref form: the adaptor's operands are the inputs, the outputs, the
    // tables read at run time, then the group table if any.
    size_t numInputs = op.getInputs().size();
    size_t numData = numInputs + op.getOutputs().size();
    auto inputs = ValueRange(operands).take_front(numInputs);
    auto outputs = ValueRange(operands).slice(numInputs, numData - numInputs);
    RuntimeParams params =
        getParams(op, ValueRange(operands).slice(
                          numData, op.getRuntimeTableOperands().size()));
    // Tables of run-time length are read in place, as dense i64 buffers.
    SmallVector<Value> copies;
    for (Value &table : params.memrefTables)
      if (Value copy = asDenseI64Table(rewriter, loc, table))
        copies.push_back(table = copy);
    Value groupTable = op.getGroupTable() ? operands.back() : Value();
    if (groupTable)
      if (Value copy = asDenseGroupTable(rewriter, loc, groupTable))
        copies.push_back(groupTable = copy);
    CollectiveCall call{
        callee,
        where,
        createSite(rewriter, module, loc, op->getName().stripDialect(),
                   op->getOperands(), op->hasAttr(kProvenAttrName),
                   /*paramsVary=*/!params.memrefTables.empty() || groupTable),
        static_cast<int64_t>(op.getTeam()),
        groups,
        op.getHandle() != nullptr,
        getTableCount(fn),
        groupTable,
        mode,
        numReplicas,
        grid.numPartitions};
    replaceByHandleCall(op, rewriter, [&](OpBuilder &b) {
      // send and recv pass the operands they have, inputs or outputs.
      if (getOperandLists(fn) == OperandLists::One) {
        ValueRange data = ValueRange(operands).take_front(numData);
        return createCollectiveCall(b, loc, call, params, data.size(), [&] {
          return SmallVector<Value>{packOperands(b, loc, data)};
        });
      }
      return createCollectiveCall(b, loc, call, params, inputs.size(), [&] {
        return SmallVector<Value>{packOperands(b, loc, inputs),
                                  packOperands(b, loc, outputs)};
      });
    });
    // The runtime copies what it keeps of the tables.
    for (Value copy : copies)
      memref::DeallocOp::create(rewriter, loc, copy);
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
    CollectiveCall call =
        getTeamCall(rewriter, op, RuntimeFunction::AllReduce, op.getData(),
                    op.getTeam(), op.getHandle() != nullptr);
    replaceByHandleCall(op, rewriter, [&](OpBuilder &b) {
      // The one operand array serves as inputs and outputs: in place.
      RuntimeParams params{
          {getReductionArgument(op.getOp(), op.getReproducibility())}, {}};
      return createCollectiveCall(b, loc, call, params, /*count=*/1, [&] {
        Value data = packOperands(b, loc, adaptor.getData());
        return SmallVector<Value>{data, data};
      });
    });
    return success();
  }
};

//===----------------------------------------------------------------------===//
// global_reduce
//===----------------------------------------------------------------------===//

/// The all_reduce call's arguments with no groups descriptor (the team), the
/// data as the one input and a one-element buffer on the stack as the
/// output, loaded into the result.
struct GlobalReduceLowering : public OpConversionPattern<GlobalReduceOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(GlobalReduceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    CollectiveCall call =
        getTeamCall(rewriter, op, RuntimeFunction::GlobalReduce, op.getData(),
                    op.getTeam(), /*async=*/false);
    Type element = op.getResult().getType();
    ValueRange result = createAllocaScope(
        rewriter, loc, element, [&](OpBuilder &b) -> SmallVector<Value> {
          Value out =
              memref::AllocaOp::create(b, loc, MemRefType::get({1}, element));
          RuntimeParams params{
              {getReductionArgument(op.getOp(), op.getReproducibility())}, {}};
          createCollectiveCall(b, loc, call, params, /*count=*/1, [&] {
            return SmallVector<Value>{packOperands(b, loc, adaptor.getData()),
                                      packOperands(b, loc, out)};
          });
          Value zero = arith::ConstantIndexOp::create(b, loc, 0);
          return {memref::LoadOp::create(b, loc, out, zero)};
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void mlir::distruntime::populateCollectivesToRuntimePatterns(
    TypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<CollectiveLowering, AllReduceLowering, GlobalReduceLowering>(
      converter, patterns.getContext());
}
