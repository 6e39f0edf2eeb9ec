//===- CollectiveSequence.cpp - the collectives a piece of code runs ------===//

#include "CollectiveSequence.h"

#include "distruntime/Dialect/DistRuntime/Analysis/Uniformity.h"
#include "distruntime/Dialect/DistRuntime/IR/DistRuntimeOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::distruntime;

/// Paths beyond this many make a summary unknown.
static constexpr size_t kMaxAlternatives = 32;
/// Constant-trip loops are unrolled up to this many items.
static constexpr size_t kMaxUnrolled = 16;

bool mlir::distruntime::isTeamCollective(Operation *op) {
  auto comm = dyn_cast<CommunicatingOpInterface>(op);
  return comm && !comm.isPointToPoint();
}

uint64_t mlir::distruntime::getCollectiveTeam(Operation *op) {
  auto comm = dyn_cast<CommunicatingOpInterface>(op);
  return comm ? comm.getTeam() : 0;
}

bool mlir::distruntime::spansTeam(Operation *op) {
  auto collective = dyn_cast<CollectiveOpInterface>(op);
  if (!collective)
    return true;
  // Pairs and several groups split the team; so does one group of ids in
  // a grid with several partitions (or replicas).
  if (isa<CollectivePermuteOp>(op))
    return false;
  std::optional<Uniformity> replicated = getReplicatedUniformity(op);
  if (replicated)
    return replicated->isUniform();
  // Groups read at run time may split it.
  DenseIntElementsAttr ids = collective.getGroupIds();
  return ids && ids.getType().getNumElements() == 0 &&
         getProcessGrid(op).numPartitions == 1;
}

//===----------------------------------------------------------------------===//
// CollectiveSummary
//===----------------------------------------------------------------------===//

/// The canonical form of a condition: `!c` is `c` not taken, and `a < b`
/// is `a >= b` not taken.
Guard mlir::distruntime::getGuard(Value condition, int64_t choice,
                                  bool isSwitch) {
  if (isSwitch)
    return {condition, Value(), -2, choice, Uniformity()};
  bool taken = choice != 0;
  while (auto xorOp = condition.getDefiningOp<arith::XOrIOp>()) {
    std::optional<int64_t> rhs = getConstantIntValue(xorOp.getRhs());
    if (!rhs || *rhs == 0)
      break;
    condition = xorOp.getLhs();
    taken = !taken;
  }
  if (auto cmp = condition.getDefiningOp<arith::CmpIOp>()) {
    arith::CmpIPredicate predicate = cmp.getPredicate();
    arith::CmpIPredicate inverse = arith::invertPredicate(predicate);
    if (inverse < predicate) {
      predicate = inverse;
      taken = !taken;
    }
    return {cmp.getLhs(), cmp.getRhs(), static_cast<int64_t>(predicate), taken,
            Uniformity()};
  }
  return {condition, Value(), -1, taken, Uniformity()};
}

bool mlir::distruntime::decidesUniformly(const Guard &guard) {
  return guard.uniformity.isUniform();
}

/// Whether `guards` decide one condition two ways.
static bool contradicts(ArrayRef<Guard> guards) {
  for (auto [i, a] : llvm::enumerate(guards))
    for (const Guard &b : guards.drop_front(i + 1))
      if (a.sameCondition(b) && a.choice != b.choice)
        return true;
  return false;
}

/// Whether members that decide `shared` conditions alike can take `lhs`
/// and `rhs` side by side.
static bool compatible(const Path &lhs, const Path &rhs,
                       SharedDecision shared) {
  for (const Guard &a : lhs.guards)
    if (shared(a))
      for (const Guard &b : rhs.guards)
        if (a.sameCondition(b) && a.choice != b.choice)
          return false;
  return true;
}

static void makeUnknown(CollectiveSummary &summary) {
  summary.unknown = true;
  summary.alternatives.assign(1, Path());
}

bool CollectiveSummary::empty() const {
  return !unknown && llvm::all_of(alternatives, [](const Path &path) {
    return path.items.empty();
  });
}

CollectiveSummary
CollectiveSummary::filter(function_ref<bool(Operation *)> keep) const {
  CollectiveSummary result = *this;
  for (Path &path : result.alternatives) {
    Sequence kept;
    for (const SequenceItem &item : path.items) {
      if (item.kind == SequenceItem::Kind::Collective) {
        if (keep(item.op))
          kept.push_back(item);
        continue;
      }
      if (item.kind == SequenceItem::Kind::Opaque) {
        kept.push_back(item);
        continue;
      }
      auto body = std::make_shared<CollectiveSummary>(item.body->filter(keep));
      if (!body->empty())
        kept.push_back({item.kind, item.op, body});
    }
    path.items = std::move(kept);
  }
  return result;
}

void CollectiveSummary::forEachCollective(
    function_ref<void(Operation *)> fn) const {
  for (const Path &path : alternatives)
    for (const SequenceItem &item : path.items) {
      if (item.body)
        item.body->forEachCollective(fn);
      else if (item.kind == SequenceItem::Kind::Collective)
        fn(item.op);
    }
}

SmallVector<uint64_t> CollectiveSummary::getTeams() const {
  SmallVector<uint64_t> teams;
  forEachCollective([&](Operation *op) {
    if (!llvm::is_contained(teams, getCollectiveTeam(op)))
      teams.push_back(getCollectiveTeam(op));
  });
  llvm::sort(teams);
  return teams;
}

void CollectiveSummary::append(const CollectiveSummary &next) {
  if (unknown || next.unknown ||
      alternatives.size() * next.alternatives.size() > kMaxAlternatives)
    return makeUnknown(*this);
  SmallVector<Path, 2> product;
  for (const Path &first : alternatives)
    for (const Path &second : next.alternatives) {
      Path path = first;
      path.items.append(second.items.begin(), second.items.end());
      path.guards.append(second.guards.begin(), second.guards.end());
      if (!contradicts(path.guards))
        product.push_back(std::move(path));
    }
  alternatives = std::move(product);
}

void CollectiveSummary::unite(const CollectiveSummary &other) {
  if (unknown || other.unknown ||
      alternatives.size() + other.alternatives.size() > kMaxAlternatives)
    return makeUnknown(*this);
  alternatives.append(other.alternatives.begin(), other.alternatives.end());
}

void CollectiveSummary::decide(const Guard &guard) {
  if (unknown)
    return;
  for (Path &path : alternatives)
    path.guards.push_back(guard);
  llvm::erase_if(alternatives,
                 [](const Path &path) { return contradicts(path.guards); });
}

void CollectiveSummary::keepDeciding(Value condition) {
  if (unknown)
    return;
  Guard key = getGuard(condition, 1);
  llvm::erase_if(alternatives, [&](const Path &path) {
    return llvm::none_of(path.guards, [&](const Guard &guard) {
      return guard.sameCondition(key);
    });
  });
}

static CollectiveSummary single(SequenceItem item) {
  CollectiveSummary summary;
  summary.alternatives.front().items.push_back(std::move(item));
  return summary;
}

static CollectiveSummary unknownSummary() {
  CollectiveSummary summary;
  summary.unknown = true;
  return summary;
}

static CollectiveSummary noPath() {
  CollectiveSummary summary;
  summary.alternatives.clear();
  return summary;
}

//===----------------------------------------------------------------------===//
// CollectiveSummarizer
//===----------------------------------------------------------------------===//

CollectiveSummary CollectiveSummarizer::summarize(Block::iterator begin,
                                                  Block::iterator end) {
  CollectiveSummary summary;
  for (Operation &op : llvm::make_range(begin, end))
    if (!op.hasTrait<OpTrait::IsTerminator>())
      summary.append(summarize(&op));
  return summary;
}

CollectiveSummary CollectiveSummarizer::summarize(Region &region) {
  if (region.empty())
    return CollectiveSummary();
  if (region.hasOneBlock())
    return summarize(region.front().begin(), region.front().end());
  return summarizePaths(&region.front(), nullptr);
}

CollectiveSummary
CollectiveSummarizer::summarizePaths(Block *from, Block *stop,
                                     SmallVectorImpl<Operation *> *returns) {
  const RegionFlow &flow = flows.get(*from->getParent());
  CollectiveSummary summary;
  llvm::SmallPtrSet<Block *, 8> seen;
  for (Block *block = from; block && block != stop;) {
    // Around a cycle the number of turns is unknown.
    if (!seen.insert(block).second)
      return unknownSummary();
    summary.append(summarize(block->begin(), block->end()));
    Operation *terminator = block->getTerminator();
    if (block->getNumSuccessors() == 0) {
      if (returns)
        returns->push_back(terminator);
      break;
    }
    if (block->getNumSuccessors() == 1) {
      block = block->getSuccessor(0);
      continue;
    }
    if (flow.inCycle(block))
      return unknownSummary();
    // A nested branch: either side until they meet again.
    Block *join = flow.getJoin(block);
    SmallVector<Value> conditions = getBranchConditions(terminator);
    CollectiveSummary either = noPath();
    for (auto [i, successor] : llvm::enumerate(block->getSuccessors())) {
      // A side that never runs (a branch on a constant) is no path.
      if (!info.isLiveEdge(block, successor))
        continue;
      CollectiveSummary side = summarizePaths(successor, join, returns);
      if (isa<cf::CondBranchOp>(terminator))
        side.decide(decision(conditions.front(), i == 0));
      either.unite(side);
    }
    summary.append(either);
    block = join;
  }
  return summary;
}

CollectiveSummary CollectiveSummarizer::summarize(Operation *op) {
  if (isTeamCollective(op))
    return single({SequenceItem::Kind::Collective, op, nullptr});

  if (auto call = dyn_cast<CallOpInterface>(op)) {
    auto callable =
        dyn_cast_if_present<CallableOpInterface>(call.resolveCallable());
    if (!callable || !callable.getCallableRegion())
      return CollectiveSummary();
    Operation *callee = callable.getOperation();
    if (auto it = callees.find(callee); it != callees.end())
      return *it->second;
    if (!inProgress.insert(callee).second)
      return unknownSummary();
    auto summary = std::make_shared<CollectiveSummary>(
        summarize(*callable.getCallableRegion()));
    inProgress.erase(callee);
    callees[callee] = summary;
    return *summary;
  }

  if (op->getNumRegions() == 0)
    return CollectiveSummary();
  // Reductions and element-wise bodies are not control flow.
  if (!isa<RegionBranchOpInterface>(op)) {
    bool any = false;
    op->walk([&](Operation *nested) {
      any |= nested != op &&
             (isTeamCollective(nested) || isa<CallOpInterface>(nested));
    });
    return any ? single({SequenceItem::Kind::Opaque, op, nullptr})
               : CollectiveSummary();
  }

  if (auto loop = dyn_cast<LoopLikeOpInterface>(op)) {
    CollectiveSummary body;
    for (Region *region : loop.getLoopRegions())
      body.append(summarize(*region));
    if (body.empty())
      return CollectiveSummary();
    std::optional<APInt> trips = loop.getStaticTripCount();
    if (trips && !body.unknown && body.alternatives.size() == 1 &&
        trips->getZExtValue() * body.alternatives.front().items.size() <=
            kMaxUnrolled) {
      CollectiveSummary unrolled;
      for (uint64_t i = 0, e = trips->getZExtValue(); i < e; ++i)
        unrolled.append(body);
      return unrolled;
    }
    return single({SequenceItem::Kind::Loop, op,
                   std::make_shared<CollectiveSummary>(std::move(body))});
  }

  if (op->getNumRegions() == 1)
    return summarize(op->getRegion(0));
  // scf.if, scf.index_switch: one region runs; an scf.if without else runs
  // nothing on its other side.
  CollectiveSummary either = noPath();
  for (auto [i, region] : llvm::enumerate(op->getRegions())) {
    if (!region.empty() && !info.isLive(&region.front()))
      continue;
    CollectiveSummary side = summarize(region);
    if (auto ifOp = dyn_cast<scf::IfOp>(op))
      side.decide(decision(ifOp.getCondition(), i == 0));
    else if (auto switchOp = dyn_cast<scf::IndexSwitchOp>(op))
      side.decide(decision(switchOp.getArg(), i, /*isSwitch=*/true));
    either.unite(side);
  }
  return either;
}

Guard CollectiveSummarizer::decision(Value condition, int64_t choice,
                                     bool isSwitch) const {
  Guard guard = getGuard(condition, choice, isSwitch);
  guard.uniformity = info.get(condition);
  return guard;
}

CollectiveSummary CollectiveSummarizer::summarizeAfter(Operation *op) {
  CollectiveSummary summary;
  Block *block = op->getBlock();
  summary.append(summarize(std::next(op->getIterator()), block->end()));
  Region *region = block->getParent();
  if (!region->hasOneBlock()) {
    // Then the rest of the region, from the block's single successor.
    if (block->getNumSuccessors() == 1)
      summary.append(summarizePaths(block->getSuccessor(0), nullptr));
    else if (block->getNumSuccessors() > 1)
      makeUnknown(summary);
    return summary;
  }
  Operation *parent = region->getParentOp();
  // A branch's continuation goes on after it; a loop's next turn and a
  // function's callers are the same for every member.
  if (isa_and_nonnull<RegionBranchOpInterface>(parent) &&
      !isa<LoopLikeOpInterface>(parent) && !isTeamCollective(parent))
    summary.append(summarizeAfter(parent));
  return summary;
}

//===----------------------------------------------------------------------===//
// Comparison
//===----------------------------------------------------------------------===//

static std::string str(Attribute attr) {
  std::string text;
  llvm::raw_string_ostream os(text);
  attr.print(os, /*elideType=*/true);
  return text;
}

static std::string shapeString(ArrayRef<int64_t> shape) {
  std::string text;
  for (auto [i, d] : llvm::enumerate(shape))
    text += (i ? "x" : "") +
            (ShapedType::isDynamic(d) ? std::string("?") : std::to_string(d));
  return text.empty() ? "scalar" : text;
}

/// The shaped operands other members see: inputs, then outputs or results.
static SmallVector<ShapedType> getDataTypes(Operation *op) {
  SmallVector<ShapedType> types;
  for (Value operand : op->getOperands())
    if (auto type = dyn_cast<ShapedType>(operand.getType()))
      types.push_back(type);
  for (Type type : op->getResultTypes())
    if (auto shaped = dyn_cast<ShapedType>(type))
      types.push_back(shaped);
  return types;
}

/// The reduction of `op` (attribute or region), if it has one.
static std::optional<std::string> getReduction(Operation *op) {
  auto name = [](ReductionKind kind) {
    return stringifyReductionKind(kind).str();
  };
  if (auto reduce = dyn_cast<AllReduceOp>(op))
    return name(reduce.getOp());
  if (auto reduce = dyn_cast<AllReduceGroupOp>(op))
    return name(reduce.getReductionKind());
  if (auto reduce = dyn_cast<ReduceScatterOp>(op))
    return name(reduce.getReductionKind());
  return std::nullopt;
}

/// Mixed sizes (update_halo's grid and halo sizes) of equal length that
/// agree wherever both are constants: a size given by a value may equal
/// the other side's, so it is no proof of a difference.
static bool sameWhereKnown(Attribute lhs, Attribute rhs) {
  auto l = dyn_cast_if_present<DenseI64ArrayAttr>(lhs);
  auto r = dyn_cast_if_present<DenseI64ArrayAttr>(rhs);
  if (!l || !r || l.size() != r.size())
    return false;
  return llvm::all_of(llvm::zip(l.asArrayRef(), r.asArrayRef()), [](auto p) {
    auto [a, b] = p;
    return ShapedType::isDynamic(a) || ShapedType::isDynamic(b) || a == b;
  });
}

std::string mlir::distruntime::compareCollectives(Operation *lhs,
                                                  Operation *rhs) {
  auto differ = [](StringRef what, const Twine &here, const Twine &there) {
    return (what + " " + here + " here, " + there + " on the other side").str();
  };
  if (lhs->getName() != rhs->getName())
    return differ("op", "'" + lhs->getName().getStringRef() + "'",
                  "'" + rhs->getName().getStringRef() + "'");
  if (getCollectiveTeam(lhs) != getCollectiveTeam(rhs))
    return differ("team", Twine(getCollectiveTeam(lhs)),
                  Twine(getCollectiveTeam(rhs)));
  std::optional<std::string> lred = getReduction(lhs), rred = getReduction(rhs);
  if (lred && rred && *lred != *rred)
    return differ("reduction", *lred, *rred);
  if (auto lc = dyn_cast<CollectiveOpInterface>(lhs)) {
    auto rc = cast<CollectiveOpInterface>(rhs);
    if (lc.getGroupMode() != rc.getGroupMode())
      return differ("process groups", stringifyGroupMode(lc.getGroupMode()),
                    stringifyGroupMode(rc.getGroupMode()));
    // Groups read at run time are compared by checked mode, not here.
    if (lc.getGroupIds() && rc.getGroupIds() &&
        lc.getGroupIds() != rc.getGroupIds())
      return differ(isa<CollectivePermuteOp>(lhs) ? "source_target_pairs"
                                                  : "replica_groups",
                    str(lc.getGroupIds()), str(rc.getGroupIds()));
  }
  // The op's own scalars and geometry: required attributes, or a key.
  for (StringRef name :
       {"all_gather_dim", "split_dimension", "concat_dimension", "split_count",
        "scatter_dimension", "send_counts", "recv_counts", "grid", "split_axes",
        "static_halo_sizes", "key"}) {
    Attribute l = lhs->getInherentAttr(name).value_or(Attribute());
    Attribute r = rhs->getInherentAttr(name).value_or(Attribute());
    if (l != r && !sameWhereKnown(l, r))
      return differ(name, l ? str(l) : "none", r ? str(r) : "none");
  }
  bool lasync =
      llvm::any_of(lhs->getResultTypes(), llvm::IsaPred<AsyncHandleType>);
  bool rasync =
      llvm::any_of(rhs->getResultTypes(), llvm::IsaPred<AsyncHandleType>);
  if (lasync != rasync)
    return differ("mode", lasync ? "async" : "sync", rasync ? "async" : "sync");
  SmallVector<ShapedType> ltypes = getDataTypes(lhs),
                          rtypes = getDataTypes(rhs);
  if (ltypes.size() != rtypes.size())
    return differ("operands", Twine(ltypes.size()), Twine(rtypes.size()));
  for (auto [l, r] : llvm::zip(ltypes, rtypes)) {
    if (l.getElementType() != r.getElementType()) {
      std::string lt, rt;
      llvm::raw_string_ostream(lt) << l.getElementType();
      llvm::raw_string_ostream(rt) << r.getElementType();
      return differ("element type", lt, rt);
    }
    // Only static sizes that differ are known to differ.
    if (l.getRank() != r.getRank() ||
        llvm::any_of(llvm::zip(l.getShape(), r.getShape()), [](auto pair) {
          auto [a, b] = pair;
          return !ShapedType::isDynamic(a) && !ShapedType::isDynamic(b) &&
                 a != b;
        }))
      return differ("shape", shapeString(l.getShape()),
                    shapeString(r.getShape()));
  }
  return "";
}

/// Loop bounds that are the same value or the same constant.
static bool sameBounds(Operation *lhs, Operation *rhs) {
  auto lloop = dyn_cast<LoopLikeOpInterface>(lhs);
  auto rloop = dyn_cast<LoopLikeOpInterface>(rhs);
  if (!lloop || !rloop || lhs->getName() != rhs->getName())
    return false;
  auto same = [](std::optional<SmallVector<OpFoldResult>> l,
                 std::optional<SmallVector<OpFoldResult>> r) {
    if (!l || !r || l->size() != r->size())
      return false;
    return llvm::all_of(llvm::zip(*l, *r), [](auto pair) {
      auto [a, b] = pair;
      std::optional<int64_t> ca = getConstantIntValue(a);
      return a == b || (ca && ca == getConstantIntValue(b));
    });
  };
  return same(lloop.getLoopLowerBounds(), rloop.getLoopLowerBounds()) &&
         same(lloop.getLoopUpperBounds(), rloop.getLoopUpperBounds()) &&
         same(lloop.getLoopSteps(), rloop.getLoopSteps());
}

static Comparison compareSequences(const Sequence &fullLhs,
                                   const Sequence &fullRhs) {
  // What both run alike at the end (the code after a branch) does not tell
  // where they part: compare what comes before it.
  ArrayRef<SequenceItem> lhs = fullLhs, rhs = fullRhs;
  while (!lhs.empty() && !rhs.empty() && lhs.back().op == rhs.back().op) {
    lhs = lhs.drop_back();
    rhs = rhs.drop_back();
  }
  Comparison result;
  size_t i = 0;
  for (; i < lhs.size() && i < rhs.size(); ++i) {
    const SequenceItem &l = lhs[i], &r = rhs[i];
    using Kind = SequenceItem::Kind;
    if (l.kind == Kind::Collective && r.kind == Kind::Collective) {
      std::string reason = compareCollectives(l.op, r.op);
      if (reason.empty())
        continue;
      return {Comparison::Result::Different, l.op, r.op, reason};
    }
    if (l.kind == Kind::Loop && r.kind == Kind::Loop &&
        sameBounds(l.op, r.op) &&
        compareSummaries(*l.body, *r.body).result == Comparison::Result::Equal)
      continue;
    return {Comparison::Result::Unknown, l.op, r.op, ""};
  }
  if (i == lhs.size() && i == rhs.size())
    return result;
  // One side has more to run: a collective the other never meets, unless a
  // loop (which may run no iteration) comes first.
  const SequenceItem &extra = i < lhs.size() ? lhs[i] : rhs[i];
  if (extra.kind != SequenceItem::Kind::Collective)
    return {Comparison::Result::Unknown, nullptr, nullptr, ""};
  result.result = Comparison::Result::Different;
  (i < lhs.size() ? result.lhs : result.rhs) = extra.op;
  return result;
}

Comparison mlir::distruntime::compareSummaries(const CollectiveSummary &lhs,
                                               const CollectiveSummary &rhs,
                                               SharedDecision shared) {
  if (lhs.unknown || rhs.unknown)
    return {Comparison::Result::Unknown, nullptr, nullptr, ""};
  std::optional<Comparison> different;
  bool equal = false, unknown = false;
  for (const Path &l : lhs.alternatives)
    for (const Path &r : rhs.alternatives) {
      if (!compatible(l, r, shared))
        continue;
      Comparison c = compareSequences(l.items, r.items);
      switch (c.result) {
      case Comparison::Result::Equal:
        equal = true;
        break;
      case Comparison::Result::Different:
        if (!different)
          different = c;
        break;
      default:
        unknown = true;
      }
    }
  if (!different)
    return {unknown ? Comparison::Result::Unknown : Comparison::Result::Equal,
            nullptr, nullptr, ""};
  if (equal || unknown)
    different->result = Comparison::Result::MaybeDifferent;
  return *different;
}
