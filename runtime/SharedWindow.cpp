//===- SharedWindow.cpp - Shared windows and the limits agreed on ---------===//

#include "SharedWindow.h"

namespace distrt::detail {

std::byte *allocateShared(MPI_Comm node, size_t bytes, MPI_Win &window) {
  MPI_Info info = MPI_INFO_NULL;
  checkMpi(MPI_Info_create(&info), "MPI_Info_create");
  MPI_Info_set(info, "alloc_shared_noncontig", "true");
  std::byte *base = nullptr;
  const int code = MPI_Win_allocate_shared(static_cast<MPI_Aint>(bytes), 1,
                                           info, node, &base, &window);
  MPI_Info_free(&info);
  checkMpi(code, "MPI_Win_allocate_shared");
  checkMpi(MPI_Win_lock_all(MPI_MODE_NOCHECK, window), "MPI_Win_lock_all");
  return base;
}

void freeShared(MPI_Win &window) noexcept {
  int finalized = 1;
  MPI_Finalized(&finalized);
  if (window == MPI_WIN_NULL || finalized)
    return;
  MPI_Win_unlock_all(window);
  MPI_Win_free(&window);
}

} // namespace distrt::detail
