// Raw MPI_Allgather at np 2 over the sizes of docs/benchmarks.csv's
// control_mpi_vs_mpi rows: what platforms/calibrated-2core.xml is fitted to.
// Built with smpicxx and run by `scripts/scale.sh calibrate`; prints
// "size,us" lines (simulated time per call, the mean of 50 calls).
#include <mpi.h>

#include <cstdio>
#include <vector>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  for (long bytes = 8; bytes <= 16L << 20; bytes *= 4) {
    if (bytes == 32L << 20)
      break;
    long count = bytes / 8;
    std::vector<double> in(count, rank), out(2 * count);
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    const int reps = 50;
    for (int i = 0; i < reps; ++i)
      MPI_Allgather(in.data(), static_cast<int>(count), MPI_DOUBLE, out.data(),
                    static_cast<int>(count), MPI_DOUBLE, MPI_COMM_WORLD);
    double us = (MPI_Wtime() - t0) / reps * 1e6;
    if (rank == 0)
      std::printf("%ld,%.3f\n", bytes, us);
    if (bytes == 8L << 20)
      bytes = 4L << 20; // 16 MiB last, as in the CSV
  }
  MPI_Finalize();
  return 0;
}
