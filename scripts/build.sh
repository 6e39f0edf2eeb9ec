#!/usr/bin/env bash
# Configures (once) and builds distruntime into build/. Extra arguments go to
# the build tool, e.g. `scripts/build.sh distruntime-opt`.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${DISTRUNTIME_BUILD_DIR:-$root/build}"

"$root/scripts/setup.sh"
if [ ! -f "$build/CMakeCache.txt" ]; then
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release
  ln -sf "$build/compile_commands.json" "$root/compile_commands.json"
fi
cmake --build "$build" -j "${DISTRUNTIME_JOBS:-2}" ${1:+--target "$@"}
