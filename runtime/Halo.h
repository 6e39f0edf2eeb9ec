//===- Halo.h - get_halo and update_halo communication plans ----*- C++ -*-===//
//
// A team's halo state (TeamHalos): each op's plans, cached by key, and the
// communicator their messages travel on. Made with the team and freed with
// it by the hooks of Halo.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef DISTRUNTIME_RUNTIME_HALO_H
#define DISTRUNTIME_RUNTIME_HALO_H

#include "Team.h"

#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <unordered_map>
#include <vector>

namespace distrt::detail {

class HaloChannel;

/// Rows of this rank's block that one peer needs.
struct HaloSend {
  int peer;
  int tag;
  int64_t localRow; // first row, relative to the local block
  int count;        // elements
  /// The peer wants whole rows (its bbox spans every column), so in a
  /// contiguous local block the rows are one contiguous range.
  bool wholeRows;
  /// The sub-block's sizes (r values) and column offsets (r - 1 values).
  size_t boxIndex;
};

/// Rows of one of this rank's halos that one peer owns.
struct HaloRecv {
  int peer;
  int tag;
  bool right;
  int64_t haloRow; // first row, relative to the halo
  int count;       // elements
};

/// Who sends which rows to whom, for one geometry of this rank.
struct HaloPlan {
  bool valid = false;
  int64_t rank = 0;
  /// The geometry the plan was made for: gShape, lOffsets, bbOffsets,
  /// bbSizes, local sizes (r values each).
  std::vector<int64_t> geometry;
  int64_t leftRows = 0, rightRows = 0;
  /// Elements per halo row (product of the bbox sizes in dims >= 1).
  int64_t rowElements = 0;
  std::vector<HaloSend> sends;
  std::vector<HaloRecv> recvs;
  std::vector<int64_t> boxes;
  /// Scratch for the allgathered geometry of every rank: O(P), so freed
  /// once the plan is made (a cached plan keeps O(peers) memory).
  std::vector<int64_t> gathered, gatheredDims;
  /// Its messages on this node once a second call shared them
  /// (HaloChannel.h); null: all on MPI.
  HaloChannel *channel = nullptr;
  bool shareTried = false;

  /// Heap bytes the plan holds.
  size_t bytes() const noexcept;
};

/// One box of an update_halo block that travels to or from one peer: `count`
/// of `type` at `byteOffset` from the block's first element. A box that is
/// contiguous in the block is a count of elements; a small strided one is
/// a count of elements packed through staging (its sizes at
/// UpdateHaloPlan::shapes[shapeIndex]); a large one is one element of a
/// committed derived type, owned by the plan.
struct HaloBox {
  int peer;
  int tag;
  int64_t byteOffset;
  int count;
  MPI_Datatype type;
  bool ownsType = false, packed = false;
  size_t shapeIndex = 0;
};

/// update_halo's exchange for one block shape, strides and spec of this
/// rank.
struct UpdateHaloPlan {
  bool valid = false;
  /// What the plan was made for: dtype, rank, sizes, strides, spec.
  std::vector<int64_t> key;
  std::vector<HaloBox> recvs, sends;
  /// The sizes of the packed boxes; the staging bytes they need.
  std::vector<int64_t> shapes;
  size_t stagingBytes = 0;
  /// What of it the boxes on MPI use (all of it without a channel).
  size_t mpiStagingBytes = 0;
  /// Scratch for the allgathered headers and core extents: O(P), so freed
  /// once the plan is made (a cached plan keeps O(peers) memory).
  std::vector<int64_t> gathered;
  /// Its messages on this node once a second call shared them
  /// (HaloChannel.h); null: all on MPI.
  HaloChannel *channel = nullptr;
  bool shareTried = false;

  /// Heap bytes the plan holds (its boxes' derived types not counted).
  size_t bytes() const noexcept;

  UpdateHaloPlan() = default;
  UpdateHaloPlan(const UpdateHaloPlan &) = delete;
  UpdateHaloPlan &operator=(const UpdateHaloPlan &) = delete;
  ~UpdateHaloPlan() { clear(); }
  /// Drops the boxes and frees their derived types.
  void clear() noexcept;
};

/// One op's plans on one team: by key, and one scratch plan for key < 0.
template <class Plan> class PlanCache {
public:
  /// The plan of `key` (made on first use), or for a key < 0 the scratch
  /// plan, invalidated: such calls plan every time.
  Plan &at(int64_t key) {
    // A loop calls one key over and over: skip the map's hash (a division).
    // Plans are never erased, so the pointer stays good.
    if (key >= 0 && key == lastKey_) [[likely]]
      return *last_;
    std::unique_ptr<Plan> &plan = key >= 0 ? byKey_[key] : scratch_;
    if (!plan)
      plan = std::make_unique<Plan>();
    if (key < 0) {
      plan->valid = false;
      return *plan;
    }
    lastKey_ = key;
    last_ = plan.get();
    return *plan;
  }

  /// Heap bytes of the cached plans and the scratch plan (the map's own
  /// nodes included, approximately).
  size_t bytes() const noexcept {
    size_t total = scratch_ ? sizeof(Plan) + scratch_->bytes() : 0;
    for (const auto &[key, plan] : byKey_)
      total += sizeof(key) + sizeof(plan) + 2 * sizeof(void *) +
               (plan ? sizeof(Plan) + plan->bytes() : 0);
    return total + byKey_.bucket_count() * sizeof(void *);
  }

private:
  std::unordered_map<int64_t, std::unique_ptr<Plan>> byKey_;
  std::unique_ptr<Plan> scratch_;
  /// The plan of the key asked for last (-1: none yet).
  int64_t lastKey_ = -1;
  Plan *last_ = nullptr;
};

/// A team's halo state (TeamState::halos).
struct TeamHalos {
  PlanCache<HaloPlan> getHalo;
  PlanCache<UpdateHaloPlan> updateHalo;
  /// A duplicate of the team's communicator for halo traffic, so its tags
  /// never meet anything else.
  MPI_Comm comm = MPI_COMM_NULL;
  /// The members on this process's node, made at the first plan shared;
  /// the channels in the order made (HaloChannel.h).
  MPI_Comm node = MPI_COMM_NULL;
  int nodeSize = 0;
  std::vector<std::unique_ptr<HaloChannel>> channels;

  TeamHalos();
  ~TeamHalos();
  TeamHalos(const TeamHalos &) = delete;
  TeamHalos &operator=(const TeamHalos &) = delete;
};

/// Heap bytes of team `id`'s get_halo and update_halo plan caches (0 before
/// its first halo op): what scripts/scale.sh reports per rank.
size_t haloPlanBytes(int64_t id);

/// Frees a vector's storage (clear() keeps it).
template <class T> void releaseStorage(std::vector<T> &v) noexcept {
  std::vector<T>().swap(v);
}

} // namespace distrt::detail

#endif // DISTRUNTIME_RUNTIME_HALO_H
