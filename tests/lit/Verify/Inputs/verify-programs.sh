#!/usr/bin/env bash
# Runs distruntime-verify-spmd over whole programs and prints each one's
# diagnostics, or "<program>: clean". A file with split-file parts (//---)
# is verified part by part; a program with shard annotations is partitioned
# and converted to distruntime first, as shard-to-llvm does.
# Usage: verify-programs.sh <distruntime-opt> <work dir> <file.mlir>...
set -uo pipefail
opt="$1"
work="$2"
shift 2
mkdir -p "$work"
for file in "$@"; do
  name="$(basename "$file" .mlir)"
  parts=("$file")
  if grep -q '^//--- ' "$file"; then
    rm -rf "${work:?}/$name"
    mkdir -p "$work/$name"
    split-file "$file" "$work/$name"
    parts=("$work/$name"/*.mlir)
  fi
  for part in "${parts[@]}"; do
    label="$name"
    [ "$part" = "$file" ] || label="$name/$(basename "$part" .mlir)"
    pipeline="distruntime-verify-spmd"
    grep -q "shard\.grid" "$part" &&
      pipeline="partition-sharded-functions,convert-shard-to-distruntime,canonicalize,$pipeline"
    out="$("$opt" "$part" --pass-pipeline="builtin.module($pipeline)" \
      -o /dev/null 2>&1)"
    if [ -z "$out" ]; then
      echo "$label: clean"
    else
      echo "$label:"
      printf '%s\n' "$out"
    fi
  done
done
