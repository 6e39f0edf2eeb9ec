//===- BranchConstants.cpp - constants DeadCodeAnalysis reads -------------===//

#include "distruntime/Dialect/DistRuntime/Analysis/BranchConstants.h"

#include "mlir/Analysis/DataFlow/ConstantPropagationAnalysis.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"

using namespace mlir;
using namespace mlir::distruntime;
using dataflow::ConstantValue;
using dataflow::Lattice;

LogicalResult BranchConstants::initialize(Operation *top) {
  top->walk([&](Operation *op) {
    // The ops whose operands DeadCodeAnalysis reads: branches and region
    // terminators (all terminators, a superset), and region branch ops.
    if (!op->hasTrait<OpTrait::IsTerminator>() &&
        !isa<RegionBranchOpInterface>(op))
      return;
    for (Value operand : op->getOperands()) {
      auto *lattice = getOrCreate<Lattice<ConstantValue>>(operand);
      Attribute constant;
      ConstantValue value = ConstantValue::getUnknownConstant();
      if (matchPattern(operand, m_Constant(&constant)))
        value = ConstantValue(constant, operand.getDefiningOp()->getDialect());
      propagateIfChanged(lattice, lattice->join(value));
    }
  });
  return success();
}
