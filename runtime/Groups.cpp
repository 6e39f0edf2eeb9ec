//===- Groups.cpp - The C++ API's process groups --------------------------===//

#include "distruntime/Runtime/distrt.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace distrt {

Groups::Groups(int32_t mode, const std::vector<std::vector<int64_t>> &groups,
               int64_t numReplicas, int64_t numPartitions) {
  // Groups of different sizes (ragged, for all_reduce and
  // collective_broadcast) are padded with -1 to the longest one, as in the C
  // table; the runtime checks the rest when the groups are used.
  size_t size = 0;
  for (const std::vector<int64_t> &group : groups)
    size = std::max(size, group.size());
  ids_.reserve(groups.size() * size);
  for (const std::vector<int64_t> &group : groups) {
    ids_.insert(ids_.end(), group.begin(), group.end());
    ids_.insert(ids_.end(), size - group.size(), int64_t{-1});
  }
  spec_ = {mode,
           numReplicas,
           numPartitions,
           static_cast<int64_t>(groups.size()),
           static_cast<int64_t>(size),
           ids_.data(),
           0};
}

Groups Groups::pairs(const std::vector<std::pair<int64_t, int64_t>> &pairs,
                     GroupMode mode, int64_t numReplicas,
                     int64_t numPartitions) {
  std::vector<std::vector<int64_t>> groups;
  groups.reserve(pairs.size());
  for (const auto &[source, target] : pairs)
    groups.push_back({source, target});
  return Groups(static_cast<int32_t>(mode), groups, numReplicas, numPartitions);
}

std::string Groups::str() const {
  std::string text = fmt::format("mode {} grid {}x{} [", spec_.mode,
                                 spec_.num_replicas, spec_.num_partitions);
  const distrt_groups_t &s = spec();
  for (int64_t g = 0; g < s.num_groups; ++g) {
    text += g ? ", [" : "[";
    for (int64_t k = 0; k < s.group_size; ++k)
      text += fmt::format("{}{}", k ? ", " : "", s.ids[g * s.group_size + k]);
    text += "]";
  }
  return text + "]";
}

} // namespace distrt
