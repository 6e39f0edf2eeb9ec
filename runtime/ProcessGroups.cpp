//===- ProcessGroups.cpp - StableHLO process grid and groups ----*- C++ -*-===//

#include "ProcessGroups.h"
#include "Error.h"

#include <fmt/ranges.h>

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <numeric>

namespace distrt::detail {

static const char *modeName(int64_t mode) {
  switch (mode) {
  case DISTRT_CROSS_REPLICA:
    return "cross_replica";
  case DISTRT_CROSS_PARTITION:
    return "cross_partition";
  case DISTRT_CROSS_REPLICA_AND_PARTITION:
    return "cross_replica_and_partition";
  default:
    return "flattened_ids";
  }
}

namespace {

/// The grid and the spec's table, checked against the team.
struct Grid {
  int64_t replicas, partitions, processes;
  int64_t mode, numGroups, groupSize;
  const int64_t *ids;
  const char *table;  // "replica_groups" or "source_target_pairs"
  bool readAtRunTime; // DISTRT_GROUPS_RUNTIME

  std::string tableText() const {
    std::string text = "[";
    for (int64_t g = 0; g < numGroups; ++g)
      text += fmt::format(
          "{}[{}]", g ? ", " : "",
          fmt::join(ids + g * groupSize, ids + (g + 1) * groupSize, ", "));
    return text + "]";
  }
  std::string describe() const {
    return fmt::format("{} {} ({}, {} replicas x {} partitions)", table,
                       tableText(), modeName(mode), replicas, partitions);
  }
  /// "process 3 (replica 1, partition 1)".
  std::string process(int64_t id) const {
    return fmt::format("process {} (replica {}, partition {})", id,
                       id / partitions, id % partitions);
  }
};

} // namespace

// The lowering writes distrt_groups_t as the LLVM struct {i32, i64, i64,
// i64, i64, ptr, i64} (lowering/RuntimeAPI/RuntimeAPI.cpp).
static_assert(offsetof(distrt_groups_t, ids) == 40 &&
                  offsetof(distrt_groups_t, flags) == 48 &&
                  sizeof(distrt_groups_t) == 56,
              "distrt_groups_t no longer matches the lowering's struct");

static Grid checkSpec(const TeamState &team, const distrt_groups_t *spec,
                      const char *table) {
  if (!spec)
    raise("the {} pointer is null", table);
  const distrt_groups_t &s = *spec;
  if (s.mode < DISTRT_CROSS_REPLICA || s.mode > DISTRT_FLATTENED_IDS)
    raise("invalid group mode {} (expected 0..3)", s.mode);
  const int64_t size = team.size;
  int64_t partitions = s.num_partitions, replicas = s.num_replicas;
  if (partitions == -1)
    partitions = 1;
  if (partitions <= 0)
    raise("num_partitions is {} (expected > 0, or -1 for 1)", s.num_partitions);
  if (replicas == -1) {
    if (size % partitions != 0)
      raise("the team has {} processes, not a multiple of num_partitions {}",
            size, partitions);
    replicas = size / partitions;
  }
  if (replicas <= 0)
    raise("num_replicas is {} (expected > 0, or -1 for team size / "
          "num_partitions)",
          s.num_replicas);
  int64_t processes = 0;
  if (__builtin_mul_overflow(replicas, partitions, &processes) ||
      processes != size)
    raise("the process grid num_replicas {} x num_partitions {} does not "
          "match the team size {}",
          replicas, partitions, size);
  if (s.num_groups < 0 || s.group_size < 0)
    raise("{} has a negative shape {} x {}", table, s.num_groups, s.group_size);
  if (s.num_groups > 0 && s.group_size > 0 && !s.ids)
    raise("{} has {} x {} ids but its ids pointer is null", table, s.num_groups,
          s.group_size);
  int64_t total = 0;
  if (__builtin_mul_overflow(s.num_groups, s.group_size, &total) ||
      total > int64_t{1} << 40)
    raise("{} is too large ({} x {})", table, s.num_groups, s.group_size);
  return {replicas, partitions,   processes,
          s.mode,   s.num_groups, s.group_size,
          s.ids,    table,        (s.flags & DISTRT_GROUPS_RUNTIME) != 0};
}

static std::vector<int64_t> makeKey(const distrt_groups_t &s) {
  std::vector<int64_t> key{s.mode, s.num_replicas, s.num_partitions,
                           s.num_groups, s.group_size};
  if (s.num_groups > 0 && s.group_size > 0)
    key.insert(key.end(), s.ids, s.ids + s.num_groups * s.group_size);
  return key;
}

/// The number of ids of the mode: replicas, partitions or processes.
static int64_t idLimit(const Grid &g) {
  switch (g.mode) {
  case DISTRT_CROSS_PARTITION:
    return g.partitions;
  case DISTRT_FLATTENED_IDS:
    return g.processes;
  default:
    return g.replicas;
  }
}

static const char *idKind(const Grid &g) {
  switch (g.mode) {
  case DISTRT_CROSS_PARTITION:
    return "partition id";
  case DISTRT_FLATTENED_IDS:
    return "process id";
  default:
    return "replica id";
  }
}

/// Every id in range. With `padded` (replica_groups), a group may end in
/// -1 entries (ragged groups: no process), after at least one id.
static void checkRange(const Grid &g, bool padded) {
  const int64_t limit = idLimit(g);
  for (int64_t i = 0; i < g.numGroups; ++i) {
    const int64_t *row = g.ids + i * g.groupSize;
    int64_t length = g.groupSize; // ids before the first -1
    for (int64_t k = 0; k < g.groupSize; ++k) {
      if (padded && row[k] == -1) {
        length = std::min(length, k);
        continue;
      }
      if (row[k] < 0 || row[k] >= limit)
        raise("{} {} in {} is out of range [0, {})", idKind(g), row[k],
              g.describe(), limit);
      if (length < k)
        raise("group {} of {} has {} {} after a -1 (-1 pads a group at its "
              "end only)",
              i, g.describe(), idKind(g), row[k]);
    }
    if (length == 0 && g.groupSize > 0)
      raise("group {} of {} is only -1 padding (a group needs at least one "
            "process)",
            i, g.describe());
  }
}

/// The number of ids of group `i` before its -1 padding.
static int64_t groupLength(const int64_t *ids, int64_t groupSize, int64_t i) {
  const int64_t *row = ids + i * groupSize;
  int64_t length = groupSize;
  while (length > 0 && row[length - 1] == -1)
    --length;
  return length;
}

/// StableHLO's process groups (flattened ids), in spec order.
static std::vector<std::vector<int64_t>> processGroups(const Grid &g) {
  // num_groups == 0: one group of every replica / partition / process.
  std::vector<int64_t> all;
  const int64_t *ids = g.ids;
  int64_t numGroups = g.numGroups, groupSize = g.groupSize;
  if (numGroups == 0) {
    all.resize(static_cast<size_t>(idLimit(g)));
    std::iota(all.begin(), all.end(), int64_t{0});
    ids = all.data();
    numGroups = 1;
    groupSize = static_cast<int64_t>(all.size());
  }
  // A ragged group's ids end at its -1 padding (checked by checkRange).
  std::vector<int64_t> lengths(static_cast<size_t>(numGroups));
  for (int64_t i = 0; i < numGroups; ++i)
    lengths[static_cast<size_t>(i)] = groupLength(ids, groupSize, i);
  auto row = [&](int64_t i) { return ids + i * groupSize; };
  auto length = [&](int64_t i) { return lengths[static_cast<size_t>(i)]; };
  const int64_t partitions = g.partitions;
  std::vector<std::vector<int64_t>> groups;
  switch (g.mode) {
  case DISTRT_CROSS_REPLICA:
    for (int64_t p = 0; p < partitions; ++p)
      for (int64_t i = 0; i < numGroups; ++i) {
        auto &group = groups.emplace_back();
        for (int64_t k = 0; k < length(i); ++k)
          group.push_back(row(i)[k] * partitions + p);
      }
    break;
  case DISTRT_CROSS_PARTITION:
    for (int64_t r = 0; r < g.replicas; ++r)
      for (int64_t i = 0; i < numGroups; ++i) {
        auto &group = groups.emplace_back();
        for (int64_t k = 0; k < length(i); ++k)
          group.push_back(r * partitions + row(i)[k]);
      }
    break;
  case DISTRT_CROSS_REPLICA_AND_PARTITION:
    // Partition-major: for each partition, the group's replicas in order.
    for (int64_t i = 0; i < numGroups; ++i) {
      auto &group = groups.emplace_back();
      for (int64_t p = 0; p < partitions; ++p)
        for (int64_t k = 0; k < length(i); ++k)
          group.push_back(row(i)[k] * partitions + p);
    }
    break;
  default:
    for (int64_t i = 0; i < numGroups; ++i)
      groups.emplace_back(row(i), row(i) + length(i));
  }
  return groups;
}

static GroupCache &cacheOf(TeamState &team) {
  if (!team.groups)
    team.groups = new GroupCache;
  return *team.groups;
}

/// Throws on every member unless all of `team` partition it into `sorted`:
/// groups read at run time (not constants of the op) may differ between
/// members, and MPI_Comm_split would build groups no member asked for.
/// One allreduce of a hash, only when a partition is split.
static void agreeOnPartition(TeamState &team,
                             const std::vector<std::vector<int64_t>> &sorted) {
  uint64_t hash = 14695981039346656037ull; // FNV-1a
  for (const auto &group : sorted) {
    for (int64_t id : group)
      hash = (hash ^ static_cast<uint64_t>(id)) * 1099511628211ull;
    hash = (hash ^ ~0ull) * 1099511628211ull;
  }
  // Equal everywhere iff the maxima of the hash and of its complement are
  // this member's own.
  uint64_t mine[2] = {hash, ~hash}, most[2] = {0, 0};
  int code = MPI_Allreduce(mine, most, 2, MPI_UINT64_T, MPI_MAX, team.comm);
  if (code != MPI_SUCCESS)
    raiseMpi(code, "MPI_Allreduce");
  if (most[0] != mine[0] || most[1] != mine[1])
    raise("the members split the team into different process groups (this "
          "member's: {}): groups read at run time must be the same on every "
          "member; run with DISTRT_CHECK=1 to see which member differs",
          sorted);
}

/// The communicator of this process's group `mine` (at `position`) in
/// `groups`. One split per partition of the team into ordered groups,
/// whichever spec (mode, ids, order of the groups) produced it. Every rank
/// computes the same groups from the same table (agreeOnPartition), so
/// every rank hits or misses the cache together.
static MPI_Comm splitComm(TeamState &team,
                          const std::vector<std::vector<int64_t>> &groups,
                          int64_t mine, int64_t position) {
  auto sorted = groups;
  std::sort(sorted.begin(), sorted.end());
  auto [it, isNew] =
      cacheOf(team).commsByLayout.try_emplace(std::move(sorted), MPI_COMM_NULL);
  if (!isNew)
    return it->second;
  // Collective over the team; rank in the new communicator == position.
  MPI_Comm comm = MPI_COMM_NULL;
  int code = MPI_Comm_split(team.comm,
                            mine >= 0 ? static_cast<int>(mine) : MPI_UNDEFINED,
                            static_cast<int>(position), &comm);
  if (code == MPI_SUCCESS && comm != MPI_COMM_NULL) {
    code = MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
    if (code != MPI_SUCCESS)
      MPI_Comm_free(&comm);
  }
  if (code != MPI_SUCCESS) {
    // No entry for a split that failed: the next call tries again.
    cacheOf(team).commsByLayout.erase(it);
    raiseMpi(code, "MPI_Comm_split");
  }
  it->second = comm;
  return comm;
}

static std::unique_ptr<GroupLayout> makeGroupLayout(TeamState &team,
                                                    const Grid &g) {
  checkRange(g, /*padded=*/true);
  const auto groups = processGroups(g);
  // Which group and position each process has; checked for every process
  // so that every rank reports the same error.
  std::vector<std::pair<int64_t, int64_t>> where(
      static_cast<size_t>(g.processes), {-1, -1});
  for (size_t i = 0; i < groups.size(); ++i)
    for (size_t k = 0; k < groups[i].size(); ++k) {
      auto &[group, position] = where[static_cast<size_t>(groups[i][k])];
      if (group == static_cast<int64_t>(i))
        raise("{} appears twice in group {} of {}", g.process(groups[i][k]), i,
              g.describe());
      if (group >= 0)
        raise("{} is in two groups ({} and {}) of {}", g.process(groups[i][k]),
              group, i, g.describe());
      group = static_cast<int64_t>(i);
      position = static_cast<int64_t>(k);
    }
  if (!groups.empty() && groups.front().empty())
    raise("{} has empty groups (group_size 0)", g.table);

  auto layout = std::make_unique<GroupLayout>();
  for (int64_t p = 0; p < g.processes; ++p)
    if (where[static_cast<size_t>(p)].first < 0) {
      layout->uncovered =
          fmt::format("{} is in no group of {}", g.process(p), g.describe());
      break;
    }
  for (size_t i = 1; i < groups.size(); ++i)
    if (groups[i].size() != groups[0].size()) {
      layout->ragged = fmt::format(
          "{} has groups of different sizes ({} in group 0, {} in group {}), "
          "which only all_reduce and collective_broadcast accept",
          g.describe(), groups[0].size(), groups[i].size(), i);
      break;
    }
  const auto [mine, position] = where[static_cast<size_t>(team.rank)];
  if (mine >= 0) {
    for (int64_t id : groups[static_cast<size_t>(mine)])
      layout->members.push_back(static_cast<int>(id));
    layout->position = static_cast<int>(position);
  }
  // A layout is made on every member at the same call (its first use is
  // collective over the team): the moment to compare tables read at run
  // time, before splitting by them. Constant tables are the same on every
  // member by construction.
  if (g.readAtRunTime) {
    auto sorted = groups;
    std::sort(sorted.begin(), sorted.end());
    agreeOnPartition(team, sorted);
  }
  bool wholeTeam = groups.size() == 1 &&
                   static_cast<int64_t>(groups[0].size()) == g.processes;
  for (size_t k = 0; wholeTeam && k < groups[0].size(); ++k)
    wholeTeam = groups[0][k] == static_cast<int64_t>(k);
  if (wholeTeam) {
    layout->comm = team.comm;
    return layout;
  }
  layout->comm = splitComm(team, groups, mine, position);
  return layout;
}

static std::unique_ptr<PairLayout> makePairLayout(TeamState &team,
                                                  const Grid &g) {
  if (g.mode == DISTRT_CROSS_REPLICA_AND_PARTITION)
    raise("{} cannot use mode cross_replica_and_partition (expected "
          "cross_replica, cross_partition or flattened_ids)",
          g.table);
  if (g.numGroups > 0 && g.groupSize != 2)
    raise("{} must have 2 ids per pair, got {}", g.table, g.groupSize);
  checkRange(g, /*padded=*/false);
  for (int column = 0; column < 2; ++column)
    for (int64_t i = 0; i < g.numGroups; ++i)
      for (int64_t j = 0; j < i; ++j)
        if (g.ids[2 * i + column] == g.ids[2 * j + column])
          raise("{} {} is the {} of two pairs ({} and {}) in {}", idKind(g),
                g.ids[2 * i + column], column ? "target" : "source", j, i,
                g.describe());
  auto layout = std::make_unique<PairLayout>();
  const int64_t partitions = g.partitions;
  const int64_t replica = team.rank / partitions,
                partition = team.rank % partitions;
  const int64_t me = g.mode == DISTRT_CROSS_REPLICA     ? replica
                     : g.mode == DISTRT_CROSS_PARTITION ? partition
                                                        : team.rank;
  auto rankOf = [&](int64_t id) {
    return static_cast<int>(
        g.mode == DISTRT_CROSS_REPLICA     ? id * partitions + partition
        : g.mode == DISTRT_CROSS_PARTITION ? replica * partitions + id
                                           : id);
  };
  for (int64_t i = 0; i < g.numGroups; ++i) {
    if (g.ids[2 * i] == me)
      layout->target = rankOf(g.ids[2 * i + 1]);
    if (g.ids[2 * i + 1] == me)
      layout->source = rankOf(g.ids[2 * i]);
  }
  return layout;
}

void GroupLayout::raiseUncovered() const { throw Failure(uncovered); }
void GroupLayout::raiseRagged() const { throw Failure(ragged); }

/// The layout of `spec` from `byAddress`, else `byKey`, else made by
/// `make(grid)` (after the spec is checked).
template <class Layout, class Make>
static const Layout &
findLayout(TeamState &team, const distrt_groups_t *spec, const char *what,
           std::unordered_map<const distrt_groups_t *, Layout *> &byAddress,
           std::map<std::vector<int64_t>, std::unique_ptr<Layout>> &byKey,
           Make &&make) {
  if (auto it = byAddress.find(spec);
      it != byAddress.end() &&
      matchesKey(it->second->key.data(), it->second->key.size(), *spec))
    return *it->second;
  const Grid grid = checkSpec(team, spec, what);
  std::vector<int64_t> key = makeKey(*spec);
  std::unique_ptr<Layout> &entry = byKey[key];
  if (!entry) {
    try {
      entry = make(grid);
    } catch (...) {
      byKey.erase(key);
      throw;
    }
    entry->key = std::move(key);
  }
  byAddress[spec] = entry.get();
  return *entry;
}

const GroupLayout &groupLayout(TeamState &team, const distrt_groups_t *spec) {
  // No table: one group of every process in rank order (the RFC allreduce).
  static constexpr distrt_groups_t kWholeTeam{
      DISTRT_FLATTENED_IDS, -1, -1, 0, 0, nullptr, 0};
  if (!spec)
    spec = &kWholeTeam;
  GroupCache &cache = cacheOf(team);
  return findLayout(
      team, spec, "replica_groups", cache.groupsByAddress, cache.groupsByKey,
      [&](const Grid &grid) { return makeGroupLayout(team, grid); });
}

/// The communicator of this process's group in `spec` if the team's
/// partition into `spec`'s groups was split already: by the layout cached
/// for `spec`'s address (each call after the first), else by the partition
/// (local, no MPI). nullopt if not split (or `spec` is invalid: the full
/// path reports it); MPI_COMM_NULL if this process is in no group.
static std::optional<MPI_Comm> madeGroupComm(TeamState &team,
                                             const distrt_groups_t *spec) {
  GroupCache &cache = cacheOf(team);
  if (auto it = cache.groupsByAddress.find(spec);
      it != cache.groupsByAddress.end() &&
      matchesKey(it->second->key.data(), it->second->key.size(), *spec))
    return it->second->comm;
  try {
    auto groups = processGroups(checkSpec(team, spec, "replica_groups"));
    std::sort(groups.begin(), groups.end());
    if (auto it = cache.commsByLayout.find(groups);
        it != cache.commsByLayout.end())
      return it->second;
  } catch (const Failure &) {
  }
  return std::nullopt;
}

/// The agreement of group communicator `group` of `team`.
static GroupCheck makeGroupCheck(TeamState &team, MPI_Comm group) {
  GroupCheck check;
  check.comm = dupForRuntime(group);
  int size = 0;
  MPI_Comm_size(check.comm, &size);
  MPI_Comm_rank(check.comm, &check.rank);
  std::vector<int> ranks(static_cast<size_t>(size));
  std::iota(ranks.begin(), ranks.end(), 0);
  check.teamRanks.resize(ranks.size());
  MPI_Group mine = MPI_GROUP_NULL, whole = MPI_GROUP_NULL;
  MPI_Comm_group(check.comm, &mine);
  MPI_Comm_group(team.comm, &whole);
  MPI_Group_translate_ranks(mine, size, ranks.data(), whole,
                            check.teamRanks.data());
  MPI_Group_free(&mine);
  MPI_Group_free(&whole);
  return check;
}

const GroupCheck *groupCheck(TeamState &team, const distrt_groups_t *spec,
                             bool &inNone) {
  inNone = false;
  if (!spec)
    return nullptr;
  const std::optional<MPI_Comm> made = madeGroupComm(team, spec);
  if (!made || *made == team.comm)
    return nullptr;
  if (*made == MPI_COMM_NULL) {
    inNone = true;
    return nullptr;
  }
  GroupCache &cache = cacheOf(team);
  auto it = cache.groupChecks.find(*made);
  if (it == cache.groupChecks.end()) [[unlikely]] {
    int size = 0;
    MPI_Comm_size(*made, &size);
    // A split into one group of the whole team agrees with the team.
    GroupCheck check;
    if (size != team.size)
      check = makeGroupCheck(team, *made);
    it = cache.groupChecks.emplace(*made, std::move(check)).first;
  }
  return it->second.comm == MPI_COMM_NULL ? nullptr : &it->second;
}

const PairLayout &pairLayout(TeamState &team, const distrt_groups_t *spec) {
  GroupCache &cache = cacheOf(team);
  return findLayout(
      team, spec, "source_target_pairs", cache.pairsByAddress, cache.pairsByKey,
      [&](const Grid &grid) { return makePairLayout(team, grid); });
}

MPI_Comm permuteComm(TeamState &team) {
  GroupCache &cache = cacheOf(team);
  if (cache.permuteComm == MPI_COMM_NULL) [[unlikely]]
    cache.permuteComm = dupForRuntime(team.comm);
  return cache.permuteComm;
}

MPI_Comm channelComm(TeamState &team) {
  GroupCache &cache = cacheOf(team);
  if (cache.channelComm == MPI_COMM_NULL) [[unlikely]] {
    cache.channelComm = dupForRuntime(team.comm);
    // The standard attaches MPI_TAG_UB to MPI_COMM_WORLD only (communicators
    // made by splitting may lack it); it bounds the tags of every one.
    void *value = nullptr;
    int found = 0;
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &value, &found);
    cache.tagUpperBound = found ? *static_cast<int *>(value) : 32767;
  }
  return cache.channelComm;
}

int channelTag(TeamState &team, int64_t channel) {
  channelComm(team);
  // Zigzag: 0, -1, 1, -2, ... are tags 0, 1, 2, 3, ... A wrapped tag would
  // merge two channels, so a channel past MPI_TAG_UB is an error.
  const int64_t ub = team.groups->tagUpperBound;
  const int64_t lowest = -(ub + 1) / 2, highest = ub / 2;
  if (channel < lowest || channel > highest)
    raise("channel_id {} is outside the channels MPI can keep apart ({}..{}, "
          "from MPI_TAG_UB = {})",
          channel, lowest, highest, ub);
  return static_cast<int>(channel >= 0 ? 2 * channel : -2 * channel - 1);
}

/// Made with the team: a member that skips the first point-to-point op
/// (e.g. a collective_permute self-pair) would leave the others blocked in
/// a duplication made lazily.
static void createComms(TeamState &team) {
  permuteComm(team);
  channelComm(team);
}

/// Frees the layouts and their communicators (at teardown or
/// unregistration).
static void freeGroups(TeamState &team) noexcept {
  if (!team.groups)
    return;
  freeSharedPairs(team);
  freeSharedGroups(team);
  for (auto &[group, check] : team.groups->groupChecks)
    freeComm(check.comm);
  for (auto &[groups, comm] : team.groups->commsByLayout)
    freeComm(comm);
  freeComm(team.groups->permuteComm);
  freeComm(team.groups->channelComm);
  delete team.groups;
  team.groups = nullptr;
}

[[maybe_unused]] static const bool kHooked = addTeamHooks(
    TeamStage::kProcessGroups, {.create = createComms, .release = freeGroups});

} // namespace distrt::detail

namespace distrt {

size_t Team::groupCommunicators() const {
  return detail::guarded(
      "team", id_, SourceLoc("distrt::Team::groupCommunicators"), [&] {
        const detail::TeamState &team = detail::lookupTeam(id_);
        return team.groups ? team.groups->commsByLayout.size() : size_t{0};
      });
}

} // namespace distrt
