#!/usr/bin/env bash
# Runs the runtime benchmarks (distrt against raw MPI, alternating blocks in
# one launch at np=2), writes docs/benchmarks.csv and plots it into
# docs/bench-*.png (scripts/plot_benchmarks.py, with Debian's
# python3-matplotlib). With DISTRUNTIME_MPI=mpich it runs MPICH's build
# (build-mpich/) and writes docs/benchmarks-mpich.csv, not plotted. Progress goes to stderr: the stage, each row as it is
# measured (row k of about n, n from the CSV it replaces) and the time.
# Run it on a quiet machine (about 4 minutes).
#
# Usage: scripts/bench.sh [build-dir]      (default: as scripts/build.sh)
#        scripts/bench.sh --help
set -euo pipefail
if [[ "${1:-}" == -h || "${1:-}" == --help ]]; then
  awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"
  exit 0
fi

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=lib/mpi.sh
source "$root/scripts/lib/mpi.sh"
build="${1:-$mpi_build}"

"$root/scripts/setup.sh" --plots
DISTRUNTIME_BUILD_DIR="$build" "$root/scripts/build.sh" distrt_bench \
  bench_gather_scatter bench_stencil bench_cg

# shard.update_halo, upstream convert-shard-to-mpi against distruntime:
# built when CMake found the upstream MLIR tools.
shard_halo=0
if [[ "$(mpi_cache "$build" DISTRUNTIME_UPSTREAM_mlir_opt)" == /* ]]; then
  shard_halo=1
  DISTRUNTIME_BUILD_DIR="$build" "$root/scripts/build.sh" bench_shard_halo
fi
mpi_launcher "$build"
yield_flags=("${flags[@]}")
# Two processes on two cores are not oversubscribed: poll instead of
# yielding while waiting. A sched_yield per idle poll costs more than a
# small message and quantizes its latency; busy polling shows the runtime's
# own cost per call (the stricter comparison).
for i in "${!flags[@]}"; do
  if [[ "${flags[$i]}" == mpi_yield_when_idle ]]; then flags[i+1]=0; fi
done

mkdir -p "$root/docs"
out="$root/docs/benchmarks.csv"
[ "$mpi" = openmpi ] || out="$root/docs/benchmarks-$mpi.csv"
# Rows expected: as many as the CSV being replaced has.
expected=""
[ -f "$out" ] && expected=" of ~$(($(wc -l <"$out") - 1))"
stages=4
[ "$mpi" != openmpi ] || stages=$((stages + 3))
[ "$shard_halo" = 0 ] || stages=$((stages + 1))
stage=0
start=$SECONDS
: >"$out.tmp"
# Appends the CSV rows read from stdin (the header only once) to $out.tmp
# and prints a progress line per row.
record() {
  local line rows
  while IFS= read -r line; do
    if [[ "$line" == case,* ]]; then
      [ -s "$out.tmp" ] || echo "$line" >>"$out.tmp"
      continue
    fi
    echo "$line" >>"$out.tmp"
    rows=$(($(wc -l <"$out.tmp") - 1))
    IFS=, read -r c _ size _ _ ratio <<<"$line"
    printf 'bench.sh: [%d/%d] row %d%s  %-34s %9s  ratio %s  (%ds)\n' \
      "$stage" "$stages" "$rows" "$expected" "$c" "$size" "$ratio" \
      $((SECONDS - start)) >&2
  done
}
begin() {
  stage=$((stage + 1))
  echo "bench.sh: [$stage/$stages] $* ($((SECONDS - start))s)" >&2
}

begin "distrt_bench: halo, update_halo, allreduce, collectives, checked mode, gradient sync, sharded matmul (np 2)"
"${mpirun:-mpirun}" "${np_flag:--np}" 2 "${flags[@]}" \
  "$build/benchmarks/distrt_bench" | record
# The sharded matmul's reduce_scatter at np 4: oversubscribed on two cores,
# so the processes yield while waiting (CMake's flags), and the ratio says
# more than the times. Not under MPICH, whose processes cannot yield
# (they busy-poll: four on two cores time the scheduler, not the code).
if [ "$mpi" = openmpi ]; then
  begin "distrt_bench sharded_matmul (np 4, oversubscribed)"
  "${mpirun:-mpirun}" "${np_flag:--np}" 4 "${yield_flags[@]}" \
    "$build/benchmarks/distrt_bench" sharded_matmul | record
  # Reproducible reductions where they differ from MPI's: over three and
  # four members (oversubscribed, as above).
  for np in 3 4; do
    begin "distrt_bench repro: ordered and exact sums (np $np, oversubscribed)"
    "${mpirun:-mpirun}" "${np_flag:--np}" "$np" "${yield_flags[@]}" \
      "$build/benchmarks/distrt_bench" repro | record
  done
fi
# gather/scatter run locally (one process): the lowered loops against a
# hand-written C++ loop.
begin "bench_gather_scatter: lowered gather/scatter loops (one process)"
"$build/benchmarks/bench_gather_scatter" | record
# baseline = upstream convert-shard-to-mpi, distrt = ours (its closed-form
# check goes to stderr).
if [ "$shard_halo" = 1 ]; then
  begin "bench_shard_halo: upstream convert-shard-to-mpi vs ours (np 2)"
  "${mpirun:-mpirun}" "${np_flag:--np}" 2 "${flags[@]}" \
    "$build/benchmarks/bench_shard_halo" | record
fi
# Application benchmark: examples/stencil.mlir's steps against a
# hand-written C++/MPI Jacobi (its agreement check goes to stderr).
begin "bench_stencil: the stencil example vs hand-written MPI Jacobi (np 2)"
"${mpirun:-mpirun}" "${np_flag:--np}" 2 "${flags[@]}" \
  "$build/benchmarks/bench_stencil" 256 512 1024 4096 8192 | record
# Application benchmark: examples/cg.mlir's solver, its dot products at the
# levels mpi and exact, against a hand-written C++/MPI CG.
begin "bench_cg: the cg example vs hand-written MPI CG (np 2)"
"${mpirun:-mpirun}" "${np_flag:--np}" 2 "${flags[@]}" \
  "$build/benchmarks/bench_cg" 64 256 512 | record
mv "$out.tmp" "$out"
echo "bench.sh: wrote $out ($((SECONDS - start))s)" >&2

# Plots, of Open MPI's figures: Debian's python3 (another python3 on PATH
# may lack matplotlib).
py=/usr/bin/python3
[ -x "$py" ] || py=python3
if [ "$mpi" != openmpi ]; then
  echo "bench.sh: $mpi's figures are not plotted" >&2
elif "$py" -c "import matplotlib" 2>/dev/null; then
  "$py" "$root/scripts/plot_benchmarks.py" "$out" "$root/docs"
else
  echo "bench.sh: no matplotlib for $py (scripts/setup.sh --plots installs python3-matplotlib); no plots" >&2
fi
