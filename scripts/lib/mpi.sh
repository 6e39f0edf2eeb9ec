# Sourced by the scripts: the MPI implementation to build and run with.
#   DISTRUNTIME_MPI=openmpi (default) or mpich
# Sets `mpi` (the name), `mpi_build` (the default build directory: build/
# for Open MPI, build-mpich/ for MPICH) and `mpi_cmake_args` (the CMake
# options that select the implementation's wrappers and launcher). Both are
# Debian packages with suffixed commands (mpicc.openmpi, mpicc.mpich ...);
# the suffixed ones are used, so the system default (update-alternatives)
# never decides which MPI a build gets.
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
*)
  echo "DISTRUNTIME_MPI=$mpi: expected openmpi or mpich" >&2
  exit 2 ;;
esac
mpi_cmake_args+=(-DDISTRUNTIME_MPI="$mpi")
