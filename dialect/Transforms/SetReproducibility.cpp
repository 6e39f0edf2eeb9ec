//===- SetReproducibility.cpp - a program's reproducibility level ---------===//
//
// The ops that take a level say so by declaring the `reproducibility`
// attribute; the pass asks each op's registration, it keeps no list.
//
//===----------------------------------------------------------------------===//

#include "distruntime/Dialect/DistRuntime/IR/DistRuntimeOps.h"
#include "distruntime/Dialect/DistRuntime/Transforms/Passes.h"

namespace mlir::distruntime {
#define GEN_PASS_DEF_SETREPRODUCIBILITY
#include "distruntime/Dialect/DistRuntime/Transforms/Passes.h.inc"
} // namespace mlir::distruntime

using namespace mlir;
using namespace mlir::distruntime;

constexpr StringLiteral kAttrName = "reproducibility";

/// `op` declares the attribute.
static bool takesLevel(Operation *op) {
  std::optional<RegisteredOperationName> info = op->getRegisteredInfo();
  return info &&
         llvm::is_contained(info->getAttributeNames(),
                            StringAttr::get(op->getContext(), kAttrName));
}

namespace {
struct SetReproducibility
    : public distruntime::impl::SetReproducibilityBase<SetReproducibility> {
  using Base::Base;

protected:
  void runOnOperation() override {
    std::optional<Reproducibility> parsed = symbolizeReproducibility(level);
    if (!parsed) {
      getOperation()->emitError("distruntime-set-reproducibility: unknown "
                                "level '")
          << level << "'; expected one of mpi, ordered, exact";
      return signalPassFailure();
    }
    auto attr = ReproducibilityAttr::get(&getContext(), *parsed);
    getOperation()->walk([&](Operation *op) {
      if (!op->hasAttr(kAttrName) && takesLevel(op))
        op->setAttr(kAttrName, attr);
    });
  }
};
} // namespace
