//===- DistRuntimeDialect.cpp - DistRuntime dialect -----------------------===//

#include "distruntime/Dialect/DistRuntime/IR/DistRuntimeDialect.h"
#include "distruntime/Dialect/DistRuntime/IR/DistRuntimeOps.h"

#include "distruntime/Dialect/DistRuntime/IR/ProcessGroups.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/Transforms/InliningUtils.h"
#include "llvm/ADT/TypeSwitch.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::distruntime;

#include "distruntime/Dialect/DistRuntime/IR/DistRuntimeDialect.cpp.inc"
#include "distruntime/Dialect/DistRuntime/IR/DistRuntimeEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "distruntime/Dialect/DistRuntime/IR/DistRuntimeAttrs.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "distruntime/Dialect/DistRuntime/IR/DistRuntimeTypes.cpp.inc"

/// Parses `<keyword>` of an enum attribute. An unknown keyword lists the
/// valid ones as the user writes them (ODS's parser names the C++ enum type).
template <typename Attr, typename Enum>
static Attribute parseEnumAttr(AsmParser &parser, StringRef what,
                               uint32_t maxValue,
                               std::optional<Enum> (*fromValue)(uint32_t)) {
  if (parser.parseLess())
    return {};
  SMLoc loc = parser.getCurrentLocation();
  std::string keyword;
  if (parser.parseKeywordOrString(&keyword))
    return {};
  std::optional<Enum> value = symbolizeEnum<Enum>(keyword);
  if (!value) {
    SmallVector<StringRef> keywords;
    for (uint32_t v = 0; v <= maxValue; ++v)
      if (std::optional<Enum> known = fromValue(v))
        keywords.push_back(stringifyEnum(*known));
    parser.emitError(loc, "unknown ")
        << what << " '" << keyword << "'; expected one of "
        << llvm::join(keywords, ", ");
    return {};
  }
  if (parser.parseGreater())
    return {};
  return Attr::get(parser.getContext(), *value);
}

Attribute ReductionKindAttr::parse(AsmParser &parser, Type) {
  return parseEnumAttr<ReductionKindAttr, ReductionKind>(
      parser, "reduction kind", getMaxEnumValForReductionKind(),
      symbolizeReductionKind);
}

void ReductionKindAttr::print(AsmPrinter &printer) const {
  printer << "<" << stringifyEnum(getValue()) << ">";
}

Attribute ReproducibilityAttr::parse(AsmParser &parser, Type) {
  return parseEnumAttr<ReproducibilityAttr, Reproducibility>(
      parser, "reproducibility level", getMaxEnumValForReproducibility(),
      symbolizeReproducibility);
}

void ReproducibilityAttr::print(AsmPrinter &printer) const {
  printer << "<" << stringifyEnum(getValue()) << ">";
}

Attribute ChannelTypeAttr::parse(AsmParser &parser, Type) {
  return parseEnumAttr<ChannelTypeAttr, ChannelType>(
      parser, "channel type", getMaxEnumValForChannelType(),
      symbolizeChannelType);
}

void ChannelTypeAttr::print(AsmPrinter &printer) const {
  printer << "<" << stringifyEnum(getValue()) << ">";
}

/// distruntime.num_replicas / num_partitions give the process grid of a
/// module statically; distruntime.proven marks an op whose agreement is
/// proven (the ops whose runtime calls can say so).
LogicalResult
DistRuntimeDialect::verifyOperationAttribute(Operation *op,
                                             NamedAttribute attribute) {
  StringRef name = attribute.getName().strref();
  if (name == kProvenAttrName) {
    if (!isa<UnitAttr>(attribute.getValue()))
      return op->emitError("'")
             << name << "' is a unit attribute, got " << attribute.getValue();
    auto comm = dyn_cast<CommunicatingOpInterface>(op);
    if (!comm || !comm.takesProvenMark())
      return op->emitError("'")
             << name << "' belongs on a collective, send, recv or "
             << "update_halo, not on '" << op->getName() << "'";
    return success();
  }
  if (name != kNumReplicasAttrName && name != kNumPartitionsAttrName)
    return op->emitError("unknown distruntime attribute '") << name << "'";
  if (!isa<ModuleOp>(op))
    return op->emitError("'") << name << "' belongs on a builtin.module";
  auto value = dyn_cast<IntegerAttr>(attribute.getValue());
  if (!value || value.getInt() <= 0)
    return op->emitError("'") << name << "' must be a positive integer, got "
                              << attribute.getValue();
  // A team's ranks are ints, so a larger grid can never run, and its size
  // must not wrap: num_partitions alone, and (with num_replicas) the
  // product.
  if (name == kNumPartitionsAttrName && value.getInt() > kMaxProcesses)
    return op->emitError("'")
           << name << "' is " << value.getInt()
           << ", more processes than a team can hold (" << kMaxProcesses << ")";
  if (name != kNumReplicasAttrName)
    return success();
  int64_t partitions = 1;
  if (auto other = op->getAttrOfType<IntegerAttr>(kNumPartitionsAttrName))
    partitions = std::max<int64_t>(other.getInt(), 1);
  if (value.getInt() > kMaxProcesses / partitions)
    return op->emitError("the process grid '")
           << kNumReplicasAttrName << "' x '" << kNumPartitionsAttrName
           << "' = " << value.getInt() << " x " << partitions
           << " has more processes than a team can hold (" << kMaxProcesses
           << ")";
  return success();
}

namespace {
/// Every distruntime op may be inlined: none depends on the function it is
/// in (a team is an id, a handle a value), and a time loop whose step
/// function is inlined is one the overlap passes can see whole.
struct DistRuntimeInlinerInterface : public DialectInlinerInterface {
  using DialectInlinerInterface::DialectInlinerInterface;
  bool isLegalToInline(Operation *, Region *, bool, IRMapping &) const final {
    return true;
  }
  bool isLegalToInline(Region *, Region *, bool, IRMapping &) const final {
    return true;
  }
};
} // namespace

void DistRuntimeDialect::initialize() {
  addInterfaces<DistRuntimeInlinerInterface>();
  addOperations<
#define GET_OP_LIST
#include "distruntime/Dialect/DistRuntime/IR/DistRuntimeOps.cpp.inc"
      >();
  addTypes<
#define GET_TYPEDEF_LIST
#include "distruntime/Dialect/DistRuntime/IR/DistRuntimeTypes.cpp.inc"
      >();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "distruntime/Dialect/DistRuntime/IR/DistRuntimeAttrs.cpp.inc"
      >();
}
