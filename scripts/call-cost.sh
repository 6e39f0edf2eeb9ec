#!/usr/bin/env bash
# The runtime's own cost per call: runs distrt_bench's small-message rows
# (np 2) under callgrind with DISTRT_BENCH_COST (benchmarks/BenchUtil.h),
# each side of a row called n times after its warm-up, and counts the
# instructions executed in libdistrt per cached call (MPI's excluded:
# callgrind counts instructions, not seconds, so the figure is the same on
# a busy machine). Writes docs/call-cost.csv (case,np,size,
# runtime_instructions); scripts/bench_table.py --cost prints it beside the
# nanoseconds of docs/benchmarks.csv. Under a minute.
#
# Usage: scripts/call-cost.sh [calls]   (default 200 per side and row)
#        DISTRT_COST_TOP=n scripts/call-cost.sh   (also each row's n
#                                                  costliest functions)
#        scripts/call-cost.sh --help
set -euo pipefail
if [[ "${1:-}" == -h || "${1:-}" == --help ]]; then
  awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"
  exit 0
fi
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=lib/mpi.sh
source "$root/scripts/lib/mpi.sh"
build="${DISTRUNTIME_BUILD_DIR:-$mpi_build}"
calls="${1:-200}"

"$root/scripts/setup.sh" --valgrind
# distrt_bench counts with valgrind's callgrind.h: a build made before
# valgrind was installed compiled without it.
object=benchmarks/CMakeFiles/distrt_bench.dir/bench_main.cpp.o
deps="$(ninja -C "$build" -t deps "$object" 2>/dev/null || true)"
[[ "$deps" == *valgrind/callgrind.h* ]] || touch "$root/benchmarks/bench_main.cpp"
DISTRUNTIME_BUILD_DIR="$build" "$root/scripts/build.sh" distrt_bench

mpi_launcher "$build"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
out="$root/docs/call-cost.csv"
: >"$out.tmp"
# Up to 4 KiB: past that a call's cost is its bytes, not the runtime's.
for mode in allreduce collectives halo update_halo gradient_sync; do
  echo "call-cost.sh: $mode" >&2
  rm -f "$work"/callgrind.*
  DISTRT_BENCH_COST="$calls" timeout 900 \
    "${mpirun:-mpirun}" "${np_flag:--np}" 2 "${flags[@]}" \
    valgrind -q --tool=callgrind \
    --callgrind-out-file="$work/callgrind.%p" \
    "$build/benchmarks/distrt_bench" "$mode" 4096 >"$work/rows.csv"
  python3 "$root/scripts/lib/call_cost.py" --top "${DISTRT_COST_TOP:-0}" "$work/rows.csv" \
    "$work"/callgrind.*.* >"$work/cost.csv"
  if [ -s "$out.tmp" ]; then tail -n +2 "$work/cost.csv"; else cat "$work/cost.csv"; fi >>"$out.tmp"
done
mv "$out.tmp" "$out"
cat "$out"
echo "call-cost.sh: wrote $out" >&2
