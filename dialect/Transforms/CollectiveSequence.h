//===- CollectiveSequence.h - the collectives code runs ---------*- C++ -*-===//
//
// What a region, a side of a cf branch, or a function body runs, as the
// other members of a team see it: alternative paths, each a sequence of
// collectives (loops kept whole) and the branch decisions it took. Paths
// that decide the same condition both ways are dropped, so that `if (c)
// A; if (!c) A` runs A once on every path. Comparing the paths of two sides
// of a branch tells whether members that take different sides can meet at
// the same collectives.
//
//===----------------------------------------------------------------------===//

#ifndef DISTRUNTIME_DIALECT_TRANSFORMS_COLLECTIVESEQUENCE_H
#define DISTRUNTIME_DIALECT_TRANSFORMS_COLLECTIVESEQUENCE_H

#include "distruntime/Dialect/DistRuntime/Analysis/Uniformity.h"

#include "mlir/IR/Operation.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <memory>
#include <string>

namespace mlir::distruntime {

/// Whether `op` is one every member of its team (or group) must call in the
/// same order; point-to-point send and recv are not.
bool isTeamCollective(Operation *op);
/// The team of a collective (or of get_halo, update_halo).
uint64_t getCollectiveTeam(Operation *op);
/// Whether the members `op` synchronizes are its whole team, rather than
/// the groups of its replica_groups (or pairs).
bool spansTeam(Operation *op);

struct CollectiveSummary;

/// One step of a path: a collective, or a loop or an op whose collectives
/// the summary keeps whole.
struct SequenceItem {
  enum class Kind { Collective, Loop, Opaque };
  Kind kind;
  Operation *op;
  /// The body of a loop.
  std::shared_ptr<CollectiveSummary> body;
};
using Sequence = SmallVector<SequenceItem, 4>;

/// A branch decision: the condition (canonical: a value, or a comparison
/// with its predicate) chose `choice` (1 taken, 0 not, or a switch's
/// region). `uniformity` says which members decide alike.
struct Guard {
  Value lhs, rhs;
  int64_t predicate;
  int64_t choice;
  Uniformity uniformity;

  bool sameCondition(const Guard &other) const {
    return lhs == other.lhs && rhs == other.rhs && predicate == other.predicate;
  }
};

/// The canonical decision that `condition` chose `choice`: `!c` is `c` not
/// taken, and `a < b` is `a >= b` not taken.
Guard getGuard(Value condition, int64_t choice, bool isSwitch = false);

struct Path {
  Sequence items;
  SmallVector<Guard, 2> guards;
};

/// The paths a piece of code may take; `unknown` when there are too many,
/// a cycle, or recursion.
struct CollectiveSummary {
  bool unknown = false;
  SmallVector<Path, 2> alternatives{Path()};

  /// Whether no path runs a collective.
  bool empty() const;
  /// The collectives `keep` selects, loops kept if their body keeps some.
  CollectiveSummary filter(function_ref<bool(Operation *)> keep) const;
  /// The teams it uses.
  SmallVector<uint64_t> getTeams() const;
  /// The collectives of every path, loop bodies included.
  void forEachCollective(function_ref<void(Operation *)> fn) const;

  /// Every path of this one, then every path of `next`.
  void append(const CollectiveSummary &next);
  /// This or `other`.
  void unite(const CollectiveSummary &other);
  /// Adds `guard` to every path, and drops the paths that decided its
  /// condition otherwise.
  void decide(const Guard &guard);
  /// Drops the paths that never decide `condition`.
  void keepDeciding(Value condition);
};

/// How two summaries compare.
struct Comparison {
  enum class Result { Equal, Different, MaybeDifferent, Unknown };
  Result result = Result::Equal;
  /// The first collective on each side where they differ; null where that
  /// side has none left.
  Operation *lhs = nullptr;
  Operation *rhs = nullptr;
  /// What differs: "reduction sum here, max on the other side".
  std::string reason;
};

/// Compares collectives as other members see them: op, team, groups or
/// pairs, reduction, dimensions, key, operand count, element types, static
/// shapes and async-ness. Empty when they match.
std::string compareCollectives(Operation *lhs, Operation *rhs);

/// Decisions that the members compared make alike: a path of one side is
/// compared with the paths of the other that decide these the same way.
/// By default, decisions on uniform conditions.
using SharedDecision = function_ref<bool(const Guard &)>;
bool decidesUniformly(const Guard &guard);

/// Equal when every path of one meets every path of the other it can run
/// beside; Different when none can; MaybeDifferent when some can and some
/// not.
Comparison compareSummaries(const CollectiveSummary &lhs,
                            const CollectiveSummary &rhs,
                            SharedDecision shared = decidesUniformly);

/// Builds summaries, following calls (each callee summarized once).
class CollectiveSummarizer {
public:
  CollectiveSummarizer(RegionFlows &flows, const UniformityInfo &info)
      : flows(flows), info(info) {}

  CollectiveSummary summarize(Region &region);
  /// The ops of a block from `begin` to `end` (terminators excluded).
  CollectiveSummary summarize(Block::iterator begin, Block::iterator end);
  /// The paths of a multi-block region from `from` until `stop` (null: to
  /// the region's exits); `returns` collects the exits reached.
  CollectiveSummary
  summarizePaths(Block *from, Block *stop,
                 SmallVectorImpl<Operation *> *returns = nullptr);
  /// What `op` runs, regions and callees included.
  CollectiveSummary summarize(Operation *op);
  /// What runs after `op` until the end of its function or of the loop
  /// body it is in.
  CollectiveSummary summarizeAfter(Operation *op);
  RegionFlows &getFlows() const { return flows; }

  /// The decision that `condition` chose `choice`, with its uniformity.
  Guard decision(Value condition, int64_t choice, bool isSwitch = false) const;

private:
  RegionFlows &flows;
  const UniformityInfo &info;
  llvm::DenseMap<Operation *, std::shared_ptr<CollectiveSummary>> callees;
  llvm::SmallPtrSet<Operation *, 4> inProgress;
};

} // namespace mlir::distruntime

#endif // DISTRUNTIME_DIALECT_TRANSFORMS_COLLECTIVESEQUENCE_H
