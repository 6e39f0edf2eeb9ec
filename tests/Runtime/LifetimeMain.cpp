//===- LifetimeMain.cpp - distrt initializes and finalizes MPI --*- C++ -*-===//
//
// Except in "host" mode, never calls MPI_Init or MPI_Finalize itself:
//   lazy   the first distrt call initializes MPI; the atexit hook finalizes
//          it (Open MPI reports a rank that exits without MPI_Finalize).
//   raii   distrt::Environment initializes and finalizes.
//   host   the host initializes and finalizes MPI without distrt_finalize:
//          the runtime frees its communicators from MPI_Finalize's
//          MPI_COMM_SELF attribute callback.
//   unwaited  async collectives (one on a split communicator) never waited:
//          each rank reports them with op and location and completes them
//          before its communicators are freed; then the exit status is 1
//          (0 with DISTRT_UNWAITED=warn).
//   handler  the host sets its own error handler on MPI_COMM_WORLD: errors
//          raised on world outside the runtime still reach it while the
//          runtime lives, and world has it back after distrt_finalize.
// Exits non-zero on a wrong result.
//
//===----------------------------------------------------------------------===//

#include "distruntime/Runtime/distrt.hpp"

#include <cstdio>
#include <cstring>
#include <vector>

namespace {

int check() {
  const int64_t size = distrt_team_size(0, "LifetimeMain");
  const int64_t rank = distrt_team_member(0, "LifetimeMain");
  std::vector<int64_t> value{rank + 1};
  distrt::allreduce(distrt::Team(), distrt::RedOp::Sum,
                    std::span<int64_t>(value));
  if (value[0] != size * (size + 1) / 2) {
    std::fprintf(stderr, "rank %lld: sum %lld, expected %lld\n",
                 static_cast<long long>(rank), static_cast<long long>(value[0]),
                 static_cast<long long>(size * (size + 1) / 2));
    return 1;
  }
  int initialized = 0;
  MPI_Initialized(&initialized);
  return initialized ? 0 : 1;
}

int gHostErrors = 0;

void hostHandler(MPI_Comm *, int *, ...) { ++gHostErrors; }

/// The "handler" mode; the host owns MPI.
int checkHostHandler(int &argc, char **&argv) {
  MPI_Init(&argc, &argv);
  MPI_Errhandler host = MPI_ERRHANDLER_NULL;
  MPI_Comm_create_errhandler(hostHandler, &host);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, host);
  int status = check(); // the runtime initializes
  MPI_Comm_call_errhandler(MPI_COMM_WORLD, MPI_ERR_OTHER);
  if (gHostErrors != 1) {
    std::fprintf(stderr, "the host's handler ran %d times, expected 1\n",
                 gHostErrors);
    status = 1;
  }
  distrt_finalize();
  MPI_Errhandler current = MPI_ERRHANDLER_NULL;
  MPI_Comm_get_errhandler(MPI_COMM_WORLD, &current);
  if (current != host) {
    std::fprintf(stderr, "world's handler is not the host's again\n");
    status = 1;
  }
  MPI_Errhandler_free(&current);
  MPI_Errhandler_free(&host);
  MPI_Finalize();
  return status;
}

} // namespace

int main(int argc, char **argv) {
  if (argc > 1 && std::strcmp(argv[1], "raii") == 0) {
    int status = 0;
    {
      distrt::Environment environment;
      status = check();
    }
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (!finalized) {
      std::fprintf(stderr, "Environment did not finalize MPI\n");
      return 1;
    }
    return status;
  }
  if (argc > 1 && std::strcmp(argv[1], "host") == 0) {
    MPI_Init(&argc, &argv);
    const int status = check();
    MPI_Finalize();
    // The runtime noticed: a later call reports it instead of crashing.
    try {
      distrt::Team world;
      std::fprintf(stderr, "no error after MPI_Finalize\n");
      return 1;
    } catch (const distrt::Error &error) {
      if (error.message() != "MPI is already finalized") {
        std::fprintf(stderr, "unexpected error: %s\n", error.what());
        return 1;
      }
    }
    return status;
  }
  if (argc > 1 && std::strcmp(argv[1], "handler") == 0)
    return checkHostHandler(argc, argv);
  if (argc > 1 && std::strcmp(argv[1], "unwaited") == 0) {
    const int status = check();
    const int64_t size = distrt_team_size(0, "LifetimeMain");
    std::vector<int64_t> order;
    for (int64_t r = size; r-- > 0;)
      order.push_back(r);
    // The buffers outlive the runtime's atexit teardown, which completes the
    // requests: arrays with static storage and no destructor (the
    // destructors of statics constructed after the runtime's first call, as
    // function-local std::vectors here would be, run before its teardown).
    static double in[1] = {1.0}, out[64], sum[1] = {1.0};
    const distrt::Groups reversed(DISTRT_FLATTENED_IDS, {order});
    const int64_t one = 1, n = size;
    const distrt::Operand i{distrt::MemrefView(in, {&one, 1}, {&one, 1}),
                            distrt::Dtype::F64},
        o{distrt::MemrefView(out, {&n, 1}, {&one, 1}), distrt::Dtype::F64},
        s{distrt::MemrefView(sum, {&one, 1}, {&one, 1}), distrt::Dtype::F64};
    const distrt::Team world;
    distrt::allGatherAsync(world, reversed, 0, {{i}}, {{o}}, nullptr,
                           "lifetime.mlir:2:3")
        .release();
    distrt::allReduceAsync(world, distrt::Groups::world(), distrt::RedOp::Sum,
                           {{s}}, {{s}}, nullptr, "lifetime.mlir:3:3")
        .release();
    return status;
  }
  return check();
}
