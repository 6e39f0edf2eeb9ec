#!/usr/bin/env bash
# Installs what is missing, builds, and runs every test: lit (dialect,
# lowering, plugin, integration under mpirun) and the multi-rank Catch2
# runtime tests, all through ctest, then 30 s of fuzzing (scripts/fuzz.sh).
# Exits non-zero on any failure.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${DISTRUNTIME_BUILD_DIR:-$root/build}"

"$root/scripts/build.sh"
ctest --test-dir "$build" --output-on-failure -j 2 "$@"
# A short fuzzing run of parse + verify + distruntime-to-llvm from the lit
# tests (scripts/fuzz.sh, its own build in build-fuzz/); any crash fails.
# DISTRUNTIME_FUZZ_SECONDS=0 skips it.
fuzz_seconds="${DISTRUNTIME_FUZZ_SECONDS:-30}"
if [ "$fuzz_seconds" -gt 0 ]; then
  "$root/scripts/fuzz.sh" "$fuzz_seconds" -verbosity=0
fi
