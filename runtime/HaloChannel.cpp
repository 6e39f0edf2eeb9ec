//===- HaloChannel.cpp - A halo plan's messages in shared memory ----------===//

#include "HaloChannel.h"

#include "Environment.h"
#include "Error.h"
#include "Halo.h"
#include "Operands.h"
#include "SharedWindow.h"
#include "SpinWait.h"

#include <algorithm>
#include <climits>
#include <cstring>
#include <string>

namespace distrt::detail {

namespace {

/// A receive's entry in its receiver's directory, which senders read to
/// find their slots: who sends it, with which tag, the how-manieth such,
/// where its link lies in the receiver's segment and its bytes.
struct DirectoryEntry {
  int64_t source, tag, ordinal, offset, bytes;
};

} // namespace

/// At most this many channels per team (a program that changes a held
/// plan's shapes all the time would otherwise map a window per shape).
static constexpr size_t kMaxChannels = 64;

/// The largest message shared: DISTRT_HALO_SHM=<bytes> if set (0: none,
/// every halo message on MPI), else kSharedMessageLimit.
static int64_t sharingLimit() {
  size_t bytes = HaloChannel::kSharedMessageLimit;
  envBytes("DISTRT_HALO_SHM", bytes);
  return static_cast<int64_t>(std::min<size_t>(bytes, INT64_MAX));
}

/// The ordinal of message `i` among `messages` with its peer and tag.
static int64_t ordinalOf(std::span<const HaloMessage> messages, size_t i) {
  int64_t ordinal = 0;
  for (size_t j = 0; j < i; ++j)
    ordinal += messages[j].peer == messages[i].peer &&
               messages[j].tag == messages[i].tag;
  return ordinal;
}

static bool shareable(const HaloMessage &m, int nodeRank, int64_t limit) {
  return nodeRank != MPI_UNDEFINED && m.bytes > 0 &&
         m.bytes <= static_cast<uint64_t>(limit);
}

/// The node ranks of `messages`' peers.
static std::vector<int> nodeRanks(const TeamHalos &halos,
                                  std::span<const HaloMessage> messages) {
  std::vector<int> peers, out(messages.size(), MPI_UNDEFINED);
  peers.reserve(messages.size());
  for (const HaloMessage &m : messages)
    peers.push_back(m.peer);
  MPI_Group team = MPI_GROUP_NULL, node = MPI_GROUP_NULL;
  checkMpi(MPI_Comm_group(halos.comm, &team), "MPI_Comm_group");
  checkMpi(MPI_Comm_group(halos.node, &node), "MPI_Comm_group");
  const int code =
      peers.empty()
          ? MPI_SUCCESS
          : MPI_Group_translate_ranks(team, static_cast<int>(peers.size()),
                                      peers.data(), node, out.data());
  MPI_Group_free(&team);
  MPI_Group_free(&node);
  checkMpi(code, "MPI_Group_translate_ranks");
  return out;
}

/// The largest message the members of this rank's node share: the least
/// any of them allows (0: none). Collective over the node.
static int64_t nodeLimit(TeamHalos &halos, int teamRank) {
  if (halos.node == MPI_COMM_NULL)
    checkMpi(MPI_Comm_split_type(halos.comm, MPI_COMM_TYPE_SHARED, teamRank,
                                 MPI_INFO_NULL, &halos.node),
             "MPI_Comm_split_type");
  checkMpi(MPI_Comm_size(halos.node, &halos.nodeSize), "MPI_Comm_size");
  if (halos.nodeSize == 1)
    return 0;
  return static_cast<int64_t>(agreeOnLeast(halos.node, [&]() -> uint64_t {
    return halos.channels.size() < kMaxChannels
               ? static_cast<uint64_t>(sharingLimit())
               : 0;
  }));
}

/// Zeroes a segment of `bytes` at `base` and writes its directory.
static void writeDirectory(std::byte *base, size_t bytes,
                           const std::vector<DirectoryEntry> &directory) {
  std::memset(base, 0, bytes);
  const auto count = static_cast<int64_t>(directory.size());
  std::memcpy(base, &count, sizeof count);
  if (count > 0)
    std::memcpy(base + sizeof count, directory.data(),
                directory.size() * sizeof(DirectoryEntry));
}

/// The link of the receive `wanted` (its offset aside) in the directory of
/// the segment at `peerBase`, or null.
static const std::byte *findSlot(const std::byte *peerBase,
                                 const DirectoryEntry &wanted) {
  int64_t entries = 0;
  std::memcpy(&entries, peerBase, sizeof entries);
  for (int64_t k = 0; k < entries; ++k) {
    DirectoryEntry e;
    std::memcpy(&e, peerBase + sizeof entries + k * sizeof e, sizeof e);
    if (e.source == wanted.source && e.tag == wanted.tag &&
        e.ordinal == wanted.ordinal && e.bytes == wanted.bytes)
      return peerBase + e.offset;
  }
  return nullptr;
}

HaloChannel *shareHalo(TeamState &team, std::span<const HaloMessage> sends,
                       std::span<const HaloMessage> recvs) {
#ifdef DISTRT_SMPI
  // SMPI simulates its processes in one: no shared window.
  (void)team, (void)sends, (void)recvs;
  return nullptr;
#else
  TeamHalos &halos = *team.halos;
  const int64_t limit = nodeLimit(halos, team.rank);
  if (limit == 0)
    return nullptr;
  const std::vector<int> sendNode = nodeRanks(halos, sends);
  const std::vector<int> recvNode = nodeRanks(halos, recvs);
  std::unique_ptr<HaloChannel> channel(new HaloChannel);
  HaloChannel &c = *channel;
  c.progressComm_ = halos.comm;
  c.spins_ = spinsFor(halos.nodeSize);
  c.sendLink_.assign(sends.size(), -1);
  c.recvLink_.assign(recvs.size(), -1);

  // This rank's segment: the directory, then per shared receive its link
  // (its counter of rounds read and kSlots slots).
  std::vector<DirectoryEntry> directory;
  for (size_t i = 0; i < recvs.size(); ++i)
    if (shareable(recvs[i], recvNode[i], limit))
      directory.push_back({recvs[i].peer, recvs[i].tag, ordinalOf(recvs, i), 0,
                           static_cast<int64_t>(recvs[i].bytes)});
  size_t bytes =
      alignUp(sizeof(int64_t) + sizeof(DirectoryEntry) * directory.size());
  for (DirectoryEntry &entry : directory) {
    entry.offset = static_cast<int64_t>(bytes);
    bytes += HaloChannel::linkBytes(static_cast<size_t>(entry.bytes));
  }
  std::byte *base = allocateShared(halos.node, bytes, c.window_);
  halos.channels.push_back(std::move(channel));

  writeDirectory(base, bytes, directory);
  for (size_t i = 0, k = 0; i < recvs.size(); ++i) {
    if (!shareable(recvs[i], recvNode[i], limit))
      continue;
    std::byte *link = base + directory[k++].offset;
    c.recvLink_[i] = static_cast<int32_t>(c.recvs_.size());
    c.recvs_.emplace_back().attach(link, recvs[i].bytes);
  }
  // Every directory is written before any is read.
  checkMpi(MPI_Win_sync(c.window_), "MPI_Win_sync");
  checkMpi(MPI_Barrier(halos.node), "MPI_Barrier");
  checkMpi(MPI_Win_sync(c.window_), "MPI_Win_sync");

  for (size_t i = 0; i < sends.size(); ++i) {
    if (!shareable(sends[i], sendNode[i], limit))
      continue;
    MPI_Aint peerBytes = 0;
    int unit = 0;
    std::byte *peerBase = nullptr;
    checkMpi(MPI_Win_shared_query(c.window_, sendNode[i], &peerBytes, &unit,
                                  &peerBase),
             "MPI_Win_shared_query");
    const std::byte *link =
        findSlot(peerBase, {team.rank, sends[i].tag, ordinalOf(sends, i), 0,
                            static_cast<int64_t>(sends[i].bytes)});
    if (!link)
      raise("team rank {} has no shared-memory slot for this rank's message "
            "of {} bytes with tag {} (its plan differs from this rank's)",
            sends[i].peer, sends[i].bytes, sends[i].tag);
    c.sendLink_[i] = static_cast<int32_t>(c.sends_.size());
    c.sends_.emplace_back().attach(const_cast<std::byte *>(link),
                                   sends[i].bytes);
  }
  // Nothing shared on this rank: its exchanges stay plain MPI (the window,
  // made with the node, is freed with the team).
  return c.sends_.empty() && c.recvs_.empty() ? nullptr : &c;
#endif
}

HaloChannel::~HaloChannel() = default;

void HaloChannel::Link::attach(std::byte *link, size_t messageBytes) {
  consumed = reinterpret_cast<Counter *>(link);
  slots = link + sizeof(Counter);
  bytes = messageBytes;
  stride = slotStride(messageBytes);
}

void HaloChannel::release() noexcept { freeShared(window_); }

void freeHaloChannels(TeamState &team) noexcept {
  TeamHalos &halos = *team.halos;
  int finalized = 1;
  MPI_Finalized(&finalized);
  // Made in the same order by every member of the node: freed so too.
  for (std::unique_ptr<HaloChannel> &channel : halos.channels)
    if (!finalized)
      channel->release();
  halos.channels.clear();
  if (halos.node != MPI_COMM_NULL && !finalized)
    MPI_Comm_free(&halos.node);
}

bool HaloChannel::slotFree(SendLink &s, uint64_t round) {
  // The peer's counter is a cache miss: read only when what was seen last
  // does not free the slot.
  if (round < s.consumedSeen + kSlots)
    return true;
  s.consumedSeen = loadAcquire(s.consumed);
  return round < s.consumedSeen + kSlots;
}

void HaloChannel::publish(SendLink &s, uint64_t round, const std::byte *from) {
  std::byte *slot = s.slot(round);
  if (from)
    std::memcpy(slot, from, s.bytes);
  storeRelease(s.sequence(slot), round + 1);
  s.written = round + 1;
}

std::byte *HaloChannel::sendBuffer(size_t i) {
  SendLink &s = sends_[static_cast<size_t>(sendLink_[i])];
  const uint64_t round = started_ - 1;
  if (s.deferred.empty() && slotFree(s, round))
    return s.slot(round);
  s.deferred.emplace_back(round, std::vector<std::byte>(s.bytes));
  return s.deferred.back().second.data();
}

void HaloChannel::sent(size_t i) {
  SendLink &s = sends_[static_cast<size_t>(sendLink_[i])];
  // A round set aside is published by progress().
  if (s.deferred.empty())
    publish(s, started_ - 1, nullptr);
}

void HaloChannel::expect(size_t i, std::byte *dst) {
  expect(i, StridedBytes{dst, 0, nullptr, nullptr, 0});
}

void HaloChannel::expect(size_t i, const StridedBytes &strided) {
  RecvLink &r = recvs_[static_cast<size_t>(recvLink_[i])];
  if (r.head == r.expected.size()) {
    r.expected.clear();
    r.head = 0;
  }
  r.expected.push_back({started_ - 1, strided});
}

bool HaloChannel::progress(uint64_t round) {
  bool done = true;
  for (SendLink &s : sends_) {
    while (!s.deferred.empty() && slotFree(s, s.deferred.front().first)) {
      publish(s, s.deferred.front().first, s.deferred.front().second.data());
      s.deferred.pop_front();
    }
    done = done && s.written > round;
  }
  for (RecvLink &r : recvs_) {
    for (; r.head < r.expected.size(); ++r.head) {
      const Expected &e = r.expected[r.head];
      std::byte *slot = r.slot(e.round);
      if (loadAcquire(r.sequence(slot)) <= e.round)
        break;
      if (e.dst.rank == 0)
        std::memcpy(e.dst.base, slot, r.bytes);
      else
        unpack(slot, e.dst);
      r.read = e.round + 1;
      storeRelease(r.consumed, r.read);
    }
    done = done && r.read > round;
  }
  return done;
}

void HaloChannel::complete(uint64_t round) {
  spinUntil([&] { return progress(round); }, progressComm_, spins_);
}

} // namespace distrt::detail
