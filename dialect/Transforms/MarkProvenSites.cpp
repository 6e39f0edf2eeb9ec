//===- MarkProvenSites.cpp - communicating ops whose agreement is proven --===//
//
// distruntime-verify-spmd marks with `distruntime.proven` the communicating
// ops that every member of their team certainly runs alike: at the same
// dynamic instance, with the same op, team, groups or pairs, reduction,
// scalars, element types, shapes and async-ness. The lowering passes the mark
// on to the runtime (DISTRT_SITE_PROVEN), whose selective checked mode
// (DISTRT_CHECK=1) then runs the op unchecked. An op is proven when
//  - the analysis found its block live;
//  - no control over it may differ between members: the enclosing scf.if and
//    switch conditions, loop bounds and cf branches of its function decide
//    on uniform values, every op with regions around it is control flow the
//    analysis models, and its function is entered alike: the public `main`
//    (the launch runs it on every member, with the same command line), or a
//    private function whose every use is a call that is itself reached
//    alike (recursion is not). Another public function is not: a host may
//    call it on some members only, or with arguments that differ, which the
//    checks assume away but a proof may not;
//  - every dynamic size of its operands is uniform (a memref's size as the
//    size warning computes it; a tensor's from its tensor.empty);
// and, by kind:
//  - the collectives (allreduce, all_reduce, all_gather, all_to_all,
//    all_to_all_v, reduce_scatter, collective_broadcast,
//    collective_permute): nothing more, their groups, pairs, reductions and
//    scalars are attributes;
//  - update_halo: a static block shape, static halo sizes and grid sizes
//    that agree (constants, dims_create's), and so for every update_halo
//    of its team and key, so that the members replan together (checked
//    mode agrees on replanning);
//  - send and recv: the one send and the one recv of their team, channel
//    and host transfer, in one block, with the same pairs and the same
//    static types (checked mode's headers compare what a sender sends with
//    what its receiver expects);
//  - get_halo never: whether a member replans depends on geometry values
//    known at run time only.
//
//===----------------------------------------------------------------------===//

#include "CollectiveSequence.h"
#include "Remarks.h"
#include "VerifySPMD.h"

#include "distruntime/Dialect/DistRuntime/IR/DistRuntimeOps.h"

#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::distruntime;

/// The remarks' category: the pass that marks.
static constexpr StringRef kPass = "distruntime-verify-spmd";

namespace {

/// Which ops every member reaches alike, as far as control goes.
class Reach {
public:
  Reach(Operation *module, const UniformityInfo &info)
      : info(info), users(symbols, module) {}

  /// Why not every member may run `op` at the same dynamic instances;
  /// empty if they do.
  std::string whyNotReachedAlike(Operation *op) {
    if (!info.isLive(op))
      return "the analysis did not find its block reached";
    Operation *parent = op->getParentOp();
    for (; parent && !isa<FunctionOpInterface>(parent);
         parent = parent->getParentOp())
      if (!isa<RegionBranchOpInterface, LoopLikeOpInterface>(parent))
        return "it is nested in " + parent->getName().getStringRef().str() +
               ", whose control the analysis does not model";
    if (!parent)
      return "it is in no function";
    auto [control, uniformity] = info.getEnclosingControl(op);
    if (uniformity.mayDiffer())
      return (control ? "the " + describeOp(control) : std::string("control")) +
             " around it decides on a value that may differ between members "
             "(" +
             stringifyVarianceSource(uniformity.getSource()).str() + ")";
    auto fn = cast<FunctionOpInterface>(parent);
    if (enteredAlike(fn))
      return {};
    if (fn.isPublic() && fn.getName() != "main")
      return "its function @" + fn.getName().str() +
             " is public: a host may call it on some members only";
    return "not every call of its function @" + fn.getName().str() +
           " is reached alike";
  }

  /// Every member runs `op` at the same dynamic instances.
  bool reachedAlike(Operation *op) { return whyNotReachedAlike(op).empty(); }

private:
  /// Every member enters `fn` alike.
  bool enteredAlike(FunctionOpInterface fn) {
    auto [it, inserted] = entered.try_emplace(fn, false);
    if (!inserted)
      return it->second; // known, or a recursion in progress: not alike
    ArrayRef<Operation *> uses = users.getUsers(fn);
    // The launch runs main on every member, with the same command line.
    // Another public function may be called by a host on some members
    // only, or with other arguments: never alike.
    bool alike = fn.isPublic() ? fn.getName() == "main" : !uses.empty();
    // Every call made in the module must be reached alike too.
    alike = alike && llvm::all_of(uses, [&](Operation *user) {
              auto call = dyn_cast<CallOpInterface>(user);
              auto callee =
                  call ? dyn_cast<SymbolRefAttr>(call.getCallableForCallee())
                       : SymbolRefAttr();
              return callee && callee.getLeafReference() == fn.getNameAttr() &&
                     reachedAlike(call);
            });
    entered[fn] = alike;
    return alike;
  }

  const UniformityInfo &info;
  SymbolTableCollection symbols;
  SymbolUserMap users;
  DenseMap<Operation *, bool> entered;
};

} // namespace

/// Whether the members' halo plans of this block agree without looking at
/// run-time values: its shape is static, and a memref's strides too.
static bool hasStaticBlock(Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return tensor.hasStaticShape();
  auto memref = dyn_cast<MemRefType>(type);
  SmallVector<int64_t> strides;
  int64_t offset;
  return memref && memref.hasStaticShape() &&
         succeeded(memref.getStridesAndOffset(strides, offset)) &&
         llvm::none_of(strides, ShapedType::isDynamic);
}

/// The types of the data a send sends or a recv receives.
static SmallVector<Type> getMessageTypes(Operation *op) {
  auto collective = cast<CollectiveOpInterface>(op);
  SmallVector<Type> types;
  for (Value input : collective.getInputs())
    types.push_back(input.getType());
  for (Value output : collective.getOutputs())
    types.push_back(output.getType());
  for (Value result : op->getResults())
    if (isa<ShapedType>(result.getType()))
      types.push_back(result.getType());
  return types;
}

/// Whether a send and a recv (reached alike, in one block) carry the same
/// message: the same pairs, host transfer, and static element types and
/// shapes.
static bool sameMessage(SendOp send, RecvOp recv) {
  if (send->getBlock() != recv->getBlock() ||
      send.getGroupMode() != recv.getGroupMode() || !send.getGroupIds() ||
      send.getGroupIds() != recv.getGroupIds() ||
      send.getIsHostTransfer() != recv.getIsHostTransfer())
    return false;
  SmallVector<Type> sent = getMessageTypes(send),
                    received = getMessageTypes(recv);
  if (sent.size() != received.size())
    return false;
  for (auto [s, r] : llvm::zip(sent, received)) {
    auto st = dyn_cast<ShapedType>(s), rt = dyn_cast<ShapedType>(r);
    if (!st || !rt || !st.hasStaticShape() || !rt.hasStaticShape() ||
        st.getElementType() != rt.getElementType() ||
        st.getShape() != rt.getShape())
      return false;
  }
  return true;
}

/// Why the members may not run `op` alike, by its own operands and kind
/// (its team's other ops apart); empty if they do.
static std::string whyNotAlike(Operation *op, Reach &reach,
                               const UniformityInfo &info) {
  std::string why = reach.whyNotReachedAlike(op);
  if (!why.empty())
    return why;
  if (std::optional<DifferingSize> size =
          findDifferingSize(op, info, /*forProof=*/true)) {
    unsigned operand = llvm::find(op->getOperands(), size->operand) -
                       op->getOperands().begin();
    return llvm::formatv("dimension {0} of operand {1} may differ between "
                         "members ({2})",
                         size->dim, operand,
                         stringifyVarianceSource(size->value.getSource()));
  }
  // Tables read at run time (collective_broadcast's dynamic roots) are
  // data the analysis does not follow: checked mode must compare them.
  if (auto collective = dyn_cast<CollectiveOpInterface>(op);
      collective && !collective.getRuntimeTableOperands().empty())
    return "it reads tables at run time, which checked mode compares";
  if (auto collective = dyn_cast<CollectiveOpInterface>(op);
      collective && collective.getGroupTable())
    return "its process groups are read at run time, which checked mode "
           "compares";
  if (auto halo = dyn_cast<UpdateHaloOp>(op);
      halo && (!hasStaticBlock(halo.getBlock().getType()) ||
               !halo.getHaloSizes().empty()))
    return "its block's shape or its halo sizes are run-time values, by "
           "which the members replan";
  // A grid value the analysis finds uniform (dims_create's) replans every
  // member alike.
  if (auto halo = dyn_cast<UpdateHaloOp>(op);
      halo && llvm::any_of(halo.getGridValues(), [&](Value size) {
        return !info.get(size).isUniform();
      }))
    return "a size of its grid may differ between members";
  return {};
}

/// The remark on `op`: proven, or why not.
static void reportSite(Operation *op, StringRef whyNot) {
  if (whyNot.empty()) {
    remark::passed(op->getLoc(), remarkAbout(op, kPass, "Proven"))
        << remark::add("every member runs it alike: checked mode skips it");
    return;
  }
  remark::missed(op->getLoc(), remarkAbout(op, kPass, "NotProven"))
      << remark::reason("{0}", whyNot);
}

bool mlir::distruntime::markProvenSites(Operation *module,
                                        const UniformityInfo &info) {
  Reach reach(module, info);
  // Per op, why it is not proven: empty if it is.
  llvm::MapVector<Operation *, std::string> whyNot;
  // update_halo by (team, key); send and recv by (team, channel, host
  // transfer).
  llvm::MapVector<std::pair<uint64_t, int64_t>, SmallVector<UpdateHaloOp>>
      halos;
  llvm::MapVector<std::tuple<uint64_t, int64_t, int64_t>,
                  SmallVector<Operation *>>
      channels;
  module->walk([&](Operation *op) {
    if (isa<GetHaloOp>(op))
      reportSite(op, "get_halo never is: whether a member replans depends "
                     "on its geometry values");
    auto comm = dyn_cast<CommunicatingOpInterface>(op);
    if (!comm || !comm.takesProvenMark())
      return;
    whyNot[op] = whyNotAlike(op, reach, info);
    if (auto halo = dyn_cast<UpdateHaloOp>(op))
      if (std::optional<uint64_t> key = halo.getKey())
        halos[{halo.getTeam(), static_cast<int64_t>(*key)}].push_back(halo);
    if (auto send = dyn_cast<SendOp>(op))
      channels[{send.getTeam(), static_cast<int64_t>(send.getChannelId()),
                int64_t{send.getIsHostTransfer()}}]
          .push_back(op);
    if (auto recv = dyn_cast<RecvOp>(op))
      channels[{recv.getTeam(), static_cast<int64_t>(recv.getChannelId()),
                int64_t{recv.getIsHostTransfer()}}]
          .push_back(op);
  });

  // Members replan a key together when all its update_halos are proven.
  for (auto &[key, ops] : halos) {
    auto *unproven = llvm::find_if(
        ops, [&](UpdateHaloOp op) { return !whyNot[op].empty(); });
    if (unproven == ops.end())
      continue;
    std::string why = "the " + describeOp(*unproven) +
                      ", of its team and key, is not proven: the members "
                      "replan a key together";
    for (UpdateHaloOp op : ops)
      if (whyNot[op].empty())
        whyNot[op] = why;
  }
  // A channel's send and recv are proven together, or neither.
  for (auto &[channel, ops] : channels) {
    SmallVector<SendOp> sends;
    SmallVector<RecvOp> recvs;
    for (Operation *op : ops) {
      if (auto send = dyn_cast<SendOp>(op))
        sends.push_back(send);
      else
        recvs.push_back(cast<RecvOp>(op));
    }
    bool pair = sends.size() == 1 && recvs.size() == 1 &&
                whyNot[sends[0]].empty() && whyNot[recvs[0]].empty() &&
                sameMessage(sends[0], recvs[0]);
    for (Operation *op : ops)
      if (!pair && whyNot[op].empty())
        whyNot[op] = "its channel has not one send and one recv, each proven, "
                     "in one block, with the same pairs and static message "
                     "types";
  }

  bool changed = false;
  for (auto &[op, why] : whyNot) {
    if (remarksEnabled(op->getContext()))
      reportSite(op, why);
    bool alike = why.empty();
    if (alike == op->hasAttr(kProvenAttrName))
      continue;
    changed = true;
    if (alike)
      op->setAttr(kProvenAttrName, UnitAttr::get(op->getContext()));
    else
      op->removeAttr(kProvenAttrName);
  }
  return changed;
}
