#!/usr/bin/env bash
# Builds distruntime if needed, compiles a .mlir program and runs it with
# mpirun.   scripts/run.sh examples/heat2d.mlir -np 4 [more mpirun args]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${DISTRUNTIME_BUILD_DIR:-$root/build}"

[ $# -ge 1 ] || {
  echo "usage: $0 <prog.mlir> [-np N] [mpirun args...]" >&2
  exit 2
}
input="$1"
shift
"$root/scripts/build.sh" >&2
exe="$build/programs/$(basename "${input%.mlir}")"
mkdir -p "$(dirname "$exe")"
"$root/scripts/compile.sh" "$input" -o "$exe"

flags=()
mpirun --version 2>&1 | grep -q "Open MPI" &&
  flags=(--allow-run-as-root --oversubscribe --mca mpi_yield_when_idle 1)
[ $# -gt 0 ] || set -- -np 2
exec mpirun "${flags[@]}" "$@" "$exe"
