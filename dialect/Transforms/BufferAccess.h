//===- BufferAccess.h - what an op reads and writes -------------*- C++ -*-===//
//
// The buffers an op (with the ops nested in it) reads and writes, for the
// passes that move communication: calls of functions with bodies count
// through their arguments, a wait counts as its async op's buffers, and a
// fresh allocation never aliases a value that existed before it.
//
//===----------------------------------------------------------------------===//

#ifndef DISTRUNTIME_DIALECT_TRANSFORMS_BUFFERACCESS_H
#define DISTRUNTIME_DIALECT_TRANSFORMS_BUFFERACCESS_H

#include "mlir/Analysis/AliasAnalysis.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/DenseMap.h"

namespace mlir::distruntime {

/// One access to memory: the buffer (null: memory it cannot name) and
/// whether it writes (a free writes).
struct BufferAccess {
  Value buffer;
  bool writes;
};

/// The accesses of an op; `known` is false when some effect is unknown.
struct AccessSet {
  bool known = true;
  /// The op (or an op nested in it, or a callee) communicates.
  bool communicates = false;
  SmallVector<BufferAccess> accesses;
};

class BufferAccessAnalysis {
public:
  BufferAccessAnalysis(Operation *root, AliasAnalysis &aliases)
      : aliases(aliases), dominance(root), symbols() {}

  /// What `op` and the ops nested in it read and write.
  AccessSet of(Operation *op);
  /// The memrefs `op` itself reads and writes (its own effects, without
  /// nested ops): for a communicating op, the buffers in flight.
  static void ownBuffers(Operation *op, SmallVectorImpl<Value> &reads,
                         SmallVectorImpl<Value> &writes);
  /// Distinct indices of `memref` reach distinct elements: a layout that
  /// lets two indices reach one element (a reinterpret_cast whose strides
  /// revisit elements, a zero stride) would let a write of one iteration
  /// land where another's does.
  static bool hasInjectiveLayout(Value memref);
  /// `a` and `b` may be views of one allocation.
  bool mayAlias(Value a, Value b, int depth = 0);
  /// An op with `set` may change what an op reading `reads` and writing
  /// `writes` reads or writes, or see its writes, if the two overlap.
  bool conflicts(const AccessSet &set, ArrayRef<Value> reads,
                 ArrayRef<Value> writes);

private:
  /// Adds the accesses of `op` alone (not nested ops) to `set`.
  void addOwn(Operation *op, AccessSet &set);
  /// Adds the accesses of a call through its callee's summary.
  void addCall(Operation *op, AccessSet &set);
  /// Per argument of `func` (or -1: memory it cannot name), the accesses of
  /// its body; nullopt when unknown.
  const std::optional<SmallVector<std::pair<int, bool>>> &
  summary(Operation *func);
  /// `fresh` is (a view of) an allocation made after `older` was defined.
  bool freshAfter(Value fresh, Value older);
  /// `a` and `b` are distinct memref iter_args of one loop that passes its
  /// memref iter_args on permuted (a time loop swapping two buffers) and
  /// whose initial values are pairwise apart: by induction, they are apart
  /// in every iteration.
  bool apartIterArgs(Value a, Value b, int depth);

  AliasAnalysis &aliases;
  DominanceInfo dominance;
  SymbolTableCollection symbols;
  llvm::DenseMap<Operation *, std::optional<SmallVector<std::pair<int, bool>>>>
      summaries;
};

} // namespace mlir::distruntime

#endif // DISTRUNTIME_DIALECT_TRANSFORMS_BUFFERACCESS_H
