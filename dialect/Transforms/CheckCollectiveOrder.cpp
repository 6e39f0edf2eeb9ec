//===- CheckCollectiveOrder.cpp - collectives under divergent control -----===//
//
// Members meet at the collectives of one communicator in program order: the
// whole team's, or one group of a collective's replica_groups (groups of
// different layouts are different communicators). Where a branch depends on
// a value that may differ between members, the members that take different
// sides must still run the same collectives from there on: the paths of the
// sides (followed by what runs after the branch, so that a later branch can
// make up for this one) are compared per team.
//  - Whole-team collectives: paths that can never meet are an error, paths
//    that may not meet a warning.
//  - Grouped collectives: where the condition can be computed for each
//    member a group lists, a group whose members take different sides must
//    run the same collectives of its layout and of the whole team (an
//    error otherwise); where it cannot, a difference is a warning.
// A loop whose trip count may differ runs its collectives a different
// number of times, and a return under such a branch may skip the
// collectives after it: both are warnings.
//
//===----------------------------------------------------------------------===//

#include "CollectiveSequence.h"
#include "VerifySPMD.h"

#include "distruntime/Dialect/DistRuntime/IR/DistRuntimeOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SmallBitVector.h"

using namespace mlir;
using namespace mlir::distruntime;

//===----------------------------------------------------------------------===//
// Conditions computed for one member
//===----------------------------------------------------------------------===//

namespace {
/// Folds a value for one member of a team: team_member is the member's id,
/// team_size the grid's size when the module gives it, and pure ops fold.
class MemberEvaluator {
public:
  explicit MemberEvaluator(Operation *module) {
    // The grid is the module's: ask an op in it.
    module->walk([&](Operation *op) {
      if (op != module && !teamSize)
        teamSize = getProcessGrid(op).numProcesses();
      return op == module ? WalkResult::advance() : WalkResult::interrupt();
    });
  }

  std::optional<int64_t> evaluate(Value value, uint64_t team, int64_t member) {
    Attribute attr = fold(value, team, member, /*depth=*/0);
    if (auto integer = dyn_cast_if_present<IntegerAttr>(attr))
      return integer.getValue().getSExtValue();
    return std::nullopt;
  }
  std::optional<int64_t> getTeamSize() const { return teamSize; }

private:
  Attribute fold(Value value, uint64_t team, int64_t member, unsigned depth) {
    auto key = std::make_tuple(value, team, member);
    if (auto it = memo.find(key); it != memo.end())
      return it->second;
    Attribute result = compute(value, team, member, depth);
    memo[key] = result;
    return result;
  }

  Attribute compute(Value value, uint64_t team, int64_t member,
                    unsigned depth) {
    Operation *op = value.getDefiningOp();
    if (!op || depth > 64)
      return {};
    Builder builder(op->getContext());
    if (auto id = dyn_cast<TeamMemberOp>(op))
      return id.getTeam() == team ? builder.getIndexAttr(member) : Attribute();
    if (auto size = dyn_cast<TeamSizeOp>(op))
      return teamSize ? builder.getIndexAttr(*teamSize) : Attribute();
    if (!isPure(op) || op->getNumRegions())
      return {};
    SmallVector<Attribute> operands;
    for (Value operand : op->getOperands()) {
      operands.push_back(fold(operand, team, member, depth + 1));
      if (!operands.back())
        return {};
    }
    SmallVector<OpFoldResult> results;
    if (failed(op->fold(operands, results)) || results.empty()) {
      // Constants fold to their attribute.
      Attribute constant;
      if (op->hasTrait<OpTrait::ConstantLike>() &&
          succeeded(op->fold({}, results)) && results.size() == 1)
        constant = dyn_cast<Attribute>(results.front());
      return constant;
    }
    OpFoldResult folded = results[cast<OpResult>(value).getResultNumber()];
    if (auto attr = dyn_cast<Attribute>(folded))
      return attr;
    return fold(cast<Value>(folded), team, member, depth + 1);
  }

  std::optional<int64_t> teamSize;
  DenseMap<std::tuple<Value, uint64_t, int64_t>, Attribute> memo;
};
} // namespace

/// The side of `holder` that `member` takes, if the condition folds.
static std::optional<size_t> getSide(Operation *holder, uint64_t team,
                                     int64_t member,
                                     MemberEvaluator &evaluator) {
  Value decider;
  if (auto ifOp = dyn_cast<scf::IfOp>(holder))
    decider = ifOp.getCondition();
  else if (auto branch = dyn_cast<cf::CondBranchOp>(holder))
    decider = branch.getCondition();
  else if (auto switchOp = dyn_cast<scf::IndexSwitchOp>(holder))
    decider = switchOp.getArg();
  if (!decider)
    return std::nullopt;
  std::optional<int64_t> value = evaluator.evaluate(decider, team, member);
  if (!value)
    return std::nullopt;
  if (auto switchOp = dyn_cast<scf::IndexSwitchOp>(holder)) {
    // Region 0 is the default.
    for (auto [k, c] : llvm::enumerate(switchOp.getCases()))
      if (c == *value)
        return k + 1;
    return 0;
  }
  return *value ? 0 : 1;
}

/// Whether `member` may take `path`: every decision on it that folds for
/// the member was taken.
static bool mayTake(const Path &path, int64_t member,
                    MemberEvaluator &evaluator) {
  for (const Guard &guard : path.guards) {
    if (guard.predicate == -2)
      continue;
    std::optional<int64_t> lhs = evaluator.evaluate(guard.lhs, 0, member);
    if (!lhs)
      continue;
    bool value = *lhs != 0;
    if (guard.rhs) {
      std::optional<int64_t> rhs = evaluator.evaluate(guard.rhs, 0, member);
      if (!rhs)
        continue;
      value = arith::applyCmpPredicate(
          static_cast<arith::CmpIPredicate>(guard.predicate),
          APInt(64, *lhs, /*isSigned=*/true),
          APInt(64, *rhs, /*isSigned=*/true));
    }
    if (value != (guard.choice != 0))
      return false;
  }
  return true;
}

/// Whether every member of team 0 runs the same whole-team collectives in
/// `paths`: the grid gives the team's size, and each member can take one
/// path only (or paths that run the same).
static bool provesWorld(const CollectiveSummary &paths,
                        MemberEvaluator &evaluator) {
  std::optional<int64_t> size = evaluator.getTeamSize();
  if (!size || paths.unknown || *size > 1024)
    return false;
  CollectiveSummary world = paths.filter([](Operation *op) {
    return getCollectiveTeam(op) == 0 && spansTeam(op);
  });
  std::optional<CollectiveSummary> first;
  for (int64_t member = 0; member < *size; ++member) {
    CollectiveSummary mine = world;
    llvm::erase_if(mine.alternatives, [&](const Path &path) {
      return !mayTake(path, member, evaluator);
    });
    if (mine.alternatives.empty())
      return false;
    if (!first) {
      first = mine;
      if (compareSummaries(mine, mine).result != Comparison::Result::Equal)
        return false;
      continue;
    }
    if (compareSummaries(*first, mine).result != Comparison::Result::Equal)
      return false;
  }
  return true;
}

/// The members each group of `op` lists (a pair is a group of two); empty
/// when the ids are not team members (partitions of a larger grid).
static SmallVector<SmallVector<int64_t>> getGroupMembers(Operation *op) {
  SmallVector<SmallVector<int64_t>> groups;
  auto collective = dyn_cast<CollectiveOpInterface>(op);
  if (!collective)
    return groups;
  ProcessGrid grid = getProcessGrid(op);
  GroupMode mode = collective.getGroupMode();
  bool ranks = mode == GroupMode::FlattenedIds ||
               (mode == GroupMode::CrossPartition ? grid.numReplicas == 1
                                                  : grid.numPartitions == 1);
  DenseIntElementsAttr ids = collective.getGroupIds();
  if (!ranks || !ids || ids.getType().getRank() != 2)
    return groups;
  int64_t width = ids.getType().getDimSize(1);
  SmallVector<int64_t> values(ids.getValues<int64_t>());
  for (size_t row = 0; row * width < values.size(); ++row) {
    SmallVector<int64_t> &group = groups.emplace_back();
    for (int64_t id : ArrayRef(values).slice(row * width, width))
      if (id >= 0)
        group.push_back(id);
  }
  return groups;
}

//===----------------------------------------------------------------------===//
// Sides of a branch
//===----------------------------------------------------------------------===//

namespace {
/// The layout of a collective's communicator on its team.
struct Layout {
  uint64_t team;
  Operation *op; // null: the whole team
  bool operator==(const Layout &rhs) const {
    if (team != rhs.team || !op != !rhs.op)
      return false;
    if (!op)
      return true;
    auto l = cast<CollectiveOpInterface>(op);
    auto r = cast<CollectiveOpInterface>(rhs.op);
    return l.getGroupMode() == r.getGroupMode() &&
           l.getGroupIds() == r.getGroupIds() &&
           l.getGroupTable() == r.getGroupTable();
  }
};

/// Compares and reports the sides of one branch.
class SideChecker {
public:
  SideChecker(Operation *holder, const Uniformity &control,
              SPMDReporter &reporter, MemberEvaluator &evaluator,
              bool worldProven = false)
      : holder(holder), control(control), reporter(reporter),
        evaluator(evaluator), worldProven(worldProven) {
    if (auto ifOp = dyn_cast<scf::IfOp>(holder))
      key = getGuard(ifOp.getCondition(), 1);
    else if (auto branch = dyn_cast<cf::CondBranchOp>(holder))
      key = getGuard(branch.getCondition(), 1);
    else if (auto switchOp = dyn_cast<scf::IndexSwitchOp>(holder))
      key = getGuard(switchOp.getArg(), 0, /*isSwitch=*/true);
  }

  void check(ArrayRef<CollectiveSummary> sides,
             ArrayRef<SmallVector<Operation *, 2>> returns);

private:
  /// A collective_permute of `permute`'s team on side `side` with other
  /// pairs: the pairs are a layout of their own, so where one side's
  /// permute finds no match this names what the other side runs instead.
  Operation *findOtherPairs(Operation *permute, size_t side) const;
  static Layout layoutOf(Operation *op) {
    return {getCollectiveTeam(op), spansTeam(op) ? nullptr : op};
  }
  /// Reports the first difference between side 0 (or `first`) and the
  /// others; true if it reported.
  bool report(ArrayRef<CollectiveSummary> sides, ArrayRef<size_t> which,
              ArrayRef<SmallVector<Operation *, 2>> returns, bool weaken,
              uint64_t team, StringRef detail,
              SharedDecision shared = decidesUniformly);

  Operation *holder;
  const Uniformity &control;
  SPMDReporter &reporter;
  MemberEvaluator &evaluator;
  /// Every member of team 0 runs the same whole-team collectives (the
  /// grid is known and every condition folds).
  bool worldProven;
  /// The decision the sides differ in: never shared.
  std::optional<Guard> key;
  /// The sides of the branch, unfiltered (check()).
  ArrayRef<CollectiveSummary> allSides;
};
} // namespace

Operation *SideChecker::findOtherPairs(Operation *permute, size_t side) const {
  Operation *found = nullptr;
  if (!isa<CollectivePermuteOp>(permute) || side >= allSides.size())
    return found;
  allSides[side].forEachCollective([&](Operation *op) {
    if (!found && isa<CollectivePermuteOp>(op) &&
        getCollectiveTeam(op) == getCollectiveTeam(permute) &&
        !(layoutOf(op) == layoutOf(permute)))
      found = op;
  });
  return found;
}

bool SideChecker::report(ArrayRef<CollectiveSummary> sides,
                         ArrayRef<size_t> which,
                         ArrayRef<SmallVector<Operation *, 2>> returns,
                         bool weaken, uint64_t team, StringRef detail,
                         SharedDecision shared) {
  for (size_t i : which.drop_front()) {
    size_t first = which.front();
    // Differences that another decision on the way explains are reported
    // at that decision: compare paths that decide the rest alike first.
    auto notKey = [&](const Guard &guard) {
      return !key || !guard.sameCondition(*key);
    };
    Comparison strict = compareSummaries(sides[first], sides[i], notKey);
    if (strict.result == Comparison::Result::Equal ||
        strict.result == Comparison::Result::Unknown)
      continue;
    Comparison c =
        compareSummaries(sides[first], sides[i], [&](const Guard &guard) {
          return notKey(guard) && shared(guard);
        });
    if (c.result == Comparison::Result::Equal ||
        c.result == Comparison::Result::Unknown)
      continue;
    bool maybe = weaken || c.result == Comparison::Result::MaybeDifferent;
    Operation *here = c.lhs ? c.lhs : c.rhs;
    Operation *there = c.lhs ? c.rhs : c.lhs;
    // A side that returns without the collective skips it.
    if (!there && !returns.empty()) {
      ArrayRef<Operation *> exits = returns[c.lhs ? i : first];
      if (!exits.empty()) {
        InFlightDiagnostic diag = reporter.warning(exits.front()->getLoc());
        diag << "this return, under a condition that may differ between "
                "members, may skip '"
             << here->getName() << "' on team " << team;
        diag.attachNote(here->getLoc()) << "the collective it may skip";
        noteDivergence(diag, holder, control);
        return true;
      }
    }
    std::string reason = c.reason;
    if (!there) {
      // Members of one pair that run permutes of other pairs: name them.
      there = findOtherPairs(here, c.lhs ? i : first);
      if (there)
        reason = compareCollectives(here, there);
    }
    InFlightDiagnostic diag = maybe ? reporter.warning(here->getLoc())
                                    : reporter.error(here->getLoc());
    diag << "'" << here->getName() << "' on team " << team
         << (maybe ? " may run" : " runs")
         << " on one side of a branch whose condition may differ between "
            "members, ";
    if (there)
      diag << "and " << (maybe ? "may not match" : "does not match")
           << " the other side: " << reason;
    else
      diag << "and the other side runs no matching collective";
    if (!detail.empty())
      diag << " (" << detail << ")";
    if (!maybe)
      diag << "; fix: run the same collective on every side, or move it out "
              "of the branch, or branch on a value every member agrees on "
              "(an all_reduce's result, team_size)";
    if (there)
      diag.attachNote(there->getLoc())
          << "the other side's '" << there->getName() << "'";
    noteDivergence(diag, holder, control);
    return true;
  }
  return false;
}

void SideChecker::check(ArrayRef<CollectiveSummary> sides,
                        ArrayRef<SmallVector<Operation *, 2>> returns) {
  allSides = sides;
  bool reportedAny = false;
  SmallVector<uint64_t> teams;
  SmallVector<Layout> grouped;
  for (const CollectiveSummary &side : sides)
    side.forEachCollective([&](Operation *op) {
      Layout layout = layoutOf(op);
      if (!llvm::is_contained(teams, layout.team))
        teams.push_back(layout.team);
      if (layout.op && !llvm::is_contained(grouped, layout))
        grouped.push_back(layout);
    });
  llvm::sort(teams);

  for (uint64_t team : teams) {
    // Sides that no member takes, where the condition folds for all.
    SmallVector<size_t> taken;
    std::optional<int64_t> size = evaluator.getTeamSize();
    bool folds = size.has_value();
    llvm::SmallBitVector used(sides.size());
    for (int64_t member = 0; folds && member < *size; ++member) {
      std::optional<size_t> side = getSide(holder, team, member, evaluator);
      folds = side.has_value();
      if (side)
        used.set(*side);
    }
    for (size_t i = 0; i < sides.size(); ++i)
      if (!folds || used.test(i))
        taken.push_back(i);

    SmallVector<CollectiveSummary, 2> world;
    for (const CollectiveSummary &side : sides)
      world.push_back(side.filter([&](Operation *op) {
        return layoutOf(op) == Layout{team, nullptr};
      }));
    // One report per team and branch: the whole team's first.
    if (taken.size() > 1 && (!worldProven || team != 0) &&
        report(world, taken, returns, /*weaken=*/false, team, "")) {
      reportedAny = true;
      continue;
    }

    for (const Layout &layout : grouped) {
      if (layout.team != team)
        continue;
      // Members that agree within these groups never split one.
      if (control.isGroupUniform() && control.getGroups().team == team &&
          control.getGroups() ==
              GroupKey{team,
                       cast<CollectiveOpInterface>(layout.op).getGroupMode(),
                       cast<CollectiveOpInterface>(layout.op).getGroupIds(),
                       nullptr})
        continue;
      SmallVector<CollectiveSummary, 2> mine;
      for (const CollectiveSummary &side : sides)
        mine.push_back(side.filter([&](Operation *op) {
          Layout other = layoutOf(op);
          return other == layout || other == Layout{team, nullptr};
        }));
      // A group whose members take different sides.
      bool foldsAll = true, reported = false;
      for (ArrayRef<int64_t> group : getGroupMembers(layout.op)) {
        SmallVector<size_t> groupSides;
        SmallVector<int64_t> witnesses;
        for (int64_t member : group) {
          std::optional<size_t> side = getSide(holder, team, member, evaluator);
          if (!side) {
            foldsAll = false;
            break;
          }
          if (!llvm::is_contained(groupSides, *side)) {
            groupSides.push_back(*side);
            witnesses.push_back(member);
          }
        }
        if (!foldsAll)
          break;
        if (groupSides.size() < 2)
          continue;
        std::string detail = "members " + std::to_string(witnesses[0]) +
                             " and " + std::to_string(witnesses[1]) +
                             " of one group take different sides";
        // Members of one group decide alike on values uniform within it.
        auto shared = [&](const Guard &guard) {
          return guard.uniformity.isUniform() ||
                 (guard.uniformity.isGroupUniform() &&
                  guard.uniformity.getGroups() ==
                      GroupKey{
                          team,
                          cast<CollectiveOpInterface>(layout.op).getGroupMode(),
                          cast<CollectiveOpInterface>(layout.op).getGroupIds(),
                          nullptr});
        };
        reported = report(mine, groupSides, {}, /*weaken=*/false, team, detail,
                          shared);
        reportedAny |= reported;
        if (reported)
          break;
      }
      if (reported)
        break;
      if (!foldsAll && !getGroupMembers(layout.op).empty()) {
        SmallVector<CollectiveSummary, 2> alone;
        for (const CollectiveSummary &side : sides)
          alone.push_back(side.filter(
              [&](Operation *op) { return layoutOf(op) == layout; }));
        SmallVector<size_t> all;
        for (size_t i = 0; i < sides.size(); ++i)
          all.push_back(i);
        if (report(alone, all, {}, /*weaken=*/true, team,
                   "within the groups of its replica_groups")) {
          reportedAny = true;
          break;
        }
      }
    }
  }

  // Each team alone agrees, but the sides interleave the teams' collectives
  // differently: members in both teams may wait for each other in two
  // places at once.
  if (reportedAny || teams.size() < 2)
    return;
  for (size_t i = 1; i < sides.size(); ++i) {
    Comparison c = compareSummaries(sides[0], sides[i], [&](const Guard &g) {
      return (!key || !g.sameCondition(*key)) && decidesUniformly(g);
    });
    if (c.result != Comparison::Result::Different &&
        c.result != Comparison::Result::MaybeDifferent)
      continue;
    Operation *here = c.lhs ? c.lhs : c.rhs;
    InFlightDiagnostic diag = reporter.warning(here->getLoc());
    diag << "'" << here->getName()
         << "' runs on one side of a branch whose condition may differ "
            "between members, in another order with the collectives of "
            "other teams than on the other side: members of several teams "
            "may wait for each other";
    if (Operation *there = c.lhs ? c.rhs : c.lhs)
      diag.attachNote(there->getLoc())
          << "the other side's '" << there->getName() << "'";
    noteDivergence(diag, holder, control);
    return;
  }
}

//===----------------------------------------------------------------------===//
// Checks
//===----------------------------------------------------------------------===//

/// The first op of `region` that runs a collective on `team`: the
/// collective, or the call or region op that holds one.
static Operation *findFirstCollective(Region &region, uint64_t team,
                                      CollectiveSummarizer &summarizer) {
  for (Block &block : region)
    for (Operation &op : block)
      if (!summarizer.summarize(&op)
               .filter(
                   [&](Operation *c) { return getCollectiveTeam(c) == team; })
               .empty())
        return &op;
  return nullptr;
}

/// Warns once per team of a loop whose trip count may differ.
static void checkLoop(Operation *loop, ArrayRef<Region *> body,
                      const Uniformity &control,
                      CollectiveSummarizer &summarizer,
                      SPMDReporter &reporter) {
  SmallVector<uint64_t> teams;
  for (Region *region : body)
    for (uint64_t team : summarizer.summarize(*region).getTeams())
      if (!llvm::is_contained(teams, team))
        teams.push_back(team);
  llvm::sort(teams);
  for (uint64_t team : teams) {
    Operation *first = nullptr;
    for (Region *region : body)
      if (!first)
        first = findFirstCollective(*region, team, summarizer);
    if (!first)
      continue;
    InFlightDiagnostic diag = reporter.warning(first->getLoc());
    diag << "'" << first->getName() << "' runs "
         << (isTeamCollective(first) ? "on team " : "collectives on team ")
         << team << " in a loop whose trip count may differ between members";
    noteDivergence(diag, loop, control);
  }
}

/// A cf branch on a cycle decides how often the cycle turns.
static void checkCycle(Block *block, const Uniformity &control,
                       CollectiveSummarizer &summarizer,
                       SPMDReporter &reporter) {
  const RegionFlow &flow = summarizer.getFlows().get(*block->getParent());
  for (Block &other : *block->getParent()) {
    if (!flow.reaches(block, &other) || !flow.reaches(&other, block))
      continue;
    for (Operation &op : other) {
      if (summarizer.summarize(&op).empty())
        continue;
      InFlightDiagnostic diag = reporter.warning(op.getLoc());
      diag << "'" << op.getName()
           << "' runs in a loop whose trip count may differ between members";
      noteDivergence(diag, block->getTerminator(), control);
      return;
    }
  }
}

/// The region of `owner` that holds `op`.
static Region *scopeRegion(Operation *owner, Operation *op) {
  for (Region &region : owner->getRegions())
    if (region.findAncestorOpInRegion(*op))
      return &region;
  return nullptr;
}

/// The sides of an scf.if or scf.index_switch, each followed by what runs
/// after the op in its scope.
static void checkLocally(Operation *op, const Uniformity &control,
                         CollectiveSummarizer &summarizer,
                         MemberEvaluator &evaluator, SPMDReporter &reporter) {
  CollectiveSummary after = summarizer.summarizeAfter(op);
  SmallVector<CollectiveSummary, 2> sides;
  for (auto [i, region] : llvm::enumerate(op->getRegions())) {
    CollectiveSummary side = summarizer.summarize(region);
    if (auto ifOp = dyn_cast<scf::IfOp>(op))
      side.decide(summarizer.decision(ifOp.getCondition(), i == 0));
    side.append(after);
    sides.push_back(std::move(side));
  }
  SideChecker(op, control, reporter, evaluator).check(sides, {});
}

/// The op whose regions make the scope `op` belongs to: its function, or
/// the loop it is in.
static Operation *getScopeOwner(Operation *op) {
  for (Operation *parent = op->getParentOp(); parent;
       parent = parent->getParentOp())
    if (isa<FunctionOpInterface, LoopLikeOpInterface>(parent) ||
        !isa<RegionBranchOpInterface>(parent))
      return parent;
  return nullptr;
}

namespace {
/// A branch whose condition may differ, in one scope.
struct Decider {
  Operation *op;
  Uniformity control;
};
} // namespace

/// Compares, per branch condition that may differ, the paths of the scope
/// (a function or loop body) that take it with those that do not: a
/// decision made twice on one condition (if c A; if !c A) is one decision.
/// Conditions the paths cannot split (a switch, a cf branch that returns,
/// too many paths) are compared locally.
static void checkScope(Region &scope, ArrayRef<Decider> deciders,
                       CollectiveSummarizer &summarizer,
                       MemberEvaluator &evaluator, SPMDReporter &reporter) {
  // Only branches around collectives need a look.
  SmallVector<Decider> relevant;
  for (const Decider &decider : deciders)
    if (decider.op->getNumSuccessors() > 1 ||
        llvm::any_of(decider.op->getRegions(), [&](Region &region) {
          return !summarizer.summarize(region).empty();
        }))
      relevant.push_back(decider);
  if (relevant.empty())
    return;
  CollectiveSummary paths = summarizer.summarize(scope);
  bool worldProven = provesWorld(paths, evaluator);
  SmallVector<Guard> done;
  for (const Decider &decider : relevant) {
    Value condition;
    if (auto ifOp = dyn_cast<scf::IfOp>(decider.op))
      condition = ifOp.getCondition();
    else if (auto branch = dyn_cast<cf::CondBranchOp>(decider.op))
      condition = branch.getCondition();
    bool splits = condition && !paths.unknown;
    if (auto branch = dyn_cast<cf::CondBranchOp>(decider.op)) {
      const RegionFlow &flow =
          summarizer.getFlows().get(*branch->getParentRegion());
      splits &= flow.getJoin(branch->getBlock()) != nullptr;
      if (!flow.getJoin(branch->getBlock())) {
        // Sides that return apart: a return may skip a collective.
        SmallVector<CollectiveSummary, 2> sides;
        SmallVector<SmallVector<Operation *, 2>, 2> returns;
        for (auto [i, successor] : llvm::enumerate(branch->getSuccessors())) {
          returns.emplace_back();
          CollectiveSummary side =
              summarizer.summarizePaths(successor, nullptr, &returns.back());
          side.decide(summarizer.decision(condition, i == 0));
          sides.push_back(std::move(side));
        }
        SideChecker(decider.op, decider.control, reporter, evaluator)
            .check(sides, returns);
        continue;
      }
    }
    if (!splits) {
      if (decider.op->getNumRegions() > 1)
        checkLocally(decider.op, decider.control, summarizer, evaluator,
                     reporter);
      continue;
    }
    // Both decisions on one condition, once.
    // Paths that never reach the branch decide nothing and are the same on
    // both sides: drop them.
    CollectiveSummary taken = paths;
    taken.keepDeciding(condition);
    CollectiveSummary notTaken = taken;
    taken.decide(summarizer.decision(condition, 1));
    notTaken.decide(summarizer.decision(condition, 0));
    Guard key = getGuard(condition, 1);
    if (llvm::any_of(
            done, [&](const Guard &other) { return other.sameCondition(key); }))
      continue;
    done.push_back(key);
    SideChecker(decider.op, decider.control, reporter, evaluator, worldProven)
        .check({taken, notTaken}, {});
  }
}

void mlir::distruntime::checkCollectiveOrder(Operation *module,
                                             const UniformityInfo &info,
                                             CollectiveSummarizer &summarizer,
                                             SPMDReporter &reporter) {
  MemberEvaluator evaluator(module);
  // Branches that may differ, by the scope (function or loop body) they
  // are in.
  llvm::MapVector<Region *, SmallVector<Decider>> scopes;
  module->walk([&](Operation *op) {
    if (!info.isLive(op))
      return;
    for (Region &region : op->getRegions())
      if (!region.empty() && !region.hasOneBlock())
        for (Block &block : region) {
          Operation *terminator = block.getTerminator();
          if (block.getNumSuccessors() < 2 || !info.isLive(terminator))
            continue;
          Uniformity control = Uniformity::uniform();
          for (Value condition : getBranchConditions(terminator))
            control = Uniformity::join(control, info.get(condition));
          if (!control.mayDiffer())
            continue;
          const RegionFlow &flow = info.getFlows().get(region);
          if (flow.inCycle(&block))
            checkCycle(&block, control, summarizer, reporter);
          else if (Operation *owner = getScopeOwner(terminator))
            if (Region *scope = scopeRegion(owner, terminator))
              scopes[scope].push_back({terminator, control});
        }

    if (!isa<RegionBranchOpInterface>(op) || isa<CollectiveOpInterface>(op))
      return;
    Uniformity control = info.getControl(op);
    if (!control.mayDiffer())
      return;
    if (auto loop = dyn_cast<LoopLikeOpInterface>(op)) {
      checkLoop(op, loop.getLoopRegions(), control, summarizer, reporter);
      return;
    }
    if (op->getNumRegions() < 2)
      return;
    if (Operation *owner = getScopeOwner(op))
      if (Region *scope = scopeRegion(owner, op))
        scopes[scope].push_back({op, control});
  });
  for (auto &[scope, deciders] : scopes)
    checkScope(*scope, deciders, summarizer, evaluator, reporter);
}
