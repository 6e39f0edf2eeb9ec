//===- distruntime-fuzz.cpp - libFuzzer target: parse, verify, lower ------===//
//
// Each input is the text of a module. It is parsed (which verifies it) and,
// when valid, lowered by the distruntime-to-llvm pipeline. Diagnostics are
// expected and swallowed; only a crash, a sanitizer report, a timeout or
// running out of memory is a finding. scripts/fuzz.sh builds and runs it.
//
// One context and one pass manager per pipeline variant serve 100,000
// inputs, so an input costs a parse and a pipeline run, never a context. Words
// in the input pick the variant, as the RUN lines of the lit tests the seeds
// come from do: `canonicalize` runs -canonicalize first,
// `decompose-batching-dims` and `buffer-deallocation` set those pipeline
// options, and `shard.` runs convert-shard-to-distruntime first.
//
//===----------------------------------------------------------------------===//

#include "distruntime/Conversion/Passes.h"
#include "distruntime/InitAllDistRuntime.h"
#include "distruntime/Pipelines/Passes.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/ADT/StringRef.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

using namespace mlir;

namespace {

enum Variant : unsigned {
  Canonicalize = 1,
  DecomposeBatchingDims = 2,
  BufferDeallocation = 4,
  ShardToDistRuntime = 8,
  NumVariants = 16,
};

/// The context, with everything distruntime-opt registers, and the pass
/// managers, built on first use.
struct Fuzzer {
  Fuzzer() : context(makeRegistry(), MLIRContext::Threading::DISABLED) {
    context.loadAllAvailableDialects();
    context.getDiagEngine().registerHandler(
        [](Diagnostic &) { return success(); });
  }

  static DialectRegistry makeRegistry() {
    DialectRegistry registry;
    distruntime::registerAllDistRuntimeDialects(registry);
    return registry;
  }

  PassManager &passManager(unsigned variant) {
    std::unique_ptr<PassManager> &pm = passManagers[variant];
    if (!pm) {
      pm = std::make_unique<PassManager>(&context);
      if (variant & Canonicalize)
        pm->addPass(createCanonicalizerPass());
      // Our conversion only: upstream's partitioner is not ours to fuzz.
      if (variant & ShardToDistRuntime)
        pm->addPass(distruntime::createConvertShardToDistRuntime());
      distruntime::DistRuntimeToLLVMOptions options;
      options.decomposeBatchingDims = (variant & DecomposeBatchingDims) != 0;
      options.bufferDeallocation = (variant & BufferDeallocation) != 0;
      distruntime::buildDistRuntimeToLLVMPipeline(*pm, options);
    }
    return *pm;
  }

  MLIRContext context;
  std::array<std::unique_ptr<PassManager>, NumVariants> passManagers;
};

} // namespace

static unsigned variantOf(llvm::StringRef text) {
  unsigned variant = 0;
  if (text.contains("canonicalize"))
    variant |= Canonicalize;
  if (text.contains("decompose-batching-dims"))
    variant |= DecomposeBatchingDims;
  if (text.contains("buffer-deallocation"))
    variant |= BufferDeallocation;
  if (text.contains("shard."))
    variant |= ShardToDistRuntime;
  return variant;
}

static llvm::StringRef skipSpaceAndComments(llvm::StringRef text) {
  for (text = text.ltrim(); text.consume_front("//"); text = text.ltrim())
    text = text.drop_until([](char c) { return c == '\n'; });
  return text;
}

/// Whether `matches` holds for what follows some `keyword =` in `text`
/// (spaces and comments skipped on both sides of the `=`).
template <class Matches>
static bool anyAssignment(llvm::StringRef text, llvm::StringRef keyword,
                          Matches &&matches) {
  for (size_t at = text.find(keyword); at != llvm::StringRef::npos;
       at = text.find(keyword, at + 1)) {
    llvm::StringRef rest =
        skipSpaceAndComments(text.drop_front(at + keyword.size()));
    if (rest.consume_front("=") && matches(skipSpaceAndComments(rest)))
      return true;
  }
  return false;
}

/// Upstream MLIR 22 crashes on a dense array of `index`, written directly or
/// through a type alias (`array<index>`, `!t = index ... array<!t>`): the
/// parser (mlir::detail::Parser::parseDenseArrayAttr) accepts the type and
/// asks it for Type::getIntOrFloatBitWidth, a null dereference in
/// FloatType::getWidth. Stock mlir-opt-22 crashes the same way. Such inputs
/// are skipped, and nothing else: `array` `<` then `index` or an alias.
static bool isUpstreamIndexDenseArray(llvm::StringRef text) {
  for (size_t at = text.find("array"); at != llvm::StringRef::npos;
       at = text.find("array", at + 1)) {
    llvm::StringRef rest = skipSpaceAndComments(text.drop_front(at + 5));
    if (!rest.consume_front("<"))
      continue;
    rest = skipSpaceAndComments(rest);
    if (rest.starts_with("index") || rest.starts_with("!"))
      return true;
  }
  return false;
}

/// Upstream MLIR 22 crashes on a malformed `dimensions = [...]` or
/// `permutation = [...]` of linalg.reduce, linalg.broadcast and
/// linalg.transpose (`dimensions = [0 x`): their custom parsers store the
/// null attribute of the failed parse (NamedAttrList::set, then
/// Attribute::getContext on null). Stock mlir-opt-22 crashes the same way.
/// Inputs where either keyword and `=` are not followed by a well-formed
/// list of integers are skipped.
static bool isUpstreamMalformedLinalgDims(llvm::StringRef text) {
  auto malformed = [](llvm::StringRef rest) {
    if (!rest.consume_front("["))
      return true;
    for (bool first = true;; first = false) {
      rest = skipSpaceAndComments(rest);
      if (rest.consume_front("]"))
        return false;
      if (!first && !rest.consume_front(","))
        return true;
      rest = skipSpaceAndComments(rest);
      rest.consume_front("-");
      size_t digits = rest.find_if_not(llvm::isDigit);
      if (digits == 0 || digits == llvm::StringRef::npos)
        return true;
      rest = rest.drop_front(digits);
    }
  };
  return anyAssignment(text, "dimensions", malformed) ||
         anyAssignment(text, "permutation", malformed);
}

/// Upstream MLIR 22 divides by a grid axis's size when it verifies the
/// symbol uses of shard.all_slice (and its kin) against their grid, so a
/// `shard.grid` whose shape has a 0 axis (`shape = 0`, `shape = 2x0`) ends
/// in SIGFPE while parsing. Stock mlir-opt-22 crashes the same way. Inputs
/// with `shape` `=` then a dimension list with a 0 in it are skipped (a
/// grid's, or any other op's written so).
static bool isUpstreamZeroGridAxis(llvm::StringRef text) {
  return anyAssignment(text, "shape", [](llvm::StringRef rest) {
    // Dimensions: digits or `?`, separated by `x`.
    for (;;) {
      llvm::StringRef dim =
          rest.take_while([](char c) { return llvm::isDigit(c) || c == '?'; });
      if (dim.empty())
        return false;
      if (dim.find_if_not([](char c) { return c == '0'; }) ==
          llvm::StringRef::npos)
        return true;
      rest = rest.drop_front(dim.size());
      if (!rest.consume_front("x"))
        return false;
    }
  });
}

/// MLIR's allocators poison their free space in instrumented code only; the
/// uninstrumented libMLIR.so then allocates from the same slabs, which ASan
/// would report as use-after-poison. Poisoning by hand is therefore off.
/// (This name and LLVMFuzzerTestOneInput are ASan's and libFuzzer's.)
// NOLINTNEXTLINE(readability-identifier-naming)
extern "C" const char *__asan_default_options() {
  return "allow_user_poisoning=0";
}

// NOLINTNEXTLINE(readability-identifier-naming)
extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  // The context keeps every name and type it ever saw; a fresh one now and
  // then bounds the memory of a long run.
  static std::unique_ptr<Fuzzer> instance;
  static unsigned inputs = 0;
  if (inputs++ % 100000 == 0)
    instance = std::make_unique<Fuzzer>();
  Fuzzer &fuzzer = *instance;

  // MLIR's lexer reads the byte past the end: tools hand it null-terminated
  // files, and so does the fuzzer.
  std::string copy(reinterpret_cast<const char *>(data), size);
  llvm::StringRef text(copy.c_str(), size);
  if (isUpstreamIndexDenseArray(text) || isUpstreamMalformedLinalgDims(text) ||
      isUpstreamZeroGridAxis(text))
    return -1; // Not added to the corpus.
  // Parsing verifies; an invalid module stops here.
  OwningOpRef<ModuleOp> module =
      parseSourceString<ModuleOp>(text, ParserConfig(&fuzzer.context));
  if (!module)
    return 0;
  (void)fuzzer.passManager(variantOf(text)).run(*module);
  return 0;
}
