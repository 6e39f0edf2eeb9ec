// A host program on the installed runtime: an allreduce through the C++ API
// and one through the C ABI, on the world team and on a registered team.
#include "distruntime/Runtime/distrt.hpp"
#include "distruntime/Runtime/distrt_mpi.h"

#include <cstdio>
#include <vector>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int ok = 1;
  {
    distrt::Team world;
    int rank = world.rank(), size = world.size();
    std::vector<double> data = {1.0 + rank, 2.0 * rank};
    distrt::allreduce(world, distrt::RedOp::Sum, std::span<double>(data));
    // sum over r of (1 + r) and of 2r
    double want0 = size + size * (size - 1) / 2.0, want1 = size * (size - 1);
    ok &= data[0] == want0 && data[1] == want1;

    distrt::Team mine = distrt::Team::registerComm(7, MPI_COMM_WORLD);
    std::vector<int64_t> maxes = {int64_t(rank)};
    distrt::allreduce(mine, distrt::RedOp::Max, std::span<int64_t>(maxes));
    ok &= maxes[0] == size - 1;
    ok &= distrt_team_size(7, "host.cpp") == size;
    if (rank == 0)
      std::printf("host: size %d sum %g %g max %lld %s\n", size, data[0],
                  data[1], (long long)maxes[0], ok ? "ok" : "WRONG");
  }
  MPI_Finalize();
  return ok ? 0 : 1;
}
