#!/usr/bin/env bash
# Compiles a .mlir program (distruntime + func/arith/scf/memref/tensor/
# vector ...) to a native executable linked with libdistrt.
#   scripts/compile.sh prog.mlir -o prog
# The program's entry point is `func.func @main() -> i32`.
# DISTRUNTIME_PIPELINE_OPTIONS passes options to the distruntime-to-llvm
# pipeline, e.g. "decompose-batching-dims=1".
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${DISTRUNTIME_BUILD_DIR:-$root/build}"
llvm=/usr/lib/llvm-22

[ $# -ge 3 ] && [ "$2" = "-o" ] || {
  echo "usage: $0 <prog.mlir> -o <executable>" >&2
  exit 2
}
input="$1"
output="$3"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

pipeline="distruntime-to-llvm"
[ -n "${DISTRUNTIME_PIPELINE_OPTIONS:-}" ] &&
  pipeline="distruntime-to-llvm{${DISTRUNTIME_PIPELINE_OPTIONS}}"
"$build/bin/distruntime-opt" "$input" --pass-pipeline="builtin.module($pipeline)" \
  -o "$work/prog.llvm.mlir"
"$llvm/bin/mlir-translate" --mlir-to-llvmir "$work/prog.llvm.mlir" -o "$work/prog.ll"
"$llvm/bin/llc" -O2 -relocation-model=pic -filetype=obj "$work/prog.ll" -o "$work/prog.o"
c++ "$work/prog.o" -o "$output" \
  -L"$build/lib" -ldistrt -Wl,-rpath,"$build/lib" \
  -L"$llvm/lib" -lmlir_c_runner_utils -lmlir_float16_utils -Wl,-rpath,"$llvm/lib"
