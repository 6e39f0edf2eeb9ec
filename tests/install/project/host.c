/* A C host program built with `pkg-config --cflags --libs distrt`. */
#include "distruntime/Runtime/distrt.h"
#include "distruntime/Runtime/distrt_mpi.h"

#include <stdio.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int rc = distrt_team_register(3, MPI_COMM_WORLD);
  int64_t size = distrt_team_size(3, "host.c");
  int64_t member = distrt_team_member(3, "host.c");
  if (rank == 0)
    printf("c host: rc %d size %lld member %lld\n", rc, (long long)size,
           (long long)member);
  distrt_team_unregister(3);
  MPI_Finalize();
  return rc != 0 || member != rank;
}
