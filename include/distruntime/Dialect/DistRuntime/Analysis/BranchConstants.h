//===- BranchConstants.h - constants DeadCodeAnalysis reads -----*- C++ -*-===//
//
// DeadCodeAnalysis decides which successors of a branch run from the
// Lattice<ConstantValue> of the branch's operands, and marks none live while
// one of them is uninitialized. SparseConstantPropagation fills those
// lattices by folding every op of the program, which keeps a constant lattice
// per SSA value. The uniformity analysis needs liveness, not folding: this
// analysis sets, once, the lattices of the operands of branches, region
// branch ops and terminators only: the constant of a constant-like defining
// op, otherwise "not a constant". Sound for liveness (an operand it does not
// fold keeps every successor live); it only gives up pruning branches on
// folded expressions. A fraction of the memory, which is what verify-spmd
// paid for (page faults of fresh heap, not instructions).
//
//===----------------------------------------------------------------------===//

#ifndef DISTRUNTIME_DIALECT_DISTRUNTIME_ANALYSIS_BRANCHCONSTANTS_H
#define DISTRUNTIME_DIALECT_DISTRUNTIME_ANALYSIS_BRANCHCONSTANTS_H

#include "mlir/Analysis/DataFlowFramework.h"

namespace mlir::distruntime {

class BranchConstants : public DataFlowAnalysis {
public:
  using DataFlowAnalysis::DataFlowAnalysis;

  LogicalResult initialize(Operation *top) override;
  /// The lattices never change after initialize: nothing to revisit.
  LogicalResult visit(ProgramPoint *point) override { return success(); }
};

} // namespace mlir::distruntime

#endif // DISTRUNTIME_DIALECT_DISTRUNTIME_ANALYSIS_BRANCHCONSTANTS_H
