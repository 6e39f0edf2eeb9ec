#!/usr/bin/env bash
# Configures (once) and builds distruntime into build/. Extra arguments go to
# the build tool, e.g. `scripts/build.sh distruntime-opt`.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${DISTRUNTIME_BUILD_DIR:-$root/build}"

"$root/scripts/setup.sh"
if [ ! -f "$build/CMakeCache.txt" ]; then
  # MLIR 22 from the Debian packages unless MLIR_DIR says otherwise.
  mlir_dir="${MLIR_DIR:-$(llvm-config-22 --cmakedir)/../mlir}"
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DMLIR_DIR="$mlir_dir"
  ln -sf "$build/compile_commands.json" "$root/compile_commands.json"
fi
cmake --build "$build" -j "${DISTRUNTIME_JOBS:-2}" ${1:+--target "$@"}
