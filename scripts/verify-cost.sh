#!/usr/bin/env bash
# What distruntime-verify-spmd adds to a pipeline: compiles a program with
# the pipeline and with the pipeline's verify-spmd=0, alternating, RUNS times
# each, under --mlir-timing, and prints the medians of the total wall time,
# of the pass's own line, and their ratio. Run it alone on the machine (the
# figures are milliseconds).
# Usage: scripts/verify-cost.sh [pipeline] [prog.mlir] [runs]
#   scripts/verify-cost.sh distruntime-to-llvm examples/stencil.mlir 21
#   scripts/verify-cost.sh shard-to-llvm examples/shard/matmul.mlir 21
# Uses the build directory's distruntime-opt: DISTRUNTIME_BUILD_DIR, else
# build/.
set -euo pipefail
if [ "${1:-}" = --help ] || [ "${1:-}" = -h ]; then
  sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"
  exit 0
fi
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
opt="${DISTRUNTIME_BUILD_DIR:-$root/build}/bin/distruntime-opt"
pipeline="${1:-distruntime-to-llvm}"
file="${2:-$root/examples/stencil.mlir}"
runs="${3:-21}"

# One compile's report: "<total> <pass>" in seconds of wall time.
measure() {
  "$opt" "$file" --pass-pipeline="builtin.module($1)" --mlir-timing \
    -o /dev/null 2>&1 |
    awk '{ gsub(/\([^)]*\)/, "") } # user, wall, name
         / Total$/ { total = $2 } /VerifySPMD$/ { pass += $2 }
         END { printf "%s %s\n", total, pass + 0 }'
}
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

on=() off=() pass=()
for ((i = 0; i < runs; ++i)); do
  read -r total own < <(measure "$pipeline")
  on+=("$total")
  pass+=("$own")
  read -r total own < <(measure "$pipeline{verify-spmd=0}")
  off+=("$total")
done
m_on="$(printf '%s\n' "${on[@]}" | median)"
m_off="$(printf '%s\n' "${off[@]}" | median)"
m_pass="$(printf '%s\n' "${pass[@]}" | median)"
awk -v on="$m_on" -v off="$m_off" -v pass="$m_pass" -v p="$pipeline" \
  -v f="$(basename "$file")" -v n="$runs" 'BEGIN {
  printf "%s on %s, %d runs each, medians of wall time:\n", p, f, n
  printf "  with the pass %.2f ms, verify-spmd=0 %.2f ms: %+.1f%%\n",
         1000 * on, 1000 * off, 100 * (on / off - 1)
  printf "  the pass itself %.2f ms: %.1f%% of the pipeline without it\n",
         1000 * pass, 100 * pass / off
}'
