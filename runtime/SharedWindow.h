//===- SharedWindow.h - Shared windows and the limits agreed on -*- C++ -*-===//
//
// What the shared-memory paths (HaloChannel.h, SharedGroup.h, SharedPair.h)
// do alike when they set up: agree on a limit over their members, the least
// any proposes, and allocate, lock and free a window over a node.
//
//===----------------------------------------------------------------------===//

#ifndef DISTRUNTIME_RUNTIME_SHAREDWINDOW_H
#define DISTRUNTIME_RUNTIME_SHAREDWINDOW_H

#include "Error.h"

#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <string>

namespace distrt::detail {

/// The least of every member's `propose()` over `comm` (collective). A
/// member whose proposal throws Failure (a bad environment variable)
/// proposes 0 and rethrows once the others agreed, so none is left waiting
/// and all fall back alike.
template <class Propose>
uint64_t agreeOnLeast(MPI_Comm comm, Propose &&propose) {
  uint64_t least = 0;
  std::string error;
  try {
    least = propose();
  } catch (const Failure &failure) {
    error = failure.what();
  }
  checkMpi(MPI_Allreduce(MPI_IN_PLACE, &least, 1, MPI_UINT64_T, MPI_MIN, comm),
           "MPI_Allreduce");
  if (!error.empty())
    throw Failure(error);
  return least;
}

/// This member's segment of `bytes` in a new window over `node` (each
/// segment on pages of its own), locked for the window's life. Collective.
std::byte *allocateShared(MPI_Comm node, size_t bytes, MPI_Win &window);

/// Unlocks and frees `window` (collective, in the order made) unless MPI is
/// finalized or it is MPI_WIN_NULL.
void freeShared(MPI_Win &window) noexcept;

} // namespace distrt::detail

#endif // DISTRUNTIME_RUNTIME_SHAREDWINDOW_H
