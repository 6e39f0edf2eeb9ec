/*===- distrt_mpi.h - Host-program API of distrt that needs MPI --*- C -*-===*\
|*                                                                          *|
|* Lets a host program give its own communicators team ids that compiled    *|
|* code can name. Kept apart from distrt.h so that generated code and its   *|
|* declarations never depend on mpi.h.                                      *|
|*                                                                          *|
\*===----------------------------------------------------------------------===*/

#ifndef DISTRUNTIME_RUNTIME_DISTRT_MPI_H
#define DISTRUNTIME_RUNTIME_DISTRT_MPI_H

#include <mpi.h>
#include <stdint.h>

/* The public API; libdistrt hides everything else (-fvisibility=hidden). */
#pragma GCC visibility push(default)

#ifdef __cplusplus
extern "C" {
#endif

/// Registers a duplicate of `comm` as team `id` (id > 0 and not in use).
/// Collective over `comm`. Initializes MPI if needed. Returns 0 on success;
/// otherwise prints one "distrt: error: ..." line to stderr and returns the
/// MPI error code, or -1 for an invalid id or communicator.
int distrt_team_register(int64_t id, MPI_Comm comm);

/// Frees team `id` (its communicators and cached halo plans). Collective over
/// the team. Returns 0 on success, else prints the error and returns non-zero.
int distrt_team_unregister(int64_t id);

#ifdef __cplusplus
}
#endif

#pragma GCC visibility pop

#endif /* DISTRUNTIME_RUNTIME_DISTRT_MPI_H */
