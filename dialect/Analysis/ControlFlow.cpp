//===- ControlFlow.cpp - which control flow decides where an op runs ------===//
//
// The values that decide whether (and how often) a region or block runs:
// conditions of scf.if, switch flags, loop bounds, the condition of
// scf.while, and the operands of cf branches; and, per multi-block region,
// reachability and post-dominance, to tell which blocks depend on a branch.
//
//===----------------------------------------------------------------------===//

#include "distruntime/Dialect/DistRuntime/Analysis/Uniformity.h"
#include "distruntime/Dialect/DistRuntime/IR/DistRuntimeOps.h"

#include "mlir/Analysis/DataFlow/DeadCodeAnalysis.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/LoopLikeInterface.h"

using namespace mlir;
using namespace mlir::distruntime;

//===----------------------------------------------------------------------===//
// RegionFlow
//===----------------------------------------------------------------------===//

RegionFlow::RegionFlow(Region &region) : region(region) {
  for (Block &block : region) {
    if (block.getNumSuccessors() > 1)
      branchBlocks.push_back(&block);
    // Blocks reachable in one step or more.
    llvm::SmallPtrSet<Block *, 8> &seen = reachable[&block];
    SmallVector<Block *> worklist(block.getSuccessors().begin(),
                                  block.getSuccessors().end());
    while (!worklist.empty()) {
      Block *next = worklist.pop_back_val();
      if (seen.insert(next).second)
        llvm::append_range(worklist, next->getSuccessors());
    }
  }
}

bool RegionFlow::reaches(Block *from, Block *to) const {
  auto it = reachable.find(from);
  return it != reachable.end() && it->second.contains(to);
}

bool RegionFlow::isControlDependent(Block *block, Block *branchBlock) const {
  // The block of a loop's exit runs as often as the loop turns.
  if (block == branchBlock)
    return inCycle(block);
  return reaches(branchBlock, block) &&
         !postDominance.postDominates(block, branchBlock);
}

Block *RegionFlow::getJoin(Block *branchBlock) const {
  DominanceInfoNode *node =
      postDominance.getDomTree(&region).getNode(branchBlock);
  if (!node || !node->getIDom())
    return nullptr;
  return node->getIDom()->getBlock();
}

const RegionFlow &RegionFlows::get(Region &region) {
  std::unique_ptr<RegionFlow> &flow = flows[&region];
  if (!flow)
    flow = std::make_unique<RegionFlow>(region);
  return *flow;
}

//===----------------------------------------------------------------------===//
// Deciding operands
//===----------------------------------------------------------------------===//

SmallVector<Value> mlir::distruntime::getBranchConditions(Operation *term) {
  SmallVector<Value> conditions;
  if (term->getNumSuccessors() < 2)
    return conditions;
  auto branch = dyn_cast<BranchOpInterface>(term);
  if (!branch)
    return llvm::to_vector(term->getOperands());
  // The operands forwarded to a successor do not decide which one runs.
  llvm::SmallPtrSet<OpOperand *, 8> forwarded;
  for (unsigned i = 0, e = term->getNumSuccessors(); i < e; ++i)
    for (OpOperand &operand :
         branch.getSuccessorOperands(i).getMutableForwardedOperands())
      forwarded.insert(&operand);
  for (OpOperand &operand : term->getOpOperands())
    if (!forwarded.contains(&operand))
      conditions.push_back(operand.get());
  return conditions;
}

/// `value` as `base + offset` for a constant offset, through arith.addi
/// and arith.subi of constants that cannot wrap: with `nsw` (`nuw` for an
/// unsigned loop), or from a member id (small) by small constants.
static std::pair<Value, int64_t> peelOffset(Value value, bool isUnsigned) {
  constexpr int64_t kSmall = int64_t{1} << 32;
  Value original = value;
  int64_t offset = 0;
  bool flagged = true, subtracts = false;
  for (int depth = 0; depth < 4; ++depth) {
    Operation *def = value.getDefiningOp();
    if (!isa_and_present<arith::AddIOp, arith::SubIOp>(def))
      break;
    bool isAdd = isa<arith::AddIOp>(def);
    auto flags = isAdd ? cast<arith::AddIOp>(def).getOverflowFlags()
                       : cast<arith::SubIOp>(def).getOverflowFlags();
    std::optional<int64_t> c = getConstantIntValue(def->getOperand(1));
    Value rest = def->getOperand(0);
    if (!c && isAdd) {
      c = getConstantIntValue(def->getOperand(0));
      rest = def->getOperand(1);
    }
    if (!c || *c <= -kSmall || *c >= kSmall)
      break;
    flagged &= bitEnumContainsAll(
        flags, isUnsigned ? arith::IntegerOverflowFlags::nuw
                          : arith::IntegerOverflowFlags::nsw);
    int64_t delta = isAdd ? *c : -*c;
    subtracts |= delta < 0;
    offset += delta;
    value = rest;
  }
  // A member id is small: small offsets do not wrap, unless the loop
  // compares unsigned and they go below zero.
  bool small =
      value.getDefiningOp<TeamMemberOp>() && !(isUnsigned && subtracts);
  if (offset != 0 && !flagged && !small)
    return {original, 0};
  return {value, offset};
}

/// The value `c` with `ub = lb + c`, which cannot wrap (peelOffset): null
/// when the distance is a constant; false when the bounds do not move
/// together.
static bool getDistance(Value ub, Value lb, bool isUnsigned, Value &c) {
  auto [ubBase, ubOffset] = peelOffset(ub, isUnsigned);
  auto [lbBase, lbOffset] = peelOffset(lb, isUnsigned);
  if (ubBase == lbBase) {
    c = {};
    return true;
  }
  // ub = lb + c for a value c: the addition itself must not wrap.
  auto add = ub.getDefiningOp<arith::AddIOp>();
  if (!add ||
      !bitEnumContainsAll(add.getOverflowFlags(),
                          isUnsigned ? arith::IntegerOverflowFlags::nuw
                                     : arith::IntegerOverflowFlags::nsw))
    return false;
  for (auto [base, offset] : {std::pair(add.getLhs(), add.getRhs()),
                              std::pair(add.getRhs(), add.getLhs())})
    if (base == lb) {
      c = offset;
      return true;
    }
  return false;
}

/// The values that decide how often a loop with one induction variable
/// runs, when its bounds move together (`for i = r to r + 3`): the
/// distance between them and the step; nullopt otherwise.
static std::optional<SmallVector<Value>> getTripCountOperands(Operation *op) {
  if (auto forOp = dyn_cast<scf::ForOp>(op)) {
    Value c;
    if (!getDistance(forOp.getUpperBound(), forOp.getLowerBound(),
                     forOp.getUnsignedCmp(), c))
      return std::nullopt;
    SmallVector<Value> deciding;
    for (Value value : {c, forOp.getStep()})
      if (value && !getConstantIntValue(value))
        deciding.push_back(value);
    return deciding;
  }
  auto affineFor = dyn_cast<affine::AffineForOp>(op);
  if (!affineFor)
    return std::nullopt;
  AffineMap lb = affineFor.getLowerBoundMap(),
            ub = affineFor.getUpperBoundMap();
  if (lb.getNumResults() != 1 || ub.getNumResults() != 1 ||
      lb.getNumDims() != ub.getNumDims() ||
      lb.getNumSymbols() != ub.getNumSymbols() ||
      affineFor.getLowerBoundOperands() != affineFor.getUpperBoundOperands())
    return std::nullopt;
  // Affine arithmetic does not wrap: the distance is ub - lb.
  AffineExpr distance = simplifyAffineExpr(ub.getResult(0) - lb.getResult(0),
                                           lb.getNumDims(), lb.getNumSymbols());
  SmallVector<Value> deciding;
  for (auto [i, operand] : llvm::enumerate(affineFor.getLowerBoundOperands())) {
    bool used = i < lb.getNumDims()
                    ? distance.isFunctionOfDim(i)
                    : distance.isFunctionOfSymbol(i - lb.getNumDims());
    if (used)
      deciding.push_back(operand);
  }
  return deciding;
}

SmallVector<Value> mlir::distruntime::getControlOperands(Operation *op) {
  if (auto ifOp = dyn_cast<scf::IfOp>(op))
    return {ifOp.getCondition()};
  if (auto switchOp = dyn_cast<scf::IndexSwitchOp>(op))
    return {switchOp.getArg()};
  if (auto whileOp = dyn_cast<scf::WhileOp>(op))
    return {whileOp.getConditionOp().getCondition()};
  if (auto loop = dyn_cast<LoopLikeOpInterface>(op)) {
    if (std::optional<SmallVector<Value>> deciding = getTripCountOperands(op))
      return *deciding;
    auto lbs = loop.getLoopLowerBounds(), ubs = loop.getLoopUpperBounds(),
         steps = loop.getLoopSteps();
    // Bounds it cannot name (affine maps of values): every operand but the
    // initial values of the loop's iter_args may decide.
    if (!lbs || !ubs || !steps) {
      MutableArrayRef<OpOperand> inits = loop.getInitsMutable();
      SmallVector<Value> operands;
      for (OpOperand &operand : op->getOpOperands())
        if (!llvm::any_of(inits,
                          [&](OpOperand &init) { return &init == &operand; }))
          operands.push_back(operand.get());
      return operands;
    }
    SmallVector<Value> bounds;
    for (auto &list : {lbs, ubs, steps})
      for (OpFoldResult bound : *list)
        if (auto value = dyn_cast<Value>(bound))
          bounds.push_back(value);
    return bounds;
  }
  // Regions that are not control flow: the runtime reduces, or the body is
  // applied per element.
  if (!isa<RegionBranchOpInterface>(op) || isa<CollectiveOpInterface>(op) ||
      isa<scf::ExecuteRegionOp>(op))
    return {};
  // A region op the analysis does not know: any operand may decide.
  return llvm::to_vector(op->getOperands());
}

std::pair<Operation *, Uniformity> mlir::distruntime::getEnclosingControl(
    Operation *op, function_ref<Uniformity(Value)> lookup, RegionFlows &flows) {
  Operation *innermost = nullptr;
  Uniformity control = Uniformity::uniform();
  auto add = [&](Operation *holder, ValueRange values) {
    Uniformity value = Uniformity::uniform();
    for (Value v : values)
      value = Uniformity::join(value, lookup(v));
    if (value.mayDiffer() && !innermost)
      innermost = holder;
    control = Uniformity::join(control, value);
  };
  for (Operation *current = op; current;) {
    Region *region = current->getParentRegion();
    if (!region)
      break;
    if (!region->hasOneBlock()) {
      const RegionFlow &flow = flows.get(*region);
      for (Block *branch : flow.getBranchBlocks())
        if (flow.isControlDependent(current->getBlock(), branch))
          add(branch->getTerminator(),
              getBranchConditions(branch->getTerminator()));
    }
    Operation *parent = region->getParentOp();
    // Callers decide for a function: the checks follow calls themselves.
    if (!parent || isa<FunctionOpInterface>(parent) ||
        parent->hasTrait<OpTrait::SymbolTable>())
      break;
    add(parent, getControlOperands(parent));
    current = parent;
  }
  return {innermost, control};
}

//===----------------------------------------------------------------------===//
// UniformityInfo
//===----------------------------------------------------------------------===//

Uniformity UniformityInfo::get(Value value) const {
  const auto *lattice = solver.lookupState<UniformityLattice>(value);
  return lattice ? lattice->getValue() : Uniformity();
}

Uniformity UniformityInfo::getControl(Operation *op) const {
  Uniformity value = Uniformity::uniform();
  for (Value v : getControlOperands(op))
    value = Uniformity::join(value, get(v));
  return value;
}

std::pair<Operation *, Uniformity>
UniformityInfo::getEnclosingControl(Operation *op) const {
  return distruntime::getEnclosingControl(
      op, [&](Value value) { return get(value); }, flows);
}

bool UniformityInfo::isLive(Operation *op) const {
  Block *block = op->getBlock();
  return !block || isLive(block);
}

bool UniformityInfo::isLive(Block *block) const {
  const auto *state = solver.lookupState<dataflow::Executable>(
      solver.getProgramPointBefore(block));
  return state && state->isLive();
}

bool UniformityInfo::isLiveEdge(Block *from, Block *to) const {
  const auto *state = solver.lookupState<dataflow::Executable>(
      solver.getLatticeAnchor<dataflow::CFGEdge>(from, to));
  return state && state->isLive();
}
