//===- BufferContents.cpp - uniformity of what memory holds ---------------===//
//
// A load is uniform when its indices are and the buffer holds the same data
// on every member. The analysis proves the latter flow-insensitively for
// buffers it sees whole: an allocation whose every use it can follow (views,
// ops with memory effects on it), each write to which is uniform: a uniform
// value at uniform indices outside control flow that may differ, or the
// output of a replicating collective. A buffer passed to a call, yielded,
// stored or taken by an op without memory effects may hold anything, as
// arguments of entry points and globals that are not constant do; a
// buffer passed to a private function is followed into it. A write that
// cannot run before a load (the load dominates it, no loop holds both) or
// that writes another constant index does not count for it. Memory never
// written is not read (uninitialized contents are assumed away). Through
// LLVM pointers, only the command line (what an entry point's pointer
// arguments reach) reads uniform.
//
//===----------------------------------------------------------------------===//

#include "distruntime/Dialect/DistRuntime/Analysis/Uniformity.h"
#include "distruntime/Dialect/DistRuntime/IR/DistRuntimeOps.h"

#include "mlir/Analysis/DataFlow/DeadCodeAnalysis.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "mlir/Transforms/RegionUtils.h"

using namespace mlir;
using namespace mlir::distruntime;

Value mlir::distruntime::stripMemrefCasts(Value memref) {
  while (auto cast = memref.getDefiningOp<memref::CastOp>())
    memref = cast.getSource();
  return memref;
}

Value mlir::distruntime::getBufferRoot(Value memref) {
  while (auto view = memref.getDefiningOp<ViewLikeOpInterface>()) {
    if (view.getViewDest() != memref)
      break;
    memref = view.getViewSource();
  }
  return memref;
}

/// The memory effects of `op` on memref values, each with its value; the
/// reads of memory the analysis cannot see (through a pointer, or of the
/// default resource) in `unknownReads`.
static SmallVector<MemoryEffects::EffectInstance>
getMemrefEffects(Operation *op, SmallVectorImpl<Value> &unknownReads,
                 bool &unknownMemory) {
  SmallVector<MemoryEffects::EffectInstance> effects, result;
  cast<MemoryEffectOpInterface>(op).getEffects(effects);
  for (const MemoryEffects::EffectInstance &effect : effects) {
    Value value = effect.getValue();
    bool reads = isa<MemoryEffects::Read>(effect.getEffect());
    if (value && isa<BaseMemRefType>(value.getType()))
      result.push_back(effect);
    else if (value && reads && !isa<TensorType>(value.getType()))
      unknownReads.push_back(value);
    else if (!value && reads &&
             isa<SideEffects::DefaultResource>(effect.getResource()))
      unknownMemory = true;
  }
  return result;
}

bool UniformityAnalysis::isProgramInput(ProgramPoint *point, Value pointer,
                                        unsigned depth) {
  if (depth > 8)
    return false;
  Operation *def = pointer.getDefiningOp();
  if (auto gep = dyn_cast_if_present<LLVM::GEPOp>(def)) {
    for (Value index : gep.getDynamicIndices())
      if (read(point, index).mayDiffer())
        return false;
    return isProgramInput(point, gep.getBase(), depth + 1);
  }
  if (auto load = dyn_cast_if_present<LLVM::LoadOp>(def))
    return isProgramInput(point, load.getAddr(), depth + 1);
  auto argument = dyn_cast<BlockArgument>(pointer);
  if (!argument || !argument.getOwner()->isEntryBlock())
    return false;
  auto function =
      dyn_cast<FunctionOpInterface>(argument.getOwner()->getParentOp());
  if (!function)
    return false;
  // An entry point's pointers are the command line (callers outside the
  // module pass theirs); a function's are what its callers pass.
  const auto *callsites = getOrCreateFor<dataflow::PredecessorState>(
      point, getProgramPointAfter(function));
  return llvm::all_of(callsites->getKnownPredecessors(), [&](Operation *op) {
    auto call = cast<CallOpInterface>(op);
    return argument.getArgNumber() < call.getArgOperands().size() &&
           isProgramInput(point, call.getArgOperands()[argument.getArgNumber()],
                          depth + 1);
  });
}

/// Whether the effects of `op` name `value` with an effect of kind Effect.
template <typename Effect> static bool hasEffectOn(Operation *op, Value value) {
  auto iface = dyn_cast<MemoryEffectOpInterface>(op);
  if (!iface)
    return false;
  SmallVector<MemoryEffects::EffectInstance> effects;
  iface.getEffects(effects);
  return llvm::any_of(effects, [&](const MemoryEffects::EffectInstance &e) {
    return e.getValue() == value && isa<Effect>(e.getEffect());
  });
}

/// The argument of a private function with a body that `use` (an operand
/// of `call`) binds; null otherwise.
static BlockArgument getCalleeArgument(CallOpInterface call, OpOperand &use) {
  auto function =
      dyn_cast_if_present<FunctionOpInterface>(call.resolveCallable());
  if (!function || function.isExternal() || !function.isPrivate())
    return {};
  for (auto [i, operand] : llvm::enumerate(call.getArgOperandsMutable()))
    if (&operand == &use && i < function.getNumArguments())
      return function.getArgument(i);
  return {};
}

/// The constant indices of a memref.load or memref.store on `memref`
/// directly (through memref.cast at most).
static std::optional<SmallVector<int64_t>> getConstantAccess(Operation *op) {
  ValueRange indices;
  Value memref;
  if (auto load = dyn_cast_if_present<memref::LoadOp>(op)) {
    indices = load.getIndices();
    memref = load.getMemRef();
  } else if (auto store = dyn_cast_if_present<memref::StoreOp>(op)) {
    indices = store.getIndices();
    memref = store.getMemRef();
  } else {
    return std::nullopt;
  }
  memref = stripMemrefCasts(memref);
  // Other constant indices are other elements under the identity layout
  // only (a zero stride lets two reach one).
  auto type = dyn_cast<MemRefType>(memref.getType());
  if (memref.getDefiningOp<ViewLikeOpInterface>() || !type ||
      !type.getLayout().isIdentity())
    return std::nullopt;
  SmallVector<int64_t> result;
  for (Value index : indices) {
    std::optional<int64_t> constant = getConstantIntValue(index);
    if (!constant)
      return std::nullopt;
    result.push_back(*constant);
  }
  return result;
}

/// Whether `reader` completes before `writer` can run, whichever path the
/// function takes: they are in one function, the reader dominates the
/// writer, and no loop (or cf cycle) holds both.
bool UniformityAnalysis::runsBefore(Operation *reader, Operation *writer) {
  Region *region = reader->getParentRegion();
  while (region && !region->findAncestorOpInRegion(*writer))
    region = region->getParentRegion();
  // Ops of different functions run in any order.
  if (!region || !region->getParentOp() ||
      region->getParentOp()->hasTrait<OpTrait::SymbolTable>())
    return false;
  Operation *r = region->findAncestorOpInRegion(*reader);
  Operation *w = region->findAncestorOpInRegion(*writer);
  if (r == w || !dominance.properlyDominates(r, w))
    return false;
  for (Region *scope = region; scope;) {
    if (!scope->hasOneBlock()) {
      Operation *ancestor = scope->findAncestorOpInRegion(*r);
      if (flows.get(*scope).inCycle(ancestor->getBlock()))
        return false;
    }
    Operation *parent = scope->getParentOp();
    if (!parent || isa<FunctionOpInterface>(parent))
      break;
    if (isa<LoopLikeOpInterface>(parent))
      return false;
    scope = parent->getParentRegion();
  }
  return true;
}

/// Whether the write can change what `reader` reads.
bool UniformityAnalysis::mayReach(Operation *writer, Operation *reader) {
  if (!reader)
    return true;
  std::optional<SmallVector<int64_t>> read = getConstantAccess(reader);
  std::optional<SmallVector<int64_t>> written = getConstantAccess(writer);
  if (read && written && *read != *written)
    return false;
  return !runsBefore(reader, writer);
}

/// Whether `op` is a sync replicating collective that overwrites all of
/// `root` (an output that is `root`, through memref.cast at most).
static bool overwritesWhole(Operation *op, Value root) {
  auto comm = dyn_cast<CommunicatingOpInterface>(op);
  if (!comm || !comm.replicates() || comm.getHandle())
    return false;
  SmallVector<Value> reads, writes;
  comm.getBuffersInFlight(reads, writes);
  return llvm::any_of(writes, [&](Value output) {
    return stripMemrefCasts(output) == root && comm.writesAllOf(output);
  });
}

/// Whether every path from `writer` to `reader` runs `kill`: `kill` stands
/// directly in a block of the reader's function before the op of that
/// block that holds the reader, and the writer is in that function but not
/// between them.
static bool separates(Operation *kill, Operation *writer, Operation *reader) {
  Block *block = kill->getBlock();
  Operation *readAt = block->findAncestorOpInBlock(*reader);
  if (!readAt || readAt == kill || !kill->isBeforeInBlock(readAt))
    return false;
  auto function = kill->getParentOfType<FunctionOpInterface>();
  if (!function || writer->getParentOfType<FunctionOpInterface>() != function)
    return false;
  Operation *writeAt = block->findAncestorOpInBlock(*writer);
  if (!writeAt)
    return true; // enters the block at its start, before `kill`
  if (writeAt == kill)
    return false;
  return writeAt->isBeforeInBlock(kill) || readAt->isBeforeInBlock(writeAt);
}

Uniformity UniformityAnalysis::readCallerControl(ProgramPoint *point,
                                                 Operation *op, Operation *home,
                                                 unsigned depth) {
  auto function = op->getParentOfType<FunctionOpInterface>();
  if (!function || function == home)
    return Uniformity::uniform();
  if (depth > 8)
    return Uniformity::varying(VarianceSource::Unmodeled, op);
  const auto *callsites = getOrCreateFor<dataflow::PredecessorState>(
      point, getProgramPointAfter(function));
  if (!callsites->allPredecessorsKnown())
    return Uniformity::varying(VarianceSource::Argument, function);
  Uniformity control = Uniformity::uniform();
  for (Operation *callsite : callsites->getKnownPredecessors())
    control = Uniformity::join(
        control,
        Uniformity::join(readControl(point, callsite),
                         readCallerControl(point, callsite, home, depth + 1)));
  return control;
}

const UniformityAnalysis::BufferUses &
UniformityAnalysis::getBufferUses(Value root) {
  auto [it, inserted] = bufferUses.try_emplace(root);
  if (!inserted)
    return it->second;
  BufferUses uses;
  // The op that allocates the buffer may fill it (get_halo's halos).
  if (Operation *def = root.getDefiningOp();
      def && hasEffectOn<MemoryEffects::Write>(def, root))
    uses.writers.push_back(def);
  SmallVector<Value> worklist{root};
  llvm::SmallPtrSet<Value, 4> visited;
  while (!worklist.empty() && !uses.escapes) {
    Value memref = worklist.pop_back_val();
    for (OpOperand &use : memref.getUses()) {
      Operation *user = use.getOwner();
      if (auto view = dyn_cast<ViewLikeOpInterface>(user);
          view && view.getViewSource() == memref) {
        worklist.push_back(view.getViewDest());
        continue;
      }
      // A private function the buffer is passed to: its uses of the
      // argument are uses of the buffer.
      if (auto call = dyn_cast<CallOpInterface>(user)) {
        BlockArgument argument = getCalleeArgument(call, use);
        if (argument && visited.insert(argument).second) {
          worklist.push_back(argument);
          continue;
        }
        if (argument)
          continue;
      }
      if (auto iface = dyn_cast<MemoryEffectOpInterface>(user)) {
        SmallVector<MemoryEffects::EffectInstance> effects;
        iface.getEffects(effects);
        bool named = false, writes = false;
        for (const MemoryEffects::EffectInstance &effect : effects) {
          if (effect.getValue() != memref)
            continue;
          named = true;
          writes |= isa<MemoryEffects::Write>(effect.getEffect());
        }
        // An op that takes the buffer without naming it in its effects
        // reads its shape only if it is memref.dim or memref.rank; any other
        // (a yield or return that hands it on, a pointer extracted from it)
        // lets code the analysis does not follow write it.
        if (!named && !isa<memref::DimOp, memref::RankOp>(user)) {
          uses.escapes = true;
          break;
        }
        if (writes)
          uses.writers.push_back(user);
        continue;
      }
      uses.escapes = true;
      break;
    }
  }
  return bufferUses[root] = std::move(uses);
}

Uniformity UniformityAnalysis::readRegionValues(ProgramPoint *point,
                                                Operation *op) {
  Uniformity value = Uniformity::uniform();
  if (!op->getNumRegions())
    return value;
  llvm::SetVector<Value> captured;
  getUsedValuesDefinedAbove(op->getRegions(), captured);
  for (Value capture : captured)
    value = Uniformity::join(value, read(point, capture));
  for (Region &region : op->getRegions())
    for (Block &block : region)
      if (block.mightHaveTerminator())
        for (Value yielded : block.getTerminator()->getOperands())
          value = Uniformity::join(value, read(point, yielded));
  return value;
}

Uniformity UniformityAnalysis::readAccessOperands(ProgramPoint *point,
                                                  Operation *op) {
  Uniformity value = readRegionValues(point, op);
  for (Value operand : op->getOperands()) {
    if (!isa<BaseMemRefType>(operand.getType())) {
      value = Uniformity::join(value, read(point, operand));
      continue;
    }
    // The buffer's own sizes do not change what an access at an index
    // reads or writes; the offsets of the views it goes through do.
    Value memref = operand;
    while (auto view = memref.getDefiningOp<ViewLikeOpInterface>()) {
      if (view.getViewDest() != memref)
        break;
      for (Value viewOperand : view->getOperands())
        if (viewOperand != view.getViewSource())
          value = Uniformity::join(value, read(point, viewOperand));
      memref = view.getViewSource();
    }
  }
  return value;
}

Uniformity UniformityAnalysis::readMemory(ProgramPoint *point, Operation *op) {
  Uniformity value = readAccessOperands(point, op);
  bool unknownMemory = false;
  SmallVector<Value> pointers;
  for (const MemoryEffects::EffectInstance &effect :
       getMemrefEffects(op, pointers, unknownMemory)) {
    if (!isa<MemoryEffects::Read>(effect.getEffect()))
      continue;
    Uniformity contents = readBufferContents(point, effect.getValue(), op);
    // Memory the analysis cannot see whole is reported at the load.
    if (contents.isVarying() && !contents.getOriginOp())
      contents = Uniformity::varying(VarianceSource::Memory, op);
    value = Uniformity::join(value, contents);
  }
  for (Value pointer : pointers)
    unknownMemory |= !isProgramInput(point, pointer);
  if (unknownMemory)
    value = Uniformity::join(value,
                             Uniformity::varying(VarianceSource::Memory, op));
  return value;
}

Uniformity UniformityAnalysis::readBufferContents(ProgramPoint *point,
                                                  Value memref,
                                                  Operation *reader) {
  Value root = getBufferRoot(memref);
  // A cycle of copies between buffers (or of calls): the other writes
  // decide.
  if (!inProgress.insert(root).second)
    return Uniformity::uniform();
  Uniformity contents = computeBufferContents(point, root, reader);
  inProgress.erase(root);
  return contents;
}

Uniformity UniformityAnalysis::computeBufferContents(ProgramPoint *point,
                                                     Value root,
                                                     Operation *reader) {
  Uniformity unknown = Uniformity::varying(VarianceSource::Memory, nullptr);
  // The argument of a private function: what its callers pass.
  if (auto argument = dyn_cast<BlockArgument>(root)) {
    auto function =
        dyn_cast<FunctionOpInterface>(argument.getOwner()->getParentOp());
    if (!function || !argument.getOwner()->isEntryBlock() ||
        function.isExternal() || function.isPublic())
      return unknown;
    const auto *callsites = getOrCreateFor<dataflow::PredecessorState>(
        point, getProgramPointAfter(function));
    if (!callsites->allPredecessorsKnown())
      return unknown;
    Uniformity contents = Uniformity::uniform();
    for (Operation *callsite : callsites->getKnownPredecessors()) {
      auto call = cast<CallOpInterface>(callsite);
      if (argument.getArgNumber() >= call.getArgOperands().size())
        return unknown;
      contents = Uniformity::join(
          contents,
          readBufferContents(
              point, call.getArgOperands()[argument.getArgNumber()], reader));
    }
    return contents;
  }
  if (auto global = root.getDefiningOp<memref::GetGlobalOp>()) {
    auto symbol = SymbolTable::lookupNearestSymbolFrom<memref::GlobalOp>(
        global, global.getNameAttr());
    return symbol && symbol.getConstant() ? Uniformity::uniform() : unknown;
  }
  Operation *def = root.getDefiningOp();
  if (!def || !hasEffectOn<MemoryEffects::Allocate>(def, root))
    return unknown;
  // A copy: computing a writer's value may add buffers to the cache.
  BufferUses uses = getBufferUses(root);
  if (uses.escapes)
    return unknown;
  // Flow-sensitive where it matters: a write that a replicating collective
  // overwrites whole before the read does not count.
  SmallVector<Operation *> kills;
  if (reader)
    for (Operation *writer : uses.writers)
      if (overwritesWhole(writer, root))
        kills.push_back(writer);
  auto killed = [&](Operation *writer) {
    // An async op writes at its wait, which may come after the kill.
    auto comm = dyn_cast<CommunicatingOpInterface>(writer);
    if (comm && comm.getHandle())
      return false;
    return llvm::any_of(kills, [&](Operation *kill) {
      return kill != writer && separates(kill, writer, reader);
    });
  };
  Operation *home = def->getParentOfType<FunctionOpInterface>();
  Uniformity contents = Uniformity::uniform();
  for (Operation *writer : uses.writers)
    if (mayReach(writer, reader) && !killed(writer))
      contents = Uniformity::join(
          contents, Uniformity::join(writtenBy(point, writer),
                                     readCallerControl(point, writer, home)));
  return contents;
}

Uniformity UniformityAnalysis::writtenBy(ProgramPoint *point,
                                         Operation *writer) {
  // A write that only some members make leaves the buffers different.
  Uniformity value = readControl(point, writer);
  if (isa<CommunicatingOpInterface>(writer)) {
    std::optional<Uniformity> replicated = getReplicatedUniformity(writer);
    return Uniformity::join(
        value, replicated
                   ? *replicated
                   : Uniformity::varying(VarianceSource::Received, writer));
  }
  value = Uniformity::join(value, readAccessOperands(point, writer));
  bool unknownMemory = false;
  SmallVector<Value> pointers;
  for (const MemoryEffects::EffectInstance &effect :
       getMemrefEffects(writer, pointers, unknownMemory))
    if (isa<MemoryEffects::Read>(effect.getEffect()))
      value = Uniformity::join(
          value, readBufferContents(point, effect.getValue(), writer));
  for (Value pointer : pointers)
    unknownMemory |= !isProgramInput(point, pointer);
  if (unknownMemory)
    value = Uniformity::join(
        value, Uniformity::varying(VarianceSource::Memory, writer));
  return value;
}
