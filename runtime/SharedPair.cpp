//===- SharedPair.cpp - A group of two sharing memory -----------*- C++ -*-===//

#include "SharedPair.h"

#include "Error.h"
#include "ProcessGroups.h"
#include "SharedWindow.h"
#include "SpinWait.h"

#include <cstring>

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
  // Two segments, and room to start them on a cache line.
  const auto bytes = static_cast<MPI_Aint>(2 * SharedPair::kStride + 64);
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
  // No round yet in either header before either member reads the other's.
  for (uint64_t r = 0; r < 2; ++r)
    std::memset(SharedPair::header(pair.mine, r), 0, SharedPair::kHeaderBytes);
  checkMpi(MPI_Win_sync(pair.window), "MPI_Win_sync");
  checkMpi(MPI_Barrier(pair.shared), "MPI_Barrier");
  checkMpi(MPI_Win_sync(pair.window), "MPI_Win_sync");
  pair.spins = spinsFor(2);
#else
  // SMPI simulates its processes in one: no shared window.
  (void)pair;
#endif
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
  int finalized = 1;
  MPI_Finalized(&finalized);
  // Made in the same order by both members of each: freed so too.
  for (auto it = pairs.rbegin(); it != pairs.rend() && !finalized; ++it) {
    SharedPair &pair = **it;
    freeShared(pair.window);
    if (pair.shared != MPI_COMM_NULL)
      MPI_Comm_free(&pair.shared);
  }
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
