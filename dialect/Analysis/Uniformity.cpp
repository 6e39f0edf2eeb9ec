//===- Uniformity.cpp - values that may differ between members -----------===//
//
// The lattice and the transfer functions of the uniformity analysis: what
// each op makes of its operands, what control flow that may differ makes of
// the values it merges, and what calls pass. Memory is in BufferContents.cpp.
//
//===----------------------------------------------------------------------===//

#include "distruntime/Dialect/DistRuntime/Analysis/Uniformity.h"
#include "distruntime/Dialect/DistRuntime/IR/DistRuntimeOps.h"

#include "mlir/Analysis/DataFlow/DeadCodeAnalysis.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/RegionUtils.h"

using namespace mlir;
using namespace mlir::distruntime;

//===----------------------------------------------------------------------===//
// Uniformity
//===----------------------------------------------------------------------===//

StringRef mlir::distruntime::stringifyVarianceSource(VarianceSource source) {
  switch (source) {
  case VarianceSource::Member:
    return "member id";
  case VarianceSource::Received:
    return "received";
  case VarianceSource::Memory:
    return "memory";
  case VarianceSource::Argument:
    return "argument";
  case VarianceSource::ExternalCall:
    return "external call";
  case VarianceSource::Unmodeled:
    return "unmodeled";
  }
  llvm_unreachable("unknown variance source");
}

Uniformity Uniformity::groupUniform(const GroupKey &groups) {
  Uniformity result(Kind::GroupUniform);
  result.groups = groups;
  result.originOp = groups.op;
  return result;
}

Uniformity Uniformity::varying(VarianceSource source, Operation *op,
                               Value value) {
  Uniformity result(Kind::Varying);
  result.source = source;
  result.originOp = op;
  result.originValue = value;
  return result;
}

Uniformity Uniformity::join(const Uniformity &lhs, const Uniformity &rhs) {
  if (lhs.kind != rhs.kind)
    return lhs.kind > rhs.kind ? lhs : rhs;
  // Keep an origin a report can point at.
  if (lhs.kind == Kind::Varying && !lhs.originOp && rhs.originOp)
    return rhs;
  // Values uniform within different groups may differ anywhere; the origin
  // stays the first one seen.
  if (lhs.kind == Kind::GroupUniform && !(lhs.groups == rhs.groups))
    return varying(VarianceSource::Received, lhs.groups.op);
  return lhs;
}

void Uniformity::print(raw_ostream &os) const {
  switch (kind) {
  case Kind::Uninitialized:
    os << "<uninitialized>";
    return;
  case Kind::Uniform:
    os << "uniform";
    return;
  case Kind::GroupUniform:
    os << "uniform within the groups of '" << groups.op->getName() << "'";
    return;
  case Kind::Varying:
    os << "may differ (" << stringifyVarianceSource(source) << ")";
    return;
  }
}

//===----------------------------------------------------------------------===//
// Replicating collectives
//===----------------------------------------------------------------------===//

/// Whether the groups of `op` are one group of the whole team. With
/// `everyProcess`, every process is in some group (all_reduce, all_gather).
static bool coversTeam(CollectiveOpInterface op, bool everyProcess) {
  DenseIntElementsAttr ids = op.getGroupIds();
  if (!ids)
    return false;
  int64_t numGroups = ids.getType().getRank() ? ids.getType().getDimSize(0) : 0;
  if (numGroups > 1)
    return false;
  ProcessGrid grid = getProcessGrid(op);
  GroupMode mode = op.getGroupMode();
  // Replicas within each partition, partitions within each replica.
  if (mode == GroupMode::CrossReplica && grid.numPartitions != 1)
    return false;
  if (mode == GroupMode::CrossPartition && grid.numReplicas != 1)
    return false;
  if (numGroups == 0 || everyProcess)
    return true;
  std::optional<int64_t> space = getIdSpaceSize(mode, grid);
  int64_t members = llvm::count_if(ids.getValues<int64_t>(),
                                   [](int64_t id) { return id >= 0; });
  return space && members == *space;
}

std::optional<Uniformity>
mlir::distruntime::getReplicatedUniformity(Operation *op) {
  auto comm = dyn_cast<CommunicatingOpInterface>(op);
  if (!comm || !comm.replicates())
    return std::nullopt;
  // Without process groups (the RFC's allreduce): the whole team.
  auto collective = dyn_cast<CollectiveOpInterface>(op);
  if (!collective)
    return Uniformity::uniform();
  // Groups read at run time: the analysis does not follow them.
  if (collective.getGroupTable())
    return std::nullopt;
  if (coversTeam(collective, !isa<CollectiveBroadcastOp>(op)))
    return Uniformity::uniform();
  return Uniformity::groupUniform(GroupKey{collective.getTeam(),
                                           collective.getGroupMode(),
                                           collective.getGroupIds(), op});
}

//===----------------------------------------------------------------------===//
// UniformityAnalysis
//===----------------------------------------------------------------------===//

void UniformityAnalysis::joinInto(UniformityLattice *lattice,
                                  const Uniformity &value) {
  propagateIfChanged(lattice, lattice->join(value));
}

Uniformity UniformityAnalysis::read(ProgramPoint *point, Value value) {
  return getLatticeElementFor(point, value)->getValue();
}

Uniformity UniformityAnalysis::readControl(ProgramPoint *point, Operation *op) {
  return getEnclosingControl(
             op, [&](Value value) { return read(point, value); }, flows)
      .second;
}

void UniformityAnalysis::setToEntryState(UniformityLattice *lattice) {
  Value anchor = lattice->getAnchor();
  Uniformity value;
  if (auto argument = dyn_cast<BlockArgument>(anchor)) {
    Operation *parent = argument.getOwner()->getParentOp();
    value = Uniformity::varying(isa<FunctionOpInterface>(parent)
                                    ? VarianceSource::Argument
                                    : VarianceSource::Unmodeled,
                                parent, anchor);
  } else {
    Operation *op = anchor.getDefiningOp();
    value = Uniformity::varying(isa<CallOpInterface>(op)
                                    ? VarianceSource::ExternalCall
                                    : VarianceSource::Unmodeled,
                                op, anchor);
  }
  joinInto(lattice, value);
}

LogicalResult UniformityAnalysis::initialize(Operation *top) {
  if (failed(SparseForwardDataFlowAnalysis::initialize(top)))
    return failure();
  // The base visits ops through a private entry point: subscribe the merges
  // of control flow to the values that decide them here.
  top->walk([&](Operation *op) {
    if (isa<RegionBranchOpInterface>(op) && op->getNumResults())
      visitControlOf(op);
    for (Region &region : op->getRegions())
      if (!region.hasOneBlock())
        for (Block &block : region)
          visitJoinBlock(&block);
  });
  return success();
}

LogicalResult UniformityAnalysis::visit(ProgramPoint *point) {
  if (failed(SparseForwardDataFlowAnalysis::visit(point)))
    return failure();
  if (point->isBlockStart())
    visitJoinBlock(point->getBlock());
  else if (isa<RegionBranchOpInterface>(point->getPrevOp()))
    visitControlOf(point->getPrevOp());
  return success();
}

void UniformityAnalysis::visitControlOf(Operation *op) {
  if (!op->getNumResults() ||
      !getOrCreate<dataflow::Executable>(getProgramPointBefore(op->getBlock()))
           ->isLive())
    return;
  ProgramPoint *point = getProgramPointAfter(op);
  Uniformity control = Uniformity::uniform();
  for (Value value : getControlOperands(op))
    control = Uniformity::join(control, read(point, value));
  if (!control.mayDiffer())
    return;
  for (Value result : op->getResults())
    joinInto(getLatticeElement(result), control);
}

void UniformityAnalysis::visitJoinBlock(Block *block) {
  Region *region = block->getParent();
  if (block->getNumArguments() == 0 || region->hasOneBlock() ||
      block->getSinglePredecessor() || block->hasNoPredecessors())
    return;
  ProgramPoint *point = getProgramPointBefore(block);
  if (!getOrCreate<dataflow::Executable>(point)->isLive())
    return;
  const RegionFlow &flow = flows.get(*region);
  Uniformity control = Uniformity::uniform();
  for (Block *branch : flow.getBranchBlocks()) {
    if (!flow.reaches(branch, block))
      continue;
    for (Value condition : getBranchConditions(branch->getTerminator()))
      control = Uniformity::join(control, read(point, condition));
  }
  if (!control.mayDiffer())
    return;
  for (BlockArgument argument : block->getArguments())
    joinInto(getLatticeElement(argument), control);
}

Uniformity UniformityAnalysis::readLoopExits(ProgramPoint *point,
                                             Operation *user) {
  Uniformity result = Uniformity::uniform();
  for (Value operand : user->getOperands()) {
    Region *region = operand.getParentRegion();
    if (!region || region->hasOneBlock())
      continue;
    Operation *ancestor = region->findAncestorOpInRegion(*user);
    Block *def = operand.getParentBlock();
    if (!ancestor || ancestor->getBlock() == def)
      continue;
    const RegionFlow &flow = flows.get(*region);
    Block *use = ancestor->getBlock();
    // A use outside the cycle that defines the value sees the last
    // iteration's value: it differs if the number of iterations does.
    if (!flow.inCycle(def) || flow.reaches(use, def))
      continue;
    for (Block *branch : flow.getBranchBlocks()) {
      if (!flow.reaches(def, branch) || !flow.reaches(branch, def))
        continue;
      for (Value condition : getBranchConditions(branch->getTerminator()))
        result = Uniformity::join(result, read(point, condition));
    }
  }
  return result;
}

/// Whether the block arguments of the regions of `op` stand for elements of
/// its operands (linalg bodies, scatter's update computation).
static bool hasElementwiseRegions(Operation *op) {
  return isa<DestinationStyleOpInterface, ScatterOp>(op);
}

LogicalResult
UniformityAnalysis::visitOperation(Operation *op,
                                   ArrayRef<const UniformityLattice *> operands,
                                   ArrayRef<UniformityLattice *> results) {
  ProgramPoint *point = getProgramPointAfter(op);
  auto setAll = [&](const Uniformity &value) {
    for (UniformityLattice *result : results)
      joinInto(result, value);
  };
  auto joinOperands = [&] {
    Uniformity value = Uniformity::uniform();
    for (const UniformityLattice *operand : operands)
      value = Uniformity::join(value, operand->getValue());
    return value;
  };

  if (isa<TeamMemberOp>(op))
    return setAll(Uniformity::varying(VarianceSource::Member, op)), success();
  // A team's size, and the grid dims_create makes of it, agree.
  if (isa<TeamSizeOp, DimsCreateOp>(op) ||
      op->hasTrait<OpTrait::ConstantLike>())
    return setAll(Uniformity::uniform()), success();

  // Communication: handles are uniform (nothing computes with them), what a
  // replicating collective returns agrees within its groups, received data
  // differs. Memref results (get_halo's halos) are fresh buffers shaped by
  // the operands.
  if (isa<CommunicatingOpInterface>(op)) {
    std::optional<Uniformity> replicated = getReplicatedUniformity(op);
    for (auto [result, lattice] : llvm::zip(op->getResults(), results)) {
      if (isa<AsyncHandleType>(result.getType()))
        joinInto(lattice, Uniformity::uniform());
      else if (isa<BaseMemRefType>(result.getType()))
        joinInto(lattice, joinOperands());
      else if (replicated)
        joinInto(lattice, *replicated);
      else
        joinInto(lattice, Uniformity::varying(VarianceSource::Received, op));
    }
    return success();
  }

  // A cf loop whose exit may differ leaves its last values different.
  Uniformity exits = Uniformity::uniform();
  if (!op->getParentRegion()->hasOneBlock() ||
      llvm::any_of(op->getOperands(), [](Value operand) {
        Region *region = operand.getParentRegion();
        return region && !region->hasOneBlock();
      }))
    exits = readLoopExits(point, op);

  if (isMemoryEffectFree(op) || hasElementwiseRegions(op)) {
    setAll(Uniformity::join(
        exits, Uniformity::join(joinOperands(), readRegionValues(point, op))));
    return success();
  }
  if (isa<MemoryEffectOpInterface>(op)) {
    setAll(Uniformity::join(exits, readMemory(point, op)));
    return success();
  }
  // An op the analysis does not model may return anything.
  setAll(Uniformity::varying(VarianceSource::Unmodeled, op));
  return success();
}

/// C library functions whose result depends only on their arguments and
/// the strings these point to: parsing the command line.
static bool isPureLibraryCall(CallOpInterface call) {
  auto symbol = dyn_cast<SymbolRefAttr>(call.getCallableForCallee());
  if (!symbol)
    return false;
  return llvm::is_contained({"atoi", "atol", "atoll", "atof", "strtol",
                             "strtoll", "strtoul", "strtoull", "strtod",
                             "strlen"},
                            symbol.getLeafReference().getValue());
}

void UniformityAnalysis::visitExternalCall(
    CallOpInterface call, ArrayRef<const UniformityLattice *> arguments,
    ArrayRef<UniformityLattice *> results) {
  // Anything else (rand, getenv, a clock) may differ.
  Uniformity value = Uniformity::varying(VarianceSource::ExternalCall, call);
  if (isPureLibraryCall(call)) {
    value = Uniformity::uniform();
    ProgramPoint *point = getProgramPointAfter(call);
    for (auto [operand, lattice] :
         llvm::zip(call.getArgOperands(), arguments)) {
      value = Uniformity::join(value, lattice->getValue());
      // The strings must be the program's inputs.
      if (isa<LLVM::LLVMPointerType>(operand.getType()) &&
          !isProgramInput(point, operand))
        value = Uniformity::join(
            value, Uniformity::varying(VarianceSource::Memory, call));
    }
  }
  for (UniformityLattice *result : results)
    joinInto(result, value);
}

void UniformityAnalysis::visitNonControlFlowArguments(
    Operation *op, const RegionSuccessor &successor,
    ArrayRef<UniformityLattice *> arguments, unsigned firstIndex) {
  // all_reduce and reduce_scatter are region branches whose region never
  // runs: their results come from the runtime.
  if (successor.isParent() && isa<CollectiveOpInterface>(op)) {
    std::optional<Uniformity> replicated = getReplicatedUniformity(op);
    for (auto [result, lattice] : llvm::zip(op->getResults(), arguments)) {
      if (isa<AsyncHandleType>(result.getType()))
        joinInto(lattice, Uniformity::uniform());
      else if (replicated)
        joinInto(lattice, *replicated);
      else
        joinInto(lattice, Uniformity::varying(VarianceSource::Received, op));
    }
    return;
  }
  if (successor.isParent())
    return SparseForwardDataFlowAnalysis::visitNonControlFlowArguments(
        op, successor, arguments, firstIndex);

  // Arguments that stand for elements of the operands agree when the
  // operands do; a loop's induction variable at one iteration agrees on the
  // members that run the iteration when its start and step do.
  ProgramPoint *point =
      getProgramPointBefore(&successor.getSuccessor()->front());
  Uniformity elements = Uniformity::uniform();
  if (hasElementwiseRegions(op))
    for (Value operand : op->getOperands())
      elements = Uniformity::join(elements, read(point, operand));
  llvm::SmallDenseMap<Value, Uniformity> inductionVars;
  if (auto loop = dyn_cast<LoopLikeOpInterface>(op)) {
    std::optional<SmallVector<Value>> ivs = loop.getLoopInductionVars();
    std::optional<SmallVector<OpFoldResult>> lbs = loop.getLoopLowerBounds();
    std::optional<SmallVector<OpFoldResult>> steps = loop.getLoopSteps();
    if (ivs && lbs && steps) {
      for (auto [iv, lb, step] : llvm::zip(*ivs, *lbs, *steps)) {
        Uniformity value = Uniformity::uniform();
        for (OpFoldResult bound : {lb, step})
          if (auto boundValue = dyn_cast<Value>(bound))
            value = Uniformity::join(value, read(point, boundValue));
        inductionVars[iv] = value;
      }
    }
  }
  size_t forwardedEnd = firstIndex + successor.getSuccessorInputs().size();
  for (auto [index, argument, lattice] :
       llvm::enumerate(successor.getSuccessor()->getArguments(), arguments)) {
    if (index >= firstIndex && index < forwardedEnd)
      continue;
    if (auto it = inductionVars.find(argument); it != inductionVars.end())
      joinInto(lattice, it->second);
    else if (hasElementwiseRegions(op))
      joinInto(lattice, elements);
    else
      setToEntryState(lattice);
  }
}

LogicalResult UniformityAnalysis::visitCallOperation(
    CallOpInterface call,
    ArrayRef<const dataflow::AbstractSparseLattice *> operands,
    ArrayRef<dataflow::AbstractSparseLattice *> results) {
  if (failed(SparseForwardDataFlowAnalysis::visitCallOperation(call, operands,
                                                               results)))
    return failure();
  // Results merged from several returns differ when the path taken does.
  auto callable =
      dyn_cast_if_present<CallableOpInterface>(call.resolveCallable());
  if (!callable || !callable.getCallableRegion() || results.empty())
    return success();
  ProgramPoint *point = getProgramPointAfter(call);
  SmallVector<Operation *> returns;
  for (Block &block : *callable.getCallableRegion())
    if (block.mightHaveTerminator() &&
        block.getTerminator()->hasTrait<OpTrait::ReturnLike>())
      returns.push_back(block.getTerminator());
  if (returns.size() < 2)
    return success();
  Uniformity control = Uniformity::uniform();
  for (Operation *ret : returns)
    control = Uniformity::join(control, readControl(point, ret));
  if (control.mayDiffer())
    for (dataflow::AbstractSparseLattice *result : results)
      joinInto(static_cast<UniformityLattice *>(result), control);
  return success();
}

void UniformityAnalysis::visitCallableOperation(
    CallableOpInterface callable,
    ArrayRef<dataflow::AbstractSparseLattice *> arguments) {
  Block &entry = callable.getCallableRegion()->front();
  ProgramPoint *point = getProgramPointBefore(&entry);
  const auto *callsites = getOrCreateFor<dataflow::PredecessorState>(
      point, getProgramPointAfter(callable));
  if (callsites->allPredecessorsKnown()) {
    SparseForwardDataFlowAnalysis::visitCallableOperation(callable, arguments);
  } else {
    // An entry point (main, or what a host calls): every member passes the
    // same values, as every member of an SPMD launch gets the same command
    // line. The calls the module makes add theirs.
    for (dataflow::AbstractSparseLattice *argument : arguments)
      joinInto(static_cast<UniformityLattice *>(argument),
               Uniformity::uniform());
    for (Operation *callsite : callsites->getKnownPredecessors())
      for (auto [operand, argument] : llvm::zip(
               cast<CallOpInterface>(callsite).getArgOperands(), arguments))
        joinInto(static_cast<UniformityLattice *>(argument),
                 read(point, operand));
  }
  // Arguments merged from call sites that only some members reach differ:
  // f(1) on some members and f(2) on the others.
  if (callsites->getKnownPredecessors().size() < 2)
    return;
  Uniformity control = Uniformity::uniform();
  for (Operation *callsite : callsites->getKnownPredecessors())
    control = Uniformity::join(control, readControl(point, callsite));
  if (control.mayDiffer())
    for (dataflow::AbstractSparseLattice *argument : arguments)
      joinInto(static_cast<UniformityLattice *>(argument), control);
}
