//===- RuntimeAPI.cpp - libdistrt symbols as seen from the lowering -------===//

#include "distruntime/Conversion/RuntimeAPI/RuntimeAPI.h"

#include "distruntime/Runtime/distrt.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/SmallVectorExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/xxhash.h"

using namespace mlir;
using namespace mlir::distruntime;

namespace {
struct FunctionInfo {
  StringRef symbol;
  StringRef result;
  StringRef arguments;
};
} // namespace

static FunctionInfo getInfo(RuntimeFunction fn) {
  switch (fn) {
#define DISTRT_FUNCTION(Enum, symbol, result, arguments)                       \
  case RuntimeFunction::Enum:                                                  \
    return {#symbol, result, arguments};
#include "distruntime/Runtime/RuntimeFunctions.def"
  }
  llvm_unreachable("unknown runtime function");
}

namespace {
/// A parameter (or result) of a runtime function: one type code of
/// RuntimeFunctions.def.
enum class ParamKind {
  I64,              // l
  I32,              // i
  Pointer,          // p
  Groups,           // g: const distrt_groups_t *
  Table,            // t: const distrt_table_t *
  Site,             // s: distrt_site_t *
  Memref,           // m: (int64_t rank, void *descriptor)
  Operands,         // o: (int64_t n, distrt_operand_t operands[n])
  InputsAndOutputs, // O: (int64_t n, inputs[n], outputs[n])
  Void,             // v
};
} // namespace

/// The one reading of RuntimeFunctions.def's type codes.
static SmallVector<ParamKind> decodeParams(StringRef codes) {
  return llvm::map_to_vector(codes, [](char code) {
    switch (code) {
    case 'l':
      return ParamKind::I64;
    case 'i':
      return ParamKind::I32;
    case 'p':
      return ParamKind::Pointer;
    case 'g':
      return ParamKind::Groups;
    case 't':
      return ParamKind::Table;
    case 's':
      return ParamKind::Site;
    case 'm':
      return ParamKind::Memref;
    case 'o':
      return ParamKind::Operands;
    case 'O':
      return ParamKind::InputsAndOutputs;
    case 'v':
      return ParamKind::Void;
    default:
      llvm_unreachable("bad type code in RuntimeFunctions.def");
    }
  });
}

/// Expands the type codes of RuntimeFunctions.def into MLIR types.
static SmallVector<Type> decodeTypes(MLIRContext *ctx, StringRef codes) {
  Type i64 = IntegerType::get(ctx, 64);
  Type i32 = IntegerType::get(ctx, 32);
  Type ptr = LLVM::LLVMPointerType::get(ctx);
  SmallVector<Type> types;
  for (ParamKind kind : decodeParams(codes)) {
    switch (kind) {
    case ParamKind::I64:
      types.push_back(i64);
      break;
    case ParamKind::I32:
      types.push_back(i32);
      break;
    case ParamKind::Pointer:
    case ParamKind::Groups:
    case ParamKind::Table:
    case ParamKind::Site:
      types.push_back(ptr);
      break;
    case ParamKind::Memref:
    case ParamKind::Operands:
      types.append({i64, ptr});
      break;
    case ParamKind::InputsAndOutputs:
      types.append({i64, ptr, ptr});
      break;
    case ParamKind::Void:
      break;
    }
  }
  return types;
}

unsigned mlir::distruntime::getTableCount(RuntimeFunction fn) {
  return llvm::count(decodeParams(getInfo(fn).arguments), ParamKind::Table);
}

OperandLists mlir::distruntime::getOperandLists(RuntimeFunction fn) {
  for (ParamKind kind : decodeParams(getInfo(fn).arguments)) {
    if (kind == ParamKind::Operands)
      return OperandLists::One;
    if (kind == ParamKind::InputsAndOutputs)
      return OperandLists::InputsAndOutputs;
  }
  return OperandLists::None;
}

func::FuncOp mlir::distruntime::getOrInsertRuntimeFunction(OpBuilder &builder,
                                                           ModuleOp module,
                                                           RuntimeFunction fn) {
  FunctionInfo info = getInfo(fn);
  if (auto existing = module.lookupSymbol<func::FuncOp>(info.symbol))
    return existing;
  MLIRContext *ctx = module.getContext();
  auto type = FunctionType::get(ctx, decodeTypes(ctx, info.arguments),
                                decodeTypes(ctx, info.result));
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToStart(module.getBody());
  auto decl = func::FuncOp::create(builder, module.getLoc(), info.symbol, type);
  decl.setPrivate();
  return decl;
}

std::optional<int32_t> mlir::distruntime::getRuntimeTypeCode(Type type) {
  if (type.isF16())
    return DISTRT_F16;
  if (type.isBF16())
    return DISTRT_BF16;
  if (type.isF32())
    return DISTRT_F32;
  if (type.isF64())
    return DISTRT_F64;
  auto integer = dyn_cast<IntegerType>(type);
  if (!integer)
    return std::nullopt;
  bool isUnsigned = integer.isUnsigned();
  switch (integer.getWidth()) {
  case 1:
    return DISTRT_I1;
  case 8:
    return isUnsigned ? DISTRT_UI8 : DISTRT_I8;
  case 16:
    return isUnsigned ? DISTRT_UI16 : DISTRT_I16;
  case 32:
    return isUnsigned ? DISTRT_UI32 : DISTRT_I32;
  case 64:
    return isUnsigned ? DISTRT_UI64 : DISTRT_I64;
  default:
    return std::nullopt;
  }
}

/// "file:line:col" of the first file location inside `loc`, else its text.
static std::string formatLocation(Location loc) {
  std::string text;
  loc->walk([&](Location nested) {
    if (auto file = dyn_cast<FileLineColLoc>(nested)) {
      text = llvm::formatv("{0}:{1}:{2}", file.getFilename().getValue(),
                           file.getLine(), file.getColumn());
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  if (text.empty())
    llvm::raw_string_ostream(text) << loc;
  return text;
}

Value mlir::distruntime::getStringConstant(OpBuilder &builder, ModuleOp module,
                                           Location loc, StringRef text) {
  std::string name =
      llvm::formatv("__distrt_str_{0:x16}", llvm::xxh3_64bits(text));
  MLIRContext *ctx = module.getContext();
  if (!module.lookupSymbol<LLVM::GlobalOp>(name)) {
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToStart(module.getBody());
    std::string data = text.str() + '\0';
    auto arrayType =
        LLVM::LLVMArrayType::get(IntegerType::get(ctx, 8), data.size());
    LLVM::GlobalOp::create(builder, loc, arrayType, /*isConstant=*/true,
                           LLVM::Linkage::Internal, name,
                           builder.getStringAttr(data));
  }
  return LLVM::AddressOfOp::create(builder, loc,
                                   LLVM::LLVMPointerType::get(ctx), name);
}

Value mlir::distruntime::getLocationString(OpBuilder &builder, ModuleOp module,
                                           Location loc) {
  return getStringConstant(builder, module, loc, formatLocation(loc));
}

std::pair<Value, Value> mlir::distruntime::castToUnranked(OpBuilder &builder,
                                                          Location loc,
                                                          Value memref) {
  auto type = cast<MemRefType>(memref.getType());
  MLIRContext *ctx = builder.getContext();
  auto unrankedType =
      UnrankedMemRefType::get(type.getElementType(), type.getMemorySpace());
  Value unranked = memref::CastOp::create(builder, loc, unrankedType, memref);
  // finalize-memref-to-llvm turns the unranked memref into this struct; the
  // cast folds away in reconcile-unrealized-casts.
  auto structType = LLVM::LLVMStructType::getLiteral(
      ctx, {IntegerType::get(ctx, 64), LLVM::LLVMPointerType::get(ctx)});
  Value descriptor =
      UnrealizedConversionCastOp::create(builder, loc, structType, unranked)
          .getResult(0);
  Value rank = LLVM::ExtractValueOp::create(builder, loc, descriptor, 0);
  Value pointer = LLVM::ExtractValueOp::create(builder, loc, descriptor, 1);
  return {rank, pointer};
}

/// A constant global `name` of type [values.size() x i64] holding `values`,
/// at the builder's insertion point.
static void createI64Array(OpBuilder &builder, Location loc, StringRef name,
                           ArrayRef<int64_t> values) {
  auto size = static_cast<int64_t>(values.size());
  auto table = DenseIntElementsAttr::get(
      RankedTensorType::get({size}, builder.getI64Type()), values);
  LLVM::GlobalOp::create(
      builder, loc, LLVM::LLVMArrayType::get(builder.getI64Type(), size),
      /*isConstant=*/true, LLVM::Linkage::Internal, name, table);
}

Value mlir::distruntime::getGroupsDescriptor(OpBuilder &builder,
                                             ModuleOp module, Location loc,
                                             int32_t mode, int64_t numReplicas,
                                             int64_t numPartitions,
                                             DenseIntElementsAttr ids) {
  MLIRContext *ctx = module.getContext();
  Type i32 = IntegerType::get(ctx, 32), i64 = IntegerType::get(ctx, 64);
  Type ptr = LLVM::LLVMPointerType::get(ctx);
  auto structType = LLVM::LLVMStructType::getLiteral(
      ctx, {i32, i64, i64, i64, i64, ptr, i64});
  int64_t numGroups = ids.getType().getDimSize(0);
  int64_t groupSize = ids.getType().getDimSize(1);
  SmallVector<int64_t> flat;
  if (ids.empty())
    numGroups = groupSize = 0;
  else
    flat = llvm::to_vector(ids.getValues<int64_t>());
  // Ragged groups (all_reduce): -1 is no process, anywhere in a group. The
  // runtime's table has each group's ids first, then -1 to the width of the
  // longest group; a group of only -1 is dropped (the verifier made sure one
  // remains).
  if (llvm::is_contained(flat, -1)) {
    SmallVector<SmallVector<int64_t>> rows;
    int64_t width = 0;
    for (int64_t g = 0; g < numGroups; ++g) {
      SmallVector<int64_t> row;
      for (int64_t id : ArrayRef(flat).slice(g * groupSize, groupSize))
        if (id != -1)
          row.push_back(id);
      if (row.empty())
        continue;
      width = std::max(width, static_cast<int64_t>(row.size()));
      rows.push_back(std::move(row));
    }
    flat.clear();
    for (SmallVector<int64_t> &row : rows) {
      row.resize(width, -1);
      llvm::append_range(flat, row);
    }
    numGroups = static_cast<int64_t>(rows.size());
    groupSize = width;
  }

  // Name by content, so identical layouts share one descriptor.
  std::string key = llvm::formatv("{0},{1},{2},{3},{4}:", mode, numReplicas,
                                  numPartitions, numGroups, groupSize);
  for (int64_t id : flat)
    key += std::to_string(id) + ",";
  uint64_t hash = llvm::xxh3_64bits(key);
  std::string name = llvm::formatv("__distrt_groups_{0:x16}", hash);
  std::string idsName = llvm::formatv("__distrt_ids_{0:x16}", hash);

  if (!module.lookupSymbol<LLVM::GlobalOp>(name)) {
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToStart(module.getBody());
    if (numGroups > 0)
      createI64Array(builder, loc, idsName, flat);
    auto global = LLVM::GlobalOp::create(
        builder, loc, structType,
        /*isConstant=*/true, LLVM::Linkage::Internal, name, Attribute());
    builder.createBlock(&global.getInitializerRegion());
    Value value = LLVM::UndefOp::create(builder, loc, structType);
    auto field = [&](Value v, int64_t position) {
      value = LLVM::InsertValueOp::create(builder, loc, value, v,
                                          ArrayRef<int64_t>{position});
    };
    field(LLVM::ConstantOp::create(builder, loc, i32, mode), 0);
    int64_t position = 1;
    for (int64_t v : {numReplicas, numPartitions, numGroups, groupSize})
      field(LLVM::ConstantOp::create(builder, loc, i64, v), position++);
    Value table =
        numGroups > 0
            ? LLVM::AddressOfOp::create(builder, loc, ptr, idsName).getResult()
            : LLVM::ZeroOp::create(builder, loc, ptr).getResult();
    field(table, 5);
    field(LLVM::ConstantOp::create(builder, loc, i64, 0), 6);
    LLVM::ReturnOp::create(builder, loc, value);
  }
  return LLVM::AddressOfOp::create(builder, loc, ptr, name);
}

/// A pointer to `value` (an LLVM struct) stored on the stack: the call's
/// descriptors of run-time data. Inside a memref.alloca_scope.
static Value storeOnStack(OpBuilder &builder, Location loc, Value value) {
  Type i64 = builder.getI64Type();
  Value pointer = LLVM::AllocaOp::create(
      builder, loc, LLVM::LLVMPointerType::get(builder.getContext()),
      value.getType(), LLVM::ConstantOp::create(builder, loc, i64, 1));
  LLVM::StoreOp::create(builder, loc, value, pointer);
  return pointer;
}

Value mlir::distruntime::createGroupsFromTable(OpBuilder &builder, Location loc,
                                               int32_t mode,
                                               int64_t numReplicas,
                                               int64_t numPartitions,
                                               Value table) {
  MLIRContext *ctx = builder.getContext();
  Type i32 = builder.getI32Type(), i64 = builder.getI64Type();
  Type ptr = LLVM::LLVMPointerType::get(ctx);
  auto structType = LLVM::LLVMStructType::getLiteral(
      ctx, {i32, i64, i64, i64, i64, ptr, i64});
  auto dim = [&](int64_t d) -> Value {
    return arith::IndexCastOp::create(
        builder, loc, i64, memref::DimOp::create(builder, loc, table, d));
  };
  // A dense identity-layout buffer: its ids start at the aligned pointer.
  Value address =
      memref::ExtractAlignedPointerAsIndexOp::create(builder, loc, table);
  Value ids = LLVM::IntToPtrOp::create(
      builder, loc, ptr,
      arith::IndexCastOp::create(builder, loc, i64, address).getResult());
  Value value = LLVM::UndefOp::create(builder, loc, structType);
  int64_t position = 0;
  for (Value field :
       {LLVM::ConstantOp::create(builder, loc, i32, mode).getResult(),
        LLVM::ConstantOp::create(builder, loc, i64, numReplicas).getResult(),
        LLVM::ConstantOp::create(builder, loc, i64, numPartitions).getResult(),
        dim(0), dim(1), ids,
        LLVM::ConstantOp::create(builder, loc, i64, DISTRT_GROUPS_RUNTIME)
            .getResult()})
    value = LLVM::InsertValueOp::create(builder, loc, value, field,
                                        ArrayRef<int64_t>{position++});
  return storeOnStack(builder, loc, value);
}

Value mlir::distruntime::getTableDescriptor(OpBuilder &builder, ModuleOp module,
                                            Location loc,
                                            ArrayRef<int64_t> values) {
  MLIRContext *ctx = module.getContext();
  Type i64 = IntegerType::get(ctx, 64), ptr = LLVM::LLVMPointerType::get(ctx);
  auto structType = LLVM::LLVMStructType::getLiteral(ctx, {i64, ptr});
  // Name by content, so equal tables share one descriptor.
  std::string key = "table:";
  for (int64_t v : values)
    key += std::to_string(v) + ",";
  uint64_t hash = llvm::xxh3_64bits(key);
  std::string name = llvm::formatv("__distrt_table_{0:x16}", hash);
  std::string valuesName = llvm::formatv("__distrt_table_values_{0:x16}", hash);
  if (!module.lookupSymbol<LLVM::GlobalOp>(name)) {
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToStart(module.getBody());
    if (!values.empty())
      createI64Array(builder, loc, valuesName, values);
    auto global = LLVM::GlobalOp::create(
        builder, loc, structType,
        /*isConstant=*/true, LLVM::Linkage::Internal, name, Attribute());
    builder.createBlock(&global.getInitializerRegion());
    Value size = LLVM::ConstantOp::create(builder, loc, i64,
                                          static_cast<int64_t>(values.size()));
    Value data = values.empty()
                     ? LLVM::ZeroOp::create(builder, loc, ptr).getResult()
                     : LLVM::AddressOfOp::create(builder, loc, ptr, valuesName)
                           .getResult();
    Value value = LLVM::UndefOp::create(builder, loc, structType);
    value = LLVM::InsertValueOp::create(builder, loc, value, size,
                                        ArrayRef<int64_t>{0});
    value = LLVM::InsertValueOp::create(builder, loc, value, data,
                                        ArrayRef<int64_t>{1});
    LLVM::ReturnOp::create(builder, loc, value);
  }
  return LLVM::AddressOfOp::create(builder, loc, ptr, name);
}

/// Element `index` (an index value) of the 1-D integer `memref`, as i64.
static Value loadAsI64(OpBuilder &builder, Location loc, Value memref,
                       ValueRange indices) {
  Type i64 = builder.getI64Type();
  Value value = memref::LoadOp::create(builder, loc, memref, indices);
  if (value.getType().isIndex())
    return arith::IndexCastOp::create(builder, loc, i64, value);
  if (value.getType() != i64)
    return arith::ExtSIOp::create(builder, loc, i64, value);
  return value;
}

Value mlir::distruntime::createMemrefTable(OpBuilder &builder, Location loc,
                                           Value memref) {
  auto type = cast<MemRefType>(memref.getType());
  assert(type.getRank() == 1 && "a 1-D table");
  MLIRContext *ctx = builder.getContext();
  Type i64 = builder.getI64Type(), ptr = LLVM::LLVMPointerType::get(ctx);
  Value size, values;
  if (!type.isDynamicDim(0)) {
    // A few values, known in number: loads unrolled.
    int64_t count = type.getDimSize(0);
    values = LLVM::AllocaOp::create(
        builder, loc, ptr, i64,
        LLVM::ConstantOp::create(builder, loc, i64,
                                 std::max<int64_t>(count, 1)));
    for (int64_t k = 0; k < count; ++k) {
      Value index = arith::ConstantIndexOp::create(builder, loc, k);
      Value value = loadAsI64(builder, loc, memref, index);
      Value slot =
          LLVM::GEPOp::create(builder, loc, ptr, i64, values,
                              ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(k)});
      LLVM::StoreOp::create(builder, loc, value, slot);
    }
  } else {
    // A size known at run time: the table points at the buffer, a dense
    // i64 one (asDenseI64Table), which outlives the call.
    assert(type.getElementType().isInteger(64) &&
           type.getLayout().isIdentity() &&
           "a dynamic table is a dense i64 buffer");
    size = arith::IndexCastOp::create(
        builder, loc, i64, memref::DimOp::create(builder, loc, memref, 0));
    Value address =
        memref::ExtractAlignedPointerAsIndexOp::create(builder, loc, memref);
    values = LLVM::IntToPtrOp::create(
        builder, loc, ptr,
        arith::IndexCastOp::create(builder, loc, i64, address).getResult());
  }
  auto structType = LLVM::LLVMStructType::getLiteral(ctx, {i64, ptr});
  Value table = LLVM::UndefOp::create(builder, loc, structType);
  if (!size)
    size = LLVM::ConstantOp::create(builder, loc, i64, type.getDimSize(0));
  table = LLVM::InsertValueOp::create(builder, loc, table, size,
                                      ArrayRef<int64_t>{0});
  table = LLVM::InsertValueOp::create(builder, loc, table, values,
                                      ArrayRef<int64_t>{1});
  return storeOnStack(builder, loc, table);
}

/// Whether `memref` is a dense i64 buffer, read in place by the runtime.
static bool isDenseI64(MemRefType type) {
  return type.getElementType().isInteger(64) && type.getLayout().isIdentity();
}

/// A new dense i64 buffer of `memref`'s shape (memref.alloc, which the
/// caller frees) holding its values sign-extended, filled by a loop nest.
static Value copyAsDenseI64(OpBuilder &builder, Location loc, Value memref) {
  auto type = cast<MemRefType>(memref.getType());
  Value zero = arith::ConstantIndexOp::create(builder, loc, 0);
  Value one = arith::ConstantIndexOp::create(builder, loc, 1);
  SmallVector<Value> sizes;
  for (int64_t d = 0; d < type.getRank(); ++d)
    sizes.push_back(memref::DimOp::create(builder, loc, memref, d));
  SmallVector<Value> zeros(sizes.size(), zero), ones(sizes.size(), one);
  Value copy = memref::AllocOp::create(
      builder, loc,
      MemRefType::get(SmallVector<int64_t>(sizes.size(), ShapedType::kDynamic),
                      builder.getI64Type()),
      sizes);
  scf::buildLoopNest(builder, loc, zeros, sizes, ones,
                     [&](OpBuilder &b, Location at, ValueRange indices) {
                       memref::StoreOp::create(
                           b, at, loadAsI64(b, at, memref, indices), copy,
                           indices);
                     });
  return copy;
}

Value mlir::distruntime::asDenseI64Table(OpBuilder &builder, Location loc,
                                         Value memref) {
  auto type = cast<MemRefType>(memref.getType());
  if (!type.isDynamicDim(0) || isDenseI64(type))
    return {};
  return copyAsDenseI64(builder, loc, memref);
}

Value mlir::distruntime::asDenseGroupTable(OpBuilder &builder, Location loc,
                                           Value memref) {
  if (isDenseI64(cast<MemRefType>(memref.getType())))
    return {};
  return copyAsDenseI64(builder, loc, memref);
}

Value mlir::distruntime::createSite(OpBuilder &builder, ModuleOp module,
                                    Location loc, StringRef opName,
                                    ValueRange memrefs, bool proven,
                                    bool paramsVary) {
  MLIRContext *ctx = module.getContext();
  Type i64 = IntegerType::get(ctx, 64), ptr = LLVM::LLVMPointerType::get(ctx);
  auto structType = LLVM::LLVMStructType::getLiteral(ctx, {i64, ptr, ptr});
  // Named after the op, numbered in the order the ops are lowered.
  std::string base = ("__distrt_site_" + opName).str();
  std::string name = base;
  for (int k = 1; module.lookupSymbol(name); ++k)
    name = llvm::formatv("{0}_{1}", base, k);

  {
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToStart(module.getBody());
    auto global = LLVM::GlobalOp::create(
        builder, loc, structType,
        /*isConstant=*/false, LLVM::Linkage::Internal, name, Attribute());
    builder.createBlock(&global.getInitializerRegion());
    Value value = LLVM::ZeroOp::create(builder, loc, structType);
    uint64_t bits = (paramsVary ? 0 : getSiteFlags(memrefs)) |
                    (proven ? DISTRT_SITE_PROVEN : 0);
    Value flags =
        LLVM::ConstantOp::create(builder, loc, i64, static_cast<int64_t>(bits));
    value = LLVM::InsertValueOp::create(builder, loc, value, flags,
                                        ArrayRef<int64_t>{0});
    LLVM::ReturnOp::create(builder, loc, value);
  }
  return LLVM::AddressOfOp::create(builder, loc, ptr, name);
}

uint64_t mlir::distruntime::getSiteFlags(ValueRange memrefs) {
  // The memref types fix every descriptor word but the pointers.
  for (Value memref : memrefs) {
    auto type = dyn_cast<MemRefType>(memref.getType());
    SmallVector<int64_t> strides;
    int64_t offset;
    if (!type || !type.hasStaticShape() ||
        failed(type.getStridesAndOffset(strides, offset)) ||
        ShapedType::isDynamic(offset) ||
        llvm::any_of(strides, ShapedType::isDynamic))
      return 0;
  }
  return DISTRT_SITE_STATIC;
}

Value mlir::distruntime::packOperands(OpBuilder &builder, Location loc,
                                      ValueRange memrefs) {
  MLIRContext *ctx = builder.getContext();
  Type i64 = builder.getI64Type();
  Type ptr = LLVM::LLVMPointerType::get(ctx);
  if (memrefs.empty())
    return LLVM::ZeroOp::create(builder, loc, ptr);
  auto operandType = LLVM::LLVMStructType::getLiteral(ctx, {i64, ptr, i64});
  Value count = LLVM::ConstantOp::create(builder, loc, i64,
                                         static_cast<int64_t>(memrefs.size()));
  Value array = LLVM::AllocaOp::create(builder, loc, ptr, operandType, count);
  for (auto [i, memref] : llvm::enumerate(memrefs)) {
    auto [rank, descriptor] = castToUnranked(builder, loc, memref);
    auto dtype =
        getRuntimeTypeCode(cast<MemRefType>(memref.getType()).getElementType());
    assert(dtype && "element type checked by the verifier");
    Value operand = LLVM::UndefOp::create(builder, loc, operandType);
    Value dtypeValue = LLVM::ConstantOp::create(builder, loc, i64, *dtype);
    Value fields[] = {rank, descriptor, dtypeValue};
    for (auto [position, field] : llvm::enumerate(fields))
      operand = LLVM::InsertValueOp::create(
          builder, loc, operand, field,
          ArrayRef<int64_t>{static_cast<int64_t>(position)});
    Value slot =
        LLVM::GEPOp::create(builder, loc, ptr, operandType, array,
                            ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(i)});
    LLVM::StoreOp::create(builder, loc, operand, slot);
  }
  return array;
}

void mlir::distruntime::createRuntimeCheck(OpBuilder &b, Location loc,
                                           arith::CmpIPredicate pred,
                                           Value have, Value want,
                                           StringRef opName, StringRef what) {
  Value failed =
      arith::CmpIOp::create(b, loc, arith::invertPredicate(pred), have, want);
  auto check = scf::IfOp::create(b, loc, failed, /*withElseRegion=*/false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(check.thenBlock());
  auto module = check->getParentOfType<ModuleOp>();
  auto callee =
      getOrInsertRuntimeFunction(b, module, RuntimeFunction::CheckFailed);
  Type i64 = b.getI64Type();
  func::CallOp::create(b, loc, callee,
                       ValueRange{getStringConstant(b, module, loc, opName),
                                  getStringConstant(b, module, loc, what),
                                  arith::IndexCastOp::create(b, loc, i64, have),
                                  arith::IndexCastOp::create(b, loc, i64, want),
                                  getLocationString(b, module, loc)});
}
