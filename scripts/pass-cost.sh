#!/usr/bin/env bash
# What some passes of a pipeline cost: compiles a program with the pipeline
# and with the options that turn the passes off, alternating, RUNS times
# each, under --mlir-timing, and prints the medians, with and without, of the
# pipeline's wall time, of the command's wall and CPU time, and the passes'
# own lines. Run it alone on the machine (the figures are milliseconds).
# Usage: scripts/pass-cost.sh OFF LINES [pipeline] [prog.mlir] [runs]
#   OFF: the pipeline options that turn the passes off (space-separated,
#   as in a pass pipeline); LINES: an awk regular expression for their
#   --mlir-timing lines.
#   scripts/pass-cost.sh verify-spmd=0 VerifySPMD \
#     distruntime-to-llvm examples/stencil.mlir 41
#   scripts/pass-cost.sh verify-spmd=0 VerifySPMD \
#     shard-to-llvm examples/shard/matmul.mlir 41
#   scripts/pass-cost.sh \
#     'combine-collectives=0 overlap-halo=0 async-collectives=0' \
#     'CombineCollectives|OverlapHalo|AsyncCollectives' \
#     distruntime-to-llvm examples/stencil.mlir 41
# Uses the build directory's distruntime-opt: DISTRUNTIME_BUILD_DIR, else
# build/.
set -euo pipefail
if [ "${1:-}" = --help ] || [ "${1:-}" = -h ]; then
  sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"
  exit 0
fi
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
opt="${DISTRUNTIME_BUILD_DIR:-$root/build}/bin/distruntime-opt"
if [ $# -lt 2 ]; then
  echo "usage: $0 OFF LINES [pipeline] [prog.mlir] [runs] (--help)" >&2
  exit 2
fi
disable="$1" lines="$2"
pipeline="${3:-distruntime-to-llvm}"
file="${4:-$root/examples/stencil.mlir}"
runs="${5:-21}"

# One compile's report: "<pipeline> <pass> <command> <cpu>" in seconds:
# the wall time of the pipeline and of the pass (--mlir-timing), and of the
# whole command (start-up, parsing and printing included: what a user
# waits), and the command's CPU time (user + system: page faults included,
# and less sensitive than wall time to other work on the machine).
measure() {
  local TIMEFORMAT='%R %U %S' times
  if ! times="$({ time "$opt" "$file" --pass-pipeline="builtin.module($1)" \
    --mlir-timing -o /dev/null 2>"$timing"; } 2>&1)"; then
    echo "$0: the compile with builtin.module($1) failed:" >&2
    cat "$timing" >&2
    kill "$$"
  fi
  awk -v times="$times" -v lines="^ *($lines)\$" '
    { gsub(/\([^)]*\)/, "") } # user, wall, name
    / Total$/ { total = $2 }
    { name = $0; sub(/^ *[0-9.]+ +[0-9.]+ +/, "", name) }
    name ~ lines { pass += $2 }
    END { split(times, t, " ")
          printf "%s %s %s %s\n", total, pass + 0, t[1], t[2] + t[3] }' "$timing"
}
timing="$(mktemp)"
trap 'rm -f "$timing"' EXIT
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

on=() off=() pass=() cmd_on=() cmd_off=() cpu_on=() cpu_off=()
for ((i = 0; i < runs; ++i)); do
  read -r total own command cpu < <(measure "$pipeline")
  on+=("$total") pass+=("$own") cmd_on+=("$command") cpu_on+=("$cpu")
  read -r total own command cpu < <(measure "$pipeline{$disable}")
  off+=("$total") cmd_off+=("$command") cpu_off+=("$cpu")
done
m() { printf '%s\n' "$@" | median; }
awk -v on="$(m "${on[@]}")" -v off="$(m "${off[@]}")" \
  -v pass="$(m "${pass[@]}")" -v con="$(m "${cmd_on[@]}")" \
  -v coff="$(m "${cmd_off[@]}")" -v uon="$(m "${cpu_on[@]}")" \
  -v uoff="$(m "${cpu_off[@]}")" -v p="$pipeline" \
  -v f="$(basename "$file")" -v n="$runs" -v o="$disable" 'BEGIN {
  printf "%s on %s, %d runs each, medians of wall time:\n", p, f, n
  printf "  pipeline: with the passes %.2f ms, %s %.2f ms: %+.1f%%\n",
         1000 * on, o, 1000 * off, 100 * (on / off - 1)
  printf "  command:  with the passes %.2f ms, without %.2f ms: %+.1f%%\n",
         1000 * con, 1000 * coff, 100 * (con / coff - 1)
  printf "  command CPU time: with %.1f ms, without %.1f ms: %+.1f%%\n",
         1000 * uon, 1000 * uoff, 100 * (uon / uoff - 1)
  printf "  their own lines %.2f ms: %.1f%% of the pipeline without them\n",
         1000 * pass, 100 * pass / off
}'
