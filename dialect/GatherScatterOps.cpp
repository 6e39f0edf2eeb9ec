//===- GatherScatterOps.cpp - gather / scatter attributes and verifiers ---===//
//
// The (Cn) constraints of seed 004, each checked next to its number. Shapes
// are compared where they are static.
//
//===----------------------------------------------------------------------===//

#include "DiagnosticUtils.h"

#include "distruntime/Dialect/DistRuntime/IR/DistRuntimeOps.h"

#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::distruntime;

//===----------------------------------------------------------------------===//
// Dimension-number attributes: `<name = [1, 2], ..., index_vector_dim = 3>`
//===----------------------------------------------------------------------===//

/// Parses `<` entries `>` where each list entry is `name = [i, ...]` and the
/// one scalar entry is `index_vector_dim = i`; lists may be left out.
static ParseResult
parseDimensionNumbers(AsmParser &parser, ArrayRef<StringRef> names,
                      SmallVectorImpl<SmallVector<int64_t>> &lists,
                      int64_t &indexVectorDim) {
  lists.assign(names.size(), {});
  SmallVector<bool> seen(names.size(), false);
  bool haveIndexVectorDim = false;
  if (parser.parseLess())
    return failure();
  auto parseEntry = [&]() -> ParseResult {
    SMLoc loc = parser.getCurrentLocation();
    StringRef name;
    if (parser.parseKeyword(&name) || parser.parseEqual())
      return failure();
    if (name == "index_vector_dim") {
      if (haveIndexVectorDim)
        return parser.emitError(loc, "'index_vector_dim' given twice");
      haveIndexVectorDim = true;
      return parser.parseInteger(indexVectorDim);
    }
    auto *it = llvm::find(names, name);
    if (it == names.end())
      return parser.emitError(loc, "unknown dimension list '") << name << "'";
    size_t i = it - names.begin();
    if (seen[i])
      return parser.emitError(loc, "'") << name << "' given twice";
    seen[i] = true;
    return parser.parseCommaSeparatedList(
        AsmParser::Delimiter::Square, [&]() -> ParseResult {
          return parser.parseInteger(lists[i].emplace_back());
        });
  };
  if (parser.parseCommaSeparatedList(parseEntry) || parser.parseGreater())
    return failure();
  if (!haveIndexVectorDim)
    return parser.emitError(parser.getCurrentLocation(),
                            "expected 'index_vector_dim'");
  return success();
}

static void printDimensionNumbers(AsmPrinter &printer,
                                  ArrayRef<StringRef> names,
                                  ArrayRef<ArrayRef<int64_t>> lists,
                                  int64_t indexVectorDim) {
  printer << "<";
  for (auto [name, list] : llvm::zip(names, lists)) {
    if (list.empty())
      continue;
    printer << name << " = [";
    llvm::interleaveComma(list, printer);
    printer << "], ";
  }
  printer << "index_vector_dim = " << indexVectorDim << ">";
}

static constexpr StringRef kGatherLists[] = {
    "offset_dims", "collapsed_slice_dims", "operand_batching_dims",
    "start_indices_batching_dims", "start_index_map"};
static constexpr StringRef kScatterLists[] = {
    "update_window_dims", "inserted_window_dims", "input_batching_dims",
    "scatter_indices_batching_dims", "scatter_dims_to_operand_dims"};

Attribute GatherDimensionNumbersAttr::parse(AsmParser &parser, Type) {
  SmallVector<SmallVector<int64_t>> lists;
  int64_t indexVectorDim = 0;
  if (parseDimensionNumbers(parser, kGatherLists, lists, indexVectorDim))
    return {};
  return get(parser.getContext(), lists[0], lists[1], lists[2], lists[3],
             lists[4], indexVectorDim);
}

void GatherDimensionNumbersAttr::print(AsmPrinter &printer) const {
  printDimensionNumbers(printer, kGatherLists,
                        {getOffsetDims(), getCollapsedSliceDims(),
                         getOperandBatchingDims(),
                         getStartIndicesBatchingDims(), getStartIndexMap()},
                        getIndexVectorDim());
}

Attribute ScatterDimensionNumbersAttr::parse(AsmParser &parser, Type) {
  SmallVector<SmallVector<int64_t>> lists;
  int64_t indexVectorDim = 0;
  if (parseDimensionNumbers(parser, kScatterLists, lists, indexVectorDim))
    return {};
  return get(parser.getContext(), lists[0], lists[1], lists[2], lists[3],
             lists[4], indexVectorDim);
}

void ScatterDimensionNumbersAttr::print(AsmPrinter &printer) const {
  printDimensionNumbers(
      printer, kScatterLists,
      {getUpdateWindowDims(), getInsertedWindowDims(), getInputBatchingDims(),
       getScatterIndicesBatchingDims(), getScatterDimsToOperandDims()},
      getIndexVectorDim());
}

//===----------------------------------------------------------------------===//
// Shared checks
//===----------------------------------------------------------------------===//

namespace {
/// Emits "'<op>' op (Cn) ..." diagnostics for one op.
struct Checker {
  Operation *op;

  InFlightDiagnostic error(StringRef constraint) {
    return op->emitOpError() << constraint << " ";
  }
  LogicalResult inRange(StringRef c, StringRef name, ArrayRef<int64_t> dims,
                        int64_t bound, StringRef boundName) {
    for (int64_t d : dims)
      if (d < 0 || d >= bound)
        return error(c) << "'" << name << "' contains " << d << ", outside [0, "
                        << bound << ") of " << boundName;
    return success();
  }
  LogicalResult unique(StringRef c, StringRef name, ArrayRef<int64_t> dims) {
    for (size_t i = 0; i < dims.size(); ++i)
      for (size_t j = i + 1; j < dims.size(); ++j)
        if (dims[i] == dims[j])
          return error(c) << "'" << name << "' contains " << dims[i]
                          << " more than once";
    return success();
  }
  LogicalResult sorted(StringRef c, StringRef name, ArrayRef<int64_t> dims) {
    if (!llvm::is_sorted(dims))
      return error(c) << "'" << name << "' must be sorted";
    return success();
  }
  LogicalResult equalSizes(StringRef c, StringRef what, int64_t a, int64_t b) {
    if (ShapedType::isDynamic(a) || ShapedType::isDynamic(b) || a == b)
      return success();
    return error(c) << what << ": " << a << " vs " << b;
  }
};

} // namespace

/// `combine(batch_sizes, offset_sizes)`: batch sizes at the dims not in
/// `offsetDims`, offset sizes at `offsetDims`, both in order.
static SmallVector<int64_t> combine(int64_t rank, ArrayRef<int64_t> offsetDims,
                                    ArrayRef<int64_t> batchSizes,
                                    ArrayRef<int64_t> offsetSizes) {
  SmallVector<int64_t> shape(rank, ShapedType::kDynamic);
  size_t b = 0, o = 0;
  for (int64_t d = 0; d < rank; ++d) {
    if (llvm::is_contained(offsetDims, d))
      shape[d] = o < offsetSizes.size() ? offsetSizes[o++] : 0;
    else
      shape[d] = b < batchSizes.size() ? batchSizes[b++] : 0;
  }
  return shape;
}

/// The indices' shape without index_vector_dim.
static SmallVector<int64_t> batchSizes(ShapedType indices,
                                       int64_t indexVectorDim) {
  SmallVector<int64_t> sizes;
  for (int64_t d = 0; d < indices.getRank(); ++d)
    if (d != indexVectorDim)
      sizes.push_back(indices.getDimSize(d));
  return sizes;
}

static bool sameKind(Type a, Type b) {
  return isa<MemRefType>(a) == isa<MemRefType>(b);
}

//===----------------------------------------------------------------------===//
// gather
//===----------------------------------------------------------------------===//

LogicalResult GatherOp::verify() {
  Checker check{*this};
  auto operand = cast<ShapedType>(getOperand().getType());
  auto indices = cast<ShapedType>(getStartIndices().getType());
  bool memrefForm = isa<MemRefType>(operand);
  if (!sameKind(operand, indices))
    return emitOpError("'operand' and 'start_indices' must both be tensors "
                       "or both be memrefs");
  if (memrefForm != static_cast<bool>(getOutput()) ||
      memrefForm == static_cast<bool>(getResult()))
    return emitOpError(memrefForm
                           ? "on memrefs writes an 'outs' memref and returns "
                             "nothing"
                           : "on tensors returns a tensor and takes no 'outs'");
  auto result = cast<ShapedType>(memrefForm ? Type(getOutput().getType())
                                            : Type(getResult().getType()));
  GatherDimensionNumbersAttr dims = getDimensionNumbers();
  ArrayRef<int64_t> offsetDims = dims.getOffsetDims();
  ArrayRef<int64_t> collapsed = dims.getCollapsedSliceDims();
  ArrayRef<int64_t> operandBatching = dims.getOperandBatchingDims();
  ArrayRef<int64_t> indicesBatching = dims.getStartIndicesBatchingDims();
  ArrayRef<int64_t> startIndexMap = dims.getStartIndexMap();
  ArrayRef<int64_t> sliceSizes = getSliceSizes();
  int64_t ivd = dims.getIndexVectorDim();
  int64_t operandRank = operand.getRank(), indicesRank = indices.getRank();

  // (C1)
  int64_t dimsCount =
      offsetDims.size() + collapsed.size() + operandBatching.size();
  if (operandRank != dimsCount)
    return check.error("(C1)")
           << "rank(operand) = " << operandRank
           << " must equal size(offset_dims) + size(collapsed_slice_dims) + "
              "size(operand_batching_dims) = "
           << dimsCount;
  // (C2)
  if (ivd < 0 || ivd > indicesRank)
    return check.error("(C2)") << "'index_vector_dim' " << ivd
                               << " is outside [0, " << indicesRank << "]";
  // (C3)
  int64_t indexVectorSize = ivd < indicesRank ? indices.getDimSize(ivd) : 1;
  if (failed(check.equalSizes(
          "(C3)", "size(start_index_map) must equal the index vector size",
          startIndexMap.size(), indexVectorSize)))
    return failure();
  // (C4), (C5)
  if (failed(check.unique("(C4)", "offset_dims", offsetDims)) ||
      failed(check.sorted("(C4)", "offset_dims", offsetDims)) ||
      failed(check.inRange("(C5)", "offset_dims", offsetDims, result.getRank(),
                           "rank(result)")))
    return failure();
  // (C6)-(C8)
  SmallVector<int64_t> collapsedAndBatching(collapsed);
  llvm::append_range(collapsedAndBatching, operandBatching);
  if (failed(check.unique("(C6)",
                          "concatenate(collapsed_slice_dims, "
                          "operand_batching_dims)",
                          collapsedAndBatching)) ||
      failed(check.sorted("(C7)", "collapsed_slice_dims", collapsed)) ||
      failed(check.inRange("(C8)", "collapsed_slice_dims", collapsed,
                           operandRank, "rank(operand)")))
    return failure();
  // (C20) first: (C9), (C12) and (C21) index slice_sizes.
  if (static_cast<int64_t>(sliceSizes.size()) != operandRank)
    return check.error("(C20)")
           << "size(slice_sizes) = " << sliceSizes.size()
           << " must equal rank(operand) = " << operandRank;
  for (int64_t d : collapsed)
    if (sliceSizes[d] > 1)
      return check.error("(C9)")
             << "slice_sizes[" << d << "] = " << sliceSizes[d]
             << " must be <= 1 for a collapsed_slice_dim";
  // (C10)-(C12)
  if (failed(check.sorted("(C10)", "operand_batching_dims", operandBatching)) ||
      failed(check.inRange("(C11)", "operand_batching_dims", operandBatching,
                           operandRank, "rank(operand)")))
    return failure();
  for (int64_t d : operandBatching)
    if (sliceSizes[d] > 1)
      return check.error("(C12)")
             << "slice_sizes[" << d << "] = " << sliceSizes[d]
             << " must be <= 1 for an operand_batching_dim";
  // (C13)-(C17)
  if (failed(check.unique("(C13)", "start_indices_batching_dims",
                          indicesBatching)) ||
      failed(check.inRange("(C14)", "start_indices_batching_dims",
                           indicesBatching, indicesRank,
                           "rank(start_indices)")))
    return failure();
  if (llvm::is_contained(indicesBatching, ivd))
    return check.error("(C15)") << "'index_vector_dim' " << ivd
                                << " is one of start_indices_batching_dims";
  if (operandBatching.size() != indicesBatching.size())
    return check.error("(C16)")
           << "size(operand_batching_dims) = " << operandBatching.size()
           << " differs from size(start_indices_batching_dims) = "
           << indicesBatching.size();
  for (auto [od, id] : llvm::zip(operandBatching, indicesBatching))
    if (failed(check.equalSizes(
            "(C17)",
            ("dim(operand, " + std::to_string(od) +
             ") must equal dim(start_indices, " + std::to_string(id) + ")"),
            operand.getDimSize(od), indices.getDimSize(id))))
      return failure();
  // (C18), (C19)
  SmallVector<int64_t> mapAndBatching(startIndexMap);
  llvm::append_range(mapAndBatching, operandBatching);
  if (failed(check.unique("(C18)",
                          "concatenate(start_index_map, "
                          "operand_batching_dims)",
                          mapAndBatching)) ||
      failed(check.inRange("(C19)", "start_index_map", startIndexMap,
                           operandRank, "rank(operand)")))
    return failure();
  // (C21)
  for (auto [d, size] : llvm::enumerate(sliceSizes))
    if (size < 0 || (!operand.isDynamicDim(d) && size > operand.getDimSize(d)))
      return check.error("(C21)")
             << "slice_sizes[" << d << "] = " << size << " is outside [0, "
             << operand.getDimSize(d) << "]";
  // (C22)
  SmallVector<int64_t> offsetSizes;
  for (auto [d, size] : llvm::enumerate(sliceSizes))
    if (!llvm::is_contained(collapsedAndBatching, static_cast<int64_t>(d)))
      offsetSizes.push_back(size);
  SmallVector<int64_t> batch = batchSizes(indices, ivd);
  int64_t expectedRank = batch.size() + offsetSizes.size();
  if (result.getRank() != expectedRank)
    return check.error("(C22)")
           << "rank(result) = " << result.getRank() << " must be "
           << expectedRank << " (batch dims plus offset dims)";
  SmallVector<int64_t> expected =
      combine(expectedRank, offsetDims, batch, offsetSizes);
  for (auto [want, have] : llvm::zip(expected, result.getShape()))
    if (!ShapedType::isDynamic(want) && !ShapedType::isDynamic(have) &&
        want != have)
      return check.error("(C22)") << (memrefForm ? "output (outs)" : "result")
                                  << " shape " << shapeString(result.getShape())
                                  << " differs from " << shapeString(expected);
  // (C23)
  if (result.getElementType() != operand.getElementType())
    return check.error("(C23)")
           << "element type of the "
           << (memrefForm ? "output (outs) " : "result ")
           << result.getElementType() << " differs from the operand's "
           << operand.getElementType();
  return success();
}

//===----------------------------------------------------------------------===//
// scatter
//===----------------------------------------------------------------------===//

LogicalResult ScatterOp::verify() {
  Checker check{*this};
  // (C5)
  size_t n = getInputs().size();
  if (n == 0 || getUpdates().size() != n)
    return check.error("(C5)") << "needs 0 < size(inputs) = size(updates), got "
                               << n << " and " << getUpdates().size();
  auto input0 = cast<ShapedType>(getInputs()[0].getType());
  auto indices = cast<ShapedType>(getScatterIndices().getType());
  auto updates0 = cast<ShapedType>(getUpdates()[0].getType());
  bool memrefForm = isa<MemRefType>(input0);
  for (Value v : llvm::concat<Value>(getInputs(), getUpdates()))
    if (!sameKind(v.getType(), input0))
      return emitOpError("inputs, updates and scatter_indices must all be "
                         "tensors or all be memrefs");
  if (!sameKind(indices, input0))
    return emitOpError("inputs, updates and scatter_indices must all be "
                       "tensors or all be memrefs");
  SmallVector<ShapedType> results;
  for (Value v :
       memrefForm ? ValueRange(getOutputs()) : ValueRange(getResults()))
    results.push_back(cast<ShapedType>(v.getType()));
  if ((memrefForm && !getResults().empty()) ||
      (!memrefForm && !getOutputs().empty()))
    return emitOpError(memrefForm ? "on memrefs writes 'outs' memrefs and "
                                    "returns nothing"
                                  : "on tensors returns tensors and takes no "
                                    "'outs'");
  if (results.size() != n)
    return emitOpError("has ") << n << " inputs but " << results.size()
                               << (memrefForm ? " outputs" : " results");

  ScatterDimensionNumbersAttr dims = getScatterDimensionNumbers();
  ArrayRef<int64_t> windowDims = dims.getUpdateWindowDims();
  ArrayRef<int64_t> inserted = dims.getInsertedWindowDims();
  ArrayRef<int64_t> inputBatching = dims.getInputBatchingDims();
  ArrayRef<int64_t> indicesBatching = dims.getScatterIndicesBatchingDims();
  ArrayRef<int64_t> toOperand = dims.getScatterDimsToOperandDims();
  int64_t ivd = dims.getIndexVectorDim();
  int64_t inputRank = input0.getRank(), indicesRank = indices.getRank();

  // (C1), (C3), (C6), (C24), (C25)
  for (size_t i = 0; i < n; ++i) {
    auto input = cast<ShapedType>(getInputs()[i].getType());
    auto update = cast<ShapedType>(getUpdates()[i].getType());
    if (failed(verifyCompatibleShape(input.getShape(), input0.getShape())))
      return check.error("(C1)")
             << "input #" << i << " has shape " << shapeString(input.getShape())
             << " unlike input #0 " << shapeString(input0.getShape());
    if (failed(verifyCompatibleShape(update.getShape(), updates0.getShape())))
      return check.error("(C3)")
             << "update #" << i << " has shape "
             << shapeString(update.getShape()) << " unlike update #0 "
             << shapeString(updates0.getShape());
    if (update.getElementType() != input.getElementType())
      return check.error("(C6)") << "update #" << i << " has element type "
                                 << update.getElementType() << " but input #"
                                 << i << " has " << input.getElementType();
    std::string resultName = memrefForm
                                 ? "output #" + std::to_string(i) + " (outs)"
                                 : "result #" + std::to_string(i);
    if (failed(verifyCompatibleShape(results[i].getShape(), input.getShape())))
      return check.error("(C24)")
             << resultName << " has shape "
             << shapeString(results[i].getShape()) << " unlike input #" << i
             << " " << shapeString(input.getShape());
    // (C25) against E_i, update_computation's type for operand i (checked
    // by (C23) below), which may promote the input's.
    Block &body = getUpdateComputation().front();
    Type element = body.getNumArguments() == 2 * n
                       ? body.getArgument(i).getType()
                       : input.getElementType();
    if (results[i].getElementType() != element) {
      InFlightDiagnostic diag = check.error("(C25)")
                                << resultName << " has element type "
                                << results[i].getElementType();
      if (element == input.getElementType())
        return diag << " but input #" << i << " has " << input.getElementType();
      return diag << " but 'update_computation' computes in " << element;
    }
  }
  // (C2)
  int64_t dimsCount =
      windowDims.size() + inserted.size() + inputBatching.size();
  if (inputRank != dimsCount)
    return check.error("(C2)")
           << "rank(inputs[0]) = " << inputRank
           << " must equal size(update_window_dims) + "
              "size(inserted_window_dims) + size(input_batching_dims) = "
           << dimsCount;
  // (C22) first: (C4) and (C19) depend on it.
  if (ivd < 0 || ivd > indicesRank)
    return check.error("(C22)") << "'index_vector_dim' " << ivd
                                << " is outside [0, " << indicesRank << "]";
  // (C7), (C8)
  if (failed(check.unique("(C7)", "update_window_dims", windowDims)) ||
      failed(check.sorted("(C7)", "update_window_dims", windowDims)) ||
      failed(check.inRange("(C8)", "update_window_dims", windowDims,
                           updates0.getRank(), "rank(updates[0])")))
    return failure();
  // (C9)-(C13)
  SmallVector<int64_t> insertedAndBatching(inserted);
  llvm::append_range(insertedAndBatching, inputBatching);
  if (failed(check.unique("(C9)",
                          "concatenate(inserted_window_dims, "
                          "input_batching_dims)",
                          insertedAndBatching)) ||
      failed(check.sorted("(C10)", "inserted_window_dims", inserted)) ||
      failed(check.inRange("(C11)", "inserted_window_dims", inserted, inputRank,
                           "rank(inputs[0])")) ||
      failed(check.sorted("(C12)", "input_batching_dims", inputBatching)) ||
      failed(check.inRange("(C13)", "input_batching_dims", inputBatching,
                           inputRank, "rank(inputs[0])")))
    return failure();
  // (C14)-(C18)
  if (failed(check.unique("(C14)", "scatter_indices_batching_dims",
                          indicesBatching)) ||
      failed(check.inRange("(C15)", "scatter_indices_batching_dims",
                           indicesBatching, indicesRank,
                           "rank(scatter_indices)")))
    return failure();
  if (llvm::is_contained(indicesBatching, ivd))
    return check.error("(C16)") << "'index_vector_dim' " << ivd
                                << " is one of scatter_indices_batching_dims";
  if (inputBatching.size() != indicesBatching.size())
    return check.error("(C17)")
           << "size(input_batching_dims) = " << inputBatching.size()
           << " differs from size(scatter_indices_batching_dims) = "
           << indicesBatching.size();
  for (auto [id, sd] : llvm::zip(inputBatching, indicesBatching))
    if (failed(check.equalSizes("(C18)",
                                ("dim(inputs[0], " + std::to_string(id) +
                                 ") must equal dim(scatter_indices, " +
                                 std::to_string(sd) + ")"),
                                input0.getDimSize(id), indices.getDimSize(sd))))
      return failure();
  // (C19)-(C21)
  int64_t indexVectorSize = ivd < indicesRank ? indices.getDimSize(ivd) : 1;
  if (failed(check.equalSizes(
          "(C19)",
          "size(scatter_dims_to_operand_dims) must equal the index vector size",
          toOperand.size(), indexVectorSize)))
    return failure();
  SmallVector<int64_t> toOperandAndBatching(toOperand);
  llvm::append_range(toOperandAndBatching, inputBatching);
  if (failed(check.unique("(C20)",
                          "concatenate(scatter_dims_to_operand_dims, "
                          "input_batching_dims)",
                          toOperandAndBatching)) ||
      failed(check.inRange("(C21)", "scatter_dims_to_operand_dims", toOperand,
                           inputRank, "rank(inputs[0])")))
    return failure();
  // (C4)
  SmallVector<int64_t> scatterSizes = batchSizes(indices, ivd);
  int64_t expectedRank = scatterSizes.size() + windowDims.size();
  if (updates0.getRank() != expectedRank)
    return check.error("(C4)")
           << "rank(updates[0]) = " << updates0.getRank() << " must be "
           << expectedRank << " (scatter dims plus update_window_dims)";
  SmallVector<int64_t> windowBounds;
  for (int64_t d = 0; d < inputRank; ++d)
    if (!llvm::is_contained(insertedAndBatching, d))
      windowBounds.push_back(input0.getDimSize(d));
  size_t scatterIndex = 0, windowIndex = 0;
  for (int64_t d = 0; d < updates0.getRank(); ++d) {
    int64_t have = updates0.getDimSize(d);
    if (llvm::is_contained(windowDims, d)) {
      int64_t bound = windowBounds[windowIndex++];
      if (!ShapedType::isDynamic(have) && !ShapedType::isDynamic(bound) &&
          have > bound)
        return check.error("(C4)")
               << "update window dimension " << d << " has size " << have
               << ", larger than the input's " << bound;
    } else {
      int64_t want = scatterSizes[scatterIndex++];
      if (!ShapedType::isDynamic(have) && !ShapedType::isDynamic(want) &&
          have != want)
        return check.error("(C4)")
               << "update scatter dimension " << d << " has size " << have
               << " but scatter_indices gives " << want;
    }
  }
  // (C23)
  Block &body = getUpdateComputation().front();
  if (body.getNumArguments() != 2 * n)
    return check.error("(C23)")
           << "'update_computation' takes " << body.getNumArguments()
           << " arguments; expected " << 2 * n
           << " (current values, then updates)";
  // The op is verified before its blocks: `body` may be empty or end in an
  // op that is no terminator (Block::getTerminator would read past it).
  auto yield = body.empty() ? YieldOp() : dyn_cast<YieldOp>(body.back());
  if (!yield || yield.getValues().size() != n)
    return check.error("(C23)") << "'update_computation' must end in a "
                                   "distruntime.yield of "
                                << n << " values";
  for (size_t i = 0; i < n; ++i) {
    Type input = cast<ShapedType>(getInputs()[i].getType()).getElementType();
    Type element = body.getArgument(i).getType();
    if (body.getArgument(n + i).getType() != element ||
        yield.getValues()[i].getType() != element)
      return check.error("(C23)")
             << "'update_computation' must have type (E0..E" << n - 1
             << ", E0..E" << n - 1 << ") -> (E0..E" << n - 1 << "); E" << i
             << " is " << element << " but argument #" << n + i << " is "
             << body.getArgument(n + i).getType() << " and yield value #" << i
             << " is " << yield.getValues()[i].getType();
    if (!isPromotable(input, element))
      return check.error("(C23)")
             << "'update_computation' computes operand " << i << " in "
             << element << ", which input #" << i << "'s element type " << input
             << " does not promote to";
  }
  return success();
}
