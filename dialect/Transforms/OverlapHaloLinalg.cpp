//===- OverlapHaloLinalg.cpp - linalg stencils around update_halo ---------===//
//
// The linalg half of distruntime-overlap-halo. A stencil written with linalg
// on memrefs: update_halo fills the frame of a block, then a linalg op reads
// shifted views of the block (subviews, or indexing maps `d + c`) and writes
// other buffers. The op's iteration box is cut into an interior box, whose
// iterations read only the core of the block, and the 2n slabs around it (n
// loops): update_halo becomes async (if it is not), the interior runs
// before its wait and the slabs after it. distruntime-async-collectives,
// which cannot tell the core from the frame (both are the block), then only
// moves the start up and the wait down.
//
// The interior needs no halo by construction: along a dimension d the
// exchange may write (split over the grid, halo not statically 0), the
// frame is outside the core [lo_d, size_d - hi_d), and an input that is a
// view of the block at offset T_d, read with `x_k + c`, stays inside the
// core for lo_d - T_d - c <= x_k < size_d - hi_d - T_d - c. The interior of
// loop k is the intersection of these ranges with [0, N_k); the bounds are
// affine.min/max, constants when the shapes are static.
//
// The split is legal when every element is computed by the same ops from the
// same values in any order: all loops parallel, a body without memory
// effects, output maps that are permutations (each iteration writes its own
// elements), outputs that may alias neither each other, nor an input, nor
// the block (the exchange reads the core while the interior runs), and
// every op between the exchange and the linalg op leaves the block alone,
// so the wait may move down to it. An input that may alias the block must be
// a chain of unit-stride subviews and casts of it, and read it with `x_k + c`
// along the dimensions the exchange writes; otherwise the op is left alone,
// as it is when the interior is empty for static shapes.
//
//===----------------------------------------------------------------------===//

#include "OverlapHalo.h"
#include "Remarks.h"

#include "distruntime/Dialect/DistRuntime/Analysis/Uniformity.h"
#include "distruntime/Dialect/DistRuntime/IR/DistRuntimeOps.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Utils/Utils.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#define DEBUG_TYPE "distruntime-overlap-halo"

using namespace mlir;
using namespace mlir::distruntime;

namespace {

/// An indexing map result `x_loop + c`, or the constant `c` (loop < 0).
struct Shift {
  int loop;
  int64_t c;
};

/// One read of the block: along block dimension `dim`, loop `loop` reads
/// `sum(offsets) + x_loop + c`.
struct BlockRead {
  unsigned loop;
  unsigned dim;
  SmallVector<OpFoldResult> offsets;
  int64_t c;
};

/// Records the ops a builder creates, to erase them when the split is
/// abandoned, or those left unused after it.
struct CreatedOps : public OpBuilder::Listener {
  void notifyOperationInserted(Operation *op, OpBuilder::InsertPoint) override {
    ops.push_back(op);
  }
  void eraseAll() {
    for (Operation *op : llvm::reverse(ops))
      op->erase();
    ops.clear();
  }
  /// Erases the unused ones: the folded affine helpers leave constants and
  /// applies that their composed forms replaced.
  void eraseDead() {
    for (Operation *op : llvm::reverse(ops))
      if (isOpTriviallyDead(op))
        op->erase();
    ops.clear();
  }
  SmallVector<Operation *> ops;
};

} // namespace

//===----------------------------------------------------------------------===//
// Legality
//===----------------------------------------------------------------------===//

/// `expr` as `x_k + c` or `c` with c >= 0 (the forms of a stencil's shifts;
/// linalg's loops start at 0, so a negative c would read out of bounds).
static std::optional<Shift> asShift(AffineExpr expr) {
  if (auto dim = dyn_cast<AffineDimExpr>(expr))
    return Shift{static_cast<int>(dim.getPosition()), 0};
  if (auto cst = dyn_cast<AffineConstantExpr>(expr)) {
    if (cst.getValue() < 0)
      return std::nullopt;
    return Shift{-1, cst.getValue()};
  }
  auto add = dyn_cast<AffineBinaryOpExpr>(expr);
  if (!add || add.getKind() != AffineExprKind::Add)
    return std::nullopt;
  auto dim = dyn_cast<AffineDimExpr>(add.getLHS());
  auto cst = dyn_cast<AffineConstantExpr>(add.getRHS());
  if (!dim || !cst || cst.getValue() < 0)
    return std::nullopt;
  return Shift{static_cast<int>(dim.getPosition()), cst.getValue()};
}

/// Each element of `op`'s outputs is computed by its own iteration from its
/// inputs, whatever the order of the iterations.
static bool hasIndependentElements(linalg::LinalgOp op) {
  if (!op.hasPureBufferSemantics() || op->getNumResults() != 0 ||
      op->getNumRegions() != 1)
    return false;
  if (!llvm::all_of(op.getIteratorTypesArray(), linalg::isParallelIterator))
    return false;
  for (AffineMap map : op.getIndexingMapsArray())
    if (!llvm::all_of(map.getResults(),
                      [](AffineExpr e) { return asShift(e).has_value(); }))
      return false;
  for (OpOperand &init : op.getDpsInitsMutable())
    if (!op.getMatchingIndexingMap(&init).isPermutation())
      return false;
  return llvm::all_of(op->getRegion(0).getOps(), [](Operation &nested) {
    return isMemoryEffectFree(&nested);
  });
}

/// The outputs of `op` may alias neither each other, nor an input, nor
/// `block`, and each element of an output has one index.
static bool writesApart(linalg::LinalgOp op, Value block,
                        BufferAccessAnalysis &accesses) {
  SmallVector<Value> outputs, inputs;
  for (OpOperand &init : op.getDpsInitsMutable())
    outputs.push_back(init.get());
  for (OpOperand *input : op.getDpsInputOperands())
    if (isa<BaseMemRefType>(input->get().getType()))
      inputs.push_back(input->get());
  for (auto [i, output] : llvm::enumerate(outputs)) {
    if (accesses.mayAlias(output, block) ||
        !BufferAccessAnalysis::hasInjectiveLayout(output))
      return false;
    for (Value other : ArrayRef(outputs).drop_front(i + 1))
      if (accesses.mayAlias(output, other))
        return false;
    for (Value input : inputs)
      if (accesses.mayAlias(output, input))
        return false;
  }
  return true;
}

/// Per dimension, the offsets of the unit-stride subviews (of one rank) and
/// casts that make `view` from `block`; nullopt if it is not such a view.
static std::optional<SmallVector<SmallVector<OpFoldResult>>>
offsetsInBlock(Value view, Value block) {
  auto type = dyn_cast<MemRefType>(view.getType());
  if (!type)
    return std::nullopt;
  SmallVector<SmallVector<OpFoldResult>> offsets(type.getRank());
  Value root = stripMemrefCasts(block);
  for (view = stripMemrefCasts(view); view != root;
       view = stripMemrefCasts(view)) {
    auto subview = view.getDefiningOp<memref::SubViewOp>();
    if (!subview ||
        subview.getSourceType().getRank() != subview.getType().getRank() ||
        !llvm::all_of(subview.getMixedStrides(), [](OpFoldResult stride) {
          return isConstantIntValue(stride, 1);
        }))
      return std::nullopt;
    for (auto [d, offset] : llvm::enumerate(subview.getMixedOffsets()))
      offsets[d].push_back(offset);
    view = subview.getSource();
  }
  return offsets;
}

/// Per dimension of the block, whether `halo` may write its frame there:
/// split over the grid, with a halo that is not statically 0.
static SmallVector<bool> writtenDims(UpdateHaloOp halo) {
  auto type = cast<MemRefType>(halo.getBlock().getType());
  ArrayRef<int64_t> sizes = halo.getStaticHaloSizes();
  SmallVector<bool> written(type.getRank(), false);
  for (auto [d, list] : llvm::enumerate(halo.getSplitAxes()))
    written[d] = !cast<DenseI64ArrayAttr>(list).empty() &&
                 (sizes[2 * d] != 0 || sizes[2 * d + 1] != 0);
  return written;
}

/// The reads of `halo`'s block by `op` along the dimensions the exchange
/// writes; failure when one cannot be bounded.
static FailureOr<SmallVector<BlockRead>>
blockReads(linalg::LinalgOp op, UpdateHaloOp halo,
           BufferAccessAnalysis &accesses) {
  Value block = halo.getBlock();
  SmallVector<bool> written = writtenDims(halo);
  SmallVector<BlockRead> reads;
  for (OpOperand *input : op.getDpsInputOperands()) {
    Value value = input->get();
    if (!isa<BaseMemRefType>(value.getType()) ||
        !accesses.mayAlias(value, block))
      continue;
    auto offsets = offsetsInBlock(value, block);
    if (!offsets)
      return failure();
    AffineMap map = op.getMatchingIndexingMap(input);
    for (auto [d, expr] : llvm::enumerate(map.getResults())) {
      if (!written[d])
        continue;
      Shift shift = *asShift(expr);
      // The same element at every iteration: possibly a halo cell.
      if (shift.loop < 0)
        return failure();
      reads.push_back({static_cast<unsigned>(shift.loop),
                       static_cast<unsigned>(d), (*offsets)[d], shift.c});
    }
  }
  return reads;
}

//===----------------------------------------------------------------------===//
// The interior box
//===----------------------------------------------------------------------===//

/// `expr` of the symbols `operands`, folded.
static OpFoldResult apply(OpBuilder &b, Location loc, AffineExpr expr,
                          ArrayRef<OpFoldResult> operands) {
  AffineMap map = AffineMap::get(0, operands.size(), expr);
  return affine::makeComposedFoldedAffineApply(b, loc, map, operands);
}

/// The max (or min) of `operands`, folded.
static OpFoldResult extremum(OpBuilder &b, Location loc,
                             ArrayRef<OpFoldResult> operands, bool max) {
  SmallVector<AffineExpr> symbols;
  for (unsigned i = 0; i < operands.size(); ++i)
    symbols.push_back(b.getAffineSymbolExpr(i));
  AffineMap map = AffineMap::get(0, operands.size(), symbols, b.getContext());
  return max ? affine::makeComposedFoldedAffineMax(b, loc, map, operands)
             : affine::makeComposedFoldedAffineMin(b, loc, map, operands);
}

namespace {

/// The halo sizes and block sizes of an update_halo as index values, each
/// made once, when first asked for.
class Geometry {
public:
  Geometry(OpBuilder &b, Location loc, UpdateHaloOp halo)
      : b(b), loc(loc), halo(halo),
        halos(getMixedValues(halo.getStaticHaloSizes(), halo.getHaloSizes(),
                             b.getContext())),
        sizes(halos.size() / 2) {}

  /// Halo size `i` ([lo_0, hi_0, lo_1, ...]); dynamic ones may be i64.
  OpFoldResult haloSize(unsigned i) {
    auto value = dyn_cast<Value>(halos[i]);
    if (value && !value.getType().isIndex())
      halos[i] = arith::IndexCastOp::create(b, loc, b.getIndexType(), value)
                     .getResult();
    return halos[i];
  }
  /// The block's size along `d`.
  OpFoldResult blockSize(unsigned d) {
    if (!sizes[d])
      sizes[d] = memref::getMixedSize(b, loc, halo.getBlock(), d);
    return sizes[d];
  }

private:
  OpBuilder &b;
  Location loc;
  UpdateHaloOp halo;
  SmallVector<OpFoldResult> halos, sizes;
};

} // namespace

/// The bounds of `read`'s loop that keep it in the core of the block: lower
/// lo - T - c and upper size - hi - T - c.
static std::pair<OpFoldResult, OpFoldResult> coreRange(OpBuilder &b,
                                                       Location loc,
                                                       Geometry &geometry,
                                                       const BlockRead &read) {
  SmallVector<OpFoldResult> operands = {geometry.haloSize(2 * read.dim),
                                        geometry.haloSize(2 * read.dim + 1),
                                        geometry.blockSize(read.dim)};
  // s0 = lo, s1 = hi, s2 = size, s3... = the offsets.
  AffineExpr offset = b.getAffineConstantExpr(read.c);
  for (auto [i, term] : llvm::enumerate(read.offsets)) {
    offset = offset + b.getAffineSymbolExpr(3 + i);
    operands.push_back(term);
  }
  AffineExpr lo = b.getAffineSymbolExpr(0), hi = b.getAffineSymbolExpr(1),
             size = b.getAffineSymbolExpr(2);
  return {apply(b, loc, lo - offset, operands),
          apply(b, loc, size - hi - offset, operands)};
}

/// The interior box [lows, highs) of loops of extents `extents`: 0 <= low
/// <= high <= extent along each loop, so that the interior and the slabs
/// around it cover the iterations once each.
static void interiorBox(OpBuilder &b, Location loc, UpdateHaloOp halo,
                        ArrayRef<BlockRead> reads,
                        ArrayRef<OpFoldResult> extents,
                        SmallVectorImpl<OpFoldResult> &lows,
                        SmallVectorImpl<OpFoldResult> &highs) {
  SmallVector<SmallVector<OpFoldResult>> lowTerms, highTerms;
  for (OpFoldResult extent : extents) {
    lowTerms.push_back({b.getIndexAttr(0)});
    highTerms.push_back({extent});
  }
  Geometry geometry(b, loc, halo);
  for (const BlockRead &read : reads) {
    auto [low, high] = coreRange(b, loc, geometry, read);
    lowTerms[read.loop].push_back(low);
    highTerms[read.loop].push_back(high);
  }
  for (auto [k, extent] : llvm::enumerate(extents)) {
    OpFoldResult low = extremum(b, loc, lowTerms[k], /*max=*/true);
    low = extremum(b, loc, {low, extent}, /*max=*/false);
    OpFoldResult high = extremum(b, loc, highTerms[k], /*max=*/false);
    high = extremum(b, loc, {high, low}, /*max=*/true);
    lows.push_back(low);
    highs.push_back(high);
  }
}

//===----------------------------------------------------------------------===//
// Restricting the op to a box
//===----------------------------------------------------------------------===//

/// A copy of `op` over the iterations [offsets, offsets + sizes) at the
/// builder's place: each operand becomes the subview the box reads (offset
/// x_k's start along a result `x_k + c`, size the box's extent + c), and
/// linalg.index counts from the box's start.
static void createRestricted(OpBuilder &b, linalg::LinalgOp op,
                             ArrayRef<OpFoldResult> offsets,
                             ArrayRef<OpFoldResult> sizes) {
  Location loc = op.getLoc();
  AffineExpr s0 = b.getAffineSymbolExpr(0);
  SmallVector<Value> operands;
  for (OpOperand &operand : op->getOpOperands()) {
    Value value = operand.get();
    auto type = dyn_cast<MemRefType>(value.getType());
    if (!type || type.getRank() == 0) {
      operands.push_back(value);
      continue;
    }
    SmallVector<OpFoldResult> subOffsets, subSizes;
    SmallVector<OpFoldResult> strides(type.getRank(), b.getIndexAttr(1));
    for (AffineExpr expr : op.getMatchingIndexingMap(&operand).getResults()) {
      Shift shift = *asShift(expr);
      if (shift.loop < 0) {
        subOffsets.push_back(b.getIndexAttr(0));
        subSizes.push_back(b.getIndexAttr(shift.c + 1));
        continue;
      }
      subOffsets.push_back(offsets[shift.loop]);
      subSizes.push_back(shift.c == 0
                             ? sizes[shift.loop]
                             : apply(b, loc, s0 + shift.c, sizes[shift.loop]));
    }
    operands.push_back(memref::SubViewOp::create(b, loc, value, subOffsets,
                                                 subSizes, strides));
  }
  Operation *clone = b.clone(*op);
  clone->setOperands(operands);
  linalg::offsetIndices(b, cast<linalg::LinalgOp>(clone), offsets);
}

/// The 2n slabs of the box [0, extents) around [lows, highs): along loop
/// k, [0, low_k) and [high_k, extent_k), with the loops before k in the
/// interior range and those after it whole. Empty slabs of static extent
/// are left out.
static void createSlabs(OpBuilder &b, linalg::LinalgOp op,
                        ArrayRef<OpFoldResult> lows,
                        ArrayRef<OpFoldResult> highs,
                        ArrayRef<OpFoldResult> extents) {
  Location loc = op.getLoc();
  AffineExpr s0 = b.getAffineSymbolExpr(0), s1 = b.getAffineSymbolExpr(1);
  SmallVector<OpFoldResult> offsets(extents.size(), b.getIndexAttr(0));
  SmallVector<OpFoldResult> sizes(extents);
  for (unsigned k = 0; k < extents.size(); ++k) {
    offsets[k] = b.getIndexAttr(0);
    sizes[k] = lows[k];
    if (!isConstantIntValue(sizes[k], 0))
      createRestricted(b, op, offsets, sizes);
    offsets[k] = highs[k];
    sizes[k] = apply(b, loc, s1 - s0, {highs[k], extents[k]});
    if (!isConstantIntValue(sizes[k], 0))
      createRestricted(b, op, offsets, sizes);
    offsets[k] = lows[k];
    sizes[k] = apply(b, loc, s1 - s0, {lows[k], highs[k]});
  }
}

//===----------------------------------------------------------------------===//
// The split
//===----------------------------------------------------------------------===//

/// The first op after `end` (update_halo or its wait) that touches
/// `halo`'s block, if it is a linalg op that may be split.
static linalg::LinalgOp firstReader(UpdateHaloOp halo, Operation *end,
                                    BufferAccessAnalysis &accesses) {
  SmallVector<Value> reads, writes;
  BufferAccessAnalysis::ownBuffers(halo, reads, writes);
  for (Operation *op = end->getNextNode();
       op && !op->hasTrait<OpTrait::IsTerminator>(); op = op->getNextNode())
    if (accesses.conflicts(accesses.of(op), reads, writes))
      return dyn_cast<linalg::LinalgOp>(op);
  return {};
}

/// `halo`'s wait, placed before `op`: the async form replaces a sync
/// update_halo.
static WaitOp waitBefore(UpdateHaloOp halo, Operation *op) {
  OpBuilder b(op);
  if (Value handle = halo.getHandle()) {
    Operation *wait = *handle.getUsers().begin();
    wait->moveBefore(op);
    return cast<WaitOp>(wait);
  }
  b.setInsertionPoint(halo);
  auto async = UpdateHaloOp::create(
      b, halo.getLoc(), Type(), AsyncHandleType::get(b.getContext()),
      halo.getBlock(), halo.getGridValues(), halo.getGridAttr(),
      halo.getSplitAxesAttr(), halo.getHaloSizes(),
      halo.getStaticHaloSizesAttr(), halo.getTeamAttr(), halo.getKeyAttr());
  async->setDiscardableAttrs(halo->getDiscardableAttrDictionary());
  halo->erase();
  b.setInsertionPoint(op);
  return WaitOp::create(b, async.getLoc(), async.getHandle());
}

/// Splits the first linalg op after `halo` that reads its block, if legal;
/// whether it did.
static bool overlapAfter(UpdateHaloOp halo, BufferAccessAnalysis &accesses) {
  Operation *end = halo;
  if (Value handle = halo.getHandle()) {
    if (!handle.hasOneUse() || !isa<WaitOp>(*handle.getUsers().begin()) ||
        handle.getUsers().begin()->getBlock() != halo->getBlock())
      return false;
    end = *handle.getUsers().begin();
  }
  linalg::LinalgOp op = firstReader(halo, end, accesses);
  auto leave = [&](StringRef why) {
    remark::missed(halo.getLoc(),
                   remarkAbout(halo, DEBUG_TYPE, "NotOverlapped"))
        << remark::reason("{0}", why);
    return false;
  };
  if (!op)
    return leave("the first op touching the block is no linalg op");
  if (!hasIndependentElements(op))
    return leave("the linalg op's elements may depend on each other");
  if (!writesApart(op, halo.getBlock(), accesses))
    return leave("an output may alias the block, an input or an output");
  FailureOr<SmallVector<BlockRead>> reads = blockReads(op, halo, accesses);
  if (failed(reads))
    return leave("a read of the block is not a shifted view");

  Location loc = op.getLoc();
  CreatedOps created;
  OpBuilder b(op, &created);
  // The loops' extents from the operands' sizes, as linalg infers them.
  SmallVector<OpFoldResult> extents =
      affine::makeComposedFoldedMultiResultAffineApply(
          b, loc, op.getShapesToLoopsMap(),
          op.createFlatListOfOperandDims(b, loc));
  SmallVector<OpFoldResult> lows, highs, sizes;
  interiorBox(b, loc, halo, *reads, extents, lows, highs);
  AffineExpr s0 = b.getAffineSymbolExpr(0), s1 = b.getAffineSymbolExpr(1);
  for (auto [low, high] : llvm::zip(lows, highs))
    sizes.push_back(apply(b, loc, s1 - s0, {low, high}));
  if (llvm::any_of(sizes, [](OpFoldResult size) {
        return isConstantIntValue(size, 0);
      })) {
    created.eraseAll();
    return leave("the interior is empty");
  }
  // Before waitBefore replaces the op by its async form.
  remark::passed(halo.getLoc(), remarkAbout(halo, DEBUG_TYPE, "Overlapped"))
      << remark::add("the interior of the {0} runs while the exchange is in "
                     "flight, its boundary slabs after",
                     describeOp(op));
  WaitOp wait = waitBefore(halo, op);
  b.setInsertionPoint(wait);
  createRestricted(b, op, lows, sizes);
  b.setInsertionPoint(op);
  createSlabs(b, op, lows, highs, extents);
  op->erase();
  created.eraseDead();
  return true;
}

bool mlir::distruntime::overlapLinalgStencils(Operation *root,
                                              AliasAnalysis &aliases) {
  SmallVector<UpdateHaloOp> halos;
  root->walk([&](UpdateHaloOp op) {
    if (isa<MemRefType>(op.getBlock().getType()))
      halos.push_back(op);
  });
  if (halos.empty())
    return false;
  BufferAccessAnalysis accesses(root, aliases);
  bool changed = false;
  for (UpdateHaloOp halo : halos)
    changed |= overlapAfter(halo, accesses);
  return changed;
}
