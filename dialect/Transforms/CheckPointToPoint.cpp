//===- CheckPointToPoint.cpp - sends and recvs that cannot meet -----------===//
//
// A send's message is taken by a recv of its team and channel whose
// source_target_pairs give the target the sender as its source: in an SPMD
// program, a recv with the same pairs, element types and (static) shapes.
// Within one module, a send that no recv of its channel can take, or a recv
// that no send of its channel serves, is reported: an error where the
// channel has one send and one recv (they certainly do not meet), a warning
// otherwise (another send may serve the recv, or a host program may take
// part through the C++ API). Host transfers are queues of one process and
// are not compared.
//
//===----------------------------------------------------------------------===//

#include "CollectiveSequence.h"
#include "VerifySPMD.h"

#include "distruntime/Dialect/DistRuntime/IR/DistRuntimeOps.h"

#include "llvm/ADT/MapVector.h"

using namespace mlir;
using namespace mlir::distruntime;

/// The shaped types of the data `op` sends or receives.
static SmallVector<ShapedType> getMessage(Operation *op) {
  auto collective = cast<CollectiveOpInterface>(op);
  SmallVector<ShapedType> types;
  auto add = [&](ValueRange values) {
    for (Value value : values)
      if (auto type = dyn_cast<ShapedType>(value.getType()))
        types.push_back(type);
  };
  add(collective.getInputs());
  add(collective.getOutputs());
  add(op->getResults());
  return types;
}

static std::string str(Attribute attr) {
  std::string text;
  llvm::raw_string_ostream os(text);
  if (auto dense = dyn_cast<DenseIntElementsAttr>(attr)) {
    // [[0, 1], [1, 2]] rather than the attribute's full syntax.
    int64_t width = dense.getType().getRank() == 2
                        ? dense.getType().getDimSize(1)
                        : dense.getNumElements();
    os << "[";
    for (auto [i, v] : llvm::enumerate(dense.getValues<int64_t>()))
      os << (i % width ? ", " : i ? "], [" : "[") << v;
    os << (dense.getNumElements() ? "]]" : "]");
    return text;
  }
  attr.print(os);
  return text;
}

/// How the message of `lhs` differs from that of `rhs` (empty if not):
/// operand count, element type or static shape.
static std::string compareMessages(Operation *lhs, Operation *rhs) {
  SmallVector<ShapedType> l = getMessage(lhs), r = getMessage(rhs);
  auto differ = [](StringRef what, const Twine &here, const Twine &there) {
    return (what + " " + here + " here, " + there + " at the other").str();
  };
  if (l.size() != r.size())
    return differ("operand count", Twine(l.size()), Twine(r.size()));
  for (auto [lt, rt] : llvm::zip(l, r)) {
    if (lt.getElementType() != rt.getElementType())
      return differ("element type", str(TypeAttr::get(lt.getElementType())),
                    str(TypeAttr::get(rt.getElementType())));
    if (lt.hasStaticShape() && rt.hasStaticShape() &&
        lt.getShape() != rt.getShape())
      return differ("shape", str(TypeAttr::get(lt)), str(TypeAttr::get(rt)));
  }
  return "";
}

/// The same team, channel and pairs, or pairs read at run time (which may
/// be the same).
static bool samePairs(Operation *lhs, Operation *rhs) {
  auto l = cast<CollectiveOpInterface>(lhs);
  auto r = cast<CollectiveOpInterface>(rhs);
  return l.getGroupMode() == r.getGroupMode() &&
         (!l.getGroupIds() || !r.getGroupIds() ||
          l.getGroupIds() == r.getGroupIds());
}

/// Whether `op` (a send or recv) takes its pairs at run time.
static bool hasPairTable(Operation *op) {
  return static_cast<bool>(cast<CollectiveOpInterface>(op).getGroupTable());
}

/// Reports `op` (a send or recv) if no op of `others` (the channel's recvs
/// or sends) meets it; `definite`: the channel has one of each.
static void checkMeets(Operation *op, ArrayRef<Operation *> others,
                       bool definite, uint64_t channel,
                       SPMDReporter &reporter) {
  StringRef partner = isa<SendOp>(op) ? "recv" : "send";
  auto head = [&](InFlightDiagnostic &diag) -> InFlightDiagnostic & {
    return diag << "'" << op->getName() << "' on channel_id " << channel
                << " of team " << getCollectiveTeam(op) << " meets no "
                << partner << " of this module: ";
  };
  if (others.empty()) {
    InFlightDiagnostic diag = reporter.warning(op->getLoc());
    head(diag) << "its channel has none";
    return;
  }
  Operation *paired = nullptr;
  for (Operation *other : others) {
    if (!samePairs(op, other))
      continue;
    if (compareMessages(op, other).empty())
      return;
    paired = paired ? paired : other;
  }
  Operation *there = paired ? paired : others.front();
  InFlightDiagnostic diag =
      definite ? reporter.error(op->getLoc()) : reporter.warning(op->getLoc());
  if (paired)
    head(diag) << compareMessages(op, paired);
  else
    head(diag) << "source_target_pairs "
               << str(cast<CollectiveOpInterface>(op).getGroupIds())
               << " here, "
               << str(cast<CollectiveOpInterface>(there).getGroupIds())
               << " at the other";
  if (definite)
    diag << "; fix: give the send and the recv of a channel the same "
            "source_target_pairs, element types and shapes";
  diag.attachNote(there->getLoc())
      << "the channel's '" << there->getName() << "'";
}

void mlir::distruntime::checkPointToPoint(Operation *module,
                                          SPMDReporter &reporter) {
  // Sends, then recvs, by (team, channel).
  llvm::MapVector<std::pair<uint64_t, uint64_t>,
                  std::pair<SmallVector<Operation *>, SmallVector<Operation *>>>
      channels;
  module->walk([&](Operation *op) {
    if (auto send = dyn_cast<SendOp>(op); send && !send.getIsHostTransfer())
      channels[{send.getTeam(), send.getChannelId()}].first.push_back(op);
    if (auto recv = dyn_cast<RecvOp>(op); recv && !recv.getIsHostTransfer())
      channels[{recv.getTeam(), recv.getChannelId()}].second.push_back(op);
  });
  for (auto &[key, ops] : channels) {
    auto &[sends, recvs] = ops;
    // Pairs read at run time may never meet: a mismatch is only likely.
    bool definite = sends.size() == 1 && recvs.size() == 1 &&
                    !hasPairTable(sends.front()) &&
                    !hasPairTable(recvs.front());
    for (Operation *send : sends)
      checkMeets(send, recvs, definite, key.second, reporter);
    // One report per channel that has one of each: the send's.
    if (definite)
      continue;
    for (Operation *recv : recvs)
      checkMeets(recv, sends, definite, key.second, reporter);
  }
}
