//===- BufferAccess.cpp - what an op reads and writes ---------------------===//

#include "BufferAccess.h"

#include "distruntime/Dialect/DistRuntime/IR/DistRuntimeOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/DenseSet.h"

using namespace mlir;
using namespace mlir::distruntime;

/// The value a view (memref.cast, subview, ...) is of, through all views.
static Value viewSource(Value value) {
  while (auto view = value.getDefiningOp<ViewLikeOpInterface>()) {
    if (view.getViewDest() != value)
      break;
    value = view.getViewSource();
  }
  return value;
}

/// Distinct indices of a memref of `type` reach distinct elements: the
/// identity layout, or static sizes and strides that, smallest stride
/// first, each step past the extent of the dimensions below.
static bool isInjectiveType(MemRefType type) {
  if (type.getLayout().isIdentity())
    return true;
  SmallVector<int64_t> strides;
  int64_t offset;
  if (!type.hasStaticShape() ||
      failed(type.getStridesAndOffset(strides, offset)))
    return false;
  SmallVector<std::pair<int64_t, int64_t>> dims; // (stride, size)
  for (auto [stride, size] : llvm::zip(strides, type.getShape())) {
    if (size == 1)
      continue; // one index: no two to collide
    if (ShapedType::isDynamic(stride) || stride <= 0)
      return false;
    dims.emplace_back(stride, size);
  }
  llvm::sort(dims);
  int64_t extent = 1;
  for (auto [stride, size] : dims) {
    if (stride < extent)
      return false;
    extent = stride * size;
  }
  return true;
}

bool BufferAccessAnalysis::hasInjectiveLayout(Value memref) {
  Operation *def = memref.getDefiningOp();
  // Views that keep distinct indices apart if their source does: casts,
  // reshapes, transposes, and subviews with positive static strides.
  if (auto cast = dyn_cast_if_present<memref::CastOp>(def))
    return hasInjectiveLayout(cast.getSource());
  if (isa_and_present<memref::ExpandShapeOp, memref::CollapseShapeOp,
                      memref::TransposeOp>(def))
    return hasInjectiveLayout(def->getOperand(0));
  if (auto subview = dyn_cast_if_present<memref::SubViewOp>(def))
    return llvm::all_of(subview.getStaticStrides(),
                        [](int64_t stride) {
                          return !ShapedType::isDynamic(stride) && stride > 0;
                        }) &&
           hasInjectiveLayout(subview.getSource());
  // Anything else (an allocation, an argument, a reinterpret_cast) by its
  // type.
  auto type = dyn_cast<MemRefType>(memref.getType());
  return type && isInjectiveType(type);
}

/// `value` is a result its defining op allocates.
static bool isAllocation(Value value) {
  auto result = dyn_cast<OpResult>(value);
  if (!result)
    return false;
  auto effects = dyn_cast<MemoryEffectOpInterface>(result.getOwner());
  return effects &&
         effects.getEffectOnValue<MemoryEffects::Allocate>(value).has_value();
}

bool BufferAccessAnalysis::freshAfter(Value fresh, Value older) {
  fresh = viewSource(fresh);
  if (!isAllocation(fresh))
    return false;
  return dominance.properlyDominates(older, fresh.getDefiningOp());
}

/// The values `value` may be a view of: through views, selects and the
/// results of scf.if and the like (what each region yields).
static void rootsOf(Value value, SmallVectorImpl<Value> &roots, int depth = 0) {
  value = viewSource(value);
  Operation *def = value.getDefiningOp();
  if (depth > 8 || !def)
    return roots.push_back(value);
  if (auto select = dyn_cast<arith::SelectOp>(def)) {
    rootsOf(select.getTrueValue(), roots, depth + 1);
    return rootsOf(select.getFalseValue(), roots, depth + 1);
  }
  if (!isa<RegionBranchOpInterface>(def) || isa<LoopLikeOpInterface>(def) ||
      def->getNumRegions() == 0)
    return roots.push_back(value);
  unsigned index = cast<OpResult>(value).getResultNumber();
  for (Region &region : def->getRegions())
    for (Block &block : region)
      if (auto yield = dyn_cast<RegionBranchTerminatorOpInterface>(
              block.getTerminator()))
        rootsOf(yield->getOperand(index), roots, depth + 1);
}

/// Distinct arguments of one function, one of them `llvm.noalias` (the
/// caller promises, as C's restrict, that it shares no memory).
static bool distinctNoAliasArgs(Value a, Value b) {
  auto argA = dyn_cast<BlockArgument>(a), argB = dyn_cast<BlockArgument>(b);
  if (!argA || !argB || argA == argB || argA.getOwner() != argB.getOwner() ||
      !argA.getOwner()->isEntryBlock())
    return false;
  auto func = dyn_cast<FunctionOpInterface>(argA.getOwner()->getParentOp());
  auto noAlias = [&](BlockArgument arg) {
    return func && func.getArgAttr(arg.getArgNumber(), "llvm.noalias");
  };
  return noAlias(argA) || noAlias(argB);
}

bool BufferAccessAnalysis::apartIterArgs(Value a, Value b, int depth) {
  auto argA = dyn_cast<BlockArgument>(a), argB = dyn_cast<BlockArgument>(b);
  if (depth > 8 || !argA || !argB || argA == argB ||
      argA.getOwner() != argB.getOwner())
    return false;
  auto loop = dyn_cast<LoopLikeOpInterface>(argA.getOwner()->getParentOp());
  if (!loop || loop->getNumRegions() != 1)
    return false;
  Block::BlockArgListType iterArgs = loop.getRegionIterArgs();
  ValueRange inits = loop.getInits(), yields = loop.getYieldedValues();
  if (!llvm::is_contained(iterArgs, argA) ||
      !llvm::is_contained(iterArgs, argB) || yields.size() != iterArgs.size())
    return false;
  // Each iteration passes the memref iter_args on permuted ...
  SmallVector<unsigned> memrefs;
  llvm::SmallDenseSet<Value> passed;
  for (auto [k, arg] : llvm::enumerate(iterArgs)) {
    if (!isa<BaseMemRefType>(arg.getType()))
      continue;
    memrefs.push_back(k);
    if (!llvm::is_contained(iterArgs, yields[k]) ||
        !passed.insert(yields[k]).second)
      return false;
  }
  // ... and they start apart: then they are apart in every iteration.
  for (auto [i, k] : llvm::enumerate(memrefs))
    for (unsigned l : ArrayRef(memrefs).drop_front(i + 1))
      if (mayAlias(inits[k], inits[l], depth + 1))
        return false;
  return true;
}

bool BufferAccessAnalysis::mayAlias(Value a, Value b, int depth) {
  if (aliases.alias(a, b).isNo() ||
      apartIterArgs(viewSource(a), viewSource(b), depth))
    return false;
  SmallVector<Value> rootsA, rootsB;
  rootsOf(a, rootsA);
  rootsOf(b, rootsB);
  for (Value rootA : rootsA)
    for (Value rootB : rootsB)
      if (!freshAfter(rootA, rootB) && !freshAfter(rootB, rootA) &&
          !distinctNoAliasArgs(rootA, rootB) &&
          !aliases.alias(rootA, rootB).isNo())
        return true;
  return false;
}

bool BufferAccessAnalysis::conflicts(const AccessSet &set,
                                     ArrayRef<Value> reads,
                                     ArrayRef<Value> writes) {
  if (!set.known)
    return true;
  auto overlaps = [&](Value value, ArrayRef<Value> buffers) {
    return llvm::any_of(buffers,
                        [&](Value buffer) { return mayAlias(value, buffer); });
  };
  return llvm::any_of(set.accesses, [&](const BufferAccess &access) {
    if (!access.buffer) // memory it cannot name
      return access.writes || !writes.empty();
    return overlaps(access.buffer, writes) ||
           (access.writes && overlaps(access.buffer, reads));
  });
}

void BufferAccessAnalysis::ownBuffers(Operation *op,
                                      SmallVectorImpl<Value> &reads,
                                      SmallVectorImpl<Value> &writes) {
  if (auto comm = dyn_cast<CommunicatingOpInterface>(op))
    return comm.getBuffersInFlight(reads, writes);
  detail::getEffectBuffers(op, reads, writes);
}

void BufferAccessAnalysis::addOwn(Operation *op, AccessSet &set) {
  // A wait completes its async op: the accesses of that op's buffers.
  if (auto wait = dyn_cast<WaitOp>(op)) {
    set.communicates = true;
    Operation *start = wait.getHandle().getDefiningOp();
    if (!start) {
      set.known = false;
      return;
    }
    SmallVector<Value> reads, writes;
    ownBuffers(start, reads, writes);
    for (Value read : reads)
      set.accesses.push_back({read, false});
    for (Value write : writes)
      set.accesses.push_back({write, true});
    return;
  }
  if (isa<CallOpInterface>(op))
    return addCall(op, set);
  auto iface = dyn_cast<MemoryEffectOpInterface>(op);
  if (!iface) {
    if (!op->hasTrait<OpTrait::HasRecursiveMemoryEffects>())
      set.known = false;
    return;
  }
  SmallVector<MemoryEffects::EffectInstance> effects;
  iface.getEffects(effects);
  for (const MemoryEffects::EffectInstance &effect : effects) {
    if (isa<CommunicationResource>(effect.getResource())) {
      set.communicates = true;
      continue;
    }
    if (isa<MemoryEffects::Allocate>(effect.getEffect()))
      continue;
    Value value = effect.getValue();
    if (value && isa<TensorType>(value.getType()))
      continue; // tensors are values
    if (value && !isa<BaseMemRefType>(value.getType()))
      value = {}; // a pointer: memory it cannot name
    set.accesses.push_back(
        {value, !isa<MemoryEffects::Read>(effect.getEffect())});
  }
}

AccessSet BufferAccessAnalysis::of(Operation *op) {
  AccessSet set;
  op->walk([&](Operation *nested) {
    addOwn(nested, set);
    return set.known ? WalkResult::advance() : WalkResult::interrupt();
  });
  return set;
}

//===----------------------------------------------------------------------===//
// Calls
//===----------------------------------------------------------------------===//

/// The arguments of `func`'s entry block that `value` may be a view of, or
/// -1 for memory that is none of them. Allocations inside the function are
/// left out: nothing outside it can see them before the call.
static void argumentsOf(Value value, Block &entry, SmallVectorImpl<int> &into,
                        int depth = 0) {
  value = viewSource(value);
  if (depth > 8)
    return into.push_back(-1);
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    into.push_back(
        arg.getOwner() == &entry ? static_cast<int>(arg.getArgNumber()) : -1);
    return;
  }
  if (isAllocation(value))
    return;
  Operation *def = value.getDefiningOp();
  unsigned index = cast<OpResult>(value).getResultNumber();
  if (auto select = dyn_cast<arith::SelectOp>(def)) {
    argumentsOf(select.getTrueValue(), entry, into, depth + 1);
    return argumentsOf(select.getFalseValue(), entry, into, depth + 1);
  }
  // scf.if and the like: what each region yields.
  if (isa<RegionBranchOpInterface>(def) && def->getNumRegions() > 0 &&
      !isa<LoopLikeOpInterface>(def)) {
    for (Region &region : def->getRegions())
      for (Block &block : region)
        if (auto yield = dyn_cast<RegionBranchTerminatorOpInterface>(
                block.getTerminator()))
          argumentsOf(yield->getOperand(index), entry, into, depth + 1);
    return;
  }
  into.push_back(-1);
}

const std::optional<SmallVector<std::pair<int, bool>>> &
BufferAccessAnalysis::summary(Operation *func) {
  auto found = summaries.find(func);
  if (found != summaries.end())
    return found->second;
  // Unknown while it is computed: a recursive call is unknown.
  summaries[func] = std::nullopt;
  auto function = cast<FunctionOpInterface>(func);
  Block &entry = function.getFunctionBody().front();
  AccessSet set;
  for (Block &block : function.getFunctionBody())
    for (Operation &op : block) {
      AccessSet nested = of(&op);
      set.known &= nested.known;
      set.communicates |= nested.communicates;
      llvm::append_range(set.accesses, nested.accesses);
    }
  std::optional<SmallVector<std::pair<int, bool>>> result;
  if (set.known && !set.communicates) {
    result.emplace();
    for (const BufferAccess &access : set.accesses) {
      SmallVector<int> args;
      if (!access.buffer)
        args.push_back(-1);
      else
        argumentsOf(access.buffer, entry, args);
      for (int arg : args)
        result->push_back({arg, access.writes});
    }
  }
  return summaries[func] = std::move(result);
}

void BufferAccessAnalysis::addCall(Operation *op, AccessSet &set) {
  auto call = cast<CallOpInterface>(op);
  auto func = dyn_cast_if_present<FunctionOpInterface>(
      call.resolveCallableInTable(&symbols));
  if (!func || func.isExternal()) {
    set.known = false;
    return;
  }
  const auto &accesses = summary(func);
  if (!accesses) { // unknown, or the callee communicates
    set.known = false;
    return;
  }
  for (auto [arg, writes] : *accesses) {
    Value buffer;
    if (arg >= 0)
      buffer = call.getArgOperands()[arg];
    set.accesses.push_back({buffer, writes});
  }
}
