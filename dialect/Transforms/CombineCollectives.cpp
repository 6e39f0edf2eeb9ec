//===- CombineCollectives.cpp - one all_reduce for several ----------------===//
//
// Sync all_reduces in one block that agree on team, process groups
// (replica_groups, channel_id, use_global_device_ids), reduction and element
// type become one multi-operand all_reduce; sync all_gathers that agree on
// team, groups and all_gather_dim become one all_gather. The combined op
// takes the place of the last op it replaces (its operands are all defined
// by then) and returns each op's results in order; the runtime then packs
// small operands into one MPI call (runtime/ReducePlan.h, Blocks.h), which
// is what a list of small tensors, such as gradients, gains.
//
// Each earlier op moves down to the last one's place. It may not move past:
//  - a use of its results (tensor form), including uses nested in regions;
//  - memref form: an op that writes a buffer it reads, or reads or writes a
//    buffer it writes, as BufferAccessAnalysis tells (the service the
//    passes that move communication share: views of one allocation
//    conflict, a wait counts as its async op's buffers, a call as its
//    callee's body), an op whose effects are unknown (an external call),
//    or one that writes memory it cannot name (a store through a pointer,
//    which may be one extracted from the buffer). The other ops it combines
//    with are checked the same way, so no combined op reads what another part
//    of it writes.
// Effects on the communication resource do not stop a move: the members of
// a group run the block's ops in one order, the combined op sits where the
// last op already made every member of its groups meet, and nothing before
// it waited for anything after it (else the program would deadlock as
// written), so moving a collective down to a meeting that exists cannot
// make any member wait for another that waits for it.
//
// Results stay bit-identical: the combined op reduces each operand exactly
// as its own op did (the same group, reduction, element type and
// reproducibility level: ops of different levels do not combine), and the
// runtime packs operands into one reduction only where the order of the
// members' values cannot change a bit (packingExact in runtime/ReducePlan.h:
// integers, groups of at most two, or any group at the levels ordered and
// exact, whose folds do not depend on an element's place in a message),
// else it makes one MPI_Allreduce per operand over the same group, as the
// separate ops did. all_gather moves bytes only.
//
// Async ops combine with async ops of the same kind, each waited once in
// the block: the combined op starts at the last start and is waited where
// the first of their waits stood, so the work between the last start and
// the first wait still overlaps it (waiting earlier for data that nothing
// touches in flight changes no value). No op that may wait for other
// members (a wait, sync communication, a call that communicates or whose
// effects are unknown) may stand between the starts: with none, every
// member that started the first one reaches the last one, so the combined
// op completes wherever the first wait could.
//
// Each combine is a remark (Remarks.h), and so is an op that could have
// joined a group but found an op between them, with that op's place.
//
//===----------------------------------------------------------------------===//

#include "BufferAccess.h"
#include "Remarks.h"

#include "distruntime/Dialect/DistRuntime/IR/DistRuntimeOps.h"
#include "distruntime/Dialect/DistRuntime/Transforms/Passes.h"

#include "mlir/Analysis/AliasAnalysis.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#define DEBUG_TYPE "distruntime-combine-collectives"

namespace mlir::distruntime {
#define GEN_PASS_DEF_COMBINECOLLECTIVES
#include "distruntime/Dialect/DistRuntime/Transforms/Passes.h.inc"
} // namespace mlir::distruntime

using namespace mlir;
using namespace mlir::distruntime;

//===----------------------------------------------------------------------===//
// Which ops combine
//===----------------------------------------------------------------------===//

/// The bytes of a static shaped type, or nullopt if a dimension is dynamic.
static std::optional<int64_t> staticBytes(Type type) {
  auto shaped = cast<ShapedType>(type);
  if (!shaped.hasStaticShape())
    return std::nullopt;
  unsigned bits = shaped.getElementTypeBitWidth();
  return shaped.getNumElements() * static_cast<int64_t>((bits + 7) / 8);
}

/// The bytes `op` reads (its inputs), or nullopt if a shape is dynamic.
static std::optional<int64_t> inputBytes(CollectiveOpInterface op) {
  int64_t bytes = 0;
  for (Value input : op.getInputs()) {
    std::optional<int64_t> size = staticBytes(input.getType());
    if (!size)
      return std::nullopt;
    bytes += *size;
  }
  return bytes;
}

/// The element type every operand of `op` reduces in, or null if they
/// differ.
static Type commonElementType(CollectiveOpInterface op) {
  Type common;
  auto types = op.getOutputs().empty() ? TypeRange(op.getResults().getTypes())
                                       : TypeRange(op.getOutputs().getTypes());
  for (Type type : types) {
    Type element = cast<ShapedType>(type).getElementType();
    if (common && element != common)
      return {};
    common = element;
  }
  return common;
}

/// The attributes `op` combines on: its properties without the segment
/// sizes, and its discardable attributes.
static DictionaryAttr combiningAttrs(Operation *op) {
  SmallVector<NamedAttribute> attrs;
  if (auto props =
          dyn_cast_if_present<DictionaryAttr>(op->getPropertiesAsAttribute()))
    for (NamedAttribute attr : props)
      if (attr.getName() != "operandSegmentSizes" &&
          attr.getName() != "resultSegmentSizes")
        attrs.push_back(attr);
  llvm::append_range(attrs, op->getDiscardableAttrs());
  return DictionaryAttr::get(op->getContext(), attrs);
}

/// The two ops may become one: the same op on the same team and groups,
/// with the same attributes (reduction, all_gather_dim) and form (tensor or
/// memref); all_reduces also on one element type and, with computation
/// regions, the same reduction in the same type.
static bool compatible(CollectiveOpInterface a, CollectiveOpInterface b) {
  if (a->getName() != b->getName() ||
      a.getOutputs().empty() != b.getOutputs().empty() ||
      static_cast<bool>(a.getHandle()) != static_cast<bool>(b.getHandle()) ||
      combiningAttrs(a) != combiningAttrs(b))
    return false;
  auto reduceA = dyn_cast<AllReduceGroupOp>(a.getOperation());
  if (!reduceA)
    return true;
  auto reduceB = cast<AllReduceGroupOp>(b.getOperation());
  Type element = commonElementType(a);
  if (!element || element != commonElementType(b))
    return false;
  if (reduceA.getComputation().empty() != reduceB.getComputation().empty())
    return false;
  return reduceA.getReductionKind() == reduceB.getReductionKind() &&
         reduceA.getReductionElementType() == reduceB.getReductionElementType();
}

//===----------------------------------------------------------------------===//
// Grouping within a block
//===----------------------------------------------------------------------===//

namespace {

/// Ops to become one, in block order; the last one is where the combined
/// op goes.
struct Group {
  SmallVector<Operation *> ops;
  int64_t bytes = 0;
  bool open = true;
  /// The op that closed it, for the remarks.
  Operation *closedBy = nullptr;
};

class BlockCombiner {
public:
  BlockCombiner(BufferAccessAnalysis &access, int64_t maxBytes)
      : access(access), maxBytes(maxBytes) {}

  /// The groups of at least two ops of `block`, found in one pass over it.
  SmallVector<Group> findGroups(Block &block);

private:
  /// `op` may join a group: an all_reduce or all_gather, sync or waited
  /// once in its block, whose size is known when there is a limit to
  /// respect.
  bool isCandidate(Operation *op) const;
  /// The missed remark of candidate `op`, which found no open group it
  /// fits but a compatible closed one.
  void reportMissed(Operation *op, ArrayRef<Group> groups) const;
  /// `op` (or an op nested in it) uses a result of a member of `group`.
  bool usesResults(Operation *op, const Group &group) const;
  /// Moving `member` (memref form) past an op with accesses `set` could
  /// change what either reads or writes.
  bool conflictsInMemory(const AccessSet &set, Operation *member);
  /// `op`, with accesses `set`, stands in the way of `group`: no member may
  /// move past it.
  bool blocks(Operation *op, const AccessSet &set, const Group &group);

  BufferAccessAnalysis &access;
  int64_t maxBytes;
};

} // namespace

/// The wait of async `op` if it is its handle's one use, in its block.
static WaitOp getOnlyWait(CollectiveOpInterface op) {
  Value handle = op.getHandle();
  if (!handle || !handle.hasOneUse())
    return {};
  auto wait = dyn_cast<WaitOp>(*handle.getUsers().begin());
  return wait && wait->getBlock() == op->getBlock() ? wait : WaitOp();
}

bool BlockCombiner::isCandidate(Operation *op) const {
  auto collective = dyn_cast<CollectiveOpInterface>(op);
  // Groups read at run time may differ from op to op.
  if (!collective || !isa<AllReduceGroupOp, AllGatherOp>(op) ||
      collective.getGroupTable() ||
      (collective.getHandle() && !getOnlyWait(collective)))
    return false;
  return maxBytes <= 0 || inputBytes(collective).has_value();
}

/// An op that may wait for other members: one that communicates, unless it
/// only starts an async op (whose regions, a reduction's computation, do
/// not communicate), or whose effects are unknown.
static bool mayWaitForOthers(Operation *op, const AccessSet &set) {
  auto comm = dyn_cast<CommunicatingOpInterface>(op);
  bool startsOnly = comm && comm.getHandle();
  return !set.known || (set.communicates && !startsOnly);
}

bool BlockCombiner::usesResults(Operation *op, const Group &group) const {
  if (group.ops.front()->getNumResults() == 0)
    return false; // the memref form
  WalkResult result = op->walk([&](Operation *nested) {
    for (Value operand : nested->getOperands()) {
      Operation *def = operand.getDefiningOp();
      if (def && llvm::is_contained(group.ops, def))
        return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return result.wasInterrupted();
}

bool BlockCombiner::conflictsInMemory(const AccessSet &set, Operation *member) {
  SmallVector<Value> reads, writes;
  BufferAccessAnalysis::ownBuffers(member, reads, writes);
  if (reads.empty() && writes.empty())
    return false; // tensors are values
  return access.conflicts(set, reads, writes);
}

bool BlockCombiner::blocks(Operation *op, const AccessSet &set,
                           const Group &group) {
  if (usesResults(op, group))
    return true;
  // Async starts move down past nothing that may wait for the others.
  if (cast<CollectiveOpInterface>(group.ops.front()).getHandle() &&
      mayWaitForOthers(op, set))
    return true;
  return llvm::any_of(group.ops, [&](Operation *member) {
    return conflictsInMemory(set, member);
  });
}

SmallVector<Group> BlockCombiner::findGroups(Block &block) {
  SmallVector<Group> groups;
  for (Operation &op : block) {
    std::optional<size_t> joined;
    bool candidate = isCandidate(&op);
    bool anyOpen =
        llvm::any_of(groups, [](const Group &group) { return group.open; });
    if (!candidate && !anyOpen)
      continue;
    const AccessSet set = access.of(&op);
    auto collective = dyn_cast<CollectiveOpInterface>(&op);
    int64_t bytes = 0;
    if (candidate)
      bytes = inputBytes(collective).value_or(0);
    // The first open group it fits.
    for (auto [index, group] : llvm::enumerate(groups)) {
      if (!candidate || !group.open ||
          !compatible(cast<CollectiveOpInterface>(group.ops.front()),
                      collective) ||
          (maxBytes > 0 && group.bytes + bytes > maxBytes) ||
          blocks(&op, set, group))
        continue;
      group.ops.push_back(collective);
      group.bytes += bytes;
      joined = index;
      break;
    }
    // The groups whose members cannot move past it are complete.
    for (auto [index, group] : llvm::enumerate(groups))
      if (group.open && joined != index && blocks(&op, set, group)) {
        group.open = false;
        group.closedBy = &op;
      }
    if (candidate && !joined) {
      reportMissed(&op, groups);
      groups.push_back({{collective}, bytes, true});
    }
  }
  llvm::erase_if(groups,
                 [](const Group &group) { return group.ops.size() < 2; });
  return groups;
}

void BlockCombiner::reportMissed(Operation *op, ArrayRef<Group> groups) const {
  if (!remarksEnabled(op->getContext()))
    return;
  auto collective = cast<CollectiveOpInterface>(op);
  // The nearest compatible group: the one it would have joined.
  for (const Group &group : llvm::reverse(groups)) {
    if (!compatible(cast<CollectiveOpInterface>(group.ops.front()), collective))
      continue;
    auto missed = remark::missed(op->getLoc(),
                                 remarkAbout(op, DEBUG_TYPE, "NotCombined"));
    missed << remark::add("not combined with the {0}",
                          describeOp(group.ops.back()));
    if (group.closedBy == op)
      missed << remark::reason("it uses a result or a buffer of that op");
    else if (group.closedBy)
      missed << remark::reason(
          "the {0} stands between them: it uses a result, touches a buffer "
          "of theirs or may wait for other members",
          describeOp(group.closedBy));
    else
      missed << remark::reason("together they exceed max-bytes={0}", maxBytes);
    return;
  }
}

//===----------------------------------------------------------------------===//
// Rewriting
//===----------------------------------------------------------------------===//

/// Replaces the ops of `group` by one op of type OpT at the last one's
/// place, with the first one's attributes and region. Async ops' waits
/// become one wait at the first one's place.
template <typename OpT> static void combine(ArrayRef<Operation *> ops) {
  auto first = cast<OpT>(ops.front());
  const bool async = static_cast<bool>(first.getHandle());
  SmallVector<Value> inputs, outputs;
  SmallVector<Type> results;
  SmallVector<Location> locs;
  WaitOp firstWait;
  for (Operation *member : ops) {
    auto op = cast<OpT>(member);
    llvm::append_range(inputs, op.getInputs());
    llvm::append_range(outputs, op.getOutputs());
    llvm::append_range(results, op.getResults().getTypes());
    locs.push_back(op.getLoc());
    if (WaitOp wait = async ? getOnlyWait(op) : WaitOp();
        wait && (!firstWait || wait->isBeforeInBlock(firstWait)))
      firstWait = wait;
  }
  const auto resultCount = static_cast<int32_t>(results.size());
  if (async)
    results.push_back(first.getHandle().getType());
  OpBuilder builder(ops.back());
  typename OpT::Properties properties = first.getProperties();
  properties.operandSegmentSizes = {static_cast<int32_t>(inputs.size()),
                                    static_cast<int32_t>(outputs.size())};
  properties.resultSegmentSizes = {resultCount, async ? 1 : 0};
  SmallVector<Value> operands(inputs);
  llvm::append_range(operands, outputs);
  // The first location names the combined op in run-time errors.
  auto combined =
      OpT::create(builder, builder.getFusedLoc(locs), results, operands,
                  properties, llvm::to_vector(first->getDiscardableAttrs()));
  IRMapping mapping;
  for (auto [from, to] : llvm::zip(first->getRegions(), combined->getRegions()))
    from.cloneInto(&to, mapping);
  if (async) {
    builder.setInsertionPoint(firstWait);
    WaitOp::create(builder, firstWait.getLoc(), combined.getHandle());
    for (Operation *member : ops)
      getOnlyWait(cast<OpT>(member))->erase();
  }
  ValueRange combinedResults = combined.getResults();
  for (Operation *op : ops) {
    auto member = cast<OpT>(op);
    size_t count = member.getResults().size();
    member.getResults().replaceAllUsesWith(combinedResults.take_front(count));
    combinedResults = combinedResults.drop_front(count);
    op->erase();
  }
}

/// The remark of a combine: which ops, how many bytes, where it waits.
static void reportCombined(ArrayRef<Operation *> ops) {
  Operation *last = ops.back();
  if (!remarksEnabled(last->getContext()))
    return;
  auto passed =
      remark::passed(last->getLoc(), remarkAbout(last, DEBUG_TYPE, "Combined"));
  passed << remark::add("{0} {1} ops combined into one", ops.size(),
                        last->getName().getStringRef());
  for (Operation *op : ops)
    passed << remark::add("{0}", describeOp(op));
  int64_t bytes = 0;
  bool known = true;
  for (Operation *op : ops) {
    std::optional<int64_t> own = inputBytes(cast<CollectiveOpInterface>(op));
    known &= own.has_value();
    bytes += own.value_or(0);
  }
  if (known)
    passed << remark::metric("InputBytes", bytes);
  else
    passed << remark::add("input bytes known at run time only");
  if (WaitOp wait = getOnlyWait(cast<CollectiveOpInterface>(last))) {
    WaitOp first = wait;
    for (Operation *op : ops)
      if (WaitOp other = getOnlyWait(cast<CollectiveOpInterface>(op));
          other->isBeforeInBlock(first))
        first = other;
    passed << remark::add("async: one wait, the first one's: {0}",
                          describeOp(first));
  }
}

namespace {

struct CombineCollectives
    : public distruntime::impl::CombineCollectivesBase<CombineCollectives> {
  using Base::Base;

protected:
  void runOnOperation() override {
    auto &aliases = getAnalysis<AliasAnalysis>();
    BufferAccessAnalysis access(getOperation(), aliases);
    BlockCombiner combiner(access, maxBytes);
    // The blocks first: combining erases ops (and the blocks of their
    // computation regions, which hold no collectives and are skipped).
    SmallVector<Block *> blocks;
    getOperation()->walk([&](Block *block) {
      if (!isa<CommunicatingOpInterface>(block->getParentOp()))
        blocks.push_back(block);
    });
    bool changed = false;
    for (Block *block : blocks)
      for (Group &group : combiner.findGroups(*block)) {
        changed = true;
        reportCombined(group.ops);
        if (isa<AllReduceGroupOp>(group.ops.front()))
          combine<AllReduceGroupOp>(group.ops);
        else
          combine<AllGatherOp>(group.ops);
      }
    // Unchanged IR: the pass manager skips verifying it again.
    if (!changed)
      markAllAnalysesPreserved();
  }
};

} // namespace
