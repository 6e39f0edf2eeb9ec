//===- VerifySPMD.cpp - static checks of SPMD agreement -------------------===//
//
// distruntime-verify-spmd: solves the uniformity analysis over the module
// (with dead code analysis, and the constants it asks for) and
// runs the checks of VerifySPMD.h. Errors fail the pass; warnings do not,
// unless warnings-as-errors. Then it marks the ops whose agreement it
// proves (MarkProvenSites.cpp), for the runtime's selective checked mode.
//
//===----------------------------------------------------------------------===//

#include "VerifySPMD.h"
#include "CollectiveSequence.h"

#include "distruntime/Dialect/DistRuntime/Analysis/BranchConstants.h"

#include "distruntime/Dialect/DistRuntime/IR/DistRuntimeOps.h"
#include "distruntime/Dialect/DistRuntime/Transforms/Passes.h"

#include "mlir/Analysis/DataFlow/DeadCodeAnalysis.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

namespace mlir::distruntime {
#define GEN_PASS_DEF_VERIFYSPMD
#include "distruntime/Dialect/DistRuntime/Transforms/Passes.h.inc"
} // namespace mlir::distruntime

using namespace mlir;
using namespace mlir::distruntime;

void mlir::distruntime::noteDivergence(InFlightDiagnostic &diag,
                                       Operation *holder,
                                       const Uniformity &value) {
  if (holder)
    diag.attachNote(holder->getLoc())
        << "the '" << holder->getName()
        << "' that decides, on a value that may differ between members";
  if (value.isGroupUniform()) {
    diag.attachNote(value.getGroups().op->getLoc())
        << "the value agrees only within the process groups of this '"
        << value.getGroups().op->getName() << "'";
    return;
  }
  Operation *origin = value.getOriginOp();
  if (!value.isVarying() || !origin)
    return;
  Diagnostic &note = diag.attachNote(origin->getLoc());
  switch (value.getSource()) {
  case VarianceSource::Member:
    note << "it derives from the member id here";
    return;
  case VarianceSource::Received:
    note << "it derives from data received by this '" << origin->getName()
         << "'";
    return;
  case VarianceSource::Memory:
    note << "it derives from memory that may differ between members, read "
            "here";
    return;
  case VarianceSource::Argument: {
    auto function = cast<FunctionOpInterface>(origin);
    note << "it derives from argument #"
         << cast<BlockArgument>(value.getOriginValue()).getArgNumber()
         << " of '" << function.getName() << "', "
         << (function.isPublic()
                 ? "which code outside the module may call with any value"
                 : "whose callers pass values that may differ");
    return;
  }
  case VarianceSource::ExternalCall:
    note << "it derives from the result of this call to a function without "
            "a body";
    return;
  case VarianceSource::Unmodeled:
    note << "it derives from a value of this '" << origin->getName()
         << "', which the analysis does not model";
    return;
  }
}

namespace {
struct VerifySPMDPass
    : public distruntime::impl::VerifySPMDBase<VerifySPMDPass> {
  using VerifySPMDBase::VerifySPMDBase;

protected:
  void runOnOperation() override {
    Operation *module = getOperation();
    RegionFlows flows;
    DataFlowSolver solver;
    solver.load<dataflow::DeadCodeAnalysis>();
    // Not SparseConstantPropagation: it keeps a lattice per value, and the
    // pass's cost is mostly the memory it touches first (issue 22 part 6).
    solver.load<BranchConstants>();
    solver.load<UniformityAnalysis>(flows);
    if (failed(solver.initializeAndRun(module)))
      return signalPassFailure();

    UniformityInfo info(solver, flows);
    if (printUniformity)
      printProbes(info);
    SPMDReporter reporter(warningsAsErrors);
    CollectiveSummarizer summarizer(flows, info);
    checkCollectiveOrder(module, info, summarizer, reporter);
    checkCollectiveOperands(module, info, reporter);
    checkAsyncHandles(module, info, reporter);
    checkPointToPoint(module, reporter);
    if (reporter.hasErrors())
      return signalPassFailure();
    // Only attributes change: the analyses stay valid.
    if (markProven)
      markProvenSites(module, info);
    markAllAnalysesPreserved();
  }

  /// Tests: a remark with the lattice of the results of each op that
  /// carries the unit attribute `spmd.probe`.
  void printProbes(const UniformityInfo &info) {
    getOperation()->walk([&](Operation *op) {
      if (!op->hasAttr("spmd.probe"))
        return;
      InFlightDiagnostic remark = op->emitRemark();
      for (auto [i, result] : llvm::enumerate(op->getResults())) {
        std::string text;
        llvm::raw_string_ostream os(text);
        info.get(result).print(os);
        remark << (i ? ", " : "") << text;
      }
    });
  }
};
} // namespace
