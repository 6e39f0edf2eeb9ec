//===- DistRuntimeOps.cpp - DistRuntime operations and verifiers ----------===//

#include "distruntime/Dialect/DistRuntime/IR/DistRuntimeOps.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/STLExtras.h"

#include <array>

using namespace mlir;
using namespace mlir::distruntime;

/// `async` marks an op issued asynchronously: it then has an
/// !distruntime.async_handle result.
static ParseResult parseAsync(OpAsmParser &parser, Type &handleType) {
  if (succeeded(parser.parseOptionalKeyword("async")))
    handleType = AsyncHandleType::get(parser.getContext());
  return success();
}

static void printAsync(OpAsmPrinter &printer, Operation *, Type handleType) {
  if (handleType)
    printer << "async";
}

/// ragged_all_to_all's four size operands, each after its keyword:
/// `input_offsets(%a : T) send_sizes(%b : T) output_offsets(%c : T)
/// recv_sizes(%d : T)`, then `async` if the op is.
static constexpr std::array<StringRef, 4> kRaggedSizeNames{
    "input_offsets", "send_sizes", "output_offsets", "recv_sizes"};

static ParseResult
parseRaggedSizes(OpAsmParser &parser,
                 SmallVectorImpl<OpAsmParser::UnresolvedOperand> &sizes,
                 SmallVectorImpl<Type> &types, Type &handleType) {
  for (StringRef name : kRaggedSizeNames)
    if (parser.parseKeyword(name) || parser.parseLParen() ||
        parser.parseOperand(sizes.emplace_back()) || parser.parseColon() ||
        parser.parseType(types.emplace_back()) || parser.parseRParen())
      return failure();
  return parseAsync(parser, handleType);
}

static void printRaggedSizes(OpAsmPrinter &printer, Operation *,
                             OperandRange sizes, TypeRange types,
                             Type handleType) {
  for (auto [k, size] : llvm::enumerate(sizes))
    printer << (k ? " " : "")
            << (k < kRaggedSizeNames.size() ? kRaggedSizeNames[k] : "sizes")
            << "(" << size << " : " << types[k] << ")";
  if (handleType)
    printer << " async";
}

/// all_to_all_v's counts given as operands (this member's rows), if they
/// are: `send_counts(%s : T) recv_counts(%r : T)`, then `async` if the op
/// is.
static ParseResult
parseCountRows(OpAsmParser &parser,
               SmallVectorImpl<OpAsmParser::UnresolvedOperand> &counts,
               SmallVectorImpl<Type> &types, Type &handleType) {
  if (succeeded(parser.parseOptionalKeyword("send_counts")))
    for (StringRef name : {"", "recv_counts"})
      if ((!name.empty() && parser.parseKeyword(name)) ||
          parser.parseLParen() || parser.parseOperand(counts.emplace_back()) ||
          parser.parseColon() || parser.parseType(types.emplace_back()) ||
          parser.parseRParen())
        return failure();
  return parseAsync(parser, handleType);
}

static void printCountRows(OpAsmPrinter &printer, Operation *,
                           OperandRange counts, TypeRange types,
                           Type handleType) {
  static constexpr StringRef kNames[] = {"send_counts", "recv_counts"};
  for (auto [k, count] : llvm::enumerate(counts))
    printer << (k ? " " : "") << (k < 2 ? kNames[k] : "counts") << "(" << count
            << " : " << types[k] << ")";
  if (handleType)
    printer << (counts.empty() ? "async" : " async");
}

/// update_halo's split axes: one bracketed list of grid axes per dimension,
/// `[[0], [], [1, 2]]`.
static ParseResult parseSplitAxes(OpAsmParser &parser, ArrayAttr &splitAxes) {
  SmallVector<Attribute> lists;
  auto parseList = [&]() -> ParseResult {
    SmallVector<int64_t> axes;
    if (parser.parseCommaSeparatedList(
            AsmParser::Delimiter::Square, [&]() -> ParseResult {
              return parser.parseInteger(axes.emplace_back());
            }))
      return failure();
    lists.push_back(DenseI64ArrayAttr::get(parser.getContext(), axes));
    return success();
  };
  if (parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, parseList))
    return failure();
  splitAxes = ArrayAttr::get(parser.getContext(), lists);
  return success();
}

static void printSplitAxes(OpAsmPrinter &printer, Operation *,
                           ArrayAttr splitAxes) {
  printer << '[';
  llvm::interleaveComma(splitAxes, printer, [&](Attribute axes) {
    printer << '[';
    llvm::interleaveComma(cast<DenseI64ArrayAttr>(axes).asArrayRef(), printer);
    printer << ']';
  });
  printer << ']';
}

/// update_halo's halo sizes: upstream's dynamic index list, with the type of
/// each value (index or i64), `[1, %w : index, 0, 2]`.
static ParseResult
parseHaloSizes(OpAsmParser &parser,
               SmallVectorImpl<OpAsmParser::UnresolvedOperand> &values,
               DenseI64ArrayAttr &integers, SmallVectorImpl<Type> &types) {
  return parseDynamicIndexList(parser, values, integers, &types);
}

static void printHaloSizes(OpAsmPrinter &printer, Operation *op,
                           OperandRange values, ArrayRef<int64_t> integers,
                           TypeRange types) {
  printDynamicIndexList(printer, op, values, integers, types);
}

/// update_halo's block type; on a tensor it is also the result type (the
/// updated tensor).
static ParseResult parseBlockType(OpAsmParser &parser, Type &blockType,
                                  Type &resultType) {
  if (parser.parseType(blockType))
    return failure();
  if (isa<RankedTensorType>(blockType))
    resultType = blockType;
  return success();
}

static void printBlockType(OpAsmPrinter &printer, Operation *, Type blockType,
                           Type) {
  printer << blockType;
}

#include "distruntime/Dialect/DistRuntime/IR/DistRuntimeInterfaces.cpp.inc"

#define GET_OP_CLASSES
#include "distruntime/Dialect/DistRuntime/IR/DistRuntimeOps.cpp.inc"

//===----------------------------------------------------------------------===//
// CommunicatingOpInterface
//===----------------------------------------------------------------------===//

void mlir::distruntime::detail::getEffectBuffers(
    Operation *op, SmallVectorImpl<Value> &reads,
    SmallVectorImpl<Value> &writes) {
  auto iface = dyn_cast<MemoryEffectOpInterface>(op);
  if (!iface)
    return;
  SmallVector<MemoryEffects::EffectInstance> effects;
  iface.getEffects(effects);
  for (const MemoryEffects::EffectInstance &effect : effects) {
    Value value = effect.getValue();
    if (!value || !isa<BaseMemRefType>(value.getType()) ||
        isa<MemoryEffects::Allocate>(effect.getEffect()))
      continue;
    bool isWrite = !isa<MemoryEffects::Read>(effect.getEffect());
    SmallVectorImpl<Value> &into = isWrite ? writes : reads;
    if (!llvm::is_contained(into, value))
      into.push_back(value);
  }
  llvm::erase_if(
      reads, [&](Value value) { return llvm::is_contained(writes, value); });
}

//===----------------------------------------------------------------------===//
// WaitOp
//===----------------------------------------------------------------------===//

LogicalResult WaitOp::verify() {
  // A handle owns its MPI requests; a second wait would complete nothing and
  // touch freed state, so reject two waits that one path may run: any two
  // but those in regions of which one runs (the sides of an scf.if).
  SmallVector<Operation *> waits;
  for (Operation *user : getHandle().getUsers())
    if (isa<WaitOp>(user))
      waits.push_back(user);
  for (auto [i, a] : llvm::enumerate(waits))
    for (Operation *b : ArrayRef(waits).drop_front(i + 1))
      if (!insideMutuallyExclusiveRegions(a, b))
        return emitOpError("async handle is waited ")
               << waits.size()
               << " times on one path; each handle must be waited exactly "
                  "once";
  return success();
}

//===----------------------------------------------------------------------===//
// AllReduceOp
//===----------------------------------------------------------------------===//

bool mlir::distruntime::isPromotable(Type from, Type to) {
  if (from == to)
    return true;
  if (from.isInteger(1) || to.isInteger(1) ||
      isa<FloatType>(from) != isa<FloatType>(to))
    return false;
  return from.getIntOrFloatBitWidth() <= to.getIntOrFloatBitWidth();
}

LogicalResult mlir::distruntime::verifyReductionElementType(
    Operation *op, ReductionKind kind, Type elementType, const Twine &operand) {
  switch (kind) {
  case ReductionKind::And:
  case ReductionKind::Or:
  case ReductionKind::Xor:
  case ReductionKind::UMin:
  case ReductionKind::UMax:
    if (!elementType.isInteger())
      return op->emitOpError("reduction '")
             << stringifyReductionKind(kind) << "' needs integer elements, but "
             << operand << " has element type " << elementType;
    return success();
  case ReductionKind::Minimum:
  case ReductionKind::Maximum:
  case ReductionKind::MinNum:
  case ReductionKind::MaxNum:
    if (!isa<FloatType>(elementType))
      return op->emitOpError("reduction '")
             << stringifyReductionKind(kind)
             << "' needs floating-point elements, but " << operand
             << " has element type " << elementType;
    return success();
  default:
    return success();
  }
}

LogicalResult mlir::distruntime::verifyReproducibility(
    Operation *op, ReductionKind kind, Type elementType,
    std::optional<Reproducibility> level, const Twine &operand) {
  if (level == Reproducibility::Exact && kind == ReductionKind::Prod &&
      isa<FloatType>(elementType))
    return op->emitOpError("reproducibility 'exact' rounds sums only, but ")
           << operand << " of " << elementType
           << " is reduced by 'prod'; use 'ordered'";
  return success();
}

LogicalResult AllReduceOp::verify() {
  Type element = getData().getType().getElementType();
  if (failed(verifyReductionElementType(*this, getOp(), element, "'data'")))
    return failure();
  return verifyReproducibility(*this, getOp(), element, getReproducibility(),
                               "'data'");
}

//===----------------------------------------------------------------------===//
// GlobalReduceOp
//===----------------------------------------------------------------------===//

LogicalResult GlobalReduceOp::verify() {
  Type element = getData().getType().getElementType();
  if (element != getResult().getType())
    return emitOpError("result type ")
           << getResult().getType() << " must be the element type of 'data', "
           << element;
  if (element.isInteger(1))
    return emitOpError("needs elements wider than i1");
  ReductionKind kind = getOp();
  if (kind != ReductionKind::Sum && kind != ReductionKind::Prod &&
      kind != ReductionKind::Min && kind != ReductionKind::Max)
    return emitOpError("reduction '") << stringifyReductionKind(kind)
                                      << "' is not one of sum, prod, min, max";
  return verifyReproducibility(*this, kind, element, getReproducibility(),
                               "'data'");
}

//===----------------------------------------------------------------------===//
// GetHaloOp
//===----------------------------------------------------------------------===//

namespace {
/// The four index lists of get_halo, with their RFC names for diagnostics.
struct GeometryOperand {
  StringRef name;
  OperandRange values;
};
} // namespace

static SmallVector<GeometryOperand> getGeometry(GetHaloOp op) {
  return {{"gShape", op.getGShape()},
          {"lOffsets", op.getLOffsets()},
          {"bbOffsets", op.getBbOffsets()},
          {"bbSizes", op.getBbSizes()}};
}

SmallVector<int64_t> GetHaloOp::getStaticHaloShape(bool left) {
  auto localType = cast<ShapedType>(getLocal().getType());
  int64_t rank = localType.getRank();
  SmallVector<int64_t> shape(rank, ShapedType::kDynamic);
  for (int64_t d = 1; d < rank; ++d)
    if (auto size = getConstantIntValue(getBbSizes()[d]))
      shape[d] = *size;
  auto bbOffset = getConstantIntValue(getBbOffsets()[0]);
  auto bbSize = getConstantIntValue(getBbSizes()[0]);
  auto lOffset = getConstantIntValue(getLOffsets()[0]);
  if (!bbOffset || !bbSize || !lOffset || localType.isDynamicDim(0))
    return shape;
  int64_t bbEnd, lEnd;
  // Ends past int64 are left to the verifier's diagnostics: no shape then.
  if (__builtin_add_overflow(*bbOffset, *bbSize, &bbEnd) ||
      __builtin_add_overflow(*lOffset, localType.getDimSize(0), &lEnd))
    return shape;
  shape[0] = left ? std::max<int64_t>(0, std::min(bbEnd, *lOffset) - *bbOffset)
                  : std::max<int64_t>(0, bbEnd - std::max(*bbOffset, lEnd));
  return shape;
}

LogicalResult GetHaloOp::verify() {
  auto localType = cast<ShapedType>(getLocal().getType());
  int64_t rank = localType.getRank();
  if (rank < 1)
    return emitOpError("'local' must have rank >= 1: the array is "
                       "distributed along its first dimension");

  for (const GeometryOperand &g : getGeometry(*this))
    if (static_cast<int64_t>(g.values.size()) != rank)
      return emitOpError("expects one '")
             << g.name << "' value per dimension of 'local' (" << rank
             << "), but got " << g.values.size();

  for (auto [name, halo] : {std::pair<StringRef, Value>{"left", getLeft()},
                            {"right", getRight()}}) {
    auto haloType = cast<ShapedType>(halo.getType());
    if (isa<MemRefType>(haloType) != isa<MemRefType>(localType))
      return emitOpError("'")
             << name << "' halo must be a "
             << (isa<MemRefType>(localType) ? "memref" : "tensor")
             << " like 'local', but got " << haloType;
    if (haloType.getElementType() != localType.getElementType())
      return emitOpError("'")
             << name << "' halo element type " << haloType.getElementType()
             << " differs from the element type of 'local' "
             << localType.getElementType();
    if (haloType.getRank() != rank)
      return emitOpError("'")
             << name << "' halo has rank " << haloType.getRank()
             << " but 'local' has rank " << rank;
    if (auto memref = dyn_cast<MemRefType>(haloType);
        memref && !memref.getLayout().isIdentity())
      return emitOpError("'")
             << name << "' halo must have the identity layout, got " << memref;
    SmallVector<int64_t> expected = getStaticHaloShape(name == "left");
    for (int64_t d = 0; d < rank; ++d) {
      if (haloType.isDynamicDim(d) || ShapedType::isDynamic(expected[d]))
        continue;
      if (haloType.getDimSize(d) != expected[d])
        return emitOpError("'")
               << name << "' halo has size " << haloType.getDimSize(d)
               << " in dimension " << d << ", but the bounding box gives "
               << expected[d];
    }
  }

  for (int64_t d = 0; d < rank; ++d) {
    auto gSize = getConstantIntValue(getGShape()[d]);
    auto lOffset = getConstantIntValue(getLOffsets()[d]);
    auto bbOffset = getConstantIntValue(getBbOffsets()[d]);
    auto bbSize = getConstantIntValue(getBbSizes()[d]);
    for (auto [name, value] : {std::pair{"gShape", gSize},
                               {"lOffsets", lOffset},
                               {"bbOffsets", bbOffset},
                               {"bbSizes", bbSize}})
      if (value && *value < 0)
        return emitOpError("'")
               << name << "' is negative (" << *value << ") in dimension " << d;
    // [offset, offset + size) within [0, global): compared without the sum,
    // which may pass int64 (the message spells it as a wider integer).
    auto exceeds = [&](int64_t offset, int64_t size) {
      return offset > *gSize || size > *gSize - offset;
    };
    auto end = [](int64_t offset, int64_t size) {
      SmallString<24> text;
      (APInt(65, offset) + APInt(65, size)).toStringUnsigned(text);
      return std::string(text);
    };
    if (gSize && bbOffset && bbSize && exceeds(*bbOffset, *bbSize))
      return emitOpError("bounding box [")
             << *bbOffset << ", " << end(*bbOffset, *bbSize)
             << ") exceeds the global size " << *gSize << " in dimension " << d;
    if (gSize && lOffset && !localType.isDynamicDim(d) &&
        exceeds(*lOffset, localType.getDimSize(d)))
      return emitOpError("local block [")
             << *lOffset << ", " << end(*lOffset, localType.getDimSize(d))
             << ") exceeds the global size " << *gSize << " in dimension " << d;
    if (d == 0)
      continue;
    if (lOffset && *lOffset != 0)
      return emitOpError("the array is distributed along dimension 0 only, "
                         "but 'lOffsets' is ")
             << *lOffset << " in dimension " << d;
    if (gSize && !localType.isDynamicDim(d) &&
        localType.getDimSize(d) != *gSize)
      return emitOpError("the array is distributed along dimension 0 only, "
                         "but 'local' has size ")
             << localType.getDimSize(d) << " in dimension " << d
             << " where the global size is " << *gSize;
  }
  return success();
}

//===----------------------------------------------------------------------===//
// UpdateHaloOp
//===----------------------------------------------------------------------===//

void UpdateHaloOp::build(OpBuilder &odsBuilder, OperationState &odsState,
                         Value block, ArrayRef<int64_t> grid,
                         ArrayRef<SmallVector<int64_t>> splitAxes,
                         ArrayRef<OpFoldResult> haloSizes, int64_t team,
                         std::optional<int64_t> key, bool async) {
  SmallVector<Attribute> axes;
  for (ArrayRef<int64_t> list : splitAxes)
    axes.push_back(odsBuilder.getDenseI64ArrayAttr(list));
  SmallVector<int64_t> staticSizes;
  SmallVector<Value> dynamicSizes;
  dispatchIndexOpFoldResults(haloSizes, dynamicSizes, staticSizes);
  Type result =
      isa<RankedTensorType>(block.getType()) ? block.getType() : Type();
  Type handle = async ? AsyncHandleType::get(odsBuilder.getContext()) : Type();
  build(odsBuilder, odsState, result, handle, block, ValueRange(),
        odsBuilder.getDenseI64ArrayAttr(grid), odsBuilder.getArrayAttr(axes),
        dynamicSizes, odsBuilder.getDenseI64ArrayAttr(staticSizes),
        odsBuilder.getI64IntegerAttr(team),
        key ? odsBuilder.getI64IntegerAttr(*key) : IntegerAttr());
}

LogicalResult DimsCreateOp::verify() {
  if (getSizes().empty())
    return emitOpError("needs at least one result: one per grid axis");
  return success();
}

LogicalResult UpdateHaloOp::verify() {
  auto blockType = cast<ShapedType>(getBlock().getType());
  int64_t rank = blockType.getRank();
  if (rank < 1)
    return emitOpError("'block' must have rank >= 1");
  if (isa<RankedTensorType>(blockType) != (getResult() != nullptr))
    return emitOpError(isa<RankedTensorType>(blockType)
                           ? "on a tensor must return the updated tensor"
                           : "on a memref updates it in place and returns no "
                             "tensor");
  if (getResult() && getResult().getType() != blockType)
    return emitOpError("result type ")
           << getResult().getType() << " differs from the block type "
           << blockType;

  ArrayRef<int64_t> grid = getGrid();
  if (grid.empty())
    return emitOpError("needs a grid of at least one axis");
  if (failed(verifyListOfOperandsOrIntegers(*this, "grid", grid.size(), grid,
                                            getGridValues())))
    return failure();
  for (auto [axis, size] : llvm::enumerate(grid))
    if (!ShapedType::isDynamic(size) && size <= 0)
      return emitOpError("grid size ")
             << size << " of axis " << axis << " must be positive";

  ArrayAttr splitAxes = getSplitAxes();
  if (static_cast<int64_t>(splitAxes.size()) > rank)
    return emitOpError("has ")
           << splitAxes.size() << " 'split_axes' lists but 'block' has rank "
           << rank;
  SmallVector<int64_t> usedBy(grid.size(), -1);
  for (auto [d, list] : llvm::enumerate(splitAxes))
    for (int64_t axis : cast<DenseI64ArrayAttr>(list).asArrayRef()) {
      if (axis < 0 || axis >= static_cast<int64_t>(grid.size()))
        return emitOpError("grid axis ")
               << axis << " in 'split_axes' of dimension " << d
               << " is out of range [0, " << grid.size() << ")";
      if (usedBy[axis] >= 0)
        return emitOpError("grid axis ")
               << axis << " splits both dimension " << usedBy[axis]
               << " and dimension " << d;
      usedBy[axis] = d;
    }

  ArrayRef<int64_t> staticSizes = getStaticHaloSizes();
  if (static_cast<int64_t>(staticSizes.size()) != 2 * rank)
    return emitOpError("expects ")
           << 2 * rank << " 'halo_sizes' (a low and a high size for "
           << (rank == 1
                   ? "the 1 dimension"
                   : "each of the " + std::to_string(rank) + " dimensions")
           << " of 'block'), got " << staticSizes.size();
  if (failed(verifyListOfOperandsOrIntegers(*this, "halo_sizes", 2 * rank,
                                            staticSizes, getHaloSizes())))
    return failure();
  for (int64_t d = 0; d < rank; ++d) {
    int64_t lo = staticSizes[2 * d], hi = staticSizes[2 * d + 1];
    for (auto [side, size] : {std::pair{"lo", lo}, {"hi", hi}})
      if (!ShapedType::isDynamic(size) && size < 0)
        return emitOpError("halo size ")
               << side << " " << size << " of dimension " << d
               << " is negative";
    // Compared without the sum, which may pass int64.
    if (!ShapedType::isDynamic(lo) && !ShapedType::isDynamic(hi) &&
        !blockType.isDynamicDim(d) &&
        (lo > blockType.getDimSize(d) || hi > blockType.getDimSize(d) - lo))
      return emitOpError("halo sizes lo ")
             << lo << " and hi " << hi << " of dimension " << d
             << " exceed the block size " << blockType.getDimSize(d);
  }
  return success();
}
