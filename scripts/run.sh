#!/usr/bin/env bash
# Builds distruntime if needed, compiles a .mlir program and runs it with
# mpirun (the launcher CMake found: Open MPI's or MPICH's).
#
# Usage: scripts/run.sh [--jit] [--no-build] <prog.mlir> [mpirun args...]
#                       [-- program args...]
#   scripts/run.sh examples/heat2d.mlir -np 4
#   scripts/run.sh --jit examples/heat2d.mlir -np 4
#   scripts/run.sh prog.mlir -np 4 --hostfile hosts --mca btl tcp,self
#
#   --jit       no native compile: lower with distruntime-opt and run the
#               LLVM dialect through mlir-runner-22 in every rank, with
#               libdistrt and MLIR's runner utils as shared libraries. Same
#               output and exit status as the compiled program.
#   --no-build  do not run scripts/build.sh first (the build must exist).
#   --help      this text.
# The executable is build/programs/<the source's path in the checkout, without
# .mlir> (build/programs/abs/<absolute path> for a source outside it), so it
# can be run again with mpirun directly.
# Everything after the program goes to mpirun (default: -np 2), so
# --hostfile, -H, --mca, -x ... pass through; Open MPI also gets
# --allow-run-as-root --oversubscribe --mca mpi_yield_when_idle 1 (from the
# build's DISTRUNTIME_MPIEXEC_FLAGS). Arguments after `--` go to the program
# (a `main(i32, !llvm.ptr)` gets them as argc/argv, compiled or --jit).
# DISTRUNTIME_MPI=smpi compiles against build-smpi/ and runs under smpirun
# with the build's platform and host file (platforms/, docs/scaling.md):
#   DISTRUNTIME_MPI=smpi scripts/run.sh examples/heat2d.mlir -np 16
# The exit status is mpirun's: a rank whose main returns non-zero makes it
# non-zero. DISTRUNTIME_BUILD_DIR selects the build (default build/, or
# build-mpich/ with DISTRUNTIME_MPI=mpich),
# DISTRUNTIME_PIPELINE_OPTIONS the pipeline's options, as for compile.sh.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=lib/mpi.sh
source "$root/scripts/lib/mpi.sh"
build="${DISTRUNTIME_BUILD_DIR:-$mpi_build}"

usage() {
  awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"
}
jit=0
do_build=1
while [ $# -gt 0 ]; do
  case "$1" in
  -h | --help) usage; exit 0 ;;
  --jit) jit=1 ;;
  --no-build) do_build=0 ;;
  -*) echo "run.sh: unknown option $1 (before the program)" >&2; usage >&2; exit 2 ;;
  *) break ;;
  esac
  shift
done
[ $# -ge 1 ] || { usage >&2; exit 2; }
input="$1"
shift
launcher_args=()
program_args=()
while [ $# -gt 0 ]; do
  if [ "$1" = -- ]; then
    shift
    program_args=("$@")
    break
  fi
  launcher_args+=("$1")
  shift
done
[ ${#launcher_args[@]} -gt 0 ] || launcher_args=(-np 2)

# Only what a program needs: the compiler, the runtime and the plugin (the
# tests and benchmarks are scripts/test.sh's and scripts/bench.sh's). SMPI:
# the runtime here, the compiler in the Open MPI build (scripts/lib/mpi.sh).
if [ "$mpi" = smpi ]; then
  [ "$jit" = 0 ] || {
    echo "run.sh: --jit needs a real MPI (mlir-runner is no SMPI program)" >&2
    exit 2
  }
  if [ "$do_build" = 1 ]; then
    DISTRUNTIME_MPI=openmpi DISTRUNTIME_BUILD_DIR="$smpi_opt_build" \
      "$root/scripts/build.sh" distruntime-opt >&2
    DISTRUNTIME_BUILD_DIR="$build" "$root/scripts/build.sh" distrt >&2
  fi
elif [ "$do_build" = 1 ]; then
  "$root/scripts/build.sh" distruntime-opt distrt DistRuntimePlugin >&2
fi

# The launcher and its flags as CMake detected them; without a cache, mpirun
# on PATH (Open MPI's flags when it is Open MPI).
cache() {
  [ -f "$build/CMakeCache.txt" ] && sed -n "s/^$1:[A-Z]*=//p" "$build/CMakeCache.txt"
  return 0
}
mpirun="$(cache DISTRUNTIME_MPIRUN)"
flags=()
if [ -n "$mpirun" ]; then
  IFS=';' read -r -a flags <<<"$(cache DISTRUNTIME_MPIEXEC_FLAGS)"
else
  mpirun=mpirun
  version="$("$mpirun" --version 2>&1)" || true
  [[ "$version" == *"Open MPI"* ]] &&
    flags=(--allow-run-as-root --oversubscribe --mca mpi_yield_when_idle 1)
fi

name="$(basename "${input%.mlir}")"
if [ "$jit" = 0 ]; then
  # The executable's path mirrors the source's, so that two programs with
  # the same file name do not overwrite each other: build/programs/ + the
  # path in the checkout (examples/heat2d), or + abs/ + the absolute path.
  src="$(realpath "$input")"
  case "$src" in
  "$root"/*) rel="${src#"$root"/}" ;;
  *) rel="abs$src" ;;
  esac
  exe="$build/programs/${rel%.mlir}"
  mkdir -p "$(dirname "$exe")"
  "$root/scripts/compile.sh" "$input" -o "$exe"
  echo "run.sh: compiled to $exe" >&2
  exec "$mpirun" "${flags[@]}" "${launcher_args[@]}" "$exe" "${program_args[@]}"
fi

# --jit
for arg in "${program_args[@]}"; do
  [[ "$arg" =~ ^[[:print:]]*$ && "$arg" != *[\\\"]* ]] || {
    echo "run.sh: --jit takes printable program arguments without \\ or \"" >&2
    exit 2
  }
done
llvm="${DISTRUNTIME_LLVM_PREFIX:-$(llvm-config-22 --prefix)}"
# A directory of its own: several runs of one program may overlap.
work="$(mktemp -d "${TMPDIR:-/tmp}/distruntime-jit.XXXXXX")"
trap 'rm -rf "$work"' EXIT
lowered="$work/$name.llvm.mlir"
# Lowered as compile.sh lowers (the same pipeline, chosen in one place).
DISTRUNTIME_BUILD_DIR="$build" "$root/scripts/compile.sh" "$input" --llvm-dialect \
  -o "$lowered.tmp"
# mlir-runner prints an i32 result and exits 0. The entry point is a wrapper
# that calls @main and exit()s with its result instead: stdout stays the
# program's own, and the status reaches mpirun. exit() flushes stdio and runs
# libdistrt's atexit hook, which finalizes MPI.
# The module's closing brace is its last non-empty line.
last="$(awk 'NF { n = NR; l = $0 } END { print n; print l }' "$lowered.tmp")"
[ "${last#*$'\n'}" = "}" ] || {
  echo "run.sh: unexpected end of the lowered module $lowered.tmp" >&2
  exit 1
}
{
  head -n "$((${last%%$'\n'*} - 1))" "$lowered.tmp"
  grep -q "llvm.func @exit(" "$lowered.tmp" || echo "  llvm.func @exit(i32)"
  # mlir-runner calls the entry without arguments: a main(argc, argv) gets
  # them from constants, the program's name first, as C's main would.
  if grep -q "llvm.func @main(%arg0: i32, %arg1: !llvm.ptr)" "$lowered.tmp"; then
    args=("$name" "${program_args[@]}")
    n=${#args[@]}
    for i in "${!args[@]}"; do
      echo "  llvm.mlir.global internal constant @__distrt_jit_arg$i(\"${args[$i]}\\00\") {addr_space = 0 : i32}"
    done
    echo "  llvm.func @__distrt_jit_main() {"
    echo "    %argc = llvm.mlir.constant($n : i32) : i32"
    echo "    %slots = llvm.mlir.constant($((n + 1)) : i64) : i64"
    echo "    %argv = llvm.alloca %slots x !llvm.ptr : (i64) -> !llvm.ptr"
    for i in "${!args[@]}" "$n"; do
      if [ "$i" = "$n" ]; then
        echo "    %a$i = llvm.mlir.zero : !llvm.ptr"
      else
        echo "    %a$i = llvm.mlir.addressof @__distrt_jit_arg$i : !llvm.ptr"
      fi
      echo "    %p$i = llvm.getelementptr %argv[$i] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr"
      echo "    llvm.store %a$i, %p$i : !llvm.ptr, !llvm.ptr"
    done
    echo "    %0 = llvm.call @main(%argc, %argv) : (i32, !llvm.ptr) -> i32"
  else
    echo "  llvm.func @__distrt_jit_main() {"
    echo "    %0 = llvm.call @main() : () -> i32"
  fi
  cat <<'EOF2'
    llvm.call @exit(%0) : (i32) -> ()
    llvm.return
  }
}
EOF2
} >"$lowered"

libs="$build/lib/libdistrt.so,$llvm/lib/libmlir_c_runner_utils.so,$llvm/lib/libmlir_runner_utils.so"
runner=("$llvm/bin/mlir-runner")
# A sanitized libdistrt needs the sanitizer runtimes loaded first into the
# uninstrumented mlir-runner; LLVM's JIT keeps memory to the end (no leak
# check), and its many allocations each unwinding the stack slowly (the
# suite's fast_unwind_on_malloc=0) would take minutes.
if [ -n "$(cache DISTRUNTIME_SANITIZE_LINK_FLAGS)" ]; then
  cxx="$(cache CMAKE_CXX_COMPILER)"
  preload="$(readlink -f "$("$cxx" -print-file-name=libasan.so)"):$(readlink -f "$("$cxx" -print-file-name=libubsan.so)")"
  runner=(env "LD_PRELOAD=$preload" "ASAN_OPTIONS=${ASAN_OPTIONS:-}:detect_leaks=0:fast_unwind_on_malloc=1" "${runner[@]}")
fi
status=0
"$mpirun" "${flags[@]}" "${launcher_args[@]}" "${runner[@]}" \
  -e __distrt_jit_main -entry-point-result=void --shared-libs="$libs" \
  "$lowered" || status=$?
exit "$status"
