#!/usr/bin/env bash
# Compiles a .mlir program (distruntime + func/arith/scf/memref/tensor/
# vector ...) to a native executable linked with libdistrt, or with -c to an
# object file.
# Usage: scripts/compile.sh <prog.mlir> [-c | --llvm-dialect] [--remarks]
#                          -o <output>      (--help: this text)
#   scripts/compile.sh prog.mlir -o prog
#   scripts/compile.sh kernels.mlir -c -o kernels.o
#   scripts/compile.sh prog.mlir --llvm-dialect -o prog.llvm.mlir   (run.sh --jit)
#   scripts/compile.sh prog.mlir --remarks -o prog
# --remarks prints what the communication passes did, as MLIR remarks on
# stderr: each combine, overlap, op made async or moved, and each
# communicating op proven or not and why (docs/guide.md, "Reading the
# compiler's remarks").
# The program's entry point is `func.func @main() -> i32`.
# In the source tree it uses the build directory's distruntime-opt and
# libdistrt: DISTRUNTIME_BUILD_DIR, else build/. Installed (as
# <prefix>/bin/distruntime-compile or <prefix>/share/distruntime/compile.sh)
# it uses the prefix's bin/distruntime-opt and lib/libdistrt.so.
# DISTRUNTIME_PIPELINE_OPTIONS passes options to the distruntime-to-llvm
# pipeline, e.g. "decompose-batching-dims=1".
# DISTRUNTIME_LLVM_PREFIX: the LLVM 22 installation (default: llvm-config-22's).
# An SMPI build (DISTRUNTIME_MPI=smpi, build-smpi/) has no compiler of its
# own: the program is lowered by the distruntime-opt its cache names
# (DISTRUNTIME_SMPI_OPT, the Open MPI build's) and linked as SMPI wants, a
# shared object with libdistrt.a inside, run by smpirun (scripts/run.sh).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

help() {
  sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "${BASH_SOURCE[0]}"
}
for arg in "$@"; do
  case "$arg" in
  -h | --help) help; exit 0 ;;
  esac
done

# Where distruntime-opt and libdistrt are: a build directory of the source
# tree this script is in, or the install prefix it was installed into.
libdir=""
cache=""
if [ -f "$here/../CMakeLists.txt" ] && [ -d "$here/../runtime" ]; then
  root="$(cd "$here/.." && pwd)"
  build="${DISTRUNTIME_BUILD_DIR:-}"
  if [ -z "$build" ] && [ -f "$root/scripts/lib/mpi.sh" ]; then
    # DISTRUNTIME_MPI's default build directory (build/, build-mpich/).
    # shellcheck source=lib/mpi.sh
    . "$root/scripts/lib/mpi.sh"
    build="$mpi_build"
  fi
  build="${build:-$root/build}"
  opt="$build/bin/distruntime-opt"
  libdir="$build/lib"
  cache="$build/CMakeCache.txt"
  if [ -f "$cache" ] && smpi_opt="$(sed -n 's/^DISTRUNTIME_SMPI_OPT:[A-Z]*=//p' "$cache")" &&
    [ -n "$smpi_opt" ]; then
    opt="$smpi_opt"
    if [ ! -x "$opt" ]; then
      echo "$0: no $opt: the SMPI build lowers with the Open MPI build's" \
        "distruntime-opt (scripts/build.sh distruntime-opt builds it)" >&2
      exit 1
    fi
  fi
else
  if [ -x "$here/distruntime-opt" ]; then
    prefix="$(cd "$here/.." && pwd)"            # <prefix>/bin
  else
    prefix="$(cd "$here/../.." && pwd)"         # <prefix>/share/distruntime
  fi
  opt="$prefix/bin/distruntime-opt"
  for dir in "$prefix/lib" "$prefix/lib64" "$prefix"/lib/*-linux-gnu; do
    if [ -e "$dir/libdistrt.so" ]; then
      libdir="$dir"
      break
    fi
  done
  if [ ! -x "$opt" ] || [ -z "$libdir" ]; then
    echo "$0: no distruntime-opt or libdistrt.so under $prefix" >&2
    exit 1
  fi
  # The compiler and link flags (sanitizers) libdistrt was built with.
  cache="$prefix/share/distruntime/compile-cache.txt"
fi
# The LLVM 22 installation: DISTRUNTIME_LLVM_PREFIX, else llvm-config-22's.
llvm="${DISTRUNTIME_LLVM_PREFIX:-$(llvm-config-22 --prefix)}"

usage() {
  echo "usage: $0 <prog.mlir> [-c | --llvm-dialect] [--remarks] -o <output>   ($0 --help)" >&2
  exit 2
}
[ $# -ge 1 ] || usage
input="$1"
shift
object=0
dialect=0
output=""
remarks=()
while [ $# -gt 0 ]; do
  case "$1" in
  -c) object=1 ;;
  --llvm-dialect) dialect=1 ;;
  --remarks) remarks=(--remarks-filter='distruntime.*') ;;
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
"$opt" "$input" --pass-pipeline="builtin.module($pipeline)" "${remarks[@]}" \
  -o "$work/prog.llvm.mlir"
if [ "$dialect" = 1 ]; then
  mv "$work/prog.llvm.mlir" "$output"
  exit 0
fi
"$llvm/bin/mlir-translate" --mlir-to-llvmir "$work/prog.llvm.mlir" -o "$work/prog.ll"
# llc alone runs no middle-end optimization (LICM, vectorization). The
# module has no target triple (mlir-translate sets none), so opt is given
# the host's, with its data layout: without one its cost models see no
# vector registers and vectorize nothing.
triple="$("$llvm/bin/llvm-config" --host-target)"
"$llvm/bin/opt" -O2 -mtriple="$triple" "$work/prog.ll" -o "$work/prog.bc"
if [ "$object" = 1 ]; then
  "$llvm/bin/llc" -O2 -relocation-model=pic -filetype=obj "$work/prog.bc" -o "$output"
  exit 0
fi
"$llvm/bin/llc" -O2 -relocation-model=pic -filetype=obj "$work/prog.bc" -o "$work/prog.o"
# A sanitized build (DISTRUNTIME_SANITIZE) links the program with the
# compiler and the sanitizer runtimes its libdistrt was built with (its
# CMakeCache.txt; installed, share/distruntime/compile-cache.txt).
cxx=c++
if [ -f "$libdir/libdistrt.a" ] && [ ! -e "$libdir/libdistrt.so" ]; then
  # SMPI: a shared object that smpimain dlopen()s once per simulated rank,
  # each copy with its own libdistrt (cmake/DistruntimeSMPI.cmake). A rank
  # ends when its main returns, before exit() would run libdistrt's atexit
  # hook: the program's main is renamed and called from one that finalizes
  # first (what the hook does). libdistrt.a is linked whole: its subsystems
  # register themselves at static initialization.
  "$llvm/bin/llvm-objcopy" --redefine-sym main=distrt_program_main \
    "$work/prog.o"
  cat >"$work/smpi_main.cpp" <<'EOF2'
extern "C" int distrt_program_main(int, char **);
extern "C" void distrt_finalize(void);
int main(int argc, char **argv) {
  const int status = distrt_program_main(argc, argv);
  distrt_finalize();
  return status;
}
EOF2
  "$cxx" -fPIC -fno-gnu-unique -c "$work/smpi_main.cpp" -o "$work/smpi_main.o"
  "$cxx" "$work/prog.o" "$work/smpi_main.o" -o "$output" -shared -fPIC -Wl,-z,defs \
    -Wl,--whole-archive "$libdir/libdistrt.a" -Wl,--no-whole-archive \
    -lfmt -lsimgrid -lm \
    -L"$llvm/lib" -lmlir_c_runner_utils -lmlir_float16_utils -Wl,-rpath,"$llvm/lib"
  exit 0
fi
sanitize=()
if [ -n "$cache" ] && [ -f "$cache" ] &&
  flags="$(sed -n 's/^DISTRUNTIME_SANITIZE_LINK_FLAGS:[A-Z]*=//p' "$cache")" &&
  [ -n "$flags" ]; then
  read -r -a sanitize <<<"$flags"
  cxx="$(sed -n 's/^CMAKE_CXX_COMPILER:[A-Z]*=//p' "$cache")"
fi
"$cxx" "$work/prog.o" -o "$output" "${sanitize[@]}" \
  -L"$libdir" -ldistrt -Wl,-rpath,"$libdir" \
  -L"$llvm/lib" -lmlir_c_runner_utils -lmlir_float16_utils -Wl,-rpath,"$llvm/lib"
