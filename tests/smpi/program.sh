#!/usr/bin/env bash
# One compiled .mlir program under SMPI, its output compared with a serial
# reference (the SMPI build's program tests, tests/smpi/CMakeLists.txt).
#   tests/smpi/program.sh <build> <prog.mlir> <np> <sed-expr|-> <reference...>
# Compiles <prog.mlir> (after `sed <sed-expr>` unless -, e.g. a grid shape)
# with scripts/compile.sh against <build> (an SMPI build), runs it on <np>
# simulated ranks with the build's launcher, flags, platform and host file,
# and diffs its stdout with what the reference command prints. More ranks
# than the platform has hosts run on platforms/fattree-1024.xml (1,024
# hosts) instead.
set -euo pipefail
if [ "${1:-}" = --help ] || [ "${1:-}" = -h ] || [ $# -lt 5 ]; then
  sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"
  [ $# -ge 5 ] || [ "${1:-}" = --help ] || [ "${1:-}" = -h ] || exit 2
  exit 0
fi
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
build="$1" src="$2" np="$3" edit="$4"
shift 4
work="$(mktemp -d "${TMPDIR:-/tmp}/distrt-smpi-prog.XXXXXX")"
trap 'rm -rf "$work"' EXIT
cache() { sed -n "s/^$1:[A-Z]*=//p" "$build/CMakeCache.txt"; }

prog="$work/$(basename "$src")"
if [ "$edit" = - ]; then
  cp "$src" "$prog"
else
  sed "$edit" "$src" >"$prog"
  if cmp -s "$src" "$prog"; then
    echo "program.sh: '$edit' changes nothing in $src" >&2
    exit 1
  fi
fi
DISTRUNTIME_BUILD_DIR="$build" "$root/scripts/compile.sh" "$prog" -o "$work/prog"
"$@" >"$work/expected"
IFS=';' read -r -a flags <<<"$(cache DISTRUNTIME_MPIEXEC_FLAGS)"
for i in "${!flags[@]}"; do
  if [ "${flags[$i]}" = -hostfile ] &&
    [ "$np" -gt "$(wc -l <"${flags[$((i + 1))]}")" ]; then
    flags[i+1]="$root/platforms/fattree-1024.hosts"
    flags[i-1]="$root/platforms/fattree-1024.xml"
  fi
done
"$(cache DISTRUNTIME_MPIRUN)" -np "$np" "${flags[@]}" "$work/prog" >"$work/out"
diff "$work/expected" "$work/out"
echo "program.sh: $(basename "$src") on $np simulated ranks prints the reference's output"
