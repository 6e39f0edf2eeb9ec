#!/usr/bin/env bash
# Configures (once) and builds distruntime into build/. Extra arguments go to
# the build tool, e.g. `scripts/build.sh distruntime-opt`.
# DISTRUNTIME_CMAKE_ARGS adds CMake options (configuring again when the build
# directory exists), e.g. "-DDISTRUNTIME_SANITIZE=ON".
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${DISTRUNTIME_BUILD_DIR:-$root/build}"
read -r -a cmake_args <<<"${DISTRUNTIME_CMAKE_ARGS:-}"

"$root/scripts/setup.sh"
if [ ! -f "$build/CMakeCache.txt" ]; then
  # MLIR 22 from the Debian packages unless MLIR_DIR says otherwise.
  mlir_dir="${MLIR_DIR:-$(llvm-config-22 --cmakedir)/../mlir}"
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DMLIR_DIR="$mlir_dir" "${cmake_args[@]}"
  # Editors read the plain build's compile commands.
  [ ${#cmake_args[@]} -gt 0 ] ||
    ln -sf "$build/compile_commands.json" "$root/compile_commands.json"
elif [ ${#cmake_args[@]} -gt 0 ]; then
  cmake "$build" "${cmake_args[@]}"
fi
cmake --build "$build" -j "${DISTRUNTIME_JOBS:-2}" ${1:+--target "$@"}
