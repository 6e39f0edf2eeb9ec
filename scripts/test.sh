#!/usr/bin/env bash
# Installs what is missing, builds, and runs every test: lit (dialect,
# lowering, plugin, integration under mpirun) and the multi-rank Catch2
# runtime tests, all through ctest. Exits non-zero on any failure.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${DISTRUNTIME_BUILD_DIR:-$root/build}"

"$root/scripts/build.sh"
ctest --test-dir "$build" --output-on-failure -j 2 "$@"
