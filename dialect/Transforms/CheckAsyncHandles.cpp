//===- CheckAsyncHandles.cpp - waits and buffers of async ops -------------===//
//
// An async op returns a handle that must be waited exactly once; until the
// wait, MPI owns the op's buffers. Reported as errors, where the IR proves
// them:
//  - a handle never waited, waited only on some paths, or waited in a loop
//    that does not issue it (the second turn waits a completed handle);
//    waits on the sides of an scf.if must leave no path without one; a
//    handle that leaves the function or its block through a yield, a call
//    or a branch is left to the run-time check;
//  - a write to a buffer the pending op reads, a read or write of one it
//    writes (a halo of get_halo included), or a memref.dealloc of either,
//    in the op's block (nested regions included) before the op that holds
//    the wait. Views of one buffer count: through memref.cast, or subviews
//    whose static boxes overlap; views the check cannot bound get a warning
//    (they may be apart), so a correct program is never rejected.
//
//===----------------------------------------------------------------------===//

#include "VerifySPMD.h"

#include "distruntime/Dialect/DistRuntime/Analysis/Uniformity.h"
#include "distruntime/Dialect/DistRuntime/IR/DistRuntimeOps.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/DenseMap.h"

using namespace mlir;
using namespace mlir::distruntime;

// The usual fix, which each error ends with.
static constexpr llvm::StringLiteral kFixLoopWait =
    "; fix: issue the op in the loop too, or wait once after the loop";
static constexpr llvm::StringLiteral kFixEveryPath =
    "; fix: wait it on every path, in each region of the branch or once "
    "after it";
static constexpr llvm::StringLiteral kFixNeverWaited =
    "; fix: wait it (distruntime.wait) on every path, before its buffers are "
    "used or freed";
static constexpr llvm::StringLiteral kFixPending =
    "; fix: move the access after the wait, or the wait before the access";
static constexpr llvm::StringLiteral kFixPendingHalo =
    " (or write the step sync, the get_halo and its wait before the loop: "
    "distruntime-overlap-halo then overlaps the exchange with the interior "
    "rows)";

//===----------------------------------------------------------------------===//
// Waits
//===----------------------------------------------------------------------===//

/// Reports a wait of `handle` that runs on some paths only, or repeatedly.
static void checkWait(Operation *start, Value handle, WaitOp wait,
                      const UniformityInfo &info, SPMDReporter &reporter) {
  Region *home = handle.getParentRegion();
  for (Operation *op = wait->getParentOp();
       op && op->getParentRegion() && home->isAncestor(op->getParentRegion());
       op = op->getParentOp()) {
    if (auto loop = dyn_cast<LoopLikeOpInterface>(op)) {
      std::optional<APInt> trips = loop.getStaticTripCount();
      if (trips && trips->ule(1))
        continue;
      InFlightDiagnostic diag = reporter.error(start->getLoc());
      diag << "the async handle of '" << start->getName()
           << "' is waited in a loop that does not issue it: the second "
              "turn waits a completed handle"
           << kFixLoopWait;
      diag.attachNote(wait.getLoc()) << "the wait";
      diag.attachNote(op->getLoc()) << "the loop";
      return;
    }
    // One region of a branch runs; the others skip the wait.
    if (isa<RegionBranchOpInterface>(op) && op->getNumRegions() > 1) {
      InFlightDiagnostic diag = reporter.error(start->getLoc());
      diag << "the async handle of '" << start->getName()
           << "' is not waited on every path" << kFixEveryPath;
      diag.attachNote(wait.getLoc()) << "it is waited here only";
      diag.attachNote(op->getLoc())
          << "when this '" << op->getName() << "' runs the region of the wait";
      return;
    }
  }
  // In a multi-block region: the wait's block must follow every path from
  // the op, once.
  Operation *waiter = home->findAncestorOpInRegion(*wait);
  Block *from = start->getBlock(), *to = waiter->getBlock();
  if (home->hasOneBlock() || from == to)
    return;
  const RegionFlow &flow = info.getFlows().get(*home);
  if (flow.inCycle(to) && !flow.reaches(to, from)) {
    InFlightDiagnostic diag = reporter.error(start->getLoc());
    diag << "the async handle of '" << start->getName()
         << "' is waited in a loop that does not issue it: the second turn "
            "waits a completed handle"
         << kFixLoopWait;
    diag.attachNote(wait.getLoc()) << "the wait";
    return;
  }
  if (flow.isControlDependent(to, from) ||
      llvm::any_of(flow.getBranchBlocks(), [&](Block *branch) {
        return (branch == from || flow.reaches(from, branch)) &&
               flow.isControlDependent(to, branch);
      })) {
    InFlightDiagnostic diag = reporter.error(start->getLoc());
    diag << "the async handle of '" << start->getName()
         << "' is not waited on every path" << kFixEveryPath;
    diag.attachNote(wait.getLoc()) << "it is waited here only";
  }
}

namespace {
/// The fewest and the most waits of a handle that the paths through an op
/// (or a block) run.
struct WaitCount {
  int least = 0, most = 0;
};
} // namespace

static std::optional<WaitCount> waitsIn(Block &block, Value handle,
                                        Operation *after = nullptr);

/// The waits of `handle` that `op` runs; nullopt where the count cannot be
/// told (a loop may repeat a wait, a region op of unknown control).
static std::optional<WaitCount> waitsIn(Operation *op, Value handle) {
  if (auto wait = dyn_cast<WaitOp>(op))
    return wait.getHandle() == handle ? WaitCount{1, 1} : WaitCount{};
  bool holds = op->getNumRegions() && op->walk([&](WaitOp wait) {
                                          return wait.getHandle() == handle
                                                     ? WalkResult::interrupt()
                                                     : WalkResult::advance();
                                        }).wasInterrupted();
  if (!holds)
    return WaitCount{};
  // One region of an scf.if or scf.index_switch runs (none when an scf.if
  // has no else).
  if (!isa<scf::IfOp, scf::IndexSwitchOp, scf::ExecuteRegionOp>(op))
    return std::nullopt;
  std::optional<WaitCount> result;
  for (Region &region : op->getRegions()) {
    std::optional<WaitCount> side = WaitCount{};
    if (!region.empty()) {
      if (!region.hasOneBlock())
        return std::nullopt;
      side = waitsIn(region.front(), handle);
    }
    if (!side)
      return std::nullopt;
    if (!result)
      result = side;
    result->least = std::min(result->least, side->least);
    result->most = std::max(result->most, side->most);
  }
  return result;
}

static std::optional<WaitCount> waitsIn(Block &block, Value handle,
                                        Operation *after) {
  WaitCount total;
  for (Operation &op : block) {
    if (after && !after->isBeforeInBlock(&op))
      continue;
    std::optional<WaitCount> count = waitsIn(&op, handle);
    if (!count)
      return std::nullopt;
    total.least += count->least;
    total.most += count->most;
  }
  return total;
}

/// Several waits of one handle, in regions of which one runs: every path
/// after the op must run exactly one. Counted where the waits follow the op
/// in its block; elsewhere (other blocks) left to the run-time check.
static void checkWaits(Operation *start, Value handle, SPMDReporter &reporter) {
  for (Operation *user : handle.getUsers()) {
    Operation *holder = start->getBlock()->findAncestorOpInBlock(*user);
    if (!holder || !start->isBeforeInBlock(holder))
      return;
  }
  std::optional<WaitCount> count = waitsIn(*start->getBlock(), handle, start);
  if (!count || count->least == 1)
    return;
  InFlightDiagnostic diag = reporter.error(start->getLoc());
  diag << "the async handle of '" << start->getName()
       << "' is not waited on every path" << kFixEveryPath;
}

static void checkHandle(Operation *start, Value handle,
                        const UniformityInfo &info, SPMDReporter &reporter) {
  WaitOp wait;
  for (Operation *user : handle.getUsers()) {
    if (auto w = dyn_cast<WaitOp>(user)) {
      wait = w;
      continue;
    }
    // Forwarded, returned or passed on: the run time checks it.
    return;
  }
  if (!wait) {
    reporter.error(start->getLoc())
        << "the async handle of '" << start->getName() << "' is never waited"
        << kFixNeverWaited;
    return;
  }
  // Two waits one path runs are the verifier's error.
  if (llvm::count_if(handle.getUsers(), llvm::IsaPred<WaitOp>) == 1)
    checkWait(start, handle, wait, info, reporter);
  else
    checkWaits(start, handle, reporter);
}

//===----------------------------------------------------------------------===//
// Buffers of pending ops
//===----------------------------------------------------------------------===//

namespace {
/// How a pending op uses a buffer.
struct Use {
  bool reads = false;
  bool writes = false;
  /// It writes part of the buffer only (update_halo's frame): a read
  /// through a view may read the part it leaves alone.
  bool partial = false;
};

/// The part of a buffer a memref value reaches: all of the buffer behind
/// memref.cast, a box of it behind one subview with static offsets, sizes
/// and unit strides, or a part the check cannot bound.
struct Reach {
  Value root;
  /// The view itself (through memref.cast): the same view reaches the same
  /// elements, whether or not its box is known.
  Value view;
  enum Kind { Whole, Box, Unknown } kind = Unknown;
  SmallVector<std::pair<int64_t, int64_t>> box; // (offset, size) per dim
};
} // namespace

static Reach reachOf(Value value) {
  Reach reach;
  reach.root = getBufferRoot(value);
  value = reach.view = stripMemrefCasts(value);
  if (value == reach.root) {
    reach.kind = Reach::Whole;
    return reach;
  }
  auto subview = value.getDefiningOp<memref::SubViewOp>();
  if (!subview || stripMemrefCasts(subview.getSource()) != reach.root)
    return reach;
  for (auto [offset, size, stride] :
       llvm::zip(subview.getStaticOffsets(), subview.getStaticSizes(),
                 subview.getStaticStrides())) {
    if (ShapedType::isDynamic(offset) || ShapedType::isDynamic(size) ||
        stride != 1)
      return reach;
    reach.box.emplace_back(offset, size);
  }
  reach.kind = Reach::Box;
  return reach;
}

/// Whether two reaches of one buffer share an element: true, false, or
/// nullopt when the check cannot tell.
static std::optional<bool> overlap(const Reach &a, const Reach &b) {
  if (a.kind == Reach::Whole || b.kind == Reach::Whole || a.view == b.view)
    return true;
  if (a.kind == Reach::Unknown || b.kind == Reach::Unknown ||
      a.box.size() != b.box.size())
    return std::nullopt;
  for (auto [x, y] : llvm::zip(a.box, b.box))
    if (x.first + x.second <= y.first || y.first + y.second <= x.first ||
        x.second == 0 || y.second == 0)
      return false;
  return true;
}

/// The memref effects of `op`, each with the value it names.
static SmallVector<std::pair<MemoryEffects::Effect *, Value>>
memrefEffects(Operation *op) {
  SmallVector<std::pair<MemoryEffects::Effect *, Value>> result;
  auto effects = dyn_cast<MemoryEffectOpInterface>(op);
  if (!effects)
    return result;
  SmallVector<MemoryEffects::EffectInstance> instances;
  effects.getEffects(instances);
  for (const MemoryEffects::EffectInstance &instance : instances)
    if (Value value = instance.getValue();
        value && isa<BaseMemRefType>(value.getType()))
      result.emplace_back(instance.getEffect(), value);
  return result;
}

/// The op of `block` that holds the first wait of `handle` there, or null.
static Operation *waitIn(Block *block, Value handle) {
  Operation *first = nullptr;
  for (Operation *user : handle.getUsers()) {
    if (!isa<WaitOp>(user))
      continue;
    Operation *holder = block->findAncestorOpInBlock(*user);
    if (holder && (!first || holder->isBeforeInBlock(first)))
      first = holder;
  }
  return first;
}

/// Reports the accesses to `start`'s buffers before its wait.
static void checkPending(Operation *start, Value handle,
                         SPMDReporter &reporter) {
  auto comm = cast<CommunicatingOpInterface>(start);
  SmallVector<Value> reads, writes;
  comm.getBuffersInFlight(reads, writes);
  SmallVector<std::pair<Reach, Use>> pending;
  for (Value value : reads)
    pending.emplace_back(reachOf(value), Use{true, false, false});
  for (Value value : writes)
    pending.emplace_back(reachOf(value),
                         Use{false, true, !comm.writesAllOf(value)});
  if (pending.empty())
    return;
  Operation *end = waitIn(start->getBlock(), handle);
  auto report = [&](Operation *access, StringRef what, bool certain) {
    InFlightDiagnostic diag = certain ? reporter.error(access->getLoc())
                                      : reporter.warning(access->getLoc());
    diag << what
         << (certain ? " a buffer" : " a view that may overlap a buffer")
         << " of the pending async '" << start->getName() << "' before its wait"
         << kFixPending << (isa<GetHaloOp>(start) ? kFixPendingHalo : "");
    diag.attachNote(start->getLoc()) << "the async op is issued here";
    if (end)
      diag.attachNote(end->getLoc()) << "and completed by the wait here";
    else
      diag.attachNote() << "and not waited in the same block";
  };
  // The first conflict of `access` with a pending buffer: what it does and
  // whether the two certainly share an element.
  auto conflict =
      [&](MemoryEffects::Effect *effect,
          Value value) -> std::optional<std::pair<StringRef, bool>> {
    Reach reach = reachOf(value);
    std::optional<std::pair<StringRef, bool>> found;
    for (auto &[buffer, use] : pending) {
      if (buffer.root != reach.root)
        continue;
      StringRef what;
      if (isa<MemoryEffects::Free>(effect))
        what = "deallocates";
      else if (isa<MemoryEffects::Write>(effect))
        what = "writes";
      else if (isa<MemoryEffects::Read>(effect) && use.writes &&
               (!use.partial || reach.kind == Reach::Whole))
        what = "reads";
      else
        continue;
      // Freeing any view frees the whole buffer.
      std::optional<bool> shared =
          isa<MemoryEffects::Free>(effect) ? true : overlap(buffer, reach);
      if (shared == false)
        continue;
      if (!found || (shared && !found->second))
        found = std::pair(what, shared.has_value());
    }
    return found;
  };
  for (Operation *op = start->getNextNode(); op && op != end;
       op = op->getNextNode()) {
    op->walk<WalkOrder::PreOrder>([&](Operation *access) {
      for (auto [effect, value] : memrefEffects(access)) {
        if (auto found = conflict(effect, value)) {
          report(access, found->first, found->second);
          return WalkResult::skip();
        }
      }
      return WalkResult::advance();
    });
  }
}

void mlir::distruntime::checkAsyncHandles(Operation *module,
                                          const UniformityInfo &info,
                                          SPMDReporter &reporter) {
  module->walk([&](Operation *op) {
    for (Value result : op->getResults())
      if (isa<AsyncHandleType>(result.getType())) {
        if (isa<CommunicatingOpInterface>(op))
          checkPending(op, result, reporter);
        checkHandle(op, result, info, reporter);
      }
  });
}
