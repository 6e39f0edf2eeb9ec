#!/usr/bin/env bash
# Configures (once) and builds distruntime. Extra arguments go to the build
# tool, e.g. `scripts/build.sh distruntime-opt`.
#   scripts/build.sh [targets...]
# DISTRUNTIME_MPI selects the MPI: openmpi (default, into build/) or mpich
# (Debian's mpich beside Open MPI, into build-mpich/; scripts/setup.sh
# installs it). DISTRUNTIME_BUILD_DIR overrides the directory; a directory
# configured for the other MPI is refused.
# DISTRUNTIME_CMAKE_ARGS adds CMake options (configuring again when the build
# directory exists), e.g. "-DDISTRUNTIME_SANITIZE=ON".
set -euo pipefail
if [ "${1:-}" = --help ] || [ "${1:-}" = -h ]; then
  sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"
  exit 0
fi
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$root/scripts/lib/mpi.sh"
build="${DISTRUNTIME_BUILD_DIR:-$mpi_build}"
read -r -a cmake_args <<<"${DISTRUNTIME_CMAKE_ARGS:-}"

"$root/scripts/setup.sh"
cache="$build/CMakeCache.txt"
if [ ! -f "$cache" ]; then
  # MLIR 22 from the Debian packages unless MLIR_DIR says otherwise.
  mlir_dir="${MLIR_DIR:-$(llvm-config-22 --cmakedir)/../mlir}"
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DMLIR_DIR="$mlir_dir" "${mpi_cmake_args[@]}" "${cmake_args[@]}"
  # Editors read the plain Open MPI build's compile commands.
  [ ${#cmake_args[@]} -gt 0 ] || [ "$mpi" != openmpi ] ||
    ln -sf "$build/compile_commands.json" "$root/compile_commands.json"
else
  # A directory configured before DISTRUNTIME_MPI existed is Open MPI's.
  configured="$(sed -n 's/^DISTRUNTIME_MPI:[A-Z]*=//p' "$cache")"
  if [ "${configured:-openmpi}" != "$mpi" ]; then
    echo "build.sh: $build is configured for ${configured:-openmpi}, not" \
      "DISTRUNTIME_MPI=$mpi (use another DISTRUNTIME_BUILD_DIR)" >&2
    exit 2
  fi
  [ ${#cmake_args[@]} -eq 0 ] || cmake "$build" "${cmake_args[@]}"
fi
cmake --build "$build" -j "${DISTRUNTIME_JOBS:-2}" ${1:+--target "$@"}
