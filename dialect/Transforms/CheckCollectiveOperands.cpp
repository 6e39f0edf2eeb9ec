//===- CheckCollectiveOperands.cpp - sizes and buffers of collectives -----===//
//
// Members must pass operands of the same shape to a collective: a dynamic
// size computed from a value that may differ is reported (a warning: the
// members may agree after all), and so is an update_halo grid size that
// may differ. An op that writes one buffer through two
// outputs, or writes an output while it still reads another operand from
// the same buffer, computes nonsense on every member (an error). Only the
// same buffer through memref.cast counts, so a correct program is never
// rejected.
//
//===----------------------------------------------------------------------===//

#include "CollectiveSequence.h"
#include "VerifySPMD.h"

#include "distruntime/Dialect/DistRuntime/IR/DistRuntimeOps.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "llvm/ADT/SmallBitVector.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::distruntime;

/// The value that gives dimension `dim` of `shaped` where the IR shows it:
/// a size operand, or null when a view or cast makes it static; nullopt
/// when the IR does not show it (an argument, a call result). A tensor's
/// size comes from its tensor.empty, through casts and the destinations of
/// the ops that write it.
static std::optional<Value> getDynamicSize(Value shaped, unsigned dim) {
  Operation *def = shaped.getDefiningOp();
  if (!def)
    return std::nullopt;
  return llvm::TypeSwitch<Operation *, std::optional<Value>>(def)
      .Case<memref::AllocOp, memref::AllocaOp>([&](auto alloc)
                                                   -> std::optional<Value> {
        return alloc.getDynamicSizes()[alloc.getType().getDynamicDimIndex(dim)];
      })
      .Case<memref::CastOp, tensor::CastOp>(
          [&](auto castOp) -> std::optional<Value> {
            auto source = cast<ShapedType>(castOp.getSource().getType());
            if (!source.isDynamicDim(dim))
              return Value();
            return getDynamicSize(castOp.getSource(), dim);
          })
      .Case([&](memref::SubViewOp view) -> std::optional<Value> {
        // Dimensions the subview drops are not in its result.
        llvm::SmallBitVector dropped = view.getDroppedDims();
        unsigned kept = 0;
        for (auto [i, size] : llvm::enumerate(view.getMixedSizes())) {
          if (dropped.test(i))
            continue;
          if (kept++ == dim)
            return dyn_cast<Value>(size);
        }
        return std::nullopt;
      })
      .Case([&](memref::ReinterpretCastOp castOp) -> std::optional<Value> {
        return dyn_cast<Value>(castOp.getMixedSizes()[dim]);
      })
      .Case([&](tensor::EmptyOp empty) -> std::optional<Value> {
        return empty.getDynamicSize(dim);
      })
      .Case([&](DestinationStyleOpInterface writer) -> std::optional<Value> {
        // A result has the shape of its destination (outs).
        auto result = cast<OpResult>(shaped);
        if (!writer.hasPureTensorSemantics())
          return std::nullopt;
        return getDynamicSize(writer.getTiedOpOperand(result)->get(), dim);
      })
      .Default([](Operation *) { return std::nullopt; });
}

std::optional<DifferingSize>
mlir::distruntime::findDifferingSize(Operation *op, const UniformityInfo &info,
                                     bool forProof) {
  for (Value operand : op->getOperands()) {
    auto type = dyn_cast<ShapedType>(operand.getType());
    if (!type || (!forProof && !isa<MemRefType>(type)))
      continue;
    if (!type.hasRank())
      return DifferingSize{operand, 0, info.get(operand)};
    if (type.hasStaticShape())
      continue;
    // Members hold and receive rows in any number where their counts are
    // their own: ragged_all_to_all, all_to_all_v with count operands.
    auto ragged = dyn_cast<RaggedAllToAllOp>(op);
    auto rows = dyn_cast<AllToAllVOp>(op);
    bool ownRows =
        (ragged && !llvm::is_contained(ragged.getSizes(), operand)) ||
        (rows && !rows.getCounts().empty() &&
         !llvm::is_contained(rows.getCounts(), operand));
    for (unsigned dim = ownRows ? 1 : 0, e = type.getRank(); dim < e; ++dim) {
      if (!type.isDynamicDim(dim))
        continue;
      std::optional<Value> size = getDynamicSize(operand, dim);
      if (size && !*size)
        continue;
      // Where the IR does not show the size, the value's own lattice: a
      // memref's covers its descriptor, a tensor's its contents too.
      Uniformity value = info.get(size ? *size : operand);
      if (value.mayDiffer() || (forProof && value.isUninitialized()))
        return DifferingSize{operand, dim, value};
    }
  }
  return std::nullopt;
}

/// Warns of the dynamic sizes of `op`'s operands that may differ.
static void checkSizes(Operation *op, const UniformityInfo &info,
                       SPMDReporter &reporter) {
  auto collective = dyn_cast<CollectiveOpInterface>(op);
  auto describe = [&](Value operand) -> std::string {
    if (collective)
      for (auto [k, input] : llvm::enumerate(collective.getInputs()))
        if (input == operand)
          return "input #" + std::to_string(k);
    if (collective)
      for (auto [k, output] : llvm::enumerate(collective.getOutputs()))
        if (output == operand)
          return "output #" + std::to_string(k) + " (outs)";
    return "operand";
  };
  std::optional<DifferingSize> differing =
      findDifferingSize(op, info, /*forProof=*/false);
  if (!differing)
    return;
  InFlightDiagnostic diag = reporter.warning(op->getLoc());
  diag << "dimension " << differing->dim << " of "
       << describe(differing->operand) << " of '" << op->getName()
       << "' may differ between members of team " << getCollectiveTeam(op);
  noteDivergence(diag, nullptr, differing->value);
}

/// Warns of an update_halo grid size that may differ between members:
/// members on different grids exchange with the wrong neighbours.
static void checkGrid(UpdateHaloOp op, const UniformityInfo &info,
                      SPMDReporter &reporter) {
  for (Value size : op.getGridValues()) {
    Uniformity value = info.get(size);
    if (!value.mayDiffer())
      continue;
    InFlightDiagnostic diag = reporter.warning(op.getLoc());
    diag << "a grid size of '" << op->getName()
         << "' may differ between members of team " << op.getTeam()
         << "; fix: compute the grid from values every member agrees on "
            "(distruntime.dims_create, team_size, constants)";
    noteDivergence(diag, nullptr, value);
    return;
  }
}

/// Reports two operands of `op` on one buffer that it does not allow:
/// outputs, or an output and an input it reads after writing the output.
static void checkBuffers(Operation *op, ValueRange inputs, ValueRange outputs,
                         bool inPlace, SPMDReporter &reporter) {
  for (auto [j, output] : llvm::enumerate(outputs))
    for (auto [k, other] : llvm::enumerate(outputs.take_front(j)))
      if (stripMemrefCasts(other) == stripMemrefCasts(output)) {
        reporter.error(op->getLoc())
            << "outputs #" << k << " and #" << j << " (outs) of '"
            << op->getName()
            << "' are the same buffer: the op writes both, and the last "
               "write wins; fix: give each output its own buffer";
        return;
      }
  for (auto [j, output] : llvm::enumerate(outputs))
    for (auto [k, input] : llvm::enumerate(inputs))
      if (stripMemrefCasts(input) == stripMemrefCasts(output) &&
          (!inPlace || k != j)) {
        reporter.error(op->getLoc())
            << "input #" << k << " and output #" << j << " (outs) of '"
            << op->getName()
            << "' are the same buffer: the op may write the output before "
               "it reads the input"
            << (inPlace ? "; only an operand's own input and output may "
                          "share a buffer"
                        : "")
            << "; fix: give the output its own buffer";
        return;
      }
}

void mlir::distruntime::checkCollectiveOperands(Operation *module,
                                                const UniformityInfo &info,
                                                SPMDReporter &reporter) {
  module->walk([&](Operation *op) {
    if (auto gather = dyn_cast<GatherOp>(op)) {
      if (Value output = gather.getOutput())
        checkBuffers(op, {gather.getOperand(), gather.getStartIndices()},
                     output, /*inPlace=*/false, reporter);
      return;
    }
    if (auto scatter = dyn_cast<ScatterOp>(op)) {
      // Inputs are copied to their own outputs first (skipped when the same
      // buffer); indices and updates are read throughout.
      checkBuffers(op, scatter.getInputs(), scatter.getOutputs(),
                   /*inPlace=*/true, reporter);
      SmallVector<Value> read{scatter.getScatterIndices()};
      llvm::append_range(read, scatter.getUpdates());
      for (Value output : scatter.getOutputs())
        for (Value input : read)
          if (stripMemrefCasts(input) == stripMemrefCasts(output)) {
            reporter.error(op->getLoc())
                << "an output (outs) of '" << op->getName()
                << "' is the buffer of its indices or updates, which it "
                   "reads while it writes the output; fix: give the output "
                   "its own buffer";
            return;
          }
      return;
    }
    if (auto halo = dyn_cast<UpdateHaloOp>(op); halo && info.isLive(op))
      checkGrid(halo, info, reporter);
    auto collective = dyn_cast<CollectiveOpInterface>(op);
    if (collective)
      checkBuffers(op, collective.getInputs(), collective.getOutputs(),
                   /*inPlace=*/true, reporter);
    if (isTeamCollective(op) &&
        cast<CommunicatingOpInterface>(op).needsEqualSizes() && info.isLive(op))
      checkSizes(op, info, reporter);
  });
}
