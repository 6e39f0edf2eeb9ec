//===- LowerGatherScatter.cpp - gather / scatter as scf loop nests --------===//
//
// Memref-form gather and scatter become loop nests: the outer loops run over
// the batch (scatter) dimensions and read one start index per iteration, the
// inner loops over the slice (window) dimensions move the elements. Gather
// clamps start indices to [0, dim - slice_size]; scatter skips the elements
// out of the result's bounds (one check per start index for the dimensions
// without a window, loop bounds for the window dimensions), then inlines
// update_computation on (current values, updates).
//
//===----------------------------------------------------------------------===//

#include "distruntime/Dialect/DistRuntime/IR/DistRuntimeOps.h"
#include "distruntime/Dialect/DistRuntime/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/Sequence.h"

namespace mlir::distruntime {
#define GEN_PASS_DEF_LOWERGATHERSCATTER
#include "distruntime/Dialect/DistRuntime/Transforms/Passes.h.inc"
} // namespace mlir::distruntime

using namespace mlir;
using namespace mlir::distruntime;

namespace {

/// Index arithmetic on `index` values.
struct IndexMath {
  OpBuilder &b;
  Location loc;

  Value cst(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }
  Value add(Value x, Value y) { return arith::AddIOp::create(b, loc, x, y); }
  Value sub(Value x, Value y) { return arith::SubIOp::create(b, loc, x, y); }
  Value dim(Value memref, int64_t d) {
    return memref::DimOp::create(b, loc, memref, d);
  }

  /// An element of an index array as `index`: ui* zero-extend, others
  /// sign-extend. Also returns whether it was unsigned.
  std::pair<Value, bool> toIndex(Value element) {
    Type type = element.getType();
    if (type.isIndex())
      return {element, false};
    auto integer = cast<IntegerType>(type);
    bool isUnsigned = integer.isUnsigned();
    if (!integer.isSignless()) {
      // arith works on signless integers: reinterpret the bits.
      Type signless = b.getIntegerType(integer.getWidth());
      element = UnrealizedConversionCastOp::create(b, loc, signless, element)
                    .getResult(0);
    }
    if (isUnsigned)
      return {arith::IndexCastUIOp::create(b, loc, b.getIndexType(), element),
              true};
    return {arith::IndexCastOp::create(b, loc, b.getIndexType(), element),
            false};
  }
};

} // namespace

/// `value` as the element type `to` that scatter's update_computation
/// computes in (StableHLO's is_promotable holds): integers extend (ui* with
/// zeros, others with the sign), floats widen (a same-width float through
/// f32). arith works on signless integers, so ui* are reinterpreted.
static Value promote(OpBuilder &b, Location loc, Value value, Type to) {
  Type from = value.getType();
  if (from == to)
    return value;
  if (auto target = dyn_cast<FloatType>(to)) {
    if (cast<FloatType>(from).getWidth() < target.getWidth())
      return arith::ExtFOp::create(b, loc, to, value);
    Value wide = arith::ExtFOp::create(b, loc, b.getF32Type(), value);
    return arith::TruncFOp::create(b, loc, to, wide);
  }
  auto source = cast<IntegerType>(from), target = cast<IntegerType>(to);
  auto reinterpret = [&](Value v, Type type) -> Value {
    return UnrealizedConversionCastOp::create(b, loc, type, v).getResult(0);
  };
  if (!source.isSignless())
    value = reinterpret(value, b.getIntegerType(source.getWidth()));
  Type signless = b.getIntegerType(target.getWidth());
  if (source.getWidth() < target.getWidth())
    value = source.isUnsigned()
                ? arith::ExtUIOp::create(b, loc, signless, value).getResult()
                : arith::ExtSIOp::create(b, loc, signless, value).getResult();
  return target.isSignless() ? value : reinterpret(value, to);
}

namespace {

/// Run-time checks of the sizes the verifier could not see (dynamic
/// dimensions), as distruntime.check ops: a violated one ends the job naming
/// the op, its location and both sizes, so the loops never read or write out
/// of bounds because of inconsistent shapes.
struct SizeChecks {
  OpBuilder &b;
  Location loc;
  StringRef opName;

  /// A size as an index value, and its constant if static.
  struct Size {
    Value value;
    std::optional<int64_t> constant;
  };
  Size cst(int64_t v) { return {arith::ConstantIndexOp::create(b, loc, v), v}; }
  Size dim(Value memref, int64_t d) {
    auto type = cast<MemRefType>(memref.getType());
    if (!type.isDynamicDim(d))
      return cst(type.getDimSize(d));
    return {memref::DimOp::create(b, loc, memref, d), std::nullopt};
  }

  /// Requires `have pred want`; static pairs were checked by the verifier.
  void require(CheckPredicate pred, Size have, Size want, const Twine &what) {
    if (have.constant && want.constant)
      return;
    CheckOp::create(b, loc, pred, have.value, want.value, opName, what.str());
  }
  void requireEqual(Size have, Size want, const Twine &what) {
    require(CheckPredicate::eq, have, want, what);
  }
};

} // namespace

/// The size checks shared by gather and scatter: the index vector length and
/// the batching dimensions of the operand and of the indices.
static void checkIndices(SizeChecks &c, Value operand, Value indices,
                         int64_t indexVectorDim, size_t indexVectorSize,
                         ArrayRef<int64_t> operandBatching,
                         ArrayRef<int64_t> indicesBatching) {
  int64_t rank = cast<MemRefType>(indices.getType()).getRank();
  if (indexVectorDim < rank)
    c.requireEqual(c.dim(indices, indexVectorDim), c.cst(indexVectorSize),
                   "index vector size (dim(indices, index_vector_dim))");
  for (auto [od, id] : llvm::zip(operandBatching, indicesBatching))
    c.requireEqual(c.dim(operand, od), c.dim(indices, id),
                   "operand batching dimension " + Twine(od) +
                       " against indices dimension " + Twine(id));
}

/// Loads the start index vector at `batchIndex` (the indices' dims other than
/// index_vector_dim, in order): `count` values along index_vector_dim, or one
/// value when index_vector_dim == rank(indices).
static SmallVector<std::pair<Value, bool>>
loadStartIndex(IndexMath &m, Value indices, int64_t indexVectorDim,
               ValueRange batchIndex, int64_t count) {
  int64_t rank = cast<MemRefType>(indices.getType()).getRank();
  SmallVector<std::pair<Value, bool>> values;
  for (int64_t s = 0; s < count; ++s) {
    SmallVector<Value> at;
    size_t next = 0;
    for (int64_t d = 0; d < rank; ++d)
      at.push_back(d == indexVectorDim ? m.cst(s) : batchIndex[next++]);
    values.push_back(
        m.toIndex(memref::LoadOp::create(m.b, m.loc, indices, at)));
  }
  return values;
}

/// The batch position of start-indices dimension `d` (index_vector_dim is
/// not a batch dimension).
static int64_t batchPosition(int64_t d, int64_t indexVectorDim) {
  return d < indexVectorDim ? d : d - 1;
}

static LogicalResult lowerGather(RewriterBase &rewriter, GatherOp op) {
  if (!op.getOutput())
    return op.emitOpError("on tensors must be bufferized before it is lowered "
                          "to loops");
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  IndexMath m{rewriter, loc};
  Value operand = op.getOperand(), indices = op.getStartIndices();
  Value output = op.getOutput();
  GatherDimensionNumbersAttr dims = op.getDimensionNumbers();
  ArrayRef<int64_t> offsetDims = dims.getOffsetDims();
  ArrayRef<int64_t> sliceSizes = op.getSliceSizes();
  int64_t ivd = dims.getIndexVectorDim();
  int64_t operandRank = sliceSizes.size();
  int64_t resultRank = cast<MemRefType>(output.getType()).getRank();

  SmallVector<int64_t> batchDims, windowOperandDims;
  for (int64_t d = 0; d < resultRank; ++d)
    if (!llvm::is_contained(offsetDims, d))
      batchDims.push_back(d);
  for (int64_t d = 0; d < operandRank; ++d)
    if (!llvm::is_contained(dims.getCollapsedSliceDims(), d) &&
        !llvm::is_contained(dims.getOperandBatchingDims(), d))
      windowOperandDims.push_back(d);

  // The sizes the verifier saw only where they were static.
  SizeChecks c{rewriter, loc, "gather"};
  for (auto [d, size] : llvm::enumerate(sliceSizes))
    c.require(CheckPredicate::sle, c.cst(size), c.dim(operand, d),
              "slice_sizes[" + Twine(d) + "] against operand dimension " +
                  Twine(d));
  checkIndices(c, operand, indices, ivd, dims.getStartIndexMap().size(),
               dims.getOperandBatchingDims(),
               dims.getStartIndicesBatchingDims());
  for (auto [k, d] : llvm::enumerate(batchDims)) {
    int64_t indicesDim = static_cast<int64_t>(k) < ivd ? k : k + 1;
    c.requireEqual(c.dim(output, d), c.dim(indices, indicesDim),
                   "result dimension " + Twine(d) +
                       " against indices "
                       "dimension " +
                       Twine(indicesDim));
  }
  for (auto [j, d] : llvm::enumerate(offsetDims))
    c.requireEqual(c.dim(output, d), c.cst(sliceSizes[windowOperandDims[j]]),
                   "result dimension " + Twine(d) + " against its slice size");

  auto bounds = [&](ArrayRef<int64_t> resultDims) {
    SmallVector<Value> ubs;
    for (int64_t d : resultDims)
      ubs.push_back(m.dim(output, d));
    return ubs;
  };
  auto zeros = [&](size_t n) { return SmallVector<Value>(n, m.cst(0)); };
  auto ones = [&](size_t n) { return SmallVector<Value>(n, m.cst(1)); };

  scf::buildLoopNest(
      rewriter, loc, zeros(batchDims.size()), bounds(batchDims),
      ones(batchDims.size()),
      [&](OpBuilder &b, Location loc, ValueRange batchIndex) {
        IndexMath m{b, loc};
        // full_start_index + full_batching_index, per operand dimension.
        SmallVector<Value> base(operandRank, m.cst(0));
        auto start = loadStartIndex(m, indices, ivd, batchIndex,
                                    dims.getStartIndexMap().size());
        for (auto [s, d] : llvm::enumerate(dims.getStartIndexMap())) {
          auto [value, isUnsigned] = start[s];
          Value upper = m.sub(m.dim(operand, d), m.cst(sliceSizes[d]));
          // clamp(start, 0, dim - slice_size); unsigned values are >= 0.
          Value clamped =
              isUnsigned
                  ? arith::MinUIOp::create(b, loc, value, upper).getResult()
                  : arith::MaxSIOp::create(
                        b, loc, arith::MinSIOp::create(b, loc, value, upper),
                        m.cst(0))
                        .getResult();
          base[d] = clamped;
        }
        for (auto [od, sd] : llvm::zip(dims.getOperandBatchingDims(),
                                       dims.getStartIndicesBatchingDims()))
          base[od] = batchIndex[batchPosition(sd, ivd)];

        SmallVector<Value> offsetUbs;
        for (int64_t d : offsetDims)
          offsetUbs.push_back(m.dim(output, d));
        scf::buildLoopNest(
            b, loc, SmallVector<Value>(offsetDims.size(), m.cst(0)), offsetUbs,
            SmallVector<Value>(offsetDims.size(), m.cst(1)),
            [&](OpBuilder &b, Location loc, ValueRange offsetIndex) {
              IndexMath m{b, loc};
              SmallVector<Value> at(base);
              for (auto [j, d] : llvm::enumerate(windowOperandDims))
                at[d] = m.add(at[d], offsetIndex[j]);
              SmallVector<Value> resultIndex(resultRank);
              for (auto [k, d] : llvm::enumerate(batchDims))
                resultIndex[d] = batchIndex[k];
              for (auto [j, d] : llvm::enumerate(offsetDims))
                resultIndex[d] = offsetIndex[j];
              Value element = memref::LoadOp::create(b, loc, operand, at);
              memref::StoreOp::create(b, loc, element, output, resultIndex);
            });
      });
  rewriter.eraseOp(op);
  return success();
}

static LogicalResult lowerScatter(RewriterBase &rewriter, ScatterOp op) {
  if (op.getOutputs().empty())
    return op.emitOpError("on tensors must be bufferized before it is lowered "
                          "to loops");
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  IndexMath m{rewriter, loc};
  ScatterDimensionNumbersAttr dims = op.getScatterDimensionNumbers();
  ArrayRef<int64_t> windowDims = dims.getUpdateWindowDims();
  int64_t ivd = dims.getIndexVectorDim();
  Value indices = op.getScatterIndices();
  Value update0 = op.getUpdates()[0];
  Value result0 = op.getOutputs()[0];
  int64_t resultRank = cast<MemRefType>(result0.getType()).getRank();
  int64_t updateRank = cast<MemRefType>(update0.getType()).getRank();
  size_t n = op.getInputs().size();

  SmallVector<int64_t> scatterDims, windowResultDims;
  for (int64_t d = 0; d < updateRank; ++d)
    if (!llvm::is_contained(windowDims, d))
      scatterDims.push_back(d);
  for (int64_t d = 0; d < resultRank; ++d)
    if (!llvm::is_contained(dims.getInsertedWindowDims(), d) &&
        !llvm::is_contained(dims.getInputBatchingDims(), d))
      windowResultDims.push_back(d);

  // The sizes the verifier saw only where they were static.
  SizeChecks c{rewriter, loc, "scatter"};
  Value input0 = op.getInputs()[0];
  for (size_t i = 0; i < n; ++i)
    for (int64_t d = 0; d < resultRank; ++d) {
      c.requireEqual(c.dim(op.getInputs()[i], d), c.dim(input0, d),
                     "input #" + Twine(i) + " dimension " + Twine(d) +
                         " against input #0");
      c.requireEqual(c.dim(op.getOutputs()[i], d), c.dim(op.getInputs()[i], d),
                     "output #" + Twine(i) + " dimension " + Twine(d) +
                         " against its input");
    }
  for (size_t i = 1; i < n; ++i)
    for (int64_t d = 0; d < updateRank; ++d)
      c.requireEqual(c.dim(op.getUpdates()[i], d), c.dim(update0, d),
                     "update #" + Twine(i) + " dimension " + Twine(d) +
                         " against update #0");
  checkIndices(
      c, input0, indices, ivd, dims.getScatterDimsToOperandDims().size(),
      dims.getInputBatchingDims(), dims.getScatterIndicesBatchingDims());
  for (auto [k, d] : llvm::enumerate(scatterDims)) {
    int64_t indicesDim = static_cast<int64_t>(k) < ivd ? k : k + 1;
    c.requireEqual(c.dim(update0, d), c.dim(indices, indicesDim),
                   "update dimension " + Twine(d) +
                       " against indices "
                       "dimension " +
                       Twine(indicesDim));
  }
  for (auto [j, d] : llvm::enumerate(windowDims))
    c.require(CheckPredicate::sle, c.dim(update0, d),
              c.dim(input0, windowResultDims[j]),
              "update window dimension " + Twine(d) +
                  " against input "
                  "dimension " +
                  Twine(windowResultDims[j]));

  /// Loops over dimensions `dimsOf` of `shaped`, each from 0 to its size.
  auto loopNest =
      [&](OpBuilder &b, Location loc, Value shaped, ArrayRef<int64_t> dimsOf,
          function_ref<void(OpBuilder &, Location, ValueRange)> body) {
        IndexMath m{b, loc};
        SmallVector<Value> lbs, ubs, steps;
        for (int64_t d : dimsOf) {
          lbs.push_back(m.cst(0));
          ubs.push_back(m.dim(shaped, d));
          steps.push_back(m.cst(1));
        }
        scf::buildLoopNest(b, loc, lbs, ubs, steps, body);
      };

  // results start as copies of the inputs (converted where the computation
  // promotes them).
  auto allResultDims = llvm::to_vector(llvm::seq<int64_t>(0, resultRank));
  for (auto pair : llvm::zip(op.getInputs(), op.getOutputs())) {
    Value input = std::get<0>(pair), output = std::get<1>(pair);
    Type element = cast<MemRefType>(output.getType()).getElementType();
    if (cast<MemRefType>(input.getType()).getElementType() == element) {
      if (input != output)
        memref::CopyOp::create(rewriter, loc, input, output);
      continue;
    }
    loopNest(rewriter, loc, output, allResultDims,
             [&](OpBuilder &b, Location loc, ValueRange index) {
               Value v = memref::LoadOp::create(b, loc, input, index);
               memref::StoreOp::create(b, loc, promote(b, loc, v, element),
                                       output, index);
             });
  }

  Block &computation = op.getUpdateComputation().front();
  loopNest(
      rewriter, loc, update0, scatterDims,
      [&](OpBuilder &b, Location loc, ValueRange scatterIndex) {
        IndexMath m{b, loc};
        SmallVector<Value> base(resultRank, m.cst(0));
        auto start = loadStartIndex(m, indices, ivd, scatterIndex,
                                    dims.getScatterDimsToOperandDims().size());
        for (auto [s, d] :
             llvm::enumerate(dims.getScatterDimsToOperandDims())) {
          auto [value, isUnsigned] = start[s];
          // An unsigned start of 2^63 or more is a huge positive value that
          // `index` arithmetic sees as negative; adding a window offset could
          // wrap it back into bounds. Capped at dim(result, d), every element
          // of its window stays out of bounds, as it should.
          base[d] = isUnsigned ? arith::MinUIOp::create(b, loc, value,
                                                        m.dim(result0, d))
                                     .getResult()
                               : value;
        }
        for (auto [id, sd] : llvm::zip(dims.getInputBatchingDims(),
                                       dims.getScatterIndicesBatchingDims()))
          base[id] = scatterIndex[batchPosition(sd, ivd)];

        // The dimensions without a window are in bounds for the whole
        // window or not at all: one check per start index.
        Value inBounds = arith::ConstantIntOp::create(b, loc, 1, 1);
        for (int64_t d = 0; d < resultRank; ++d) {
          if (llvm::is_contained(windowResultDims, d))
            continue;
          Value low = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge,
                                            base[d], m.cst(0));
          Value high = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt,
                                             base[d], m.dim(result0, d));
          inBounds = arith::AndIOp::create(
              b, loc, inBounds, arith::AndIOp::create(b, loc, low, high));
        }
        // A window dimension runs over the offsets w with 0 <= base + w <
        // dim: the loop bounds skip the out-of-bounds elements, so the body
        // has no branch (and vectorizes). Written so that no step overflows
        // for any 64-bit base (unsigned ones were capped at dim above).
        SmallVector<Value> lbs, ubs, steps;
        for (auto [j, d] : llvm::enumerate(windowResultDims)) {
          Value size = m.dim(update0, windowDims[j]);
          Value negative = arith::CmpIOp::create(
              b, loc, arith::CmpIPredicate::slt, base[d], m.cst(0));
          // base < 0: the first -base offsets are out (all if -base >= size).
          Value allOut =
              arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sle,
                                    m.add(base[d], size), m.cst(0));
          Value skipped = arith::SelectOp::create(b, loc, allOut, size,
                                                  m.sub(m.cst(0), base[d]));
          lbs.push_back(
              arith::SelectOp::create(b, loc, negative, skipped, m.cst(0)));
          // base >= 0: offsets from dim - base on are out. (base < 0 leaves
          // every offset below size <= dim in bounds above.)
          Value room = arith::MinSIOp::create(
              b, loc, size, m.sub(m.dim(result0, d), base[d]));
          ubs.push_back(arith::SelectOp::create(b, loc, negative, size, room));
          steps.push_back(m.cst(1));
        }
        scf::IfOp::create(b, loc, inBounds, [&](OpBuilder &b, Location loc) {
          scf::buildLoopNest(
              b, loc, lbs, ubs, steps,
              [&](OpBuilder &b, Location loc, ValueRange windowIndex) {
                IndexMath m{b, loc};
                SmallVector<Value> resultIndex(base);
                for (auto [j, d] : llvm::enumerate(windowResultDims))
                  resultIndex[d] = m.add(resultIndex[d], windowIndex[j]);
                SmallVector<Value> updateIndex(updateRank);
                for (auto [k, d] : llvm::enumerate(scatterDims))
                  updateIndex[d] = scatterIndex[k];
                for (auto [j, d] : llvm::enumerate(windowDims))
                  updateIndex[d] = windowIndex[j];
                IRMapping mapping;
                for (size_t i = 0; i < n; ++i) {
                  mapping.map(computation.getArgument(i),
                              memref::LoadOp::create(b, loc, op.getOutputs()[i],
                                                     resultIndex));
                  Value update = memref::LoadOp::create(
                      b, loc, op.getUpdates()[i], updateIndex);
                  mapping.map(
                      computation.getArgument(n + i),
                      promote(b, loc, update,
                              computation.getArgument(n + i).getType()));
                }
                for (Operation &inner : computation.without_terminator())
                  b.clone(inner, mapping);
                auto yield = cast<YieldOp>(computation.getTerminator());
                for (size_t i = 0; i < n; ++i)
                  memref::StoreOp::create(
                      b, loc, mapping.lookupOrDefault(yield.getValues()[i]),
                      op.getOutputs()[i], resultIndex);
              });
          scf::YieldOp::create(b, loc);
        });
      });
  rewriter.eraseOp(op);
  return success();
}

namespace {

struct LowerGatherScatterPass
    : public distruntime::impl::LowerGatherScatterBase<LowerGatherScatterPass> {
protected:
  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    SmallVector<Operation *> ops;
    getOperation()->walk([&](Operation *op) {
      if (isa<GatherOp, ScatterOp>(op))
        ops.push_back(op);
    });
    for (Operation *op : ops) {
      LogicalResult result = isa<GatherOp>(op)
                                 ? lowerGather(rewriter, cast<GatherOp>(op))
                                 : lowerScatter(rewriter, cast<ScatterOp>(op));
      if (failed(result))
        return signalPassFailure();
    }
  }
};

} // namespace
