# Sourced by the scripts: the MPI implementation to build and run with.
#   DISTRUNTIME_MPI=openmpi (default), mpich or smpi
# Sets `mpi` (the name), `mpi_build` (the default build directory: build/
# for Open MPI, build-mpich/ for MPICH, build-smpi/ for SMPI) and
# `mpi_cmake_args` (the CMake options that select the implementation's
# wrappers and launcher). Open MPI and MPICH are Debian packages with
# suffixed commands (mpicc.openmpi, mpicc.mpich ...); the suffixed ones are
# used, so the system default (update-alternatives) never decides which MPI
# a build gets. SMPI (SimGrid's simulated MPI, Debian libsimgrid-dev) has
# commands of its own (smpicxx, smpirun): its build holds libdistrt (static,
# one copy per simulated rank), its tests and benchmarks, and no compiler,
# which does not depend on MPI: `smpi_opt_build` is the Open MPI build whose
# distruntime-opt compiles .mlir programs for it (recorded in the SMPI
# build's cache as DISTRUNTIME_SMPI_OPT, read by scripts/compile.sh).
# Needs `root` (the source tree) set by the caller.
mpi="${DISTRUNTIME_MPI:-openmpi}"
case "$mpi" in
openmpi)
  mpi_build="$root/build"
  mpi_cmake_args=(-DMPI_C_COMPILER=/usr/bin/mpicc.openmpi
                  -DMPI_CXX_COMPILER=/usr/bin/mpicxx.openmpi
                  -DMPIEXEC_EXECUTABLE=/usr/bin/mpiexec.openmpi) ;;
mpich)
  mpi_build="$root/build-mpich"
  mpi_cmake_args=(-DMPI_C_COMPILER=/usr/bin/mpicc.mpich
                  -DMPI_CXX_COMPILER=/usr/bin/mpicxx.mpich
                  -DMPIEXEC_EXECUTABLE=/usr/bin/mpiexec.mpich) ;;
smpi)
  mpi_build="$root/build-smpi"
  mpi_cmake_args=(-DMPIEXEC_EXECUTABLE=/usr/bin/smpirun
                  -DDISTRUNTIME_BUILD_COMPILER=OFF
                  -DDISTRUNTIME_SMPI_OPT="${DISTRUNTIME_OPT_BUILD_DIR:-$root/build}/bin/distruntime-opt") ;;
*)
  echo "DISTRUNTIME_MPI=$mpi: expected openmpi, mpich or smpi" >&2
  exit 2 ;;
esac
mpi_cmake_args+=(-DDISTRUNTIME_MPI="$mpi")
# The build whose distruntime-opt an SMPI build uses (the compiler is the
# same for every MPI; DISTRUNTIME_OPT_BUILD_DIR overrides it).
smpi_opt_build="${DISTRUNTIME_OPT_BUILD_DIR:-$root/build}"

# A value of build directory $1's CMake cache ($2: its name), empty if unset.
mpi_cache() { sed -n "s/^$2:[A-Z]*=//p" "$1/CMakeCache.txt"; }
# The launcher of build directory $1 as CMake detected it: sets `mpirun`,
# `np_flag` and the array `flags` (Open MPI needs --allow-run-as-root and
# --oversubscribe here; MPICH needs none).
mpi_launcher() {
  mpirun="$(mpi_cache "$1" DISTRUNTIME_MPIRUN)"
  np_flag="$(mpi_cache "$1" DISTRUNTIME_MPIEXEC_NUMPROC_FLAG)"
  IFS=';' read -r -a flags <<<"$(mpi_cache "$1" DISTRUNTIME_MPIEXEC_FLAGS)"
}
