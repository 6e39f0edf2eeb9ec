#!/usr/bin/env bash
# Runs the runtime benchmarks (distrt against raw MPI, alternating blocks in
# one launch at np=2) and writes docs/benchmarks.csv.
#   scripts/bench.sh [build-dir]      (default: build, as scripts/build.sh)
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${1:-$root/build}"

DISTRUNTIME_BUILD_DIR="$build" "$root/scripts/build.sh" distrt_bench \
  bench_gather_scatter

# The launcher and its flags as CMake detected them (Open MPI needs
# --allow-run-as-root/--oversubscribe here; MPICH needs none).
cache() { sed -n "s/^$1:[A-Z]*=//p" "$build/CMakeCache.txt"; }
# shard.update_halo, upstream convert-shard-to-mpi against distruntime:
# built when CMake found the upstream MLIR tools.
shard_halo=0
if [[ "$(cache DISTRUNTIME_UPSTREAM_mlir_opt)" == /* ]]; then
  shard_halo=1
  DISTRUNTIME_BUILD_DIR="$build" "$root/scripts/build.sh" bench_shard_halo
fi
mpirun="$(cache DISTRUNTIME_MPIRUN)"
np_flag="$(cache DISTRUNTIME_MPIEXEC_NUMPROC_FLAG)"
IFS=';' read -r -a flags <<<"$(cache DISTRUNTIME_MPIEXEC_FLAGS)"
# Two processes on two cores are not oversubscribed: poll instead of
# yielding while waiting. A sched_yield per idle poll costs more than a
# small message and quantizes its latency; busy polling shows the runtime's
# own cost per call (the stricter comparison).
for i in "${!flags[@]}"; do
  if [[ "${flags[$i]}" == mpi_yield_when_idle ]]; then flags[i+1]=0; fi
done

mkdir -p "$root/docs"
out="$root/docs/benchmarks.csv"
"${mpirun:-mpirun}" "${np_flag:--np}" 2 "${flags[@]}" \
  "$build/benchmarks/distrt_bench" | tee "$out.tmp"
# gather/scatter run locally (one process): the lowered loops against a
# hand-written C++ loop; the header is already in the file.
"$build/benchmarks/bench_gather_scatter" | tail -n +2 | tee -a "$out.tmp"
# baseline = upstream convert-shard-to-mpi, distrt = ours (its closed-form
# check goes to stderr).
if [ "$shard_halo" = 1 ]; then
  "${mpirun:-mpirun}" "${np_flag:--np}" 2 "${flags[@]}" \
    "$build/benchmarks/bench_shard_halo" | tail -n +2 | tee -a "$out.tmp"
fi
mv "$out.tmp" "$out"
echo "bench.sh: wrote $out" >&2
