//===- Remarks.cpp - what the communication passes did --------------------===//

#include "Remarks.h"

#include "distruntime/Dialect/DistRuntime/Transforms/Passes.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Location.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir::distruntime {
#define GEN_PASS_DEF_ENABLEREMARKS
#include "distruntime/Dialect/DistRuntime/Transforms/Passes.h.inc"
} // namespace mlir::distruntime

using namespace mlir;

remark::RemarkOpts mlir::distruntime::remarkAbout(Operation *op, StringRef pass,
                                                  StringRef name) {
  remark::RemarkOpts opts = remark::RemarkOpts::name(name).category(pass);
  auto fn = isa<FunctionOpInterface>(op)
                ? cast<FunctionOpInterface>(op)
                : op->getParentOfType<FunctionOpInterface>();
  return fn ? opts.function(fn.getName()) : opts;
}

/// The first file location in `loc` (a combined op's is a fused one).
static std::optional<FileLineColLoc> fileLocation(Location loc) {
  std::optional<FileLineColLoc> found;
  loc->walk([&](Location nested) {
    if (auto file = dyn_cast<FileLineColLoc>(nested)) {
      found = file;
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return found;
}

std::string mlir::distruntime::describeOp(Operation *op) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << op->getName();
  if (std::optional<FileLineColLoc> file = fileLocation(op->getLoc()))
    os << " at " << file->getFilename().getValue() << ":" << file->getLine()
       << ":" << file->getColumn();
  return text;
}

bool mlir::distruntime::remarksEnabled(MLIRContext *context) {
  return context->getRemarkEngine() != nullptr;
}

namespace {

struct EnableRemarks
    : public distruntime::impl::EnableRemarksBase<EnableRemarks> {
  using Base::Base;

protected:
  /// A module pass runs alone: no other pass reads the context's engine
  /// while it is set. Drivers such as mlir-opt install an engine with no
  /// categories unless told; one that already reports this pass's
  /// category (and so says the remarks are on) is kept.
  void runOnOperation() override {
    markAllAnalysesPreserved();
    MLIRContext &context = getContext();
    if (remark::analysis(
            getOperation().getLoc(),
            remark::RemarkOpts::name("RemarksOn").category(getArgument()))
        << remark::add("the driver reports the distruntime passes' remarks"))
      return;
    remark::RemarkCategories categories;
    categories.all = categories.passed = categories.missed =
        categories.analysis = categories.failed = filter;
    if (failed(remark::enableOptimizationRemarks(
            context, /*streamer=*/nullptr,
            std::make_unique<remark::RemarkEmittingPolicyAll>(), categories,
            /*printAsEmitRemarks=*/true)))
      signalPassFailure();
  }
};

} // namespace
