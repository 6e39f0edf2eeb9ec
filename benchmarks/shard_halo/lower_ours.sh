#!/usr/bin/env bash
# Lowers a shard program with distruntime into an object: scripts/compile.sh,
# which runs shard-to-llvm on programs with shard.grid (sharding propagation
# and shard-partition on functions with shard ops, a no-op on these
# already-partitioned memref functions; convert-shard-to-distruntime;
# distruntime-to-llvm).
#   lower_ours.sh <in.mlir> <rename-from> <rename-to> <out.o>
# Every `@<rename-from>` symbol is renamed `@<rename-to>` first, as
# lower_upstream.sh does. DISTRUNTIME_BUILD_DIR: the build with
# distruntime-opt (default build/).
set -euo pipefail
[ $# -eq 4 ] || { echo "usage: $0 <in.mlir> <from> <to> <out.o>" >&2; exit 2; }
input="$1" from="$2" to="$3" output="$4"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

sed "s/@${from}/@${to}/g" "$input" >"$work/halo.mlir"
"$root/scripts/compile.sh" "$work/halo.mlir" -c -o "$output"
