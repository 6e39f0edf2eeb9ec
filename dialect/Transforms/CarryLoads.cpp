//===- CarryLoads.cpp - reuse loads across loop iterations ----------------===//
//
// A stencil's row loop loads u[i, j - 1] and u[i, j + 1]: the second is the
// first two iterations later. Carried in iter_args, each element is loaded
// once per row instead of twice, a fixed-order recurrence LLVM's loop
// vectorizer keeps in registers (what GCC -O3 does for the C++ kernel;
// LLVM does not find it on its own). Scalar replacement, after Carr and
// Kennedy, limited to what is provably the same value:
//  - the loads are in the loop's body block itself (every iteration runs
//    them), of one memref defined outside the loop, at indices that differ
//    only in one position, `iv + c` with c a constant (a multiple of the
//    step apart), the others defined outside the loop;
//  - nothing in the body may write that memref (BufferAccess: distinct
//    `llvm.noalias` arguments, fresh allocations), nor has unknown effects;
//  - at most kMaxCarried values are carried per group.
// The values the first iteration needs are loaded before the loop, under
// `lb < ub` unless constant bounds show it: between offsets the first
// iteration loads, so in bounds. Every use sees the value the original load
// would have read, so results are bit-identical.
//
//===----------------------------------------------------------------------===//

#include "BufferAccess.h"

#include "distruntime/Dialect/DistRuntime/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/STLExtras.h"

namespace mlir::distruntime {
#define GEN_PASS_DEF_CARRYLOADS
#include "distruntime/Dialect/DistRuntime/Transforms/Passes.h.inc"
} // namespace mlir::distruntime

using namespace mlir;
using namespace mlir::distruntime;

/// Registers a group may hold across iterations: enough for a stencil of
/// radius 2 along the loop, few enough not to spill.
constexpr int64_t kMaxCarried = 4;

/// Offsets and steps beyond this are left alone (no overflow in the
/// window's arithmetic).
constexpr int64_t kMaxOffset = int64_t{1} << 20;

/// `value` as `iv + c`: c, or nullopt.
static std::optional<int64_t> offsetFromIv(Value value, Value iv) {
  std::optional<int64_t> c;
  if (value == iv)
    c = 0;
  else if (auto add = value.getDefiningOp<arith::AddIOp>())
    c = add.getLhs() == iv   ? getConstantIntValue(add.getRhs())
        : add.getRhs() == iv ? getConstantIntValue(add.getLhs())
                             : std::nullopt;
  else if (auto sub = value.getDefiningOp<arith::SubIOp>();
           sub && sub.getLhs() == iv)
    c = getConstantIntValue(sub.getRhs());
  if (!c || *c < -kMaxOffset || *c > kMaxOffset)
    return std::nullopt;
  return isa_and_present<arith::SubIOp>(value.getDefiningOp()) ? -*c : *c;
}

namespace {

/// Loads of one memref at the same indices but the loop's position.
struct GroupKey {
  Value memref;
  unsigned position;
  SmallVector<Value> others;
  int64_t residue; // offset modulo the step
  bool operator==(const GroupKey &o) const {
    return memref == o.memref && position == o.position && others == o.others &&
           residue == o.residue;
  }
};

struct GroupKeyInfo {
  static GroupKey getEmptyKey() {
    return {llvm::DenseMapInfo<Value>::getEmptyKey(), 0, {}, 0};
  }
  static GroupKey getTombstoneKey() {
    return {llvm::DenseMapInfo<Value>::getTombstoneKey(), 0, {}, 0};
  }
  static unsigned getHashValue(const GroupKey &k) {
    return llvm::hash_combine(
        k.memref.getAsOpaquePointer(), k.position, k.residue,
        llvm::hash_combine_range(k.others.begin(), k.others.end()));
  }
  static bool isEqual(const GroupKey &a, const GroupKey &b) { return a == b; }
};

/// Loads of one key: each with its offset; carried values at offsets
/// lowest + k * step (k < carried), `fresh` loads the next one.
struct Group {
  GroupKey key;
  SmallVector<std::pair<memref::LoadOp, int64_t>> loads;
  int64_t lowest = 0, carried = 0;
  Value fresh;
};

} // namespace

/// The groups of `loop`'s body whose loads may be carried.
static SmallVector<Group> findGroups(scf::ForOp loop, int64_t step) {
  Value iv = loop.getInductionVar();
  llvm::MapVector<GroupKey, Group,
                  llvm::DenseMap<GroupKey, unsigned, GroupKeyInfo>>
      groups;
  for (auto load : loop.getBody()->getOps<memref::LoadOp>()) {
    if (!loop.isDefinedOutsideOfLoop(load.getMemRef()) ||
        !load.getType().isIntOrIndexOrFloat())
      continue;
    std::optional<unsigned> position;
    std::optional<int64_t> offset;
    SmallVector<Value> others;
    bool invariant = true;
    for (auto [k, index] : llvm::enumerate(load.getIndices())) {
      if (loop.isDefinedOutsideOfLoop(index)) {
        others.push_back(index);
        continue;
      }
      std::optional<int64_t> c = offsetFromIv(index, iv);
      invariant &= c.has_value() && !position;
      position = k;
      offset = c;
    }
    if (!invariant || !position)
      continue;
    int64_t residue = ((*offset % step) + step) % step;
    GroupKey key{load.getMemRef(), *position, others, residue};
    Group &group = groups[key];
    group.key = key;
    group.loads.push_back({load, *offset});
  }
  SmallVector<Group> result;
  for (auto &entry : groups) {
    Group &group = entry.second;
    auto byOffset = [](auto &a, auto &b) { return a.second < b.second; };
    auto *lo = llvm::min_element(group.loads, byOffset);
    auto *hi = llvm::max_element(group.loads, byOffset);
    group.lowest = lo->second;
    group.carried = (hi->second - lo->second) / step;
    group.fresh = hi->first.getResult();
    if (group.carried > 0 && group.carried <= kMaxCarried)
      result.push_back(std::move(group));
  }
  return result;
}

/// `value`'s constant, or nullopt.
static std::optional<APInt> constantOf(Value value) {
  APInt c;
  if (!matchPattern(value, m_ConstantInt(&c)))
    return std::nullopt;
  return c;
}

/// Whether `loop` runs at least once, from constant bounds.
static bool knownNonEmpty(scf::ForOp loop) {
  std::optional<APInt> lb = constantOf(loop.getLowerBound());
  std::optional<APInt> ub = constantOf(loop.getUpperBound());
  if (!lb || !ub)
    return false;
  return loop.getUnsignedCmp() ? lb->ult(*ub) : lb->slt(*ub);
}

/// The first iteration's window, loaded at the builder's insertion point:
/// the elements at lb + lowest + k * step. With a constant lb the index is
/// folded, wrapping as the arith.addi it stands for.
static SmallVector<Value> loadFirstWindow(OpBuilder &b, scf::ForOp loop,
                                          int64_t step,
                                          ArrayRef<Group> groups) {
  Location loc = loop.getLoc();
  Type ivType = loop.getInductionVar().getType();
  unsigned width = ivType.isIndex() ? IndexType::kInternalStorageBitWidth
                                    : ivType.getIntOrFloatBitWidth();
  std::optional<APInt> lb = constantOf(loop.getLowerBound());
  SmallVector<Value> initial;
  for (const Group &group : groups)
    for (int64_t k = 0; k < group.carried; ++k) {
      APInt offset(width, group.lowest + k * step, /*isSigned=*/true);
      Value at;
      if (lb)
        at = arith::ConstantOp::create(b, loc,
                                       b.getIntegerAttr(ivType, *lb + offset));
      else
        at = arith::AddIOp::create(
            b, loc, loop.getLowerBound(),
            arith::ConstantOp::create(b, loc,
                                      b.getIntegerAttr(ivType, offset)));
      SmallVector<Value> indices(group.key.others);
      indices.insert(indices.begin() + group.key.position, at);
      initial.push_back(
          memref::LoadOp::create(b, loc, group.key.memref, indices));
    }
  return initial;
}

/// The first iteration's window, loaded before `loop`: unguarded when the
/// loop surely runs, else under `lb < ub` (zeros when it does not run).
static SmallVector<Value> firstWindow(RewriterBase &rewriter, scf::ForOp loop,
                                      int64_t step, ArrayRef<Group> groups) {
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(loop);
  if (knownNonEmpty(loop))
    return loadFirstWindow(rewriter, loop, step, groups);
  Location loc = loop.getLoc();
  Value nonEmpty =
      arith::CmpIOp::create(rewriter, loc,
                            loop.getUnsignedCmp() ? arith::CmpIPredicate::ult
                                                  : arith::CmpIPredicate::slt,
                            loop.getLowerBound(), loop.getUpperBound());
  SmallVector<Type> types;
  for (const Group &group : groups)
    types.append(group.carried, group.fresh.getType());
  auto ifOp = scf::IfOp::create(rewriter, loc, types, nonEmpty,
                                /*withElseRegion=*/true);
  rewriter.setInsertionPointToStart(ifOp.thenBlock());
  scf::YieldOp::create(rewriter, loc,
                       loadFirstWindow(rewriter, loop, step, groups));
  rewriter.setInsertionPointToStart(ifOp.elseBlock());
  SmallVector<Value> zeros;
  for (Type type : types)
    zeros.push_back(
        arith::ConstantOp::create(rewriter, loc, rewriter.getZeroAttr(type)));
  scf::YieldOp::create(rewriter, loc, zeros);
  return ifOp.getResults();
}

/// Carries the loads of `groups` in `loop`'s iter_args.
static void carry(scf::ForOp loop, int64_t step, ArrayRef<Group> groups) {
  IRRewriter rewriter(loop);
  SmallVector<Value> initial = firstWindow(rewriter, loop, step, groups);
  // Each iteration the window moves up by one step: the fresh load enters.
  auto yields = [&](OpBuilder &, Location,
                    ArrayRef<BlockArgument> window) -> SmallVector<Value> {
    SmallVector<Value> next;
    for (const Group &group : groups) {
      llvm::append_range(next, window.take_front(group.carried).drop_front());
      next.push_back(group.fresh);
      window = window.drop_front(group.carried);
    }
    return next;
  };
  auto newLoop = cast<scf::ForOp>(*loop.replaceWithAdditionalYields(
      rewriter, initial, /*replaceInitOperandUsesInLoop=*/false, yields));
  // The other loads read what the window holds.
  ArrayRef<BlockArgument> window =
      newLoop.getRegionIterArgs().take_back(initial.size());
  for (const Group &group : groups) {
    for (auto [load, offset] : group.loads) {
      int64_t k = (offset - group.lowest) / step;
      if (k < group.carried)
        rewriter.replaceOp(load, window[k]);
    }
    window = window.drop_front(group.carried);
  }
}

namespace {

struct CarryLoadsPass
    : public distruntime::impl::CarryLoadsBase<CarryLoadsPass> {
protected:
  void runOnOperation() override {
    BufferAccessAnalysis accesses(getOperation(), getAnalysis<AliasAnalysis>());
    SmallVector<scf::ForOp> loops;
    getOperation()->walk([&](scf::ForOp loop) { loops.push_back(loop); });
    for (scf::ForOp loop : loops) {
      std::optional<int64_t> step = getConstantIntValue(loop.getStep());
      if (!step || *step <= 0 || *step > kMaxOffset)
        continue;
      SmallVector<Group> groups = findGroups(loop, *step);
      if (groups.empty())
        continue;
      AccessSet body = accesses.of(loop);
      llvm::erase_if(groups, [&](const Group &group) {
        return accesses.conflicts(body, group.key.memref, {});
      });
      if (!groups.empty())
        carry(loop, *step, groups);
    }
  }
};

} // namespace
