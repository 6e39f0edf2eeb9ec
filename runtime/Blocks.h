//===- Blocks.h - Block exchanges: all_gather and all_to_all ----*- C++ -*-===//
//
// Both ops exchange one block of `block` bytes with every member of the
// group: all_gather sends the same block, its input, to all (MPI_Allgather);
// all_to_all sends the j-th split of its input along split_dimension to
// member j (MPI_Alltoall). Member j's block lands in the j-th slice of the
// output along the concatenation dimension. A single dense operand whose
// blocks are contiguous byte ranges is handed to MPI as is; otherwise the
// operands travel packed in one message up to kPackLimit bytes per member,
// and past it each operand in a call of its own (a sync call whose operands
// all go as they are makes those calls directly, as the single operand's
// does: no slot). A block of more than gMaxCount bytes travels as one
// element of a wide type (LargeCount.h), never by the single operand's
// direct path.
//
//===----------------------------------------------------------------------===//

#ifndef DISTRUNTIME_RUNTIME_BLOCKS_H
#define DISTRUNTIME_RUNTIME_BLOCKS_H

#include "LargeCount.h"
#include "OpCall.h"
#include "SharedGroup.h"

namespace distrt::detail {

/// How the op cuts its operands into blocks.
struct BlockShape {
  /// MPI_Allgather (one block sent to all) rather than MPI_Alltoall.
  bool gather;
  /// Inputs are split along it (all_to_all); -1: sent whole (all_gather).
  int64_t splitDim;
  /// Outputs are concatenated along it.
  int64_t concatDim;
};

struct BlockPlan {
  const GroupLayout *layout;
  BlockShape shape;
  /// Bytes exchanged with each member, all operands together.
  size_t block;
  /// `block` as MPI is given it (LargeCount.h).
  int count;
  MPI_Datatype type = MPI_BYTE;
  MPI_Comm comm;
  /// The single operand's input (output) is what MPI sends (receives).
  bool directSend = false, directRecv = false;
  /// A sync call is one MPI call from `send` to `recv`: both direct, and
  /// bytes to exchange (no more than gMaxCount).
  bool blocking = false;
  /// A sync call is one MPI call per operand, each from its input to its
  /// output: several operands past kPackLimit, every one as it is.
  bool eachBlocking = false;
  const void *send = nullptr;
  void *recv = nullptr;
  /// The group's shared window (SharedGroup.h), looked up at the first sync
  /// call small enough for it, where every member is.
  mutable SharedGroup *group = nullptr;
};

/// Plans the exchange once the op has checked the operands (resolved in
/// `s`) and put each one's block shape into m.shapes (rank values each).
void planBlocks(Memo<BlockPlan> &m, const GroupLayout &layout,
                const OpScratch &s, BlockShape shape, size_t block);

/// One blocking MPI call from `send` to `recv`, `count` elements of `type`
/// (MPI_BYTE, or a wide type) per member.
inline void exchangeBlocking(const BlockPlan &p, const void *send, void *recv,
                             int count, MPI_Datatype type) {
  if (p.shape.gather)
    checkMpi(MPI_Allgather(send, count, type, recv, count, type, p.comm),
             "MPI_Allgather");
  else
    checkMpi(MPI_Alltoall(send, count, type, recv, count, type, p.comm),
             "MPI_Alltoall");
}

/// The blocking calls of a plan with eachBlocking, one per operand.
void exchangeEachBlocking(const Memo<BlockPlan> &m);

/// A sync call whose blocks fit a slot of the group's shared window
/// (SharedGroup.h): every member writes the blocks it sends into its slot
/// and copies each member's block for it out of theirs. True if it ran
/// there (a decision every member makes alike: the group, the bytes).
bool exchangeInGroup(const Memo<BlockPlan> &m);

/// Every call but a direct one: staged, packed or one call per operand.
distrt_handle_t runBlocks(Memo<BlockPlan> &m, const Call &c);

/// The base of all_gather and all_to_all: they differ in planning only.
template <class Op> struct BlockOp : OpKind<Op, BlockPlan> {
  /// A sync call whose operands are sent and received as they are: one
  /// operand, or several past kPackLimit (no slot, no staging either way).
  static bool direct(const BlockPlan &p, bool async) {
    return !async && (p.blocking || p.eachBlocking);
  }
  static distrt_handle_t runDirect(const Memo<BlockPlan> &m,
                                   const DirectCall &) {
    if (exchangeInGroup(m))
      return 0;
    if (m.plan.eachBlocking)
      exchangeEachBlocking(m);
    else
      exchangeBlocking(m.plan, m.plan.send, m.plan.recv, m.plan.count,
                       MPI_BYTE);
    return 0;
  }
  static distrt_handle_t run(Memo<BlockPlan> &m, const Call &c) {
    return runBlocks(m, c);
  }
};

} // namespace distrt::detail

#endif // DISTRUNTIME_RUNTIME_BLOCKS_H
