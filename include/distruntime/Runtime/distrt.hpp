//===- distrt.hpp - C++ API of the distruntime runtime ----------*- C++ -*-===//
//
// The C++ face of libdistrt. The C ABI in distrt.h is a thin layer over these
// functions: one implementation serves both. Errors are thrown as
// distrt::Error; the C ABI turns them into one line on stderr and an abort.
//
// The runtime is not thread-safe: call it from the thread that initialized
// MPI (MPI_THREAD_FUNNELED).
//
//===----------------------------------------------------------------------===//

#ifndef DISTRUNTIME_RUNTIME_DISTRT_HPP
#define DISTRUNTIME_RUNTIME_DISTRT_HPP

#include "distruntime/Runtime/distrt.h"

#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <source_location>
#include <span>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

// The public API; libdistrt hides everything else (-fvisibility=hidden).
#pragma GCC visibility push(default)

namespace distrt {

enum class Dtype : int32_t {
  I1 = DISTRT_I1,
  I8 = DISTRT_I8,
  I16 = DISTRT_I16,
  I32 = DISTRT_I32,
  I64 = DISTRT_I64,
  UI8 = DISTRT_UI8,
  UI16 = DISTRT_UI16,
  UI32 = DISTRT_UI32,
  UI64 = DISTRT_UI64,
  F16 = DISTRT_F16,
  BF16 = DISTRT_BF16,
  F32 = DISTRT_F32,
  F64 = DISTRT_F64,
};

enum class RedOp : int32_t {
  Sum = DISTRT_SUM,
  Prod = DISTRT_PROD,
  Min = DISTRT_MIN,
  Max = DISTRT_MAX,
  And = DISTRT_AND,
  Or = DISTRT_OR,
  Xor = DISTRT_XOR,
  UMin = DISTRT_UMIN,
  UMax = DISTRT_UMAX,
  Minimum = DISTRT_MINIMUM,
  Maximum = DISTRT_MAXIMUM,
  MinNum = DISTRT_MINNUM,
  MaxNum = DISTRT_MAXNUM,
};

/// A reduction's reproducibility level (distrt_repro_t); `RedOp::Sum |
/// Reproducibility::Exact` asks for it where a RedOp is taken.
enum class Reproducibility : int32_t {
  Default = DISTRT_REPRO_DEFAULT,
  Mpi = DISTRT_REPRO_MPI,
  Ordered = DISTRT_REPRO_ORDERED,
  Exact = DISTRT_REPRO_EXACT,
};
constexpr RedOp operator|(RedOp op, Reproducibility level) {
  return static_cast<RedOp>(static_cast<int32_t>(op) |
                            static_cast<int32_t>(level) << DISTRT_REPRO_SHIFT);
}

/// The element type of a C++ scalar; bool is i1 (stored as one byte).
/// f16 and bf16 have no C++ type here: pass a MemrefView and a Dtype.
template <class T> constexpr Dtype dtypeOf() {
  using U = std::remove_cv_t<T>;
  if constexpr (std::is_same_v<U, bool>)
    return Dtype::I1;
  else if constexpr (std::is_same_v<U, int8_t>)
    return Dtype::I8;
  else if constexpr (std::is_same_v<U, int16_t>)
    return Dtype::I16;
  else if constexpr (std::is_same_v<U, int32_t>)
    return Dtype::I32;
  else if constexpr (std::is_same_v<U, int64_t>)
    return Dtype::I64;
  else if constexpr (std::is_same_v<U, uint8_t>)
    return Dtype::UI8;
  else if constexpr (std::is_same_v<U, uint16_t>)
    return Dtype::UI16;
  else if constexpr (std::is_same_v<U, uint32_t>)
    return Dtype::UI32;
  else if constexpr (std::is_same_v<U, uint64_t>)
    return Dtype::UI64;
  else if constexpr (std::is_same_v<U, float>)
    return Dtype::F32;
  else if constexpr (std::is_same_v<U, double>)
    return Dtype::F64;
  else
    static_assert(!sizeof(T), "no distrt dtype for this C++ type");
}

/// Where an operation was issued: the source location string of an MLIR op
/// (C ABI) or the file:line of a C++ call. Formatted only on error.
class SourceLoc {
public:
  SourceLoc(const char *text) : text_(text) {}
  SourceLoc(std::source_location where = std::source_location::current())
      : file_(where.file_name()), line_(where.line()) {}
  std::string str() const;
  /// The text given, or the C++ caller's file and line.
  const char *text() const { return text_; }
  const char *file() const { return file_; }
  unsigned line() const { return line_; }

private:
  const char *text_ = nullptr;
  const char *file_ = nullptr;
  unsigned line_ = 0;
};

/// Error::team() when no team is known (e.g. waiting on an invalid handle).
inline constexpr int64_t kNoTeam = INT64_MIN;

/// A run-time error. what() is "<op> at <loc>: team <t>, rank <r>: <message>".
class Error : public std::runtime_error {
public:
  Error(std::string op, std::string loc, int64_t team, int rank,
        std::string message, int code = MPI_SUCCESS);

  /// The MPI error code, or MPI_SUCCESS when the error is not MPI's.
  int code() const noexcept { return code_; }
  const std::string &op() const noexcept { return op_; }
  const std::string &loc() const noexcept { return loc_; }
  int64_t team() const noexcept { return team_; }
  /// The caller's rank in `team`, its world rank if the team is unknown, or -1
  /// if MPI is not running.
  int rank() const noexcept { return rank_; }
  /// The message alone, without the op/location/team/rank prefix.
  const std::string &message() const noexcept { return message_; }

private:
  std::string op_, loc_;
  int64_t team_;
  int rank_;
  std::string message_;
  int code_;
};

/// A view of an MLIR memref descriptor: element (i0, ..., ik) lives at
/// aligned[offset + sum_d i_d * strides[d]]. `sizes` and `strides` point to
/// `rank` values owned by the caller; the view is only used during a call.
struct MemrefView {
  int64_t rank = 0;
  void *allocated = nullptr;
  void *aligned = nullptr;
  int64_t offset = 0;
  const int64_t *sizes = nullptr;
  const int64_t *strides = nullptr;

  MemrefView() = default;
  MemrefView(void *data, std::span<const int64_t> sizes,
             std::span<const int64_t> strides, int64_t offset = 0);

  /// Reads MLIR's unranked memref (rank, descriptor) where the descriptor is
  /// {allocated, aligned, offset, sizes[rank], strides[rank]}.
  static MemrefView fromUnranked(int64_t rank, void *descriptor) {
    struct Header {
      void *allocated;
      void *aligned;
      int64_t offset;
    };
    MemrefView view;
    view.rank = rank;
    if (!descriptor)
      return view;
    auto *header = static_cast<Header *>(descriptor);
    view.allocated = header->allocated;
    view.aligned = header->aligned;
    view.offset = header->offset;
    view.sizes = reinterpret_cast<const int64_t *>(header + 1);
    view.strides = view.sizes + rank;
    return view;
  }
};

/// get_halo geometry: r values each (r = rank of the local block).
struct HaloGeometry {
  std::span<const int64_t> gShape, lOffsets, bbOffsets, bbSizes;
};

/// The shapes of the left and right halos implied by `geometry` for a local
/// block of `localRows` rows, as the caller must allocate them.
struct HaloShapes {
  std::vector<int64_t> left, right;
};
HaloShapes haloShapes(const HaloGeometry &geometry, int64_t localRows);

/// Checked mode (distrt_set_check: on is DISTRT_CHECK_UNPROVEN, which
/// leaves sites whose flags say DISTRT_SITE_PROVEN unchecked; pass
/// DISTRT_CHECK_ALL to distrt_set_check to check those too) and the
/// watchdog's timeout (distrt_set_timeout); every rank must make the same
/// call, between ops.
void setChecked(bool on);
void setTimeout(double seconds);

/// Initializes MPI if nobody did (MPI_THREAD_FUNNELED) and finalizes on
/// destruction what distrt initialized. Optional: every call initializes
/// lazily, and an atexit hook finalizes.
class Environment {
public:
  Environment();
  ~Environment();
  Environment(Environment &&other) noexcept : active_(other.active_) {
    other.active_ = false;
  }
  Environment &operator=(Environment &&other) noexcept;
  Environment(const Environment &) = delete;
  Environment &operator=(const Environment &) = delete;

private:
  bool active_ = true;
};

/// A team id. Constructing a Team for an id checks that it exists. A Team
/// returned by registerComm owns the registration and removes it (freeing the
/// runtime's duplicate of the communicator) when destroyed.
class Team {
public:
  /// The world (team 0).
  Team() : Team(0) {}
  explicit Team(int64_t id, SourceLoc loc = std::source_location::current());
  ~Team();
  Team(Team &&other) noexcept : id_(other.id_), owned_(other.owned_) {
    other.owned_ = false;
  }
  Team &operator=(Team &&other) noexcept;
  Team(const Team &) = delete;
  Team &operator=(const Team &) = delete;

  /// Registers a duplicate of `comm` as team `id` (id > 0, not yet in use).
  /// Collective over `comm` (it duplicates it).
  [[nodiscard]] static Team
  registerComm(int64_t id, MPI_Comm comm,
               SourceLoc loc = std::source_location::current());

  int64_t id() const noexcept { return id_; }
  int size() const;
  int rank() const;
  /// The runtime's own communicator of this team (not the registered one).
  MPI_Comm comm() const;
  /// How many communicators the runtime has split off this team for process
  /// groups: one per distinct partition into groups, however described.
  size_t groupCommunicators() const;

private:
  struct Adopt {};
  Team(int64_t id, Adopt) : id_(id), owned_(true) {}
  void drop() noexcept;
  int64_t id_;
  bool owned_ = false;
};

/// An async operation in flight. Move-only; wait() completes it. Destroying a
/// pending request waits for it (an error then aborts the job, since a
/// destructor cannot throw).
class [[nodiscard]] Request {
public:
  Request() = default;
  explicit Request(distrt_handle_t handle) : handle_(handle) {}
  ~Request();
  Request(Request &&other) noexcept : handle_(other.handle_) {
    other.handle_ = 0;
  }
  Request &operator=(Request &&other) noexcept;
  Request(const Request &) = delete;
  Request &operator=(const Request &) = delete;

  void wait(SourceLoc loc = std::source_location::current());
  bool pending() const noexcept { return handle_ != 0; }
  distrt_handle_t handle() const noexcept { return handle_; }
  /// Gives up ownership; the caller must pass the handle to distrt::wait.
  distrt_handle_t release() noexcept {
    distrt_handle_t h = handle_;
    handle_ = 0;
    return h;
  }

private:
  distrt_handle_t handle_ = 0;
};

/// Completes the operation behind a raw handle (each handle exactly once).
void wait(distrt_handle_t handle,
          SourceLoc loc = std::source_location::current());

/// The memo of one call site: pass the same Site to the repeated calls of
/// one op (a loop body) and the runtime reuses the plan of the last call
/// while the call is unchanged (team, groups, scalars, tables, operand
/// descriptors); any change plans again. Without a Site every call plans.
/// Move-only; its memo is freed with it.
class Site {
public:
  Site() = default;
  ~Site();
  Site(Site &&other) noexcept : site_(other.site_) { other.site_ = {}; }
  Site &operator=(Site &&other) noexcept;
  Site(const Site &) = delete;
  Site &operator=(const Site &) = delete;

  distrt_site_t *get() noexcept { return &site_; }

private:
  distrt_site_t site_{};
};

/// In-place allreduce of `data` (any rank, any strides) over `team`: the
/// all_reduce below over one group of the whole team.
void allreduce(const Team &team, RedOp op, Dtype dtype, const MemrefView &data,
               Site *site = nullptr,
               SourceLoc loc = std::source_location::current());
Request allreduceAsync(const Team &team, RedOp op, Dtype dtype,
                       const MemrefView &data, Site *site = nullptr,
                       SourceLoc loc = std::source_location::current());

template <class T>
void allreduce(const Team &team, RedOp op, std::span<T> data,
               Site *site = nullptr,
               SourceLoc loc = std::source_location::current()) {
  const int64_t size = static_cast<int64_t>(data.size()), stride = 1;
  allreduce(team, op, dtypeOf<T>(),
            MemrefView(data.data(), {&size, 1}, {&stride, 1}), site, loc);
}
template <class T>
Request allreduceAsync(const Team &team, RedOp op, std::span<T> data,
                       Site *site = nullptr,
                       SourceLoc loc = std::source_location::current()) {
  const int64_t size = static_cast<int64_t>(data.size()), stride = 1;
  return allreduceAsync(team, op, dtypeOf<T>(),
                        MemrefView(data.data(), {&size, 1}, {&stride, 1}), site,
                        loc);
}

/// Fills `left` and `right` (allocated by the caller with haloShapes()) with
/// the rows of the bounding box that lie before and after the local block,
/// fetched from the ranks that own them. Only dimension 0 is distributed.
///
/// With `key` >= 0 the communication plan is cached per (team, key) and
/// reused while this rank's geometry is unchanged. Planning is collective over
/// the team: when the geometry of a key changes, it must change on every rank
/// at the same call (as any redistribution in an SPMD program does).
Request getHalo(const Team &team, int64_t key, Dtype dtype,
                const MemrefView &local, const HaloGeometry &geometry,
                const MemrefView &left, const MemrefView &right,
                SourceLoc loc = std::source_location::current());

/// Fills the halo frame of `block` (this rank's block of a Cartesian
/// decomposition, frame included) from the ranks that own the cells; `spec`
/// as distrt_update_halo's (g, gridShape, then per dimension lo, hi, k,
/// axes). Planning is collective and cached per (team, key >= 0) like
/// getHalo's. The Async form's block must stay alive until it is waited.
void updateHalo(const Team &team, int64_t key, Dtype dtype,
                const MemrefView &block, std::span<const int64_t> spec,
                SourceLoc loc = std::source_location::current());
Request updateHaloAsync(const Team &team, int64_t key, Dtype dtype,
                        const MemrefView &block, std::span<const int64_t> spec,
                        SourceLoc loc = std::source_location::current());

/// One operand of a variadic collective: a memref view and its element type.
struct Operand {
  MemrefView view;
  Dtype dtype;
};
using Operands = std::span<const Operand>;

/// How the ids of Groups form process groups (StableHLO's process grid:
/// flattened id = replica * num_partitions + partition = team rank).
enum class GroupMode : int32_t {
  CrossReplica = DISTRT_CROSS_REPLICA,
  CrossPartition = DISTRT_CROSS_PARTITION,
  CrossReplicaAndPartition = DISTRT_CROSS_REPLICA_AND_PARTITION,
  FlattenedIds = DISTRT_FLATTENED_IDS,
};

/// The process groups of a collective (replica_groups) or the
/// source_target_pairs of a point-to-point op, owning its ids. A grid size
/// of -1 is derived from the team (num_partitions 1).
class Groups {
public:
  /// One group: the whole team in rank order.
  static Groups world() { return Groups(DISTRT_FLATTENED_IDS, {}); }
  /// replica_groups: each inner list one group, ids read per `mode`.
  /// Groups of different sizes (all_reduce, collective_broadcast) are
  /// padded with -1, as distrt.h describes.
  static Groups replicas(const std::vector<std::vector<int64_t>> &groups,
                         GroupMode mode = GroupMode::CrossReplica,
                         int64_t numReplicas = -1, int64_t numPartitions = -1) {
    return Groups(static_cast<int32_t>(mode), groups, numReplicas,
                  numPartitions);
  }
  /// source_target_pairs (mode CrossReplica or CrossPartition).
  static Groups pairs(const std::vector<std::pair<int64_t, int64_t>> &pairs,
                      GroupMode mode = GroupMode::CrossReplica,
                      int64_t numReplicas = -1, int64_t numPartitions = -1);

  /// The general form: `mode` a distrt_group_mode_t; groups shorter than
  /// the longest are padded with -1 (ragged groups).
  Groups(int32_t mode, const std::vector<std::vector<int64_t>> &groups,
         int64_t numReplicas = -1, int64_t numPartitions = -1);
  /// Borrows a C table (e.g. one shared with C code) for as long as this
  /// object is used: calls read its content as it is then.
  Groups(const distrt_groups_t &table) : borrowed_(&table) {}
  Groups(const Groups &other)
      : ids_(other.ids_), spec_(other.spec_), borrowed_(other.borrowed_) {
    spec_.ids = ids_.data();
  }
  Groups &operator=(const Groups &other) {
    ids_ = other.ids_;
    spec_ = other.spec_;
    spec_.ids = ids_.data();
    borrowed_ = other.borrowed_;
    return *this;
  }

  /// The C ABI's view of these groups (valid while this object lives).
  const distrt_groups_t &spec() const noexcept {
    return borrowed_ ? *borrowed_ : spec_;
  }
  /// "mode 3 grid -1x-1 [[0, 1], [2, 3]]", for messages.
  std::string str() const;

private:
  std::vector<int64_t> ids_;
  distrt_groups_t spec_{};
  const distrt_groups_t *borrowed_ = nullptr;
};

/// StableHLO-style collectives (see distrt.h for the exact semantics). The
/// plain forms complete before returning; the Async forms return a Request,
/// and the inputs and outputs must stay alive and untouched until it is
/// waited. A Site lets repeated calls skip planning (see Site).
void allGather(const Team &team, const Groups &groups, int64_t dim,
               Operands inputs, Operands outputs, Site *site = nullptr,
               SourceLoc loc = std::source_location::current());
Request allGatherAsync(const Team &team, const Groups &groups, int64_t dim,
                       Operands inputs, Operands outputs, Site *site = nullptr,
                       SourceLoc loc = std::source_location::current());

/// The reduction of every element of `input` (any shape, which may differ
/// between members) over `team` into `output`, one element of its type:
/// distrt_global_reduce. `op` is sum, prod, min or max, with a level
/// (`RedOp::Sum | Reproducibility::Exact`).
void globalReduce(const Team &team, RedOp op, Operand input, Operand output,
                  Site *site = nullptr,
                  SourceLoc loc = std::source_location::current());
Request globalReduceAsync(const Team &team, RedOp op, Operand input,
                          Operand output, Site *site = nullptr,
                          SourceLoc loc = std::source_location::current());

void allReduce(const Team &team, const Groups &groups, RedOp op,
               Operands inputs, Operands outputs, Site *site = nullptr,
               SourceLoc loc = std::source_location::current());
Request allReduceAsync(const Team &team, const Groups &groups, RedOp op,
                       Operands inputs, Operands outputs, Site *site = nullptr,
                       SourceLoc loc = std::source_location::current());

void allToAll(const Team &team, const Groups &groups, int64_t splitDim,
              int64_t concatDim, int64_t splitCount, Operands inputs,
              Operands outputs, Site *site = nullptr,
              SourceLoc loc = std::source_location::current());
Request allToAllAsync(const Team &team, const Groups &groups, int64_t splitDim,
                      int64_t concatDim, int64_t splitCount, Operands inputs,
                      Operands outputs, Site *site = nullptr,
                      SourceLoc loc = std::source_location::current());

/// sendCounts and recvCounts: G x G row-major (see distrt_all_to_all_v).
void allToAllV(const Team &team, const Groups &groups,
               std::span<const int64_t> sendCounts,
               std::span<const int64_t> recvCounts, Operands inputs,
               Operands outputs, Site *site = nullptr,
               SourceLoc loc = std::source_location::current());
Request allToAllVAsync(const Team &team, const Groups &groups,
                       std::span<const int64_t> sendCounts,
                       std::span<const int64_t> recvCounts, Operands inputs,
                       Operands outputs, Site *site = nullptr,
                       SourceLoc loc = std::source_location::current());

/// StableHLO's ragged_all_to_all (see distrt_ragged_all_to_all): this
/// member's offsets and sizes, one per group member.
struct RaggedSizes {
  std::span<const int64_t> inputOffsets, sendSizes, outputOffsets, recvSizes;
};
/// `output` is updated in place: rows nothing lands in keep their value.
void raggedAllToAll(const Team &team, const Groups &groups,
                    const RaggedSizes &sizes, Operands input, Operands output,
                    Site *site = nullptr,
                    SourceLoc loc = std::source_location::current());
Request raggedAllToAllAsync(const Team &team, const Groups &groups,
                            const RaggedSizes &sizes, Operands input,
                            Operands output, Site *site = nullptr,
                            SourceLoc loc = std::source_location::current());

void reduceScatter(const Team &team, const Groups &groups, RedOp op,
                   int64_t scatterDim, Operands inputs, Operands outputs,
                   Site *site = nullptr,
                   SourceLoc loc = std::source_location::current());
Request reduceScatterAsync(const Team &team, const Groups &groups, RedOp op,
                           int64_t scatterDim, Operands inputs,
                           Operands outputs, Site *site = nullptr,
                           SourceLoc loc = std::source_location::current());

void collectiveBroadcast(const Team &team, const Groups &groups,
                         Operands inputs, Operands outputs,
                         Site *site = nullptr,
                         SourceLoc loc = std::source_location::current());
Request collectiveBroadcastAsync(
    const Team &team, const Groups &groups, Operands inputs, Operands outputs,
    Site *site = nullptr, SourceLoc loc = std::source_location::current());
/// With dynamic roots (StableHLO's has_dynamic_root): outputs[k] comes from
/// the member at position roots[k] of the group (one root per input, the
/// same on every member of a group).
void collectiveBroadcast(const Team &team, const Groups &groups,
                         std::span<const int64_t> roots, Operands inputs,
                         Operands outputs, Site *site = nullptr,
                         SourceLoc loc = std::source_location::current());
Request
collectiveBroadcastAsync(const Team &team, const Groups &groups,
                         std::span<const int64_t> roots, Operands inputs,
                         Operands outputs, Site *site = nullptr,
                         SourceLoc loc = std::source_location::current());

void collectivePermute(const Team &team, const Groups &pairs, Operands inputs,
                       Operands outputs, Site *site = nullptr,
                       SourceLoc loc = std::source_location::current());
Request collectivePermuteAsync(const Team &team, const Groups &pairs,
                               Operands inputs, Operands outputs,
                               Site *site = nullptr,
                               SourceLoc loc = std::source_location::current());

/// send/recv on `channel`. The plain send copies the inputs and returns
/// without waiting for the receiver (buffered); sendAsync sends straight
/// from the inputs, which must stay alive until the Request is waited.
/// Host transfers ignore `pairs`.
void send(const Team &team, const Groups &pairs, int64_t channel,
          bool hostTransfer, Operands inputs, Site *site = nullptr,
          SourceLoc loc = std::source_location::current());
Request sendAsync(const Team &team, const Groups &pairs, int64_t channel,
                  bool hostTransfer, Operands inputs, Site *site = nullptr,
                  SourceLoc loc = std::source_location::current());
void recv(const Team &team, const Groups &pairs, int64_t channel,
          bool hostTransfer, Operands outputs, Site *site = nullptr,
          SourceLoc loc = std::source_location::current());
Request recvAsync(const Team &team, const Groups &pairs, int64_t channel,
                  bool hostTransfer, Operands outputs, Site *site = nullptr,
                  SourceLoc loc = std::source_location::current());

} // namespace distrt

#pragma GCC visibility pop

#endif // DISTRUNTIME_RUNTIME_DISTRT_HPP
