//===- Uniformity.h - values that may differ between members ----*- C++ -*-===//
//
// A sparse forward dataflow analysis on MLIR's framework that tells, for each
// SSA value, whether the members of a team may see different values of it at
// the same point of the program (the same dynamic instance of its
// definition). Sources of difference are the member id, received data,
// memory the analysis cannot prove uniform, and values it does not model.
// Replicating collectives make values uniform, within their process groups.
// Control flow that depends on a value that may differ makes the values it
// merges differ too (scf results, block arguments at joins, callee
// arguments). Sound: in doubt, a value may differ.
//
// Load DeadCodeAnalysis beside it, with BranchConstants (BranchConstants.h)
// or SparseConstantPropagation for the constants that one reads.
//
//===----------------------------------------------------------------------===//

#ifndef DISTRUNTIME_DIALECT_DISTRUNTIME_ANALYSIS_UNIFORMITY_H
#define DISTRUNTIME_DIALECT_DISTRUNTIME_ANALYSIS_UNIFORMITY_H

#include "distruntime/Dialect/DistRuntime/IR/ProcessGroups.h"

#include "mlir/Analysis/DataFlow/SparseAnalysis.h"
#include "mlir/IR/Dominance.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <memory>

namespace mlir::distruntime {

/// Why a value may differ: what a report points at.
enum class VarianceSource : uint8_t {
  /// distruntime.team_member.
  Member,
  /// Data received from other members (recv, collective_permute, halos...).
  Received,
  /// A load of memory the analysis cannot prove uniform.
  Memory,
  /// An argument of a function whose callers are not all known.
  Argument,
  /// A result of a call to a function without a body.
  ExternalCall,
  /// A value of an op the analysis does not model.
  Unmodeled,
};

StringRef stringifyVarianceSource(VarianceSource source);

/// The process groups of a collective: values it replicates agree within
/// each group (and members in no group agree among themselves).
struct GroupKey {
  uint64_t team = 0;
  GroupMode mode = GroupMode::CrossReplica;
  Attribute ids;
  /// The collective that defines the groups, for reports.
  Operation *op = nullptr;

  bool operator==(const GroupKey &rhs) const {
    return team == rhs.team && mode == rhs.mode && ids == rhs.ids;
  }
};

/// The value of the lattice: uninitialized < uniform < uniform within the
/// groups of one collective < may differ.
class Uniformity {
public:
  enum class Kind : uint8_t { Uninitialized, Uniform, GroupUniform, Varying };

  Uniformity() = default;
  static Uniformity uniform() { return Uniformity(Kind::Uniform); }
  static Uniformity groupUniform(const GroupKey &groups);
  /// `origin` is the op (or block argument) where the difference enters.
  static Uniformity varying(VarianceSource source, Operation *op,
                            Value value = {});

  Kind getKind() const { return kind; }
  bool isUninitialized() const { return kind == Kind::Uninitialized; }
  bool isUniform() const { return kind == Kind::Uniform; }
  bool isGroupUniform() const { return kind == Kind::GroupUniform; }
  bool isVarying() const { return kind == Kind::Varying; }
  /// Whether members may see different values (group-uniform included).
  bool mayDiffer() const { return kind >= Kind::GroupUniform; }

  const GroupKey &getGroups() const { return groups; }
  VarianceSource getSource() const { return source; }
  /// The op where the difference enters: a team_member, a load, a receive.
  Operation *getOriginOp() const { return originOp; }
  /// The value that first differs (a block argument for arguments).
  Value getOriginValue() const { return originValue; }

  static Uniformity join(const Uniformity &lhs, const Uniformity &rhs);

  /// The origin is not part of the lattice: it only explains the value.
  bool operator==(const Uniformity &rhs) const {
    return kind == rhs.kind &&
           (kind != Kind::GroupUniform || groups == rhs.groups);
  }

  void print(raw_ostream &os) const;

private:
  explicit Uniformity(Kind kind) : kind(kind) {}

  Kind kind = Kind::Uninitialized;
  GroupKey groups;
  VarianceSource source = VarianceSource::Unmodeled;
  Operation *originOp = nullptr;
  Value originValue;
};

class UniformityLattice : public dataflow::Lattice<Uniformity> {
public:
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(UniformityLattice)
  using Lattice::Lattice;
};

/// What a replicating collective guarantees of the values it writes: uniform
/// over the team when its groups are the whole team, else within its
/// groups; null if `op` does not replicate (it receives data).
std::optional<Uniformity> getReplicatedUniformity(Operation *op);

/// The buffer a memref views: through view-like ops (casts, subviews,
/// reshapes) to an allocation, an argument or another op's result.
Value getBufferRoot(Value memref);
/// The memref behind `memref` through memref.cast only (which changes the
/// type, not the elements it reaches).
Value stripMemrefCasts(Value memref);

/// The control flow of one multi-block region: reachability, and where the
/// paths from a branch meet again.
class RegionFlow {
public:
  explicit RegionFlow(Region &region);
  bool reaches(Block *from, Block *to) const;
  /// Whether `block` is on a cycle.
  bool inCycle(Block *block) const { return reaches(block, block); }
  /// Whether `block` runs only on some paths from `branchBlock`: reachable
  /// from it, and not on every path from it.
  bool isControlDependent(Block *block, Block *branchBlock) const;
  /// The block where the paths from `branchBlock` meet again, or null when
  /// they leave the region apart (returns).
  Block *getJoin(Block *branchBlock) const;
  /// The blocks with several successors.
  ArrayRef<Block *> getBranchBlocks() const { return branchBlocks; }

private:
  Region &region;
  llvm::DenseMap<Block *, llvm::SmallPtrSet<Block *, 8>> reachable;
  SmallVector<Block *> branchBlocks;
  mutable PostDominanceInfo postDominance;
};

/// The RegionFlow of each multi-block region, built on first use. Owned by
/// the pass: the analysis and the checks ask often.
class RegionFlows {
public:
  const RegionFlow &get(Region &region);

private:
  llvm::DenseMap<Region *, std::unique_ptr<RegionFlow>> flows;
};

/// The deciding operands of a terminator with several successors
/// (cf.cond_br's condition, cf.switch's flag): the operands it does not
/// forward.
SmallVector<Value> getBranchConditions(Operation *terminator);

/// The values whose difference decides whether, or how often, the regions
/// of `op` run: a condition, loop bounds, a switch flag; none for ops whose
/// regions are not control flow (reductions, linalg bodies).
SmallVector<Value> getControlOperands(Operation *op);

/// The control flow that may differ over `op`: the join of the enclosing
/// conditions (scf.if, loops, cf branches of its function) with `lookup`,
/// and the innermost op that holds one that may differ (null if none).
std::pair<Operation *, Uniformity>
getEnclosingControl(Operation *op, function_ref<Uniformity(Value)> lookup,
                    RegionFlows &flows);

/// The analysis.
class UniformityAnalysis
    : public dataflow::SparseForwardDataFlowAnalysis<UniformityLattice> {
public:
  UniformityAnalysis(DataFlowSolver &solver, RegionFlows &flows)
      : SparseForwardDataFlowAnalysis(solver), flows(flows) {}

  LogicalResult initialize(Operation *top) override;
  LogicalResult visit(ProgramPoint *point) override;

  LogicalResult visitOperation(Operation *op,
                               ArrayRef<const UniformityLattice *> operands,
                               ArrayRef<UniformityLattice *> results) override;
  void visitExternalCall(CallOpInterface call,
                         ArrayRef<const UniformityLattice *> arguments,
                         ArrayRef<UniformityLattice *> results) override;
  void visitNonControlFlowArguments(Operation *op,
                                    const RegionSuccessor &successor,
                                    ArrayRef<UniformityLattice *> arguments,
                                    unsigned firstIndex) override;

protected:
  void setToEntryState(UniformityLattice *lattice) override;
  LogicalResult visitCallOperation(
      CallOpInterface call,
      ArrayRef<const dataflow::AbstractSparseLattice *> operands,
      ArrayRef<dataflow::AbstractSparseLattice *> results) override;
  void visitCallableOperation(
      CallableOpInterface callable,
      ArrayRef<dataflow::AbstractSparseLattice *> arguments) override;

private:
  void joinInto(UniformityLattice *lattice, const Uniformity &value);
  /// The lattice of `value`, read as a dependency of `point`.
  Uniformity read(ProgramPoint *point, Value value);
  /// The enclosing control of `op`, read as a dependency of `point`.
  Uniformity readControl(ProgramPoint *point, Operation *op);

  /// Results of a region op whose control (condition, bounds) may differ.
  void visitControlOf(Operation *op);
  /// Arguments of `block` where paths from a branch that may differ merge.
  void visitJoinBlock(Block *block);
  /// Operands defined in a cf loop whose exit may differ, used after it.
  Uniformity readLoopExits(ProgramPoint *point, Operation *user);

  /// Results of ops that read memory: their operands, and the contents of
  /// the buffers they read.
  Uniformity readMemory(ProgramPoint *point, Operation *op);
  /// The contents of the buffer `memref` views, as `reader` sees them:
  /// uniform when every write that may reach it is.
  Uniformity readBufferContents(ProgramPoint *point, Value memref,
                                Operation *reader);
  Uniformity computeBufferContents(ProgramPoint *point, Value root,
                                   Operation *reader);
  /// Whether `pointer` reaches the command line: an entry point's pointer
  /// arguments, through GEPs at uniform indices and loads.
  bool isProgramInput(ProgramPoint *point, Value pointer, unsigned depth = 0);
  /// Whether `reader` completes before `writer` can run.
  bool runsBefore(Operation *reader, Operation *writer);
  /// Whether `writer` may change what `reader` (null: anything) reads.
  bool mayReach(Operation *writer, Operation *reader);
  /// The control over the calls that lead from `home` (the function that
  /// allocates a buffer) to `op`: a helper called under a condition that
  /// may differ writes on some members only.
  Uniformity readCallerControl(ProgramPoint *point, Operation *op,
                               Operation *home, unsigned depth = 0);
  /// What `writer` puts in memory.
  Uniformity writtenBy(ProgramPoint *point, Operation *writer);
  /// The operands of `op` but the buffers it accesses, and the offsets of
  /// the views through which it accesses them.
  Uniformity readAccessOperands(ProgramPoint *point, Operation *op);
  /// Values an op's regions compute from: captured ones, yielded ones.
  Uniformity readRegionValues(ProgramPoint *point, Operation *op);

  /// How a buffer is used, from the IR alone.
  struct BufferUses {
    /// Reaches code the analysis cannot follow (a call, a yield, an op
    /// without memory effects): anything may write it.
    bool escapes = false;
    SmallVector<Operation *, 4> writers;
  };
  const BufferUses &getBufferUses(Value root);

  RegionFlows &flows;
  DominanceInfo dominance;
  llvm::DenseMap<Value, BufferUses> bufferUses;
  /// Buffers whose contents are being computed: a cycle of copies reads the
  /// buffers' other writes only.
  llvm::SmallPtrSet<Value, 4> inProgress;
};

/// Queries on the solved analysis, shared by the checks.
class UniformityInfo {
public:
  UniformityInfo(DataFlowSolver &solver, RegionFlows &flows)
      : solver(solver), flows(flows) {}

  /// The lattice of `value`; uninitialized in code the analysis found dead.
  Uniformity get(Value value) const;
  /// The join of the control operands of `op`.
  Uniformity getControl(Operation *op) const;
  /// See getEnclosingControl.
  std::pair<Operation *, Uniformity> getEnclosingControl(Operation *op) const;
  /// Whether the block of `op` may run.
  bool isLive(Operation *op) const;
  /// Whether `block` may run.
  bool isLive(Block *block) const;
  /// Whether control may pass from `from` to its successor `to`.
  bool isLiveEdge(Block *from, Block *to) const;
  RegionFlows &getFlows() const { return flows; }

private:
  DataFlowSolver &solver;
  RegionFlows &flows;
};

} // namespace mlir::distruntime

#endif // DISTRUNTIME_DIALECT_DISTRUNTIME_ANALYSIS_UNIFORMITY_H
