#!/usr/bin/env bash
# Lowers a shard program with stock upstream MLIR 22 only (no distruntime):
# convert-shard-to-mpi, then the upstream chain to LLVM, into an object.
#   lower_upstream.sh <in.mlir> <rename-from> <rename-to> <out.o>
# Every `@<rename-from>` symbol is renamed `@<rename-to>` first (the same
# program is also lowered by distruntime under other names).
# convert-shard-to-mpi exits 0 after "failed to legalize" errors: any
# diagnostic on its stderr fails this script.
# The output of convert-shard-to-mpi is used as it is (no fix-ups).
set -euo pipefail
[ $# -eq 4 ] || { echo "usage: $0 <in.mlir> <from> <to> <out.o>" >&2; exit 2; }
input="$1" from="$2" to="$3" output="$4"
llvm="${DISTRUNTIME_LLVM_PREFIX:-$(llvm-config-22 --prefix)}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# The MPI ABI upstream lowers to is the module's "MPI:Implementation": the
# build's MPI (DISTRUNTIME_MPI, set by the build).
impl=OpenMPI
[ "${DISTRUNTIME_MPI:-openmpi}" = mpich ] && impl=MPICH
sed -e "s/@${from}/@${to}/g" \
  -e "s/\"MPI:Implementation\" = \"OpenMPI\"/\"MPI:Implementation\" = \"$impl\"/" \
  "$input" >"$work/in.mlir"
"$llvm/bin/mlir-opt" "$work/in.mlir" --convert-shard-to-mpi \
  -o "$work/mpi.mlir" 2>"$work/err"
if [ -s "$work/err" ]; then
  cat "$work/err" >&2
  echo "$0: convert-shard-to-mpi reported errors (its exit status was 0)" >&2
  exit 1
fi
"$llvm/bin/mlir-opt" "$work/mpi.mlir" --canonicalize --expand-strided-metadata \
  --lower-affine --convert-scf-to-cf --convert-to-llvm \
  --reconcile-unrealized-casts --symbol-dce -o "$work/llvm.mlir"
"$llvm/bin/mlir-translate" --mlir-to-llvmir "$work/llvm.mlir" -o "$work/prog.ll"
# As scripts/compile.sh: the host's target, so that opt vectorizes.
triple="$("$llvm/bin/llvm-config" --host-target)"
"$llvm/bin/opt" -O2 -mtriple="$triple" "$work/prog.ll" -o "$work/prog.bc"
"$llvm/bin/llc" -O2 -relocation-model=pic -filetype=obj "$work/prog.bc" -o "$output"
