//===- AsyncCollectives.cpp - start early, wait late ----------------------===//
//
// Latency hiding in the manner of XLA's async collective creator and
// scheduler: a sync communicating op on memrefs (the collectives, the RFC's
// allreduce, update_halo, send and recv) becomes its async form followed by
// a wait, and then each start/wait pair of a block (get_halo's and those
// written async included) is spread apart:
//  - the start moves up past ops that define none of its operands, neither
//    communicate (the members of a team keep issuing communication in the
//    order they did) nor access its buffers in a way it could see or change:
//    a write of a buffer it reads, a read or write of one it writes;
//  - the wait moves down past ops that neither write a buffer it reads nor
//    read, write or free one it writes, up to the block's terminator. It
//    may pass communication: every member already issued the op before.
// Region ops (scf.for, scf.if, ...) move as a whole with the effects of
// the ops inside them; calls of functions with bodies count by what their
// bodies do to their arguments (BufferAccess.h). A fresh allocation
// (get_halo's halos) never aliases a buffer that existed before it.
//
// The op computes the same bytes (the sync form is the async form and a wait
// inside the runtime), and no op that runs between start and wait touches
// its buffers, so results are bit-identical. An op whose start and wait
// would enclose no work (an op with memory effects, a region or a call) is
// left sync; ops with fewer than min-bytes bytes of
// static buffers are left alone.
//
//===----------------------------------------------------------------------===//

#include "BufferAccess.h"
#include "Remarks.h"

#include "distruntime/Dialect/DistRuntime/IR/DistRuntimeOps.h"
#include "distruntime/Dialect/DistRuntime/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "distruntime-async-collectives"

namespace mlir::distruntime {
#define GEN_PASS_DEF_ASYNCCOLLECTIVES
#include "distruntime/Dialect/DistRuntime/Transforms/Passes.h.inc"
} // namespace mlir::distruntime

using namespace mlir;
using namespace mlir::distruntime;

/// Its reproducibility level is ordered or exact: the async form of such a
/// reduction gathers every member's values (runtime/Reproducible.h), P
/// times the data of the sync one, so it stays sync.
static bool isReproducible(Operation *op) {
  auto level = op->getAttrOfType<ReproducibilityAttr>("reproducibility");
  return level && level.getValue() != Reproducibility::Mpi;
}

/// A sync communicating op on memrefs that has an async form.
static bool isSyncOnMemrefs(Operation *op) {
  auto comm = dyn_cast<CommunicatingOpInterface>(op);
  auto isTensor = [](Type type) { return isa<TensorType>(type); };
  return comm && !comm.getHandle() && comm.hasAsyncForm() &&
         !isReproducible(op) &&
         llvm::none_of(op->getOperandTypes(), isTensor) &&
         llvm::none_of(op->getResultTypes(), isTensor);
}

/// The bytes of `op`'s memref operands, or INT64_MAX if one is dynamic.
static int64_t bufferBytes(Operation *op) {
  int64_t bytes = 0;
  for (Value operand : op->getOperands()) {
    auto type = dyn_cast<MemRefType>(operand.getType());
    if (!type)
      continue;
    if (!type.hasStaticShape())
      return std::numeric_limits<int64_t>::max();
    bytes += type.getNumElements() *
             static_cast<int64_t>((type.getElementTypeBitWidth() + 7) / 8);
  }
  return bytes;
}

/// `op` does work worth overlapping: it touches memory, has a body or calls.
static bool isWork(Operation *op) {
  return op->getNumRegions() != 0 || isa<CallOpInterface>(op) ||
         !isMemoryEffectFree(op);
}

/// The async form of sync `op` at the builder's place: the same operands,
/// attributes and regions, with a handle result.
static Operation *createAsync(OpBuilder &builder, Operation *op) {
  MLIRContext *context = op->getContext();
  OperationState state(op->getLoc(), op->getName());
  state.addOperands(op->getOperands());
  state.addTypes(AsyncHandleType::get(context));
  state.addAttributes(llvm::to_vector(op->getDiscardableAttrs()));
  if (auto props =
          dyn_cast_if_present<DictionaryAttr>(op->getPropertiesAsAttribute())) {
    NamedAttrList attrs(props);
    if (attrs.get("resultSegmentSizes"))
      attrs.set("resultSegmentSizes", builder.getDenseI32ArrayAttr({0, 1}));
    state.propertiesAttr = attrs.getDictionary(context);
  }
  for (Region &region : op->getRegions()) {
    IRMapping mapping;
    region.cloneInto(state.addRegion(), mapping);
  }
  return builder.create(state);
}

namespace {

/// Places the start and wait of the communicating ops of one function.
class Scheduler {
public:
  explicit Scheduler(BufferAccessAnalysis &accesses) : accesses(accesses) {}

  /// The op before which `op` may start: itself if it cannot move up.
  Operation *earliestStart(Operation *op, ArrayRef<Value> reads,
                           ArrayRef<Value> writes);
  /// The op after which the wait after `op` may go: itself if none.
  Operation *latestWait(Operation *op, ArrayRef<Value> reads,
                        ArrayRef<Value> writes);

private:
  BufferAccessAnalysis &accesses;
};

} // namespace

Operation *Scheduler::earliestStart(Operation *op, ArrayRef<Value> reads,
                                    ArrayRef<Value> writes) {
  Operation *earliest = op;
  for (Operation *prev = op->getPrevNode(); prev; prev = prev->getPrevNode()) {
    if (llvm::any_of(op->getOperands(), [&](Value operand) {
          return operand.getDefiningOp() == prev;
        }))
      break;
    AccessSet set = accesses.of(prev);
    if (set.communicates || accesses.conflicts(set, reads, writes))
      break;
    earliest = prev;
  }
  // Constants above it stay there: nothing to overlap.
  while (earliest != op && earliest->hasTrait<OpTrait::ConstantLike>())
    earliest = earliest->getNextNode();
  return earliest;
}

Operation *Scheduler::latestWait(Operation *op, ArrayRef<Value> reads,
                                 ArrayRef<Value> writes) {
  Operation *latest = op;
  for (Operation *next = op->getNextNode();
       next && !next->hasTrait<OpTrait::IsTerminator>();
       next = next->getNextNode()) {
    if (accesses.conflicts(accesses.of(next), reads, writes)) {
      LLVM_DEBUG(llvm::dbgs() << "  wait stops at " << next->getName() << " at "
                              << next->getLoc() << "\n");
      break;
    }
    latest = next;
  }
  return latest;
}

namespace {

struct AsyncCollectives
    : public distruntime::impl::AsyncCollectivesBase<AsyncCollectives> {
  using Base::Base;

protected:
  void runOnOperation() override {
    BufferAccessAnalysis accesses(getOperation(), getAnalysis<AliasAnalysis>());
    Scheduler scheduler(accesses);
    SmallVector<Operation *> syncOps, starts;
    getOperation()->walk([&](Operation *op) {
      if (isSyncOnMemrefs(op)) {
        if (bufferBytes(op) >= minBytes)
          syncOps.push_back(op);
        return;
      }
      // An async op waited once in its own block.
      for (Value result : op->getResults())
        if (isa<AsyncHandleType>(result.getType()) && result.hasOneUse() &&
            isa<WaitOp>(*result.getUsers().begin()) &&
            result.getUsers().begin()->getBlock() == op->getBlock() &&
            !llvm::any_of(op->getOperandTypes(), llvm::IsaPred<TensorType>))
          starts.push_back(op);
    });
    bool changed = false;
    for (Operation *op : syncOps)
      changed |= makeAsync(scheduler, op);
    for (Operation *op : starts)
      changed |= spread(scheduler, op);
    // Unchanged IR: the pass manager skips verifying it again.
    if (!changed)
      markAllAnalysesPreserved();
  }

  /// Makes sync `op` a start and a wait as far apart as allowed, unless
  /// they would enclose no work; whether it did.
  bool makeAsync(Scheduler &scheduler, Operation *op) {
    SmallVector<Value> reads, writes;
    BufferAccessAnalysis::ownBuffers(op, reads, writes);
    Operation *start = scheduler.earliestStart(op, reads, writes);
    Operation *wait = scheduler.latestWait(op, reads, writes);
    bool overlaps = false;
    for (Operation *it = start; it != wait->getNextNode();
         it = it->getNextNode())
      overlaps |= it != op && isWork(it);
    if (!overlaps) {
      remark::missed(op->getLoc(), remarkAbout(op, DEBUG_TYPE, "LeftSync"))
          << remark::reason("no work could run while it is in flight: {0}",
                            describeStops(op, start, wait));
      return false;
    }
    reportPlaced(op, start, wait == op ? nullptr : wait, "MadeAsync");
    OpBuilder builder(start);
    Operation *async = createAsync(builder, op);
    builder.setInsertionPointAfter(wait);
    WaitOp::create(builder, op->getLoc(), async->getResult(0));
    op->erase();
    return true;
  }

  /// Moves the start of async `op` up and its wait down; whether it moved
  /// either.
  bool spread(Scheduler &scheduler, Operation *op) {
    SmallVector<Value> reads, writes;
    BufferAccessAnalysis::ownBuffers(op, reads, writes);
    Value handle = *llvm::find_if(op->getResults(), [](Value result) {
      return isa<AsyncHandleType>(result.getType());
    });
    Operation *wait = *handle.getUsers().begin();
    Operation *start = scheduler.earliestStart(op, reads, writes);
    if (start != op)
      op->moveBefore(start);
    Operation *last = scheduler.latestWait(wait, reads, writes);
    if (start != op || last != wait)
      reportPlaced(op, start, last == wait ? nullptr : last, "Spread");
    if (last != wait)
      wait->moveAfter(last);
    return start != op || last != wait;
  }

  /// The remark of an op that starts before `start` (itself: where it
  /// was) and is waited after `last` (null: where it was), named by the op
  /// that follows the wait.
  static void reportPlaced(Operation *op, Operation *start, Operation *last,
                           StringRef name) {
    if (!remarksEnabled(op->getContext()))
      return;
    std::string starts = start == op ? std::string("where it was")
                                     : "before the " + describeOp(start);
    std::string waited = "where it was";
    if (Operation *next = last ? last->getNextNode() : nullptr)
      waited = next->hasTrait<OpTrait::IsTerminator>()
                   ? "at the end of its block"
                   : "before the " + describeOp(next);
    remark::passed(op->getLoc(), remarkAbout(op, DEBUG_TYPE, name))
        << remark::add("starts {0}, is waited {1}", starts, waited);
  }

  /// Why sync `op` would enclose no work: the ops that stop its start and
  /// its wait.
  static std::string describeStops(Operation *op, Operation *start,
                                   Operation *wait) {
    Operation *before = start->getPrevNode();
    Operation *after = wait->getNextNode();
    std::string text = before ? "the " + describeOp(before) + " before it"
                              : std::string("the block's start before it");
    text += after && !after->hasTrait<OpTrait::IsTerminator>()
                ? ", the " + describeOp(after) + " after it"
                : ", the block's end after it";
    return text;
  }
};

} // namespace
