#!/usr/bin/env bash
# Compiles a .mlir program (distruntime + func/arith/scf/memref/tensor/
# vector ...) to a native executable linked with libdistrt, or with -c to an
# object file.
#   scripts/compile.sh prog.mlir -o prog
#   scripts/compile.sh kernels.mlir -c -o kernels.o
# The program's entry point is `func.func @main() -> i32`.
# DISTRUNTIME_PIPELINE_OPTIONS passes options to the distruntime-to-llvm
# pipeline, e.g. "decompose-batching-dims=1".
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${DISTRUNTIME_BUILD_DIR:-$root/build}"
# The LLVM 22 installation: DISTRUNTIME_LLVM_PREFIX, else llvm-config-22's.
llvm="${DISTRUNTIME_LLVM_PREFIX:-$(llvm-config-22 --prefix)}"

usage() {
  echo "usage: $0 <prog.mlir> [-c] -o <output>" >&2
  exit 2
}
[ $# -ge 1 ] || usage
input="$1"
shift
object=0
output=""
while [ $# -gt 0 ]; do
  case "$1" in
  -c) object=1 ;;
  -o) output="${2:-}"; shift ;;
  *) usage ;;
  esac
  shift
done
[ -n "$output" ] || usage
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# Programs with upstream shard annotations are partitioned first.
pipeline="distruntime-to-llvm"
grep -q "shard\.grid" "$input" && pipeline="shard-to-llvm"
[ -n "${DISTRUNTIME_PIPELINE_OPTIONS:-}" ] &&
  pipeline="$pipeline{${DISTRUNTIME_PIPELINE_OPTIONS}}"
"$build/bin/distruntime-opt" "$input" --pass-pipeline="builtin.module($pipeline)" \
  -o "$work/prog.llvm.mlir"
"$llvm/bin/mlir-translate" --mlir-to-llvmir "$work/prog.llvm.mlir" -o "$work/prog.ll"
# llc alone runs no middle-end optimization (LICM, vectorization).
"$llvm/bin/opt" -O2 "$work/prog.ll" -o "$work/prog.bc"
if [ "$object" = 1 ]; then
  "$llvm/bin/llc" -O2 -relocation-model=pic -filetype=obj "$work/prog.bc" -o "$output"
  exit 0
fi
"$llvm/bin/llc" -O2 -relocation-model=pic -filetype=obj "$work/prog.bc" -o "$work/prog.o"
# A sanitized build (DISTRUNTIME_SANITIZE) links the program with the
# compiler and the sanitizer runtimes its libdistrt was built with.
cxx=c++
sanitize=()
cache="$build/CMakeCache.txt"
if [ -f "$cache" ] &&
  flags="$(sed -n 's/^DISTRUNTIME_SANITIZE_LINK_FLAGS:[A-Z]*=//p' "$cache")" &&
  [ -n "$flags" ]; then
  read -r -a sanitize <<<"$flags"
  cxx="$(sed -n 's/^CMAKE_CXX_COMPILER:[A-Z]*=//p' "$cache")"
fi
"$cxx" "$work/prog.o" -o "$output" "${sanitize[@]}" \
  -L"$build/lib" -ldistrt -Wl,-rpath,"$build/lib" \
  -L"$llvm/lib" -lmlir_c_runner_utils -lmlir_float16_utils -Wl,-rpath,"$llvm/lib"
