//===- RuntimeAPI.h - libdistrt symbols as seen from IR ---------*- C++ -*-===//
//
// The lowering's mirror of include/distruntime/Runtime/distrt.h, built from
// the shared table RuntimeFunctions.def.
//
//===----------------------------------------------------------------------===//

#ifndef DISTRUNTIME_CONVERSION_RUNTIMEAPI_RUNTIMEAPI_H
#define DISTRUNTIME_CONVERSION_RUNTIMEAPI_RUNTIMEAPI_H

#include "distruntime/Dialect/DistRuntime/IR/RuntimeFunction.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"

#include <optional>

namespace mlir::distruntime {

/// Declares `fn` in `module` (once) and returns the declaration.
func::FuncOp getOrInsertRuntimeFunction(OpBuilder &builder, ModuleOp module,
                                        RuntimeFunction fn);

/// The distrt_dtype_t code of an element type, if the runtime supports it.
std::optional<int32_t> getRuntimeTypeCode(Type elementType);

/// A pointer to a NUL-terminated constant copy of `text`; equal texts share
/// one global.
Value getStringConstant(OpBuilder &builder, ModuleOp module, Location loc,
                        StringRef text);

/// A pointer to a NUL-terminated constant string "file:line:col" naming
/// `loc`, shared by all ops with the same location.
Value getLocationString(OpBuilder &builder, ModuleOp module, Location loc);

/// Emits a run-time check of generated code: where `have pred want` (index
/// values) does not hold, distrt_check_failed prints "<opName> at <loc>:
/// ...: <what>: <have> vs <want>" and ends the job.
void createRuntimeCheck(OpBuilder &builder, Location loc,
                        arith::CmpIPredicate pred, Value have, Value want,
                        StringRef opName, StringRef what);

/// Passes `memref` by MLIR's unranked convention: returns (rank, descriptor).
/// Must be called inside a memref.alloca_scope: the descriptor lives on the
/// stack.
std::pair<Value, Value> castToUnranked(OpBuilder &builder, Location loc,
                                       Value memref);

/// A pointer to a constant distrt_groups_t {mode, num_replicas,
/// num_partitions, num_groups, group_size, ids} for `ids` (replica_groups or
/// source_target_pairs); layouts with the same content share one global.
/// Ragged groups (ids of -1) are compacted: each group's ids first, padded
/// with -1 at its end, groups of only -1 dropped (distrt.h's table form).
Value getGroupsDescriptor(OpBuilder &builder, ModuleOp module, Location loc,
                          int32_t mode, int64_t numReplicas,
                          int64_t numPartitions, DenseIntElementsAttr ids);

/// A pointer to a distrt_groups_t on the stack for groups (or pairs) read at
/// run time from `table`, a dense 2-D i64 memref (asDenseGroupTable): one
/// row per group, the ids pointing at the buffer, which outlives the call.
/// Call inside a memref.alloca_scope.
Value createGroupsFromTable(OpBuilder &builder, Location loc, int32_t mode,
                            int64_t numReplicas, int64_t numPartitions,
                            Value table);

/// For a 2-D group table that is not a dense i64 buffer, a new one
/// (memref.alloc, which the caller frees after the call) holding its values,
/// copied in a loop; else null. Call outside the alloca scope.
Value asDenseGroupTable(OpBuilder &builder, Location loc, Value memref);

/// A pointer to a constant distrt_table_t {size, values} holding `values`
/// (one of an op's constant tables); tables with the same content share one
/// global.
Value getTableDescriptor(OpBuilder &builder, ModuleOp module, Location loc,
                         ArrayRef<int64_t> values);

/// A pointer to a distrt_table_t {size, values} on the stack holding the
/// elements of `memref` (1-D, integer elements), read when the code runs and
/// sign-extended to i64; one of dynamic size points at the buffer, a dense
/// i64 one (asDenseI64Table). Call inside a memref.alloca_scope.
Value createMemrefTable(OpBuilder &builder, Location loc, Value memref);

/// For a table of dynamic size that is not a dense i64 buffer, a new one
/// (memref.alloc, which the caller frees after the call) holding its values
/// as i64, filled in a loop; else null. Call outside the alloca scope: its
/// loop has blocks of its own once lowered.
Value asDenseI64Table(OpBuilder &builder, Location loc, Value memref);

/// An op's own arguments of its runtime call, after the team and the groups
/// (the runtime's Params, runtime/Params.h): scalars, each in the width the
/// entry point declares, then constant tables, each passed as a
/// getTableDescriptor() global, then tables read at run time from memrefs
/// (createMemrefTable). Table arguments of the entry point past them are
/// null: absent optional tables (collective_broadcast's roots).
struct RuntimeParams {
  SmallVector<int64_t> scalars;
  SmallVector<SmallVector<int64_t>> tables;
  SmallVector<Value> memrefTables = {};
};

/// How many tables `fn` takes, from its signature in RuntimeFunctions.def.
unsigned getTableCount(RuntimeFunction fn);

/// How a runtime function takes the memrefs of the op that calls it.
enum class OperandLists {
  /// No distrt_operand_t list (team_size, wait, the halo calls).
  None,
  /// (n, operands[n]): the operands the op has, as send and recv.
  One,
  /// (n, inputs[n], outputs[n]): the other collectives.
  InputsAndOutputs,
};

/// The operand lists `fn` takes, from its signature in RuntimeFunctions.def.
OperandLists getOperandLists(RuntimeFunction fn);

/// A pointer to a new distrt_site_t global {flags, owner, memo} of the op
/// `opName` at `loc`, its own (the runtime keeps the op's memo there):
/// "__distrt_site_<opName>", then "..._1", "..._2" for further ops. `flags`
/// are getSiteFlags(memrefs) and DISTRT_SITE_PROVEN when `proven` (the op
/// carries distruntime.proven), or only the latter when `paramsVary` (the op
/// passes tables read at run time, which a static site would not compare).
Value createSite(OpBuilder &builder, ModuleOp module, Location loc,
                 StringRef opName, ValueRange memrefs, bool proven,
                 bool paramsVary = false);

/// DISTRT_SITE_STATIC if every memref in `memrefs` has a static shape,
/// offset and strides in its type (the op's groups and scalars are
/// attributes: constants), else 0.
uint64_t getSiteFlags(ValueRange memrefs);

/// A stack array of distrt_operand_t {rank, descriptor, dtype} for
/// `memrefs`, or a null pointer when there are none. Call inside a
/// memref.alloca_scope.
Value packOperands(OpBuilder &builder, Location loc, ValueRange memrefs);

} // namespace mlir::distruntime

#endif // DISTRUNTIME_CONVERSION_RUNTIMEAPI_RUNTIMEAPI_H
