#!/usr/bin/env bash
# Lowers a shard program with distruntime: convert-shard-to-distruntime,
# then scripts/compile.sh (distruntime-to-llvm) into an object.
#   lower_ours.sh <in.mlir> <rename-from> <rename-to> <out.o>
# Every `@<rename-from>` symbol is renamed `@<rename-to>` first, as
# lower_upstream.sh does. DISTRUNTIME_BUILD_DIR: the build with
# distruntime-opt (default build/).
set -euo pipefail
[ $# -eq 4 ] || { echo "usage: $0 <in.mlir> <from> <to> <out.o>" >&2; exit 2; }
input="$1" from="$2" to="$3" output="$4"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
build="${DISTRUNTIME_BUILD_DIR:-$root/build}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

sed "s/@${from}/@${to}/g" "$input" >"$work/in.mlir"
"$build/bin/distruntime-opt" "$work/in.mlir" --convert-shard-to-distruntime \
  -o "$work/dist.mlir"
DISTRUNTIME_BUILD_DIR="$build" "$root/scripts/compile.sh" "$work/dist.mlir" \
  -c -o "$output"
