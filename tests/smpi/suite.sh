#!/usr/bin/env bash
# The default suite's SMPI run (ctest smpi.p16 of an Open MPI or MPICH
# build): heat2d (get_halo, all_reduce), the shard Jacobi example
# (update_halo, all_reduce over grid axes), the cg example and the exact
# sums' program compiled by this build's distruntime-opt and run on 16 to
# 1,024 simulated ranks under SimGrid's SMPI, each output diffed with its
# serial reference, and the reproducible reductions' runtime tests at 16
# (ctest -L p16 of an SMPI build).
#   tests/smpi/suite.sh <build>
# Configures and builds libdistrt and the runtime tests for SMPI into
# <build>/smpi on first use (scripts/build.sh, DISTRUNTIME_MPI=smpi).
# Exits 77 (ctest: skipped) with a message when SMPI is not installed
# (scripts/setup.sh installs libsimgrid-dev).
set -euo pipefail
if [ "${1:-}" = --help ] || [ "${1:-}" = -h ] || [ $# -ne 1 ]; then
  sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"
  [ $# -eq 1 ] || [ "${1:-}" = --help ] || [ "${1:-}" = -h ] || exit 2
  exit 0
fi
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
build="$(cd "$1" && pwd)"
if ! command -v smpirun >/dev/null 2>&1 || ! command -v smpicxx >/dev/null 2>&1 ||
  [ ! -f /usr/include/smpi/mpi.h ]; then
  echo "suite.sh: SKIPPED: SimGrid's SMPI is not installed (smpirun, smpicxx," \
    "smpi/mpi.h: Debian libsimgrid-dev; scripts/setup.sh installs it)"
  exit 77
fi
smpi_build="$build/smpi"
DISTRUNTIME_MPI=smpi DISTRUNTIME_BUILD_DIR="$smpi_build" \
  DISTRUNTIME_OPT_BUILD_DIR="$build" "$root/scripts/build.sh" distrt \
  distrt_runtime_tests
ctest --test-dir "$smpi_build" --output-on-failure -L '^p16$'
