//===- RuntimeAPI.cpp - libdistrt symbols as seen from the lowering -------===//

#include "RuntimeAPI.h"

#include "distruntime/Runtime/distrt.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
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

/// Expands the type codes of RuntimeFunctions.def into MLIR types.
static SmallVector<Type> decodeTypes(MLIRContext *ctx, StringRef codes) {
  Type i64 = IntegerType::get(ctx, 64);
  Type i32 = IntegerType::get(ctx, 32);
  Type ptr = LLVM::LLVMPointerType::get(ctx);
  SmallVector<Type> types;
  for (char c : codes) {
    switch (c) {
    case 'l':
      types.push_back(i64);
      break;
    case 'i':
      types.push_back(i32);
      break;
    case 'p':
      types.push_back(ptr);
      break;
    case 'm':
      types.append({i64, ptr});
      break;
    case 'v':
      break;
    default:
      llvm_unreachable("bad type code in RuntimeFunctions.def");
    }
  }
  return types;
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

Value mlir::distruntime::getLocationString(OpBuilder &builder, ModuleOp module,
                                           Location loc) {
  std::string text = formatLocation(loc);
  std::string name =
      llvm::formatv("__distrt_loc_{0:x16}", llvm::xxh3_64bits(text));
  MLIRContext *ctx = module.getContext();
  if (!module.lookupSymbol<LLVM::GlobalOp>(name)) {
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToStart(module.getBody());
    std::string data = text + '\0';
    auto arrayType =
        LLVM::LLVMArrayType::get(IntegerType::get(ctx, 8), data.size());
    LLVM::GlobalOp::create(builder, loc, arrayType, /*isConstant=*/true,
                           LLVM::Linkage::Internal, name,
                           builder.getStringAttr(data));
  }
  return LLVM::AddressOfOp::create(builder, loc,
                                   LLVM::LLVMPointerType::get(ctx), name);
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
