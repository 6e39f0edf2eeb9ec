/*===- distrt.h - C ABI of the distruntime runtime library ------*- C -*-===*\
|*                                                                          *|
|* The one declaration of every symbol that lowered distruntime IR calls.   *|
|* lowering/RuntimeAPI/RuntimeAPI.cpp mirrors this file; tests/Runtime/     *|
|* AbiTest checks that both agree with the built library.                   *|
|*                                                                          *|
|* Conventions:                                                             *|
|*  - Memrefs travel as MLIR's unranked memref: (int64_t rank, void *desc), *|
|*    desc pointing to {allocated, aligned, offset, sizes[rank],            *|
|*    strides[rank]}. Any rank and any strides are accepted.                *|
|*  - Element types travel as distrt_dtype_t, reductions as distrt_redop_t. *|
|*  - Every entry point takes `loc`, the op's source location, so that a    *|
|*    run-time error names the .mlir file and line.                         *|
|*  - No entry point returns on error: it prints one line                   *|
|*    "distrt: error: <op> at <loc>: team <t>, rank <r>: <message>"         *|
|*    to stderr and aborts the job. No exception crosses this ABI.          *|
|*  - Async handles are opaque 64-bit ids (slot and generation), never      *|
|*    pointers, so a stale or twice-waited handle is detected, not UB.      *|
\*===----------------------------------------------------------------------===*/

#ifndef DISTRUNTIME_RUNTIME_DISTRT_H
#define DISTRUNTIME_RUNTIME_DISTRT_H

#include <stdint.h>

/* The public API; libdistrt hides everything else (-fvisibility=hidden). */
#pragma GCC visibility push(default)

#ifdef __cplusplus
extern "C" {
#endif

/// Element types. Values are part of the ABI (the lowering emits them).
typedef enum distrt_dtype {
  DISTRT_I1 = 0,
  DISTRT_I8 = 1,
  DISTRT_I16 = 2,
  DISTRT_I32 = 3,
  DISTRT_I64 = 4,
  DISTRT_UI8 = 5,
  DISTRT_UI16 = 6,
  DISTRT_UI32 = 7,
  DISTRT_UI64 = 8,
  DISTRT_F16 = 9,
  DISTRT_BF16 = 10,
  DISTRT_F32 = 11,
  DISTRT_F64 = 12,
  DISTRT_NUM_DTYPES = 13
} distrt_dtype_t;

/// Reductions. Values are part of the ABI and equal the dialect's
/// ReductionKind enum values. On i1, sum is xor (addition modulo 2), prod and
/// min are `and`, max is `or`. min/max compare signless integers as signed,
/// ui* as unsigned, and floats as MPI_MIN/MPI_MAX do (a NaN operand gives an
/// unspecified result); umin/umax compare integers as unsigned; minimum/
/// maximum are IEEE 754-2019's (a NaN operand gives NaN, -0 < +0) and
/// minnum/maxnum its minimumNumber/maximumNumber (a NaN operand gives the
/// other one), on floats only.
typedef enum distrt_redop {
  DISTRT_SUM = 0,
  DISTRT_PROD = 1,
  DISTRT_MIN = 2,
  DISTRT_MAX = 3,
  DISTRT_AND = 4,
  DISTRT_OR = 5,
  DISTRT_XOR = 6,
  DISTRT_UMIN = 7,
  DISTRT_UMAX = 8,
  DISTRT_MINIMUM = 9,
  DISTRT_MAXIMUM = 10,
  DISTRT_MINNUM = 11,
  DISTRT_MAXNUM = 12,
  DISTRT_NUM_REDOPS = 13
} distrt_redop_t;

/// Reproducibility levels of a floating-point reduction (all_reduce,
/// reduce_scatter, the RFC allreduce, global_reduce), passed in the bits of
/// their `op` from DISTRT_REPRO_SHIFT on: op = redop | level <<
/// DISTRT_REPRO_SHIFT. mpi: the MPI library's order; ordered: a fixed order
/// over the members' positions in the group, for every message size, MPI
/// and algorithm; exact: sums correctly rounded, independent of the number
/// and the order of the members. DISTRT_REPRO_DEFAULT takes the level from
/// the environment variable DISTRT_REPRODUCIBLE (mpi, ordered or exact),
/// else mpi. docs/guide.md, "Reproducible reductions", defines them.
typedef enum distrt_repro {
  DISTRT_REPRO_DEFAULT = 0,
  DISTRT_REPRO_MPI = 1,
  DISTRT_REPRO_ORDERED = 2,
  DISTRT_REPRO_EXACT = 3
} distrt_repro_t;
#define DISTRT_REPRO_SHIFT 8

/// An async handle: 0 is never a valid handle.
typedef int64_t distrt_handle_t;

/// Basic queries. Team 0 is the world (a dup of MPI_COMM_WORLD).
int64_t distrt_team_size(int64_t team, const char *loc);
int64_t distrt_team_member(int64_t team, const char *loc);
/// Axis `axis` of the n-D process grid for the team's size: as close to
/// each other as possible, largest first (what MPI_Dims_create is meant to
/// choose; computed here, the same on every MPI).
int64_t distrt_dims_create(int64_t team, int64_t n, int64_t axis,
                           const char *loc);

/// Fills `left` and `right` with the rows of the bounding box before and
/// after the locally owned rows (distribution along dimension 0).
/// `geometry` is a 1-D i64 memref of 4*r values: gShape, lOffsets, bbOffsets,
/// bbSizes, r = rank(local). The halos are allocated by the caller with the
/// shapes computed in IR; the runtime checks them. `key` < 0 means no
/// caching. Always async.
distrt_handle_t distrt_get_halo(int64_t team, int64_t key, int32_t dtype,
                                int64_t localRank, void *local,
                                int64_t geometryRank, void *geometry,
                                int64_t leftRank, void *left, int64_t rightRank,
                                void *right, const char *loc);

/// Fills the halo frame of `block` in place. The array is decomposed into
/// Cartesian blocks over a process grid; `block` is this rank's block
/// *including* its halo frame: along dimension d its core (owned part) is
/// [lo[d], size[d] - hi[d]) in local indices, the rest is halo.
/// `spec` is a 1-D i64 memref:
///   g, gridShape[0..g),
///   then for each of the r = blockRank dimensions d:
///     lo[d], hi[d], k[d], axes[0..k[d])
/// The team rank is the row-major linear index over gridShape (last axis
/// fastest; prod(gridShape) must equal the team size). Along dimension d the
/// block index is the row-major linearisation of the rank's coordinates on
/// axes[0..k[d]) in listed order (first listed slowest), and there are
/// prod(gridShape[axes]) blocks along d, consecutive in block-index order;
/// k[d] == 0 means d is not split (one block; its halo, if any, lies
/// outside the array). A grid axis may be used by at most one dimension.
/// Cores may differ in size between blocks (uneven splits, empty blocks) but
/// all ranks with the same block index along d have the same core extent
/// along d. Halo cells outside the global array are not written; the rest,
/// corners included, receive the owning ranks' core values, possibly from
/// several ranks along a dimension when a width exceeds a neighbour's core.
/// `key` >= 0 caches the plan per (team, key) while this rank's shape and
/// spec are unchanged; < 0: no caching. With bit 0 of `async` set it
/// returns a handle for distrt_wait, else waits and returns 0; bit
/// DISTRT_SITE_PROVEN (2) says the op's agreement is proven (selective
/// checked mode leaves it unchecked).
distrt_handle_t distrt_update_halo(int64_t team, int64_t key, int32_t dtype,
                                   int64_t blockRank, void *block,
                                   int64_t specRank, void *spec, int32_t async,
                                   const char *loc);

/// Completes an async operation. Each handle is waited exactly once.
void distrt_wait(distrt_handle_t handle, const char *loc);

/*===----------------------------------------------------------------------===*\
|* StableHLO-style collectives                                               *|
\*===----------------------------------------------------------------------===*/

/// How `ids` of a distrt_groups_t form process groups (StableHLO's process
/// grid: flattened id = replica * num_partitions + partition = team rank).
typedef enum distrt_group_mode {
  DISTRT_CROSS_REPLICA = 0,               /* ids are replica ids */
  DISTRT_CROSS_PARTITION = 1,             /* ids are partition ids */
  DISTRT_CROSS_REPLICA_AND_PARTITION = 2, /* replica ids, all partitions */
  DISTRT_FLATTENED_IDS = 3                /* ids are flattened ids */
} distrt_group_mode_t;

/// A static group layout, emitted by the lowering as a constant global (its
/// address is stable, so the runtime caches per pointer). `ids` holds
/// num_groups rows of group_size ids (replica_groups), or for point-to-point
/// ops num_groups (source, target) pairs with group_size 2. num_groups == 0
/// means one group of every replica (or partition, or process). A grid size
/// of -1 means: num_partitions = 1, num_replicas = team size / num_partitions.
///
/// Groups of different sizes (StableHLO's ragged groups) keep this shape:
/// group_size is the longest group's size and a shorter row ends in -1
/// entries, which are no process: {0, 1, 2, 3, -1, -1} with group_size 3 is
/// the groups {0, 1, 2} and {3}. -1 may only end a row (no id after it) and
/// a row needs at least one id; anything else is an error. The lowering
/// writes this form from any -1 padding all_reduce's verifier accepts (ids
/// moved to the front of their row, rows of only -1 dropped). all_reduce and
/// collective_broadcast take ragged groups; all_gather, all_to_all,
/// all_to_all_v and reduce_scatter need groups of one size;
/// source_target_pairs have no -1.
///
/// `flags` may hold DISTRT_GROUPS_RUNTIME: the ids were read when the op ran
/// (a table operand, not a constant of the op), so they may differ between
/// members; the runtime then compares the members' groups when it first
/// makes their layout.
typedef struct distrt_groups {
  int32_t mode;
  int64_t num_replicas;
  int64_t num_partitions;
  int64_t num_groups;
  int64_t group_size;
  const int64_t *ids;
  uint64_t flags;
} distrt_groups_t;

#define DISTRT_GROUPS_RUNTIME 1u

/// An i64 table of an op: a constant one (all_to_all_v's counts) is emitted
/// by the lowering as a constant global as the groups are, one read at run
/// time (collective_broadcast's roots) is built on the stack. The runtime
/// compares tables by content, so a caller's table may live anywhere (the
/// stack) for the duration of the call.
typedef struct distrt_table {
  int64_t size;
  const int64_t *values;
} distrt_table_t;

/// One operand of a variadic op: an unranked memref and its element type.
typedef struct distrt_operand {
  int64_t rank;
  void *desc;
  int64_t dtype;
} distrt_operand_t;

/// The runtime state of one call site: the lowering emits one per op, as a
/// global zero but for its `flags`. The runtime keeps there the site's last
/// call that passed every check and its plan (`owner`, `memo`: its own,
/// never touched by the caller), so a loop repeating the call goes straight
/// to MPI while the call (team, groups, scalars, tables, operand
/// descriptors) is unchanged.
typedef struct distrt_site {
  uint64_t flags;
  const void *owner;
  void *memo;
} distrt_site_t;

/// Set by the lowering when every memref operand of the op has a static
/// shape, offset and strides in its type: at such a site only the team and
/// the buffers' addresses can change from call to call (the groups, scalars
/// and tables are the op's attributes), and the runtime compares only those.
/// In checked mode, where checked mode checks the site, it compares
/// everything and reports a call that breaks the flag.
#define DISTRT_SITE_STATIC 1u

/// Set by the lowering on the site of an op that distruntime-verify-spmd
/// proved every member of its team runs alike (the op carries
/// `distruntime.proven`, docs/verification.md): checked mode at its default
/// level (DISTRT_CHECK=1, DISTRT_CHECK_UNPROVEN) runs such a site as
/// unchecked mode does, without agreement, message headers or (unless a
/// timeout is set explicitly) the watchdog; DISTRT_CHECK=all
/// (DISTRT_CHECK_ALL) checks it too. update_halo takes the same bit in its
/// `async` argument. For send and recv, the sender's and the receiver's
/// sites must carry it alike (the lowering marks a channel's pair
/// together): a checked receiver waits for the header an unchecked sender
/// never sends.
#define DISTRT_SITE_PROVEN 2u

/// Each call below takes n inputs and/or n outputs (memrefs, any strides).
/// With `async` non-zero it returns a handle for distrt_wait, else 0 after
/// completion. Inputs are never written unless they alias their output.
/// `site` may be NULL (every call is then planned anew). `groups` NULL means
/// one group of the whole team in rank order; an all_reduce so called is
/// the RFC's `allreduce` (inputs == outputs: in place) and named so in
/// errors.

/// results[k] = concat(inputs[k] of every group member, in group order, dim).
distrt_handle_t distrt_all_gather(int64_t team, const distrt_groups_t *groups,
                                  int64_t dim, int64_t n,
                                  const distrt_operand_t *inputs,
                                  const distrt_operand_t *outputs,
                                  int32_t async, distrt_site_t *site,
                                  const char *loc);

/// results[k] = reduction of inputs[k] over the group (outputs may alias).
distrt_handle_t distrt_all_reduce(int64_t team, const distrt_groups_t *groups,
                                  int32_t op, int64_t n,
                                  const distrt_operand_t *inputs,
                                  const distrt_operand_t *outputs,
                                  int32_t async, distrt_site_t *site,
                                  const char *loc);

/// outputs[k] (one element) = the reduction of every element of inputs[k]
/// (any shape, which may differ between members) over the group: each
/// member folds its elements in row-major order, then the members' values
/// are reduced as all_reduce does; at DISTRT_REPRO_EXACT a floating-point
/// sum is the correctly rounded sum of every element of every member.
/// `op` is sum, prod, min or max. `groups` must be NULL (the team).
distrt_handle_t distrt_global_reduce(int64_t team,
                                     const distrt_groups_t *groups, int32_t op,
                                     int64_t n, const distrt_operand_t *inputs,
                                     const distrt_operand_t *outputs,
                                     int32_t async, distrt_site_t *site,
                                     const char *loc);

/// Splits inputs[k] into splitCount blocks along splitDim, sends block j to
/// group member j, and concatenates the received blocks along concatDim in
/// group order.
distrt_handle_t distrt_all_to_all(int64_t team, const distrt_groups_t *groups,
                                  int64_t splitDim, int64_t concatDim,
                                  int64_t splitCount, int64_t n,
                                  const distrt_operand_t *inputs,
                                  const distrt_operand_t *outputs,
                                  int32_t async, distrt_site_t *site,
                                  const char *loc);

/// The member at position i of a group of G sends sendCounts[i][j] rows
/// (slices along dimension 0) of inputs[k] to member j, consecutive from
/// row 0 in group order, and receives recvCounts[i][j] rows from member j
/// into the leading rows of outputs[k], in group order; the output rows
/// past them become zeros. Both tables are G x G, row-major, the same on
/// every member, and recvCounts is the transpose of sendCounts.
distrt_handle_t distrt_all_to_all_v(int64_t team, const distrt_groups_t *groups,
                                    const distrt_table_t *sendCounts,
                                    const distrt_table_t *recvCounts, int64_t n,
                                    const distrt_operand_t *inputs,
                                    const distrt_operand_t *outputs,
                                    int32_t async, distrt_site_t *site,
                                    const char *loc);

/// distrt_all_to_all_v with this member's rows of the tables only, as
/// MPI_Alltoallv takes them: sendCounts[j] rows to member j, recvCounts[j]
/// from it (G values each, read at every call). In checked mode the
/// members check at every call that what each receives is what its peer
/// sends.
distrt_handle_t distrt_all_to_all_v_rows(
    int64_t team, const distrt_groups_t *groups,
    const distrt_table_t *sendCounts, const distrt_table_t *recvCounts,
    int64_t n, const distrt_operand_t *inputs, const distrt_operand_t *outputs,
    int32_t async, distrt_site_t *site, const char *loc);

/// StableHLO's ragged_all_to_all, n = 1: the member at position i of a
/// group of G sends rows [inputOffsets[j], inputOffsets[j] + sendSizes[j])
/// of inputs[0] to member j, which writes them at rows [outputOffsets[j],
/// outputOffsets[j] + sendSizes[j]) of its outputs[0] (the offsets are the
/// receiver's); recvSizes[j] is what it receives from j. Each table has G
/// values, this member's own; output rows nothing lands in keep their value.
distrt_handle_t distrt_ragged_all_to_all(
    int64_t team, const distrt_groups_t *groups,
    const distrt_table_t *inputOffsets, const distrt_table_t *sendSizes,
    const distrt_table_t *outputOffsets, const distrt_table_t *recvSizes,
    int64_t n, const distrt_operand_t *inputs, const distrt_operand_t *outputs,
    int32_t async, distrt_site_t *site, const char *loc);

/// Reduces inputs[k] over the group and keeps the block of scatterDim at
/// this member's position in its group.
distrt_handle_t distrt_reduce_scatter(
    int64_t team, const distrt_groups_t *groups, int32_t op, int64_t scatterDim,
    int64_t n, const distrt_operand_t *inputs, const distrt_operand_t *outputs,
    int32_t async, distrt_site_t *site, const char *loc);

/// outputs[k] = inputs[k] of the member at position roots[k] of the group
/// (StableHLO's has_dynamic_root; `roots` null: the first member, position
/// 0, for every k); zeros on processes in no group. `roots` has n entries,
/// each in [0, group size) and the same on every member of a group (checked
/// mode checks); different groups may use different roots.
distrt_handle_t distrt_collective_broadcast(
    int64_t team, const distrt_groups_t *groups, const distrt_table_t *roots,
    int64_t n, const distrt_operand_t *inputs, const distrt_operand_t *outputs,
    int32_t async, distrt_site_t *site, const char *loc);

/// `pairs` (group_size 2, mode cross_replica or cross_partition): each
/// source's inputs go to its target's outputs; outputs of a process that is
/// nobody's target are zeros.
distrt_handle_t
distrt_collective_permute(int64_t team, const distrt_groups_t *pairs, int64_t n,
                          const distrt_operand_t *inputs,
                          const distrt_operand_t *outputs, int32_t async,
                          distrt_site_t *site, const char *loc);

/// send/recv on channel `channelId`: a source sends its inputs to its
/// target(s) in `pairs`; a target receives into its outputs (zeros if it is
/// nobody's target). Messages of one channel arrive in order. With
/// hostTransfer, send enqueues a copy on the channel's host queue and recv
/// dequeues (an empty queue is an error).
distrt_handle_t distrt_send(int64_t team, const distrt_groups_t *pairs,
                            int64_t channelId, int32_t hostTransfer, int64_t n,
                            const distrt_operand_t *inputs, int32_t async,
                            distrt_site_t *site, const char *loc);
distrt_handle_t distrt_recv(int64_t team, const distrt_groups_t *pairs,
                            int64_t channelId, int32_t hostTransfer, int64_t n,
                            const distrt_operand_t *outputs, int32_t async,
                            distrt_site_t *site, const char *loc);

/// Reports a run-time check of generated code that failed, e.g. dynamic
/// sizes of a gather or scatter that contradict each other: prints
/// "<op> at <loc>: ...: <what>: <have> vs <want>" and aborts the job.
void distrt_check_failed(const char *op, const char *what, int64_t have,
                         int64_t want, const char *loc);

/// Checked mode's levels (distrt_set_check, DISTRT_CHECK).
typedef enum distrt_check_level {
  DISTRT_CHECK_OFF = 0,
  /// DISTRT_CHECK=1: every site but those marked DISTRT_SITE_PROVEN.
  DISTRT_CHECK_UNPROVEN = 1,
  /// DISTRT_CHECK=all: every site.
  DISTRT_CHECK_ALL = 2
} distrt_check_level_t;

/// Checked mode, as DISTRT_CHECK in the environment (`level` is a
/// distrt_check_level_t; any other non-zero value means
/// DISTRT_CHECK_UNPROVEN): each collective it checks first agrees with its
/// team on its signature (op, location, groups, operand types and shapes,
/// scalars, tables) and a difference is an error on every rank naming the
/// field; point-to-point ops send headers ahead of their data. It also
/// starts the watchdog (120 s) unless a timeout is set explicitly. Every
/// rank must make the same call, between ops.
void distrt_set_check(int32_t level);

/// The watchdog's timeout in seconds, as DISTRT_TIMEOUT=<seconds>: an op,
/// wait or get_halo that has not returned within it is reported (op,
/// location, what it waits for) and ends the job. 0 turns it off. Set so,
/// explicitly, it watches every site, proven ones included. Every rank must
/// make the same call, between ops (watched, sync collectives run in their
/// nonblocking form).
void distrt_set_timeout(double seconds);

/// Host API: initialize explicitly (optional; the first call initializes MPI
/// lazily if needed) and finalize what distrt initialized.
void distrt_init(void);
void distrt_finalize(void);

#ifdef __cplusplus
}
#endif

#pragma GCC visibility pop

#endif /* DISTRUNTIME_RUNTIME_DISTRT_H */
