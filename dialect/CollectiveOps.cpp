//===- CollectiveOps.cpp - Verifiers of the StableHLO-style collectives ---===//
//
// Each (Cn) constraint of the seeds (and of StableHLO's spec for
// reduce_scatter, collective_permute and collective_broadcast's newer
// has_dynamic_root form) is checked here; the constraint is named next to its
// check. Shapes are checked where they are static (with a group size known
// only at run time, they must fit some group size); the runtime checks the
// rest.
//
//===----------------------------------------------------------------------===//

#include "DiagnosticUtils.h"

#include "distruntime/Dialect/DistRuntime/IR/DistRuntimeOps.h"
#include "distruntime/Dialect/DistRuntime/IR/ProcessGroups.h"

#include "mlir/IR/Matchers.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::distruntime;

//===----------------------------------------------------------------------===//
// Shared checks
//===----------------------------------------------------------------------===//

namespace {
/// The inputs and the results (tensor form) or outputs (memref form).
struct Form {
  SmallVector<ShapedType> inputs;
  SmallVector<ShapedType> results;
  bool outs = false;

  /// Result k as the user wrote it: a tensor result or an `outs` memref.
  std::string resultName(size_t k) const {
    return (outs ? "output #" + Twine(k) + " (outs)" : "result #" + Twine(k))
        .str();
  }
};
} // namespace

/// The groups are the attribute or the table read at run time, one of them:
/// a 2-D i64 tensor or memref of the op's form; pairs have two columns.
static LogicalResult verifyGroupTable(CollectiveOpInterface op,
                                      bool memrefForm) {
  bool pairs = isa<SendOp, RecvOp, CollectivePermuteOp>(op);
  StringRef name = pairs ? "source_target_pairs" : "replica_groups";
  Value table = op.getGroupTable();
  if (!table == !op.getGroupIds())
    return op.emitOpError("takes '")
           << name << "' as an attribute or as an operand `" << name
           << "(%table : ...)`, " << (table ? "not both" : "but has neither");
  if (!table)
    return success();
  auto type = cast<ShapedType>(table.getType());
  bool memref = isa<MemRefType>(type);
  if (memref != memrefForm)
    return op.emitOpError("'")
           << name << "' is a " << (memref ? "memref" : "tensor")
           << " but the op is in " << (memrefForm ? "memref" : "tensor")
           << " form; use one form";
  if (type.getRank() != 2 || !type.getElementType().isInteger(64))
    return op.emitOpError("'")
           << name << "' must be a 2-D i64 " << (memref ? "memref" : "tensor")
           << " (a row per " << (pairs ? "pair" : "group") << "), got " << type;
  if (pairs && !type.isDynamicDim(1) && type.getDimSize(1) != 2)
    return op.emitOpError("'source_target_pairs' must have shape [n, 2], got ")
           << type;
  return success();
}

/// Checks that the op is consistently in tensor or in memref form and returns
/// its (input, result) types.
/// With `paired` false the numbers of inputs and results are the op's to
/// check (ragged_all_to_all's tensor form reads its output's initial value).
static FailureOr<Form> verifyForm(CollectiveOpInterface op, bool takesInputs,
                                  bool givesResults, bool paired = true) {
  Form form;
  bool tensorIn = false, memrefIn = false;
  for (Value v : op.getInputs()) {
    auto type = cast<ShapedType>(v.getType());
    (isa<MemRefType>(type) ? memrefIn : tensorIn) = true;
    form.inputs.push_back(type);
  }
  for (Value v : op.getOutputs())
    form.results.push_back(cast<ShapedType>(v.getType()));
  form.outs = !op.getOutputs().empty();
  for (Value v : op.getResults())
    form.results.push_back(cast<ShapedType>(v.getType()));
  if (tensorIn && memrefIn)
    return op.emitOpError("mixes tensor and memref inputs; use one form");
  if (!op.getOutputs().empty() && !op.getResults().empty())
    return op.emitOpError("has both 'outs' memrefs and tensor results; use "
                          "one form");
  if (tensorIn && !op.getOutputs().empty())
    return op.emitOpError("has tensor inputs, so it returns tensor results "
                          "instead of writing 'outs' memrefs");
  if (memrefIn && !op.getResults().empty())
    return op.emitOpError("has memref inputs, so it writes 'outs' memrefs "
                          "instead of returning tensors");
  if (failed(verifyGroupTable(op, memrefIn || form.outs)))
    return failure();
  if (!takesInputs && !form.inputs.empty())
    return op.emitOpError("takes no inputs");
  if (!givesResults && !form.results.empty())
    return op.emitOpError("produces no results");
  if (takesInputs && form.inputs.empty())
    return op.emitOpError("needs at least one input");
  if (givesResults && form.results.empty())
    return op.emitOpError("needs at least one result or output");
  if (paired && takesInputs && givesResults &&
      form.inputs.size() != form.results.size())
    return op.emitOpError("has ")
           << form.inputs.size() << " inputs but " << form.results.size()
           << (op.getOutputs().empty() ? " results" : " outputs");
  // Sizes the runtime computes in int64: elements and bytes must fit.
  auto tooLarge = [](ShapedType type) {
    int64_t bytes = (type.getElementTypeBitWidth() + 7) / 8;
    for (int64_t d : type.getShape())
      if (!ShapedType::isDynamic(d) && __builtin_mul_overflow(bytes, d, &bytes))
        return true;
    return false;
  };
  for (auto [k, type] : llvm::enumerate(form.inputs))
    if (tooLarge(type))
      return op.emitOpError("input #")
             << k << " of shape " << shapeString(type.getShape())
             << " has more bytes than an int64 counts";
  for (auto [k, type] : llvm::enumerate(form.results))
    if (tooLarge(type))
      return op.emitOpError() << form.resultName(k) << " of shape "
                              << shapeString(type.getShape())
                              << " has more bytes than an int64 counts";
  return form;
}

/// What scaled() gives for a size whose product does not fit an int64.
static constexpr int64_t kOverflowedSize = -2;

static int64_t scaled(int64_t size, std::optional<int64_t> factor,
                      bool divide) {
  if (ShapedType::isDynamic(size) || !factor)
    return ShapedType::kDynamic;
  if (divide)
    return size / *factor;
  int64_t product;
  return __builtin_mul_overflow(size, *factor, &product) ? kOverflowedSize
                                                         : product;
}

/// (C6)-style: result k has the element type of input k (or `element`, the
/// type a reduction computes in, if given) and the shape `expected(input k)`
/// where both are static.
static LogicalResult
verifyResultTypes(Operation *op, const Form &form,
                  llvm::function_ref<SmallVector<int64_t>(ShapedType)> expected,
                  Type element = {}) {
  for (auto [k, in, out] : llvm::enumerate(form.inputs, form.results)) {
    std::string name = form.resultName(k);
    if (element && out.getElementType() != element)
      return op->emitOpError()
             << name << " has element type " << out.getElementType()
             << " but 'computation' reduces " << element;
    if (!element && in.getElementType() != out.getElementType())
      return op->emitOpError()
             << name << " has element type " << out.getElementType()
             << " but input #" << k << " has " << in.getElementType();
    if (in.getRank() != out.getRank())
      return op->emitOpError()
             << name << " has rank " << out.getRank() << " but input #" << k
             << " has rank " << in.getRank();
    SmallVector<int64_t> shape = expected(in);
    if (llvm::is_contained(shape, kOverflowedSize))
      return op->emitOpError("input #")
             << k << " of shape " << shapeString(in.getShape()) << " gives "
             << name << " a dimension larger than an int64 counts";
    for (auto [want, have] : llvm::zip(shape, out.getShape()))
      if (!ShapedType::isDynamic(want) && !ShapedType::isDynamic(have) &&
          want != have)
        return op->emitOpError()
               << name << " has shape " << shapeString(out.getShape())
               << " but input #" << k << " of shape "
               << shapeString(in.getShape()) << " gives " << shapeString(shape);
  }
  return success();
}

/// all_gather (result = k x input) and reduce_scatter (input = k x result)
/// along `dim`, for a group size k known only at run time: the static sizes
/// must still fit one k >= 1, the same for every input. Runs after
/// verifyResultTypes, which checked the ranks.
static LogicalResult verifyAnyGroupSize(Operation *op, const Form &form,
                                        StringRef dimName, int64_t dim,
                                        bool gather) {
  std::optional<int64_t> group;
  size_t groupFrom = 0;
  auto names = [&](size_t k) {
    std::string in = "input #" + std::to_string(k);
    std::string out = form.resultName(k);
    return gather ? std::pair{out, in} : std::pair{in, out};
  };
  for (auto [k, in, out] : llvm::enumerate(form.inputs, form.results)) {
    int64_t whole = (gather ? out : in).getDimSize(dim);
    int64_t part = (gather ? in : out).getDimSize(dim);
    if (ShapedType::isDynamic(whole) || ShapedType::isDynamic(part))
      continue;
    auto [wholeName, partName] = names(k);
    if (part == 0 ? whole != 0 : whole == 0 || whole % part != 0)
      return op->emitOpError() << wholeName << " has size " << whole << " in '"
                               << dimName << "' " << dim << ", but " << partName
                               << " has size " << part << " there: " << whole
                               << " is not " << part << " times any group size";
    // A size 0 fits every group size.
    if (part == 0)
      continue;
    if (group && *group != whole / part) {
      auto [firstWhole, firstPart] = names(groupFrom);
      return op->emitOpError()
             << wholeName << " has size " << whole << " in '" << dimName << "' "
             << dim << " and " << partName << " has size " << part
             << " there, a group size of " << whole / part << ", but "
             << firstWhole << " and " << firstPart << " give a group size of "
             << *group;
    }
    group = whole / part;
    groupFrom = k;
  }
  return success();
}

/// A dimension attribute in [0, rank) for every input.
static LogicalResult verifyDimension(Operation *op, StringRef name, int64_t dim,
                                     const Form &form) {
  for (auto [k, in] : llvm::enumerate(form.inputs))
    if (dim < 0 || dim >= in.getRank())
      return op->emitOpError("'")
             << name << "' " << dim << " is out of range [0, " << in.getRank()
             << ") of input #" << k;
  return success();
}

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

std::optional<ReductionKind>
mlir::distruntime::matchReductionRegion(Region &region) {
  if (!region.hasOneBlock())
    return std::nullopt;
  Block &block = region.front();
  if (block.getNumArguments() != 2 || block.getOperations().size() != 2)
    return std::nullopt;
  Operation &body = block.front();
  auto yield = dyn_cast<YieldOp>(block.getTerminator());
  if (!yield || yield.getValues().size() != 1 || body.getNumResults() != 1 ||
      yield.getValues()[0] != body.getResult(0) || body.getNumOperands() != 2)
    return std::nullopt;
  Value a = block.getArgument(0), b = block.getArgument(1);
  if (!((body.getOperand(0) == a && body.getOperand(1) == b) ||
        (body.getOperand(0) == b && body.getOperand(1) == a)))
    return std::nullopt;
  // Signless integers: minsi/maxsi are min/max, minui/maxui umin/umax. On
  // i1 (true is -1 when signed) minsi is `or` and maxsi `and`.
  bool isI1 = a.getType().isInteger(1);
  return llvm::TypeSwitch<Operation *, std::optional<ReductionKind>>(&body)
      .Case<arith::AddIOp, arith::AddFOp>(
          [](auto) { return ReductionKind::Sum; })
      .Case<arith::MulIOp, arith::MulFOp>(
          [](auto) { return ReductionKind::Prod; })
      .Case<arith::MinimumFOp>([](auto) { return ReductionKind::Minimum; })
      .Case<arith::MaximumFOp>([](auto) { return ReductionKind::Maximum; })
      .Case<arith::MinNumFOp>([](auto) { return ReductionKind::MinNum; })
      .Case<arith::MaxNumFOp>([](auto) { return ReductionKind::MaxNum; })
      .Case<arith::MinSIOp>(
          [&](auto) { return isI1 ? ReductionKind::Or : ReductionKind::Min; })
      .Case<arith::MaxSIOp>(
          [&](auto) { return isI1 ? ReductionKind::And : ReductionKind::Max; })
      .Case<arith::MinUIOp>([](auto) { return ReductionKind::UMin; })
      .Case<arith::MaxUIOp>([](auto) { return ReductionKind::UMax; })
      .Case<arith::AndIOp>([](auto) { return ReductionKind::And; })
      .Case<arith::OrIOp>([](auto) { return ReductionKind::Or; })
      .Case<arith::XOrIOp>([](auto) { return ReductionKind::Xor; })
      .Default([](Operation *) { return std::nullopt; });
}

/// (C5)/(C7) of all_reduce and reduce_scatter: exactly one of `reduction`
/// and `computation`; the region is (E, E) -> E with every input's element
/// type promotable to E, and a body the runtime implements.
template <typename Op>
static LogicalResult verifyReduction(Op op, const Form &form) {
  Region &region = op.getComputation();
  std::optional<ReductionKind> attr = op.getReduction();
  if (attr && !region.empty())
    return op.emitOpError("takes a 'reduction' attribute or a 'computation' "
                          "region, not both");
  if (!attr && region.empty())
    return op.emitOpError("needs a 'reduction' attribute or a 'computation' "
                          "region");
  if (!region.empty()) {
    if (!region.hasOneBlock() || region.front().getNumArguments() != 2 ||
        region.front().getArgument(0).getType() !=
            region.front().getArgument(1).getType())
      return op.emitOpError("'computation' must have one block with two "
                            "arguments of the element type");
    Type element = region.front().getArgument(0).getType();
    for (auto [k, in] : llvm::enumerate(form.inputs))
      if (!isPromotable(in.getElementType(), element))
        return op.emitOpError("'computation' reduces ")
               << element << " but input #" << k << " has element type "
               << in.getElementType() << ", which does not promote to it";
    std::optional<ReductionKind> kind = matchReductionRegion(region);
    if (!kind)
      return op.emitOpError(
          "'computation' must yield a single arith add, mul, min, max, and, or "
          "or xor of its two arguments");
    // The region's own element type decides which reductions exist.
    if (failed(verifyReductionElementType(op, *kind, element, "'computation'")))
      return failure();
    return verifyReproducibility(op, *kind, element, op.getReproducibility(),
                                 "'computation'");
  }
  for (auto [k, in] : llvm::enumerate(form.inputs))
    if (failed(verifyReductionElementType(op, *attr, in.getElementType(),
                                          "input #" + Twine(k))) ||
        failed(verifyReproducibility(op, *attr, in.getElementType(),
                                     op.getReproducibility(),
                                     "input #" + Twine(k))))
      return failure();
  return success();
}

/// (C5) of all_gather, (C4) of all_reduce, (C6) of reduce_scatter.
static LogicalResult verifyGlobalIds(Operation *op, bool useGlobalDeviceIds,
                                     int64_t channelId) {
  if (useGlobalDeviceIds && channelId <= 0)
    return op->emitOpError("'use_global_device_ids' needs 'channel_id' > 0, "
                           "got ")
           << channelId;
  return success();
}

//===----------------------------------------------------------------------===//
// all_gather
//===----------------------------------------------------------------------===//

LogicalResult AllGatherOp::verify() {
  FailureOr<Form> form = verifyForm(*this, true, true);
  if (failed(form))
    return failure();
  int64_t dim = getAllGatherDim();
  ProcessGrid grid = getProcessGrid(*this);
  GroupMode mode = getGroupMode();
  // (C1), (C5), (C2)-(C4), (C6).
  if (failed(verifyDimension(*this, "all_gather_dim", dim, *form)) ||
      failed(verifyGlobalIds(*this, getUseGlobalDeviceIds(), getChannelId())) ||
      failed(verifyGroups(*this, "replica_groups", getGroupIds(), mode, grid,
                          /*boundBySize=*/true, /*requireCover=*/true)))
    return failure();
  std::optional<int64_t> members = getGroupSize(getGroupIds(), mode, grid);
  if (failed(verifyResultTypes(*this, *form, [&](ShapedType in) {
        SmallVector<int64_t> shape(in.getShape());
        shape[dim] = scaled(shape[dim], members, /*divide=*/false);
        return shape;
      })))
    return failure();
  if (members)
    return success();
  return verifyAnyGroupSize(*this, *form, "all_gather_dim", dim,
                            /*gather=*/true);
}

//===----------------------------------------------------------------------===//
// all_reduce
//===----------------------------------------------------------------------===//

LogicalResult AllReduceGroupOp::verify() {
  FailureOr<Form> form = verifyForm(*this, true, true);
  if (failed(form))
    return failure();
  ProcessGrid grid = getProcessGrid(*this);
  GroupMode mode = getGroupMode();
  // (C1)-(C3), (C4), (C5), (C6)-(C7). Groups may have different sizes,
  // padded with -1 (StableHLO's verifier: allGroupsMustHaveSameSize false).
  if (failed(verifyGroups(*this, "replica_groups", getGroupIds(), mode, grid,
                          /*boundBySize=*/true, /*requireCover=*/true,
                          /*allowPadding=*/true)) ||
      failed(verifyGlobalIds(*this, getUseGlobalDeviceIds(), getChannelId())) ||
      failed(verifyReduction(*this, *form)))
    return failure();
  return verifyResultTypes(
      *this, *form,
      [](ShapedType in) { return SmallVector<int64_t>(in.getShape()); },
      getReductionElementType());
}

//===----------------------------------------------------------------------===//
// all_to_all
//===----------------------------------------------------------------------===//

LogicalResult AllToAllOp::verify() {
  FailureOr<Form> form = verifyForm(*this, true, true);
  if (failed(form))
    return failure();
  int64_t split = getSplitDimension(), concat = getConcatDimension();
  // Without split_count, the group's size (known at run time).
  std::optional<int64_t> count;
  if (std::optional<uint64_t> given = getSplitCount())
    count = static_cast<int64_t>(*given);
  // (C1), (C3), (C4).
  if (failed(verifyDimension(*this, "split_dimension", split, *form)) ||
      failed(verifyDimension(*this, "concat_dimension", concat, *form)))
    return failure();
  if (count && *count <= 0)
    return emitOpError("'split_count' must be positive, got ") << *count;
  // (C5)-(C7), (C8).
  ProcessGrid grid = getProcessGrid(*this);
  GroupMode mode = getGroupMode();
  if (failed(verifyGroups(*this, "replica_groups", getGroupIds(), mode, grid,
                          /*boundBySize=*/true, /*requireCover=*/true)))
    return failure();
  std::optional<int64_t> members = getGroupSize(getGroupIds(), mode, grid);
  if (count && members && *members != *count)
    return emitOpError("'split_count' ")
           << *count << " differs from the group size " << *members;
  // (C2), with the group size where split_count is left to it.
  std::optional<int64_t> factor = count ? count : members;
  for (auto [k, in] : llvm::enumerate(form->inputs))
    if (factor && !in.isDynamicDim(split) && in.getDimSize(split) % *factor)
      return emitOpError("input #")
             << k << " has size " << in.getDimSize(split)
             << " in 'split_dimension' " << split << ", which "
             << (count ? "'split_count' " : "the group size ") << *factor
             << " does not divide";
  // (C9).
  return verifyResultTypes(*this, *form, [&](ShapedType in) {
    SmallVector<int64_t> shape(in.getShape());
    shape[split] = scaled(shape[split], factor, /*divide=*/true);
    shape[concat] = scaled(shape[concat], factor, /*divide=*/false);
    return shape;
  });
}

//===----------------------------------------------------------------------===//
// all_to_all_v
//===----------------------------------------------------------------------===//

/// Tables each member passes as operands (its own values, read when the op
/// runs: all_to_all_v's count rows, ragged_all_to_all's sizes), named
/// `names`: as many as names, in the op's form (`memrefs`), of one element
/// type, 1-D of one length, G where the group size G is known; constants
/// not negative. Returns each one's values where constant.
static FailureOr<SmallVector<std::optional<SmallVector<int64_t>>>>
verifyMemberTables(Operation *op, ValueRange tables,
                   ArrayRef<StringLiteral> names, bool memrefs,
                   std::optional<int64_t> members) {
  if (tables.size() != names.size()) {
    InFlightDiagnostic diag = op->emitOpError("needs ")
                              << names.size() << " table operands (";
    llvm::interleaveComma(names, diag);
    return diag << "), got " << tables.size();
  }
  auto first = cast<ShapedType>(tables[0].getType());
  std::optional<int64_t> count;
  StringRef countFrom;
  for (auto [name, value] : llvm::zip(names, tables)) {
    auto type = cast<ShapedType>(value.getType());
    if (isa<MemRefType>(type) != memrefs)
      return op->emitOpError("'")
             << name << "' is a " << (memrefs ? "tensor" : "memref")
             << " but the op is in " << (memrefs ? "memref" : "tensor")
             << " form; use one form";
    if (type.getElementType() != first.getElementType())
      return op->emitOpError("'")
             << name << "' has element type " << type.getElementType()
             << " but '" << names[0] << "' has " << first.getElementType()
             << "; the " << names.size() << " have one type";
    if (type.isDynamicDim(0))
      continue;
    if (count && *count != type.getDimSize(0))
      return op->emitOpError("'")
             << name << "' has " << type.getDimSize(0) << " values but '"
             << countFrom << "' has " << *count
             << "; each has one per group member";
    if (!count)
      countFrom = name;
    count = type.getDimSize(0);
  }
  if (count && members && *count != *members)
    return op->emitOpError("'")
           << countFrom << "' has " << *count << " values but the groups have "
           << *members << " members; it needs one per member";
  SmallVector<std::optional<SmallVector<int64_t>>> constants;
  for (auto [name, value] : llvm::zip(names, tables)) {
    DenseIntElementsAttr values;
    if (!matchPattern(value, m_Constant(&values))) {
      constants.emplace_back();
      continue;
    }
    SmallVector<int64_t> &ints = constants.emplace_back().emplace();
    for (auto [j, v] : llvm::enumerate(values.getValues<APInt>())) {
      ints.push_back(v.getSExtValue());
      if (ints.back() < 0)
        return op->emitOpError("'") << name << "' has a negative value "
                                    << ints.back() << " at index " << j;
    }
  }
  return constants;
}

/// A count table: G x G with G >= 1 the group size (where it is known),
/// no negative count.
static LogicalResult verifyCountTable(Operation *op, StringRef name,
                                      DenseIntElementsAttr table,
                                      std::optional<int64_t> members) {
  int64_t rows = table.getType().getDimSize(0);
  int64_t cols = table.getType().getDimSize(1);
  if (rows != cols || rows == 0)
    return op->emitOpError("'")
           << name << "' has shape " << rows << "x" << cols
           << "; it needs a row and a column per group member";
  if (members && rows != *members)
    return op->emitOpError("'") << name << "' is " << rows << "x" << cols
                                << " but the group size is " << *members;
  for (auto [at, count] : llvm::enumerate(table.getValues<int64_t>()))
    if (count < 0)
      return op->emitOpError("'")
             << name << "' has a negative count " << count << " at ["
             << at / rows << ", " << at % rows << "]";
  return success();
}

/// The sum of a table's row, saturated at INT64_MAX (counts are not
/// negative).
static int64_t rowSum(ArrayRef<int64_t> table, int64_t row, int64_t size) {
  int64_t sum = 0;
  for (int64_t count : table.slice(row * size, size))
    if (__builtin_add_overflow(sum, count, &sum))
      return INT64_MAX;
  return sum;
}

LogicalResult AllToAllVOp::verify() {
  FailureOr<Form> form = verifyForm(*this, true, true);
  if (failed(form))
    return failure();
  for (auto [k, in] : llvm::enumerate(form->inputs))
    if (in.getRank() == 0)
      return emitOpError("input #")
             << k << " has rank 0, but all_to_all_v exchanges rows "
             << "(dimension 0)";
  ProcessGrid grid = getProcessGrid(*this);
  GroupMode mode = getGroupMode();
  if (failed(verifyGroups(*this, "replica_groups", getGroupIds(), mode, grid,
                          /*boundBySize=*/true, /*requireCover=*/true)))
    return failure();
  std::optional<int64_t> members = getGroupSize(getGroupIds(), mode, grid);
  bool tables = getSendCounts() || getRecvCounts();
  if (!getCounts().empty()) {
    // This member's rows, read when the op runs.
    static constexpr StringLiteral kNames[] = {"send_counts", "recv_counts"};
    if (tables)
      return emitOpError("has both count tables (attributes) and count "
                         "operands; use one form");
    FailureOr<SmallVector<std::optional<SmallVector<int64_t>>>> rows =
        verifyMemberTables(*this, getCounts(), kNames, !getOutputs().empty(),
                           members);
    if (failed(rows))
      return failure();
    return verifyResultTypes(*this, *form, [](ShapedType in) {
      SmallVector<int64_t> shape(in.getShape());
      shape[0] = ShapedType::kDynamic;
      return shape;
    });
  }
  if (!getSendCounts() || !getRecvCounts())
    return emitOpError("needs its counts: 'send_counts' and 'recv_counts' "
                       "tables (attributes, every member's rows), or this "
                       "member's rows as operands: send_counts(%s : T) "
                       "recv_counts(%r : T)");
  if (failed(
          verifyCountTable(*this, "send_counts", *getSendCounts(), members)) ||
      failed(verifyCountTable(*this, "recv_counts", *getRecvCounts(), members)))
    return failure();
  int64_t size = getSendCounts()->getType().getDimSize(0);
  if (getRecvCounts()->getType().getDimSize(0) != size)
    return emitOpError("'send_counts' is ")
           << size << "x" << size << " but 'recv_counts' is "
           << getRecvCounts()->getType().getDimSize(0) << "x"
           << getRecvCounts()->getType().getDimSize(0);
  // What member j sends member i is what i receives from j.
  SmallVector<int64_t> send =
      llvm::to_vector(getSendCounts()->getValues<int64_t>());
  SmallVector<int64_t> recv =
      llvm::to_vector(getRecvCounts()->getValues<int64_t>());
  for (int64_t i = 0; i < size; ++i)
    for (int64_t j = 0; j < size; ++j)
      if (recv[i * size + j] != send[j * size + i])
        return emitOpError("'recv_counts' [")
               << i << ", " << j << "] is " << recv[i * size + j]
               << " but 'send_counts' [" << j << ", " << i << "] is "
               << send[j * size + i] << ": member " << i
               << " receives from member " << j << " what " << j << " sends it";
  // The results keep the inputs' shape but in dimension 0.
  if (failed(verifyResultTypes(*this, *form, [](ShapedType in) {
        SmallVector<int64_t> shape(in.getShape());
        shape[0] = ShapedType::kDynamic;
        return shape;
      })))
    return failure();
  // Every member's rows fit its buffers (of one type on every process).
  for (int64_t i = 0; i < size; ++i) {
    int64_t sent = rowSum(send, i, size), received = rowSum(recv, i, size);
    for (auto [k, in, out] : llvm::enumerate(form->inputs, form->results)) {
      if (!in.isDynamicDim(0) && sent > in.getDimSize(0))
        return emitOpError("member ")
               << i << " sends " << sent << " rows in all ('send_counts' row "
               << i << ") but input #" << k << " has " << in.getDimSize(0);
      if (!out.isDynamicDim(0) && received > out.getDimSize(0))
        return emitOpError("member ")
               << i << " receives " << received
               << " rows in all ('recv_counts' row " << i << ") but "
               << form->resultName(k) << " has " << out.getDimSize(0);
    }
  }
  return success();
}

//===----------------------------------------------------------------------===//
// ragged_all_to_all
//===----------------------------------------------------------------------===//

/// The operands: `input` and `output` (tensor form: the two inputs, and the
/// result of the output's type; memref form: the input and the `outs`).
static LogicalResult verifyRaggedForm(RaggedAllToAllOp op, const Form &form) {
  bool tensors = op.getOutputs().empty();
  size_t inputs = tensors ? 2 : 1;
  if (form.inputs.size() != inputs || form.results.size() != 1)
    return tensors
               ? op.emitOpError("on tensors takes two inputs (input, output) "
                                "and returns one result, got ")
                     << form.inputs.size() << " inputs and "
                     << form.results.size() << " results"
               : op.emitOpError("on memrefs reads one input and updates one "
                                "output (outs), got ")
                     << form.inputs.size() << " inputs and "
                     << form.results.size() << " outputs";
  ShapedType in = form.inputs[0],
             out = tensors ? form.inputs[1] : form.results[0];
  StringRef outName = tensors ? "input #1 (output)" : "output #0 (outs)";
  if (tensors && form.results[0] != out)
    return op.emitOpError("result #0 has type ")
           << form.results[0] << " but the output it updates has type " << out;
  if (in.getElementType() != out.getElementType())
    return op.emitOpError()
           << outName << " has element type " << out.getElementType()
           << " but input #0 has " << in.getElementType();
  if (in.getRank() == 0)
    return op.emitOpError("input #0 has rank 0, but ragged_all_to_all "
                          "exchanges rows (dimension 0)");
  if (in.getRank() != out.getRank())
    return op.emitOpError() << outName << " has rank " << out.getRank()
                            << " but input #0 has rank " << in.getRank();
  for (int64_t d = 1; d < in.getRank(); ++d)
    if (!in.isDynamicDim(d) && !out.isDynamicDim(d) &&
        in.getDimSize(d) != out.getDimSize(d))
      return op.emitOpError()
             << outName << " has shape " << shapeString(out.getShape())
             << " but input #0 has " << shapeString(in.getShape())
             << ": rows are exchanged whole, so they must agree past "
                "dimension 0";
  return success();
}

/// The four sizes; the sent rows within a static input where constant.
static LogicalResult verifyRaggedSizes(RaggedAllToAllOp op, const Form &form,
                                       std::optional<int64_t> members) {
  static constexpr StringLiteral kNames[] = {"input_offsets", "send_sizes",
                                             "output_offsets", "recv_sizes"};
  FailureOr<SmallVector<std::optional<SmallVector<int64_t>>>> constants =
      verifyMemberTables(op, op.getSizes(), kNames, !op.getOutputs().empty(),
                         members);
  if (failed(constants))
    return failure();
  const auto &offsets = (*constants)[0], &sizes = (*constants)[1];
  int64_t rows = form.inputs[0].getDimSize(0);
  if (offsets && sizes && !ShapedType::isDynamic(rows))
    for (auto [j, offset, size] : llvm::enumerate(*offsets, *sizes))
      if (offset > rows || size > rows - offset)
        return op.emitOpError("sends rows [")
               << offset << ", " << offset + size << ") to member " << j
               << " ('input_offsets' and 'send_sizes' at " << j
               << ") but input #0 has " << rows << " rows";
  return success();
}

LogicalResult RaggedAllToAllOp::verify() {
  FailureOr<Form> form = verifyForm(*this, true, true, /*paired=*/false);
  if (failed(form) || failed(verifyRaggedForm(*this, *form)))
    return failure();
  ProcessGrid grid = getProcessGrid(*this);
  GroupMode mode = getGroupMode();
  if (failed(verifyGroups(*this, "replica_groups", getGroupIds(), mode, grid,
                          /*boundBySize=*/true, /*requireCover=*/true)))
    return failure();
  return verifyRaggedSizes(*this, *form,
                           getGroupSize(getGroupIds(), mode, grid));
}

//===----------------------------------------------------------------------===//
// reduce_scatter
//===----------------------------------------------------------------------===//

LogicalResult ReduceScatterOp::verify() {
  FailureOr<Form> form = verifyForm(*this, true, true);
  if (failed(form))
    return failure();
  int64_t dim = getScatterDimension();
  ProcessGrid grid = getProcessGrid(*this);
  GroupMode mode = getGroupMode();
  // (C2), (C3)-(C5), (C6), (C7).
  if (failed(verifyDimension(*this, "scatter_dimension", dim, *form)) ||
      failed(verifyGroups(*this, "replica_groups", getGroupIds(), mode, grid,
                          /*boundBySize=*/true, /*requireCover=*/true)) ||
      failed(verifyGlobalIds(*this, getUseGlobalDeviceIds(), getChannelId())) ||
      failed(verifyReduction(*this, *form)))
    return failure();
  // (C1).
  std::optional<int64_t> members = getGroupSize(getGroupIds(), mode, grid);
  for (auto [k, in] : llvm::enumerate(form->inputs))
    if (members && !in.isDynamicDim(dim) && in.getDimSize(dim) % *members != 0)
      return emitOpError("input #")
             << k << " has size " << in.getDimSize(dim)
             << " in 'scatter_dimension' " << dim << ", which the group size "
             << *members << " does not divide";
  // (C8), (C9).
  if (failed(verifyResultTypes(
          *this, *form,
          [&](ShapedType in) {
            SmallVector<int64_t> shape(in.getShape());
            shape[dim] = scaled(shape[dim], members, /*divide=*/true);
            return shape;
          },
          getReductionElementType())))
    return failure();
  if (members)
    return success();
  return verifyAnyGroupSize(*this, *form, "scatter_dimension", dim,
                            /*gather=*/false);
}

//===----------------------------------------------------------------------===//
// collective_broadcast
//===----------------------------------------------------------------------===//

/// StableHLO's (C4) and (C6) with has_dynamic_root: one i32 root index per
/// input, of the inputs' form; a constant one is a position in the groups.
static LogicalResult verifyRoots(CollectiveBroadcastOp op, const Form &form) {
  Value roots = op.getRoots();
  if (!roots)
    return success();
  auto type = cast<ShapedType>(roots.getType());
  bool memref = isa<MemRefType>(type);
  StringRef kind = memref ? "memref" : "tensor";
  if (memref != isa<MemRefType>(form.inputs.front()))
    return op.emitOpError("'roots' is a ")
           << kind << " but the inputs are " << (memref ? "tensors" : "memrefs")
           << "; use one form";
  if (type.getRank() != 1 || !type.getElementType().isSignlessInteger(32))
    return op.emitOpError("'roots' must be a 1-D i32 ")
           << kind << " (a root index per input), got " << type;
  auto inputs = static_cast<int64_t>(form.inputs.size());
  if (type.isDynamicDim(0))
    return op.emitOpError("'roots' has a dynamic size, but it needs one root "
                          "index per input: ")
           << inputs;
  if (type.getDimSize(0) != inputs)
    return op.emitOpError("'roots' has ")
           << type.getDimSize(0) << " elements but the op has " << inputs
           << " inputs: it needs one root index per input";
  // (C6), where the roots are a constant; the runtime checks the others.
  DenseIntElementsAttr values;
  if (!matchPattern(roots, m_Constant(&values)))
    return success();
  std::optional<int64_t> members =
      getGroupSize(op.getGroupIds(), op.getGroupMode(), getProcessGrid(op));
  for (auto [k, value] : llvm::enumerate(values.getValues<APInt>())) {
    int64_t root = value.getSExtValue();
    if (root < 0)
      return op.emitOpError("root index ")
             << root << " of input #" << k << " is negative";
    if (members && root >= *members)
      return op.emitOpError("root index ")
             << root << " of input #" << k << " is out of range [0, "
             << *members << "): the groups have " << *members << " members";
  }
  return success();
}

LogicalResult CollectiveBroadcastOp::verify() {
  // (C4): with has_dynamic_root, some input besides the roots.
  if (hasDynamicRoot() && getInputs().empty())
    return emitOpError("has 'roots' but no inputs: a dynamic root needs at "
                       "least one input to broadcast");
  // (C3), (C5).
  FailureOr<Form> form = verifyForm(*this, true, true);
  if (failed(form))
    return failure();
  // (C1), (C2), (C4), (C6).
  if (failed(verifyGroups(*this, "replica_groups", getGroupIds(),
                          getGroupMode(), getProcessGrid(*this),
                          /*boundBySize=*/false, /*requireCover=*/false)) ||
      failed(verifyRoots(*this, *form)))
    return failure();
  // (C3), (C4).
  return verifyResultTypes(*this, *form, [](ShapedType in) {
    return SmallVector<int64_t>(in.getShape());
  });
}

//===----------------------------------------------------------------------===//
// collective_permute
//===----------------------------------------------------------------------===//

LogicalResult CollectivePermuteOp::verify() {
  FailureOr<Form> form = verifyForm(*this, true, true);
  if (failed(form))
    return failure();
  // (C1)-(C4), (C5).
  if (failed(verifyPairs(*this, getGroupIds(), getGroupMode(),
                         getProcessGrid(*this))))
    return failure();
  return verifyResultTypes(*this, *form, [](ShapedType in) {
    return SmallVector<int64_t>(in.getShape());
  });
}

//===----------------------------------------------------------------------===//
// send / recv
//===----------------------------------------------------------------------===//

/// (C5): channel_type follows is_host_transfer. The seed names
/// device_to_host for both ops; host_to_device is accepted for recv, as in
/// StableHLO.
template <typename Op> static LogicalResult verifyChannel(Op op, bool isRecv) {
  if (failed(verifyPairs(op, op.getGroupIds(), op.getGroupMode(),
                         getProcessGrid(op))))
    return failure();
  std::optional<ChannelType> type = op.getChannelType();
  if (!type)
    return success();
  bool host = op.getIsHostTransfer();
  bool ok = host ? (*type == ChannelType::DeviceToHost ||
                    (isRecv && *type == ChannelType::HostToDevice))
                 : *type == ChannelType::DeviceToDevice;
  if (!ok)
    return op.emitOpError("'channel_type' ")
           << stringifyChannelType(*type)
           << " contradicts 'is_host_transfer' = " << (host ? "true" : "false")
           << " (expected "
           << (host ? (isRecv ? "device_to_host or host_to_device"
                              : "device_to_host")
                    : "device_to_device")
           << ")";
  return success();
}

LogicalResult SendOp::verify() {
  if (failed(verifyForm(*this, /*takesInputs=*/true, /*givesResults=*/false)))
    return failure();
  return verifyChannel(*this, /*isRecv=*/false);
}

LogicalResult RecvOp::verify() {
  FailureOr<Form> form = verifyForm(*this, false, true);
  if (failed(form))
    return failure();
  for (auto [k, result] : llvm::enumerate(getResults()))
    if (!cast<ShapedType>(result.getType()).hasStaticShape())
      return emitOpError("tensor result #")
             << k << " needs a static shape: the sender decides the data, "
             << "the receiver allocates it";
  return verifyChannel(*this, /*isRecv=*/true);
}
