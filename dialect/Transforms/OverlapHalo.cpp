//===- OverlapHalo.cpp - interior rows while the halos travel -------------===//
//
// A stencil written sync fetches its halos with get_halo, waits, then runs
// one loop over its rows in which the first and last rows read the halos.
// This pass splits such a loop into an interior loop, which needs no halo,
// and one loop over the first and last `p` iterations (two trips over the
// two slabs), and puts the interior first; distruntime-async-collectives
// then moves the wait past the interior, so it runs while the exchange is
// in flight.
//
// The split is legal when the iterations are independent: the loop carries
// values only as reductions whose bits do not depend on the order (a
// maximum residual; the parts chain them), every write in its body is a
// memref.store whose index at one position is the induction variable,
// through a view whose layout keeps distinct indices apart (iterations
// write disjoint elements) and no buffer the body writes is read in
// it, so running the iterations in another order writes the same bytes (each
// element is computed by the same ops as before: results are bit-identical).
//
// The interior needs no halo when, with its bounds [lb + p, ub - p), the
// comparisons on the induction variable that select a halo fold: each
// index comparison whose outcome ValueBoundsConstraintSet proves becomes a
// constant and canonicalization removes the branch that read the halo. If
// a halo is still used for p = 1 and 2, the loop is left alone.
//
// Linalg ops after update_halo are split by OverlapHaloLinalg.cpp.
//
//===----------------------------------------------------------------------===//

#include "OverlapHalo.h"
#include "Remarks.h"

#include "distruntime/Dialect/DistRuntime/IR/DistRuntimeOps.h"
#include "distruntime/Dialect/DistRuntime/Transforms/Passes.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/IR/ValueBoundsOpInterfaceImpl.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/IR/ValueBoundsOpInterfaceImpl.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/IR/ValueBoundsOpInterfaceImpl.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/ValueBoundsOpInterface.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/CheckedArithmetic.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "distruntime-overlap-halo"

namespace mlir::distruntime {
#define GEN_PASS_DEF_OVERLAPHALO
#include "distruntime/Dialect/DistRuntime/Transforms/Passes.h.inc"
} // namespace mlir::distruntime

using namespace mlir;
using namespace mlir::distruntime;

//===----------------------------------------------------------------------===//
// Independent iterations
//===----------------------------------------------------------------------===//

/// The combining op of a reduction that gives the same bits in any order
/// and however often one operand enters it (commutative, associative and
/// idempotent): integer min/max, and, or; IEEE maximum/minimum (a NaN gives
/// a NaN in any order; maxnum/minnum are left out: their answer for -0 and
/// +0 is unspecified).
static bool isExactCombiner(Operation *op) {
  return isa<arith::AndIOp, arith::OrIOp, arith::MaxSIOp, arith::MinSIOp,
             arith::MaxUIOp, arith::MinUIOp, arith::MaximumFOp,
             arith::MinimumFOp>(op);
}

/// Iter arg `k` of `loop` only accumulates: it flows through one kind of
/// exact combiner, through scf.if branches that all yield a value derived
/// from it, and through the iter args of nested loops, back to the loop's
/// yield at `k`, and into nothing else. The iterations then add
/// their contributions in any order with the same result (heat2d's maximum
/// residual).
static bool isExactReduction(scf::ForOp loop, unsigned k) {
  llvm::SetVector<Value> derived;
  derived.insert(loop.getRegionIterArgs()[k]);
  std::optional<OperationName> combiner;
  // Region results whose every yield must be derived.
  SmallVector<std::pair<Operation *, unsigned>> joins;
  for (size_t i = 0; i < derived.size(); ++i) {
    for (OpOperand &use : derived[i].getUses()) {
      Operation *user = use.getOwner();
      if (isExactCombiner(user)) {
        if (combiner && *combiner != user->getName())
          return false;
        combiner = user->getName();
        derived.insert(user->getResult(0));
        continue;
      }
      if (auto inner = dyn_cast<scf::ForOp>(user)) {
        OpResult result = inner.getTiedLoopResult(&use);
        if (!result)
          return false;
        derived.insert(inner.getTiedLoopRegionIterArg(&use));
        derived.insert(result);
        joins.push_back({inner, result.getResultNumber()});
        continue;
      }
      if (!isa<scf::YieldOp>(user))
        return false;
      Operation *parent = user->getParentOp();
      if (parent == loop) {
        if (use.getOperandNumber() != k)
          return false;
        continue;
      }
      if (!isa<scf::IfOp, scf::ForOp>(parent))
        return false;
      derived.insert(parent->getResult(use.getOperandNumber()));
      joins.push_back({parent, use.getOperandNumber()});
    }
  }
  // Every yield into a derived region result is derived.
  auto yieldsDerived = [&](std::pair<Operation *, unsigned> join) {
    return llvm::all_of(join.first->getRegions(), [&](Region &region) {
      return llvm::all_of(region, [&](Block &block) {
        return derived.contains(block.getTerminator()->getOperand(join.second));
      });
    });
  };
  return llvm::all_of(joins, yieldsDerived) &&
         derived.contains(loop.getBody()->getTerminator()->getOperand(k));
}

/// The loop's iterations may run in any order: see the file comment.
static bool independentIterations(scf::ForOp loop,
                                  BufferAccessAnalysis &accesses) {
  if (!matchPattern(loop.getStep(), m_One()))
    return false;
  for (unsigned k = 0; k < loop.getNumResults(); ++k)
    if (!isExactReduction(loop, k))
      return false;
  Value iv = loop.getInductionVar();
  SmallVector<Value> written, read;
  // Per written buffer, the index position holding the induction variable.
  llvm::DenseMap<Value, unsigned> ivPosition;
  WalkResult result =
      loop.getBody()->walk<WalkOrder::PreOrder>([&](Operation *op) {
        if (auto store = dyn_cast<memref::StoreOp>(op)) {
          auto indices = store.getIndices();
          auto found = llvm::find(indices, iv);
          if (found == indices.end() ||
              !BufferAccessAnalysis::hasInjectiveLayout(store.getMemRef()))
            return WalkResult::interrupt();
          unsigned position = std::distance(indices.begin(), found);
          auto [it, inserted] =
              ivPosition.try_emplace(store.getMemRef(), position);
          if (!inserted && it->second != position)
            return WalkResult::interrupt();
          written.push_back(store.getMemRef());
          return WalkResult::advance();
        }
        if (op->getNumRegions() != 0 &&
            op->hasTrait<OpTrait::HasRecursiveMemoryEffects>())
          return WalkResult::advance(); // its nested ops are visited
        AccessSet set = accesses.of(op);
        if (!set.known || set.communicates)
          return WalkResult::interrupt();
        for (const BufferAccess &access : set.accesses) {
          if (access.writes || !access.buffer)
            return WalkResult::interrupt();
          read.push_back(access.buffer);
        }
        return op->getNumRegions() ? WalkResult::skip() : WalkResult::advance();
      });
  if (result.wasInterrupted())
    return false;
  // Written buffers are defined outside, distinct and never read.
  for (auto [i, buffer] : llvm::enumerate(written)) {
    if (loop->isAncestor(buffer.getParentBlock()->getParentOp()))
      return false;
    for (Value other : ArrayRef(written).drop_front(i + 1))
      if (other != buffer && accesses.mayAlias(other, buffer))
        return false;
    for (Value input : read)
      if (accesses.mayAlias(input, buffer))
        return false;
  }
  return true;
}

//===----------------------------------------------------------------------===//
// Folding the comparisons of the interior
//===----------------------------------------------------------------------===//

using VB = ValueBoundsConstraintSet;

/// The constant bound of `var` of the given type, if `stop` leaves enough
/// of its backward slice to prove one (closed upper bounds).
static std::optional<int64_t> constantBound(presburger::BoundType type,
                                            const VB::Variable &var,
                                            const VB::StopConditionFn &stop) {
  FailureOr<int64_t> bound =
      VB::computeConstantBound(type, var, stop, /*closedUB=*/true);
  return succeeded(bound) ? std::optional<int64_t>(*bound) : std::nullopt;
}

using P = arith::CmpIPredicate;

static bool isUnsigned(P predicate) {
  return predicate == P::ult || predicate == P::ule || predicate == P::ugt ||
         predicate == P::uge;
}

/// The outcome of `lhs predicate rhs` from the closed bounds [lo, hi] of
/// lhs - rhs, if they decide it. (Unsigned predicates: the caller has
/// proved both sides non-negative, where they agree with signed ones.)
static std::optional<bool> decide(P predicate, std::optional<int64_t> lo,
                                  std::optional<int64_t> hi) {
  // `yes` when the whole range satisfies it, `no` when none of it does.
  auto outcome = [](bool yes, bool no) -> std::optional<bool> {
    if (yes)
      return true;
    if (no)
      return false;
    return std::nullopt;
  };
  bool loKnown = lo.has_value(), hiKnown = hi.has_value();
  switch (predicate) {
  case P::eq:
  case P::ne: {
    std::optional<bool> equal =
        outcome(loKnown && hiKnown && *lo == 0 && *hi == 0,
                (loKnown && *lo > 0) || (hiKnown && *hi < 0));
    if (!equal)
      return std::nullopt;
    return predicate == P::eq ? *equal : !*equal;
  }
  case P::slt:
  case P::ult:
    return outcome(hiKnown && *hi < 0, loKnown && *lo >= 0);
  case P::sle:
  case P::ule:
    return outcome(hiKnown && *hi <= 0, loKnown && *lo > 0);
  case P::sgt:
  case P::ugt:
    return outcome(loKnown && *lo > 0, hiKnown && *hi <= 0);
  case P::sge:
  case P::uge:
    return outcome(loKnown && *lo >= 0, hiKnown && *hi < 0);
  }
  return std::nullopt;
}

/// The outcome of `cmp` if the bounds of its operands prove it: from the
/// constant bounds [lo, hi] of lhs - rhs, found in the part of the IR that
/// `stop` leaves (all of it when null).
static std::optional<bool> proveComparison(arith::CmpIOp cmp,
                                           const VB::StopConditionFn &stop) {
  Value lhs = cmp.getLhs(), rhs = cmp.getRhs();
  if (isUnsigned(cmp.getPredicate())) {
    for (Value side : {lhs, rhs}) {
      std::optional<int64_t> low =
          constantBound(presburger::BoundType::LB, side, stop);
      if (!low || *low < 0)
        return std::nullopt;
    }
  }
  MLIRContext *context = cmp.getContext();
  AffineMap difference = AffineMap::get(
      2, 0, getAffineDimExpr(0, context) - getAffineDimExpr(1, context));
  VB::Variable delta(difference, ValueRange{lhs, rhs});
  return decide(cmp.getPredicate(),
                constantBound(presburger::BoundType::LB, delta, stop),
                constantBound(presburger::BoundType::UB, delta, stop));
}

namespace {
/// A value as `base + offset`, the base null for a constant.
struct Sum {
  Value base;
  int64_t offset;
};
} // namespace

/// `value` as a sum, following arith.addi and arith.subi with a constant
/// operand (index arithmetic, assumed not to wrap, as the bounds above do).
static std::optional<Sum> asSum(Value value) {
  int64_t offset = 0;
  while (true) {
    if (std::optional<int64_t> constant = getConstantIntValue(value))
      return llvm::transformOptional(llvm::checkedAdd(offset, *constant),
                                     [](int64_t sum) {
                                       return Sum{Value(), sum};
                                     });
    Operation *def = value.getDefiningOp();
    if (!isa_and_nonnull<arith::AddIOp, arith::SubIOp>(def))
      return Sum{value, offset};
    std::optional<int64_t> lhs = getConstantIntValue(def->getOperand(0));
    std::optional<int64_t> rhs = getConstantIntValue(def->getOperand(1));
    std::optional<int64_t> next;
    if (rhs) {
      next = isa<arith::SubIOp>(def) ? llvm::checkedSub(offset, *rhs)
                                     : llvm::checkedAdd(offset, *rhs);
      value = def->getOperand(0);
    } else if (lhs && isa<arith::AddIOp>(def)) {
      next = llvm::checkedAdd(offset, *lhs);
      value = def->getOperand(1);
    } else {
      return Sum{value, offset};
    }
    if (!next)
      return std::nullopt;
    offset = *next;
  }
}

/// Closed bounds of `value` in the body of `loop`: [lb + c, ub - 1 + c]
/// for the induction variable plus c, the value itself for a value from
/// outside the loop (plus c).
static std::optional<std::pair<Sum, Sum>> rangeInBody(scf::ForOp loop,
                                                      Value value) {
  std::optional<Sum> sum = asSum(value);
  if (!sum)
    return std::nullopt;
  if (sum->base == loop.getInductionVar()) {
    std::optional<Sum> lo = asSum(loop.getLowerBound());
    std::optional<Sum> hi = asSum(loop.getUpperBound());
    if (!lo || !hi)
      return std::nullopt;
    std::optional<int64_t> loOffset = llvm::checkedAdd(lo->offset, sum->offset);
    std::optional<int64_t> hiOffset = llvm::checkedAdd(hi->offset, sum->offset);
    if (hiOffset)
      hiOffset = llvm::checkedSub(*hiOffset, int64_t(1));
    if (!loOffset || !hiOffset)
      return std::nullopt;
    return std::pair{Sum{lo->base, *loOffset}, Sum{hi->base, *hiOffset}};
  }
  if (sum->base && loop->isAncestor(sum->base.getParentRegion()->getParentOp()))
    return std::nullopt;
  return std::pair{*sum, *sum};
}

/// a - b if both have the same base.
static std::optional<int64_t> difference(const Sum &a, const Sum &b) {
  if (a.base != b.base)
    return std::nullopt;
  return llvm::checkedSub(a.offset, b.offset);
}

/// The outcome of `cmp` in `loop`'s body if sums prove it: the first-row
/// and last-row tests (i == lb, i + 1 == ub) without a constraint set.
static std::optional<bool> proveBySums(scf::ForOp loop, arith::CmpIOp cmp) {
  auto lhs = rangeInBody(loop, cmp.getLhs());
  auto rhs = rangeInBody(loop, cmp.getRhs());
  if (!lhs || !rhs)
    return std::nullopt;
  if (isUnsigned(cmp.getPredicate()))
    for (const Sum &low : {lhs->first, rhs->first})
      if (low.base || low.offset < 0)
        return std::nullopt;
  return decide(cmp.getPredicate(), difference(lhs->first, rhs->second),
                difference(lhs->second, rhs->first));
}

namespace {
/// What a proof sees, from the cheapest: sums of the induction variable
/// and constants; the loop's body and bounds, the values from further out
/// being unknowns; all of the IR.
enum class Proof { Sums, Local, Global };
} // namespace

/// Folds the comparisons on the induction variable of `loop`'s body that
/// its bounds decide with `proof`, then canonicalizes the body. (Only
/// those: the others read the same in every part, and each proof but
/// Sums builds a constraint set.)
static void simplifyBody(scf::ForOp loop,
                         const FrozenRewritePatternSet &patterns, Proof proof) {
  Value lb = loop.getLowerBound(), ub = loop.getUpperBound();
  // The bounds' own definitions (lb + p, ub - p) are followed one step.
  VB::StopConditionFn stopOutside = [&](Value value, std::optional<int64_t>,
                                        VB &) {
    if (value == lb || value == ub)
      return false;
    return !loop->isAncestor(value.getParentRegion()->getParentOp());
  };
  SetVector<Operation *> onInduction;
  getForwardSlice(loop.getInductionVar(), &onInduction);
  SmallVector<arith::CmpIOp> compares;
  for (Operation *op : onInduction)
    if (auto cmp = dyn_cast<arith::CmpIOp>(op);
        cmp && cmp.getLhs().getType().isIndex())
      compares.push_back(cmp);
  bool folded = false;
  for (arith::CmpIOp cmp : compares) {
    std::optional<bool> outcome =
        proof == Proof::Sums
            ? proveBySums(loop, cmp)
            : proveComparison(cmp,
                              proof == Proof::Local ? stopOutside : nullptr);
    if (!outcome)
      continue;
    OpBuilder builder(cmp);
    Value constant =
        arith::ConstantIntOp::create(builder, cmp.getLoc(), builder.getI1Type(),
                                     static_cast<int64_t>(*outcome));
    cmp.replaceAllUsesWith(constant);
    cmp.erase();
    folded = true;
  }
  // The last attempt canonicalizes even if nothing folded, as before.
  if (folded || proof == Proof::Global)
    (void)applyPatternsGreedily(loop.getRegion(), patterns);
}

//===----------------------------------------------------------------------===//
// Splitting
//===----------------------------------------------------------------------===//

/// `buffers` are used inside `op`.
static bool usesAny(Operation *op, ArrayRef<Value> buffers) {
  WalkResult result = op->walk([&](Operation *nested) {
    for (Value operand : nested->getOperands())
      if (llvm::is_contained(buffers, operand))
        return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return result.wasInterrupted();
}

/// A copy of `loop` over [lb, ub) at the builder's place, starting from
/// `inits`.
static scf::ForOp cloneWithBounds(OpBuilder &builder, scf::ForOp loop, Value lb,
                                  Value ub, ValueRange inits) {
  auto clone = cast<scf::ForOp>(builder.clone(*loop));
  clone.setLowerBound(lb);
  clone.setUpperBound(ub);
  clone.getInitArgsMutable().assign(inits);
  return clone;
}

/// Splits `loop` into its interior (not reading `halos`), run first, and
/// its first and last `p` iterations; false if no p in 1..2 frees the
/// interior of the halos.
static bool split(scf::ForOp loop, ArrayRef<Value> halos,
                  const FrozenRewritePatternSet &patterns) {
  Location loc = loop.getLoc();
  Value lb = loop.getLowerBound(), ub = loop.getUpperBound();
  for (int64_t p = 1; p <= 2; ++p) {
    OpBuilder builder(loop);
    Value width = arith::ConstantIndexOp::create(builder, loc, p);
    Value innerLb = arith::AddIOp::create(builder, loc, lb, width);
    Value innerUb = arith::SubIOp::create(builder, loc, ub, width);
    scf::ForOp inner =
        cloneWithBounds(builder, loop, innerLb, innerUb, loop.getInitArgs());
    // The cheap proofs first, the dearer ones only if a halo is still read.
    bool freed = false;
    for (Proof proof : {Proof::Sums, Proof::Local, Proof::Global}) {
      simplifyBody(inner, patterns, proof);
      if ((freed = !usesAny(inner, halos)))
        break;
    }
    if (!freed) {
      inner.erase();
      for (Value value : {innerUb, innerLb, width})
        value.getDefiningOp()->erase();
      continue;
    }
    // Then [lb, min(lb + p, ub)) and [max(ub - p, lb + p), ub), as the two
    // trips of one loop over these slabs: one more copy of the body, not
    // two (the lowering to LLVM costs in proportion to the body's copies).
    builder.setInsertionPoint(loop);
    Value firstUb = arith::MinSIOp::create(builder, loc, innerLb, ub);
    Value lastLb = arith::MaxSIOp::create(builder, loc, innerUb, innerLb);
    Value zero = arith::ConstantIndexOp::create(builder, loc, 0);
    Value two = arith::ConstantIndexOp::create(builder, loc, 2);
    // The step is 1 (independentIterations).
    auto slabs = scf::ForOp::create(
        builder, loc, zero, two, loop.getStep(), inner.getResults(),
        [&](OpBuilder &nested, Location loc, Value slab, ValueRange carried) {
          Value isFirst = arith::CmpIOp::create(
              nested, loc, arith::CmpIPredicate::eq, slab, zero);
          Value slabLb =
              arith::SelectOp::create(nested, loc, isFirst, lb, lastLb);
          Value slabUb =
              arith::SelectOp::create(nested, loc, isFirst, firstUb, ub);
          scf::ForOp rows =
              cloneWithBounds(nested, loop, slabLb, slabUb, carried);
          scf::YieldOp::create(nested, loc, rows.getResults());
        });
    loop.replaceAllUsesWith(slabs.getResults());
    LLVM_DEBUG(llvm::dbgs()
               << "split the loop at " << loc << " with p = " << p << "\n");
    loop.erase();
    return true;
  }
  return false;
}

namespace {

struct OverlapHalo : public distruntime::impl::OverlapHaloBase<OverlapHalo> {
  using Base::Base;

  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<affine::AffineDialect, arith::ArithDialect,
                    memref::MemRefDialect, scf::SCFDialect>();
    arith::registerValueBoundsOpInterfaceExternalModels(registry);
    memref::registerValueBoundsOpInterfaceExternalModels(registry);
    scf::registerValueBoundsOpInterfaceExternalModels(registry);
  }

protected:
  /// What removes a halo read once its comparisons are constants: the
  /// branches and selects on them (the driver folds and erases the rest).
  /// Not every op's canonicalizations: collecting those costs more than
  /// the pass, and the pass runs in every compile.
  LogicalResult initialize(MLIRContext *context) override {
    RewritePatternSet set(context);
    scf::IfOp::getCanonicalizationPatterns(set, context);
    scf::IndexSwitchOp::getCanonicalizationPatterns(set, context);
    arith::SelectOp::getCanonicalizationPatterns(set, context);
    patterns = FrozenRewritePatternSet(std::move(set));
    return success();
  }

  void runOnOperation() override {
    BufferAccessAnalysis accesses(getOperation(), getAnalysis<AliasAnalysis>());
    SmallVector<GetHaloOp> halos;
    bool changed = false;
    getOperation()->walk([&](GetHaloOp op) {
      if (isa<BaseMemRefType>(op.getLeft().getType()))
        halos.push_back(op);
    });
    for (GetHaloOp halo : halos) {
      SmallVector<Value> buffers = {halo.getLeft(), halo.getRight()};
      SmallVector<scf::ForOp> loops;
      for (Operation *op = halo->getNextNode(); op; op = op->getNextNode())
        if (auto loop = dyn_cast<scf::ForOp>(op);
            loop && usesAny(loop, buffers))
          loops.push_back(loop);
      for (scf::ForOp loop : loops) {
        std::string where = describeOp(loop);
        if (!independentIterations(loop, accesses)) {
          reportLoop(halo, where, "its iterations may depend on each other");
          continue;
        }
        bool splitIt = split(loop, buffers, patterns);
        changed |= splitIt;
        reportLoop(halo, where,
                   splitIt ? StringRef()
                           : "no interior of 1 or 2 boundary iterations each "
                             "side is free of the halos");
      }
    }
    // With an analysis of its own: it sees the loops split above.
    changed |=
        overlapLinalgStencils(getOperation(), getAnalysis<AliasAnalysis>());
    // Unchanged IR: the pass manager skips verifying it again.
    if (!changed)
      markAllAnalysesPreserved();
  }

private:
  /// The remark on the loop at `where` that reads `halo`'s halos: split,
  /// or not and why.
  static void reportLoop(GetHaloOp halo, StringRef where, StringRef whyNot) {
    if (!remarksEnabled(halo->getContext()))
      return;
    if (whyNot.empty()) {
      remark::passed(halo.getLoc(), remarkAbout(halo, DEBUG_TYPE, "Overlapped"))
          << remark::add("the interior of the {0} runs while the halos are "
                         "in flight, its boundary iterations after",
                         where);
      return;
    }
    remark::missed(halo.getLoc(),
                   remarkAbout(halo, DEBUG_TYPE, "NotOverlapped"))
        << remark::add("the {0} reads the halos", where)
        << remark::reason("{0}", whyNot);
  }

  FrozenRewritePatternSet patterns;
};

} // namespace
