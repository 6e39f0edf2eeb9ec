//===- VerifySPMD.h - the checks of distruntime-verify-spmd -----*- C++ -*-===//
//
// Each check walks the module once with the solved uniformity analysis and
// reports through an SPMDReporter: errors where members certainly disagree
// or misuse a buffer or handle, warnings where they may. Then the ops whose
// agreement is proven are marked for the runtime's selective checked mode.
//
//===----------------------------------------------------------------------===//

#ifndef DISTRUNTIME_DIALECT_TRANSFORMS_VERIFYSPMD_H
#define DISTRUNTIME_DIALECT_TRANSFORMS_VERIFYSPMD_H

#include "distruntime/Dialect/DistRuntime/Analysis/Uniformity.h"

#include "mlir/IR/Diagnostics.h"

namespace mlir::distruntime {

class CollectiveSummarizer;

/// Emits the pass's diagnostics and remembers whether an error was.
class SPMDReporter {
public:
  explicit SPMDReporter(bool warningsAsErrors)
      : warningsAsErrors(warningsAsErrors) {}

  InFlightDiagnostic error(Location loc) {
    failed = true;
    return emitError(loc);
  }
  /// A warning, or an error with warnings-as-errors.
  InFlightDiagnostic warning(Location loc) {
    return warningsAsErrors ? error(loc) : emitWarning(loc);
  }
  bool hasErrors() const { return failed; }

private:
  bool warningsAsErrors;
  bool failed = false;
};

/// Notes that explain a decision that may differ: the op that decides
/// (`holder`: an scf.if, a loop, a cf branch), and where the difference
/// enters (`value`'s origin: a team_member, a receive, a load).
void noteDivergence(InFlightDiagnostic &diag, Operation *holder,
                    const Uniformity &value);

/// Branches whose condition may differ and whose sides run different
/// collectives (errors, warnings when only some paths differ); collectives
/// in loops whose trip count may differ and returns that may skip one
/// (warnings).
void checkCollectiveOrder(Operation *module, const UniformityInfo &info,
                          CollectiveSummarizer &summarizer,
                          SPMDReporter &reporter);

/// Collective operands whose dynamic sizes may differ (warnings), and
/// buffers an op may not use twice (errors).
void checkCollectiveOperands(Operation *module, const UniformityInfo &info,
                             SPMDReporter &reporter);

/// Async handles not waited on every path or waited in a loop, and the
/// buffers of a pending async op accessed before its wait (errors).
void checkAsyncHandles(Operation *module, const UniformityInfo &info,
                       SPMDReporter &reporter);

/// Sends that no recv of their channel in the module takes, and recvs that
/// no send serves: other pairs, element types or static shapes (errors
/// where the channel has one of each, warnings otherwise).
void checkPointToPoint(Operation *module, SPMDReporter &reporter);

/// A dynamic size of an operand that may differ between members.
struct DifferingSize {
  Value operand;
  unsigned dim;
  Uniformity value;
};

/// The first dynamic size of a shaped operand of `op` that may differ
/// (ranked memrefs only, for the warning). `forProof`: any shaped operand,
/// and a size in code the analysis did not reach counts as differing.
std::optional<DifferingSize>
findDifferingSize(Operation *op, const UniformityInfo &info, bool forProof);

/// Sets `distruntime.proven` on the communicating ops every member of their
/// team certainly runs alike, and removes it from the others (a mark the
/// input carried included). Returns whether it changed any.
bool markProvenSites(Operation *module, const UniformityInfo &info);

} // namespace mlir::distruntime

#endif // DISTRUNTIME_DIALECT_TRANSFORMS_VERIFYSPMD_H
