//===- SharedPair.cpp - A group of two sharing memory -----------*- C++ -*-===//

#include "SharedPair.h"

#include "Error.h"
#include "ProcessGroups.h"
#include "Reduce.h"
#include "Request.h"
#include "SharedWindow.h"
#include "SpinWait.h"

#include <algorithm>
#include <cstring>
#include <iterator>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace distrt::detail {

/// Makes the pair of `comm`: its window if both members share a node.
static void makePair(SharedPair &pair) {
#ifndef DISTRT_SMPI
  int rank = 0, size = 0;
  checkMpi(MPI_Comm_rank(pair.comm, &rank), "MPI_Comm_rank");
  checkMpi(MPI_Comm_split_type(pair.comm, MPI_COMM_TYPE_SHARED, rank,
                               MPI_INFO_NULL, &pair.shared),
           "MPI_Comm_split_type");
  checkMpi(MPI_Comm_size(pair.shared, &size), "MPI_Comm_size");
  if (size != 2) {
    checkMpi(MPI_Comm_free(&pair.shared), "MPI_Comm_free");
    return;
  }
  // Two segments, the reads' line, and room to start them on a cache line.
  const auto bytes = static_cast<MPI_Aint>(2 * SharedPair::kStride + 128);
  void *base =
      allocateShared(pair.shared, static_cast<size_t>(bytes), pair.window);
  void *peerBase = nullptr;
  MPI_Aint peerBytes = 0;
  int unit = 0;
  checkMpi(
      MPI_Win_shared_query(pair.window, 1 - rank, &peerBytes, &unit, &peerBase),
      "MPI_Win_shared_query");
  // Both map whole pages: an address's offset in its line is the same in
  // either process.
  auto aligned = [](void *at) {
    const auto address = reinterpret_cast<uintptr_t>(at);
    return reinterpret_cast<std::byte *>((address + 63) & ~uintptr_t{63});
  };
  pair.mine = aligned(base);
  pair.theirs = aligned(peerBase);
  pair.myReads = pair.mine + 2 * SharedPair::kStride;
  pair.theirReads = pair.theirs + 2 * SharedPair::kStride;
  // No round yet in either header, and none read, before either member
  // reads the other's.
  for (uint64_t r = 0; r < 2; ++r)
    std::memset(SharedPair::header(pair.mine, r), 0, SharedPair::kHeaderBytes);
  std::memset(pair.myReads, 0, 64);
  checkMpi(MPI_Win_sync(pair.window), "MPI_Win_sync");
  checkMpi(MPI_Barrier(pair.shared), "MPI_Barrier");
  checkMpi(MPI_Win_sync(pair.window), "MPI_Win_sync");
  pair.spins = spinsFor(2);
#else
  // SMPI simulates its processes in one: no shared window.
  (void)pair;
#endif
}

void SharedPair::beginRound(uint64_t r) {
  while (!pending.empty() && pending.front().round + 2 <= r)
    complete(pending.front().round);
  if (r < 2)
    return;
  const std::byte *read = theirReads + (r % 2) * sizeof(uint64_t);
  spinUntil([&] { return loadAcquire(read) >= r - 1; }, comm, spins);
}

void SharedPair::publish(uint64_t r, uint64_t bytes) {
  std::byte *at = header(mine, r);
  std::memcpy(at + 8, &bytes, sizeof bytes);
  storeRelease(at, r + 1);
}

uint64_t SharedPair::awaitPeer(uint64_t r) {
  const std::byte *at = header(theirs, r);
  spinUntil([&] { return loadAcquire(at) > r; }, comm, spins);
  uint64_t bytes = 0;
  std::memcpy(&bytes, at + 8, sizeof bytes);
  return bytes;
}

void SharedPair::markRead(uint64_t r) {
  storeRelease(myReads + (r % 2) * sizeof(uint64_t), r + 1);
}

void SharedPair::complete(uint64_t r) {
  auto it = std::ranges::find_if(
      pending, [&](const Pending &p) { return p.round == r; });
  if (it == pending.end())
    return;
  const Pending p = *it;
  pending.erase(it);
  const uint64_t theirBytes = awaitPeer(r);
  // A slot whose op failed may hold another op by now: its staging is not
  // this round's to write.
  const bool live = p.slot->active && p.slot->generation == p.generation;
  if (theirBytes != p.bytes) [[unlikely]]
    failed.emplace_back(
        r, fmt::format("all_reduce: team rank {} packed {} bytes of operands "
                       "where this process packed {}: the operands' shapes or "
                       "element types differ",
                       p.peerRank, theirBytes, p.bytes));
  else if (live)
    reduceLocal(bytes(theirs, r), p.target, p.count, p.type, p.op);
  markRead(r);
}

void SharedPair::raiseIfFailed(uint64_t r) {
  auto it =
      std::ranges::find_if(failed, [&](const auto &f) { return f.first == r; });
  if (it == failed.end())
    return;
  const std::string message = std::move(it->second);
  failed.erase(it);
  raise("{}", message);
}

SharedPair *sharedPair(TeamState &team, MPI_Comm comm) {
  std::vector<std::unique_ptr<SharedPair>> &pairs = team.groups->sharedPairs;
  for (const std::unique_ptr<SharedPair> &pair : pairs)
    if (pair->comm == comm)
      return pair->window != MPI_WIN_NULL ? pair.get() : nullptr;
  pairs.push_back(std::make_unique<SharedPair>());
  pairs.back()->comm = comm;
  makePair(*pairs.back());
  return pairs.back()->window != MPI_WIN_NULL ? pairs.back().get() : nullptr;
}

void freeSharedPairs(TeamState &team) noexcept {
  std::vector<std::unique_ptr<SharedPair>> &pairs = team.groups->sharedPairs;
  // Retired pairs outlive their team: a handle not yet waited calls its
  // pair's complete(), which then finds nothing pending.
  static std::vector<std::unique_ptr<SharedPair>> retired;
  int finalized = 1;
  MPI_Finalized(&finalized);
  // Made in the same order by both members of each: freed so too.
  for (auto it = pairs.rbegin(); it != pairs.rend() && !finalized; ++it) {
    SharedPair &pair = **it;
    try {
      while (!pair.pending.empty())
        pair.complete(pair.pending.front().round);
    } catch (...) {
      pair.pending.clear(); // the watchdog reports a peer that never came
    }
    freeShared(pair.window);
    if (pair.shared != MPI_COMM_NULL)
      MPI_Comm_free(&pair.shared);
  }
  retired.insert(retired.end(), std::make_move_iterator(pairs.begin()),
                 std::make_move_iterator(pairs.end()));
  pairs.clear();
}

void streamCopy(std::byte *dst, const std::byte *src, size_t bytes) {
#if defined(__SSE2__)
  const size_t head = (16 - reinterpret_cast<uintptr_t>(dst) % 16) % 16;
  if (bytes < head + 16) {
    std::memcpy(dst, src, bytes);
    return;
  }
  std::memcpy(dst, src, head);
  size_t at = head;
  for (; at + 16 <= bytes; at += 16)
    _mm_stream_si128(
        reinterpret_cast<__m128i *>(dst + at),
        _mm_loadu_si128(reinterpret_cast<const __m128i *>(src + at)));
  std::memcpy(dst + at, src + at, bytes - at);
#else
  std::memcpy(dst, src, bytes);
#endif
}

void streamFence() {
#if defined(__SSE2__)
  _mm_sfence();
#endif
}

} // namespace distrt::detail
