#!/usr/bin/env bash
# Installs what is missing, builds, and runs every test: lit (dialect,
# lowering, plugin, integration under mpirun) and the multi-rank Catch2
# runtime tests, all through ctest, then 30 s of fuzzing (scripts/fuzz.sh)
# and 2 minutes of random differential testing (tests/spmdfuzz/run.sh).
# Exits non-zero on any failure.
#   scripts/test.sh [ctest args...]
#   scripts/test.sh --sanitize [ctest args...]
# --sanitize builds everything with ASan + UBSan into build-sanitize/
# (DISTRUNTIME_SANITIZE, cmake/DistruntimeSanitize.cmake) and runs the same
# suite there: every process, the ranks mpirun starts and the compiled .mlir
# programs included, runs under the sanitizers, with only Open MPI's own leaks
# suppressed (scripts/sanitize/lsan.supp). Any report fails the run.
# DISTRUNTIME_MPI=mpich runs the suite against Debian's MPICH instead of
# Open MPI (scripts/build.sh: build-mpich/, build-sanitize-mpich/ with
# --sanitize, whose LSan suppressions know Open MPI's leaks only).
# DISTRUNTIME_MPI=smpi runs the SMPI cases in build-smpi/ (SimGrid's
# simulated MPI, docs/scaling.md): the Catch2 runtime tests at 1-4 ranks
# (and 6 for [groups]) plus collectives and halos at 16, the abort and
# lifetime tests, the benchmarks' smoke runs and distrt_scale at 16, and
# two compiled programs at 16 ranks against their serial references. The
# compiler is not MPI's business: the lit tests and the fuzzing run with
# the Open MPI build (scripts/lib/mpi.sh), whose distruntime-opt this
# builds; --sanitize is not offered (SMPI loads the program itself).
set -euo pipefail
if [ "${1:-}" = --help ] || [ "${1:-}" = -h ]; then
  sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"
  exit 0
fi
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$root/scripts/lib/mpi.sh"

if [ "${1:-}" = --sanitize ]; then
  shift
  if [ "$mpi" = smpi ]; then
    echo "test.sh: --sanitize needs a real MPI (SMPI loads each rank's copy" \
      "of the program itself)" >&2
    exit 2
  fi
  sanitize_build="$root/build-sanitize"
  [ "$mpi" = openmpi ] || sanitize_build="$root/build-sanitize-$mpi"
  build="${DISTRUNTIME_SANITIZE_BUILD_DIR:-$sanitize_build}"
  logs="$build/sanitizer-logs"
  DISTRUNTIME_BUILD_DIR="$build" DISTRUNTIME_CMAKE_ARGS="-DDISTRUNTIME_SANITIZE=ON" \
    "$root/scripts/build.sh"
  rm -rf "$logs" && mkdir -p "$logs"
  status=0
  ctest --test-dir "$build" --output-on-failure -j 2 "$@" || status=$?
  # Reports go to files (a test expecting a failure could hide them).
  reports=("$logs"/*)
  if [ -e "${reports[0]}" ]; then
    for r in "${reports[@]}"; do
      echo "==> $r" >&2
      cat "$r" >&2
    done
    echo "test.sh: ${#reports[@]} sanitizer report(s) above, in $logs" >&2
    exit 1
  fi
  # UBSan reports go to stderr; ctest's log holds every test's output.
  if grep -E "runtime error:|ERROR: (Address|Leak)Sanitizer" \
    "$build/Testing/Temporary/LastTest.log" >&2; then
    echo "test.sh: sanitizer report(s) above, in $build/Testing/Temporary/LastTest.log" >&2
    exit 1
  fi
  [ "$status" -eq 0 ] && echo "test.sh: sanitized suite clean" >&2
  exit "$status"
fi

build="${DISTRUNTIME_BUILD_DIR:-$mpi_build}"
echo "test.sh: $mpi, in $build" >&2
if [ "$mpi" = smpi ]; then
  DISTRUNTIME_MPI=openmpi DISTRUNTIME_BUILD_DIR="$smpi_opt_build" \
    "$root/scripts/build.sh" distruntime-opt
  DISTRUNTIME_BUILD_DIR="$build" "$root/scripts/build.sh"
  ctest --test-dir "$build" --output-on-failure -j 2 "$@"
  exit 0
fi
DISTRUNTIME_BUILD_DIR="$build" "$root/scripts/build.sh"
ctest --test-dir "$build" --output-on-failure -j 2 "$@"
# A short fuzzing run of parse + verify + distruntime-to-llvm from the lit
# tests (scripts/fuzz.sh, its own build in build-fuzz/); any crash fails.
# DISTRUNTIME_FUZZ_SECONDS=0 skips it.
fuzz_seconds="${DISTRUNTIME_FUZZ_SECONDS:-30}"
if [ "$fuzz_seconds" -gt 0 ]; then
  "$root/scripts/fuzz.sh" "$fuzz_seconds" -verbosity=0
fi
# Random differential testing (tests/spmdfuzz/run.sh), seeded, for a fixed
# budget: random correct programs at np 1-4 with the optimizing passes on
# and off must print the same bits, verify-spmd must stay silent, checked
# mode must pass them, and each injected bug must be caught. Open MPI's
# build only. DISTRUNTIME_SPMDFUZZ_SECONDS=0 skips it.
spmdfuzz_seconds="${DISTRUNTIME_SPMDFUZZ_SECONDS:-120}"
if [ "$mpi" = openmpi ] && [ "$spmdfuzz_seconds" -gt 0 ]; then
  "$root/tests/spmdfuzz/run.sh" --seconds "$spmdfuzz_seconds" --seed 1 \
    --build "$build" --work "$build/spmdfuzz"
fi
