//===- VerifyAsync.cpp - buffers of pending async ops ---------------------===//
//
// Between an async op and its wait, MPI owns the op's buffers: writing a
// buffer the op reads, reading or writing one it writes, or freeing either,
// makes the result depend on timing, or crashes. This pass reports such
// accesses on memrefs when compiling, naming the access, the async op and
// its wait. It reports only what it can prove (the same buffer, through
// memref.cast at most, accessed in the async op's block or in regions nested
// there, before the op that holds the wait), so it never rejects a correct
// program.
//
//===----------------------------------------------------------------------===//

#include "distruntime/Dialect/DistRuntime/IR/DistRuntimeOps.h"
#include "distruntime/Dialect/DistRuntime/Transforms/Passes.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/DenseMap.h"

namespace mlir::distruntime {
#define GEN_PASS_DEF_VERIFYASYNC
#include "distruntime/Dialect/DistRuntime/Transforms/Passes.h.inc"
} // namespace mlir::distruntime

using namespace mlir;
using namespace mlir::distruntime;

namespace {
/// How a pending op uses a buffer.
struct Use {
  bool reads = false;
  bool writes = false;
};
} // namespace

/// The buffer behind `value`: memref.cast changes only the type.
static Value buffer(Value value) {
  while (auto cast = value.getDefiningOp<memref::CastOp>())
    value = cast.getSource();
  return value;
}

/// The memref effects of `op`, each with its buffer.
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
      result.emplace_back(instance.getEffect(), buffer(value));
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

/// Reports the accesses to `start`'s buffers before its wait; false if any.
static bool verifyPending(Operation *start, Value handle) {
  llvm::DenseMap<Value, Use> uses;
  for (auto [effect, value] : memrefEffects(start)) {
    Use &use = uses[value];
    use.reads |= isa<MemoryEffects::Read>(effect);
    use.writes |= isa<MemoryEffects::Write>(effect);
  }
  if (uses.empty())
    return true;
  Operation *end = waitIn(start->getBlock(), handle);
  bool ok = true;
  auto report = [&](Operation *access, StringRef what) {
    InFlightDiagnostic diag = access->emitError()
                              << what << " a buffer of the pending async '"
                              << start->getName() << "' before its wait";
    diag.attachNote(start->getLoc()) << "the async op is issued here";
    if (end)
      diag.attachNote(end->getLoc()) << "and completed by the wait here";
    else
      diag.attachNote() << "and not waited in the same block";
    ok = false;
  };
  for (Operation *op = start->getNextNode(); op && op != end;
       op = op->getNextNode()) {
    op->walk<WalkOrder::PreOrder>([&](Operation *access) {
      for (auto [effect, value] : memrefEffects(access)) {
        auto it = uses.find(value);
        if (it == uses.end())
          continue;
        if (isa<MemoryEffects::Free>(effect))
          report(access, "deallocates");
        else if (isa<MemoryEffects::Write>(effect))
          report(access, "writes");
        else if (isa<MemoryEffects::Read>(effect) && it->second.writes)
          report(access, "reads");
        else
          continue;
        return WalkResult::skip();
      }
      return WalkResult::advance();
    });
  }
  return ok;
}

namespace {
struct VerifyAsyncPass
    : public distruntime::impl::VerifyAsyncBase<VerifyAsyncPass> {
protected:
  void runOnOperation() override {
    bool ok = true;
    getOperation()->walk([&](Operation *op) {
      for (Value result : op->getResults())
        if (isa<AsyncHandleType>(result.getType()))
          ok &= verifyPending(op, result);
    });
    if (!ok)
      signalPassFailure();
  }
};
} // namespace
