#!/usr/bin/env bash
# ctest install.external_project (registered by cmake/DistruntimeInstall.cmake):
#   run.sh <build dir> <work dir>
# Installs the build into <work>/prefix, then from there only:
#   1. configures and builds tests/install/project (find_package(DistRuntime)):
#      a C++ host program on DistRuntime::distrt, run under the launcher at
#      np 2; an opt-like tool on DistRuntime::Pipelines, run on input.mlir
#      (convert-distruntime-to-runtime);
#      stock mlir-opt-22 loads the installed DistRuntimePlugin.so;
#   2. compiles a C host program with `pkg-config --cflags --libs distrt` and
#      runs it at np 2;
#   3. compiles prog.mlir with the installed bin/distruntime-compile (and
#      share/distruntime/compile.sh) and runs it at np 2.
# The launcher comes from the environment ctest sets: DISTRUNTIME_MPIRUN,
# DISTRUNTIME_MPIEXEC_NUMPROC_FLAG, DISTRUNTIME_MPIEXEC_FLAGS (the build's).
set -euo pipefail
build="$1"
work="$2"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
prefix="$work/prefix"
read -r -a mpiflags <<<"${DISTRUNTIME_MPIEXEC_FLAGS:-}"
read -r -a linkflags <<<"${DISTRUNTIME_TEST_LINK_FLAGS:-}"
mpirun=("${DISTRUNTIME_MPIRUN:-mpiexec}" "${DISTRUNTIME_MPIEXEC_NUMPROC_FLAG:--np}" 2
        "${mpiflags[@]}")
step() { echo "== $* ($SECONDS s)"; }
fail() { echo "FAIL: $*" >&2; exit 1; }
# expect <regex> <output>: the output has a line matching the regex.
expect() {
  grep -Eq -- "$1" <<<"$2" || { printf '%s\n' "$2"; fail "no line matching '$1'"; }
  grep -E -- "$1" <<<"$2"
}

rm -rf "$work"
mkdir -p "$work"

step "install into $prefix"
cmake --install "$build" --prefix "$prefix" >"$work/install.log" ||
  { cat "$work/install.log"; fail "cmake --install"; }
for f in include/distruntime/Runtime/distrt.h include/distruntime/Runtime/distrt.hpp \
  include/distruntime/Runtime/distrt_mpi.h \
  include/distruntime/Dialect/DistRuntime/IR/DistRuntimeOps.td \
  include/distruntime/Dialect/DistRuntime/IR/DistRuntimeOps.h.inc \
  include/distruntime/Conversion/Passes.h.inc \
  include/distruntime/Conversion/RuntimeAPI/RuntimeAPI.h \
  include/distruntime/Pipelines/Passes.h include/distruntime/Pipelines/Passes.h.inc \
  lib/libdistrt.so lib/libDistRuntimeDialect.a lib/libDistRuntimePipelines.a \
  lib/DistRuntimePlugin.so bin/distruntime-opt bin/distruntime-compile \
  share/distruntime/compile.sh lib/cmake/DistRuntime/DistRuntimeConfig.cmake \
  lib/cmake/DistRuntime/DistRuntimeConfigVersion.cmake lib/pkgconfig/distrt.pc; do
  [ -e "$prefix/$f" ] || fail "not installed: $f"
done
# Nothing installed refers back to the source or build tree.
if grep -rlF -e "$build" -e "$(cd "$here/../.." && pwd)/include" \
  "$prefix/lib/cmake" "$prefix/lib/pkgconfig"; then
  fail "the package refers to the build or source tree"
fi

step "configure the external project"
cmake_args=(-S "$here/project" -B "$work/project" -DCMAKE_BUILD_TYPE=Release
            -DCMAKE_PREFIX_PATH="$prefix")
[ -n "${DISTRUNTIME_TEST_GENERATOR:-}" ] && cmake_args+=(-G "$DISTRUNTIME_TEST_GENERATOR")
[ -n "${DISTRUNTIME_TEST_CC:-}" ] && cmake_args+=(-DCMAKE_C_COMPILER="$DISTRUNTIME_TEST_CC")
[ -n "${DISTRUNTIME_TEST_CXX:-}" ] && cmake_args+=(-DCMAKE_CXX_COMPILER="$DISTRUNTIME_TEST_CXX")
[ ${#linkflags[@]} -gt 0 ] && cmake_args+=(-DCMAKE_EXE_LINKER_FLAGS="${linkflags[*]}")
cmake "${cmake_args[@]}" >"$work/configure.log" 2>&1 ||
  { cat "$work/configure.log"; fail "configuring tests/install/project"; }
grep "DistRuntime " "$work/configure.log"

step "build the external project"
cmake --build "$work/project" -j 2 >"$work/build.log" 2>&1 ||
  { cat "$work/build.log"; fail "building tests/install/project"; }

step "(a) C++ host program on DistRuntime::distrt, np 2"
out="$("${mpirun[@]}" "$work/project/host" 2>&1)" || { echo "$out"; fail "host"; }
expect "^host: size 2 sum 3 2 max 1 ok$" "$out"

step "(b) opt-like tool on DistRuntime::Pipelines"
out="$("$work/project/tool" "$here/project/input.mlir" \
  --convert-distruntime-to-runtime 2>&1)" || { echo "$out"; fail "tool"; }
expect "call @distrt_all_reduce\(" "$out"
expect "call @distrt_team_size\(" "$out"
grep -q "distruntime\." <<<"$out" && fail "distruntime ops left after the conversion"
# The tool knows every distruntime pass and pipeline.
# Output captured first: `tool | grep -q` under pipefail fails when grep
# exits at its match and the tool then dies of SIGPIPE (under load).
help="$("$work/project/tool" --help)" || fail "tool --help"
grep -q -- "--distruntime-to-llvm" <<<"$help" ||
  fail "the tool has no --distruntime-to-llvm"

# Stock mlir-opt-22 with the installed plugin (a sanitized plugin would need
# the sanitizer runtimes preloaded: not there).
if [ ${#linkflags[@]} -eq 0 ]; then
  step "the installed plugin in stock mlir-opt"
  plugin="$prefix/lib/DistRuntimePlugin.so"
  out="$("$(llvm-config-22 --bindir)/mlir-opt" --load-dialect-plugin="$plugin" \
    --load-pass-plugin="$plugin" "$here/project/input.mlir" \
    --pass-pipeline='builtin.module(convert-distruntime-to-runtime)' 2>&1)" ||
    { echo "$out"; fail "mlir-opt-22 with the plugin"; }
  expect "call @distrt_all_reduce\(" "$out"
fi

step "pkg-config: a C host program, np 2"
export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
pc="$(pkg-config --cflags --libs distrt)" || fail "pkg-config distrt"
echo "pkg-config --cflags --libs distrt: $pc"
read -r -a pcflags <<<"$pc"
"${DISTRUNTIME_TEST_CC:-cc}" "$here/project/host.c" -o "$work/host_c" "${pcflags[@]}" \
  "${linkflags[@]}"
out="$("${mpirun[@]}" "$work/host_c" 2>&1)" || { echo "$out"; fail "host_c"; }
expect "^c host: rc 0 size 2 member 0$" "$out"

step "the installed compile.sh: a .mlir program, np 2"
unset DISTRUNTIME_BUILD_DIR
help="$("$prefix/bin/distruntime-compile" --help)" ||
  fail "distruntime-compile --help"
grep -q "distruntime-compile" <<<"$help" || fail "distruntime-compile --help: no usage"
"$prefix/bin/distruntime-compile" "$here/project/prog.mlir" -o "$work/prog"
out="$("${mpirun[@]}" "$work/prog" 2>&1)" || { echo "$out"; fail "prog"; }
expect "^prog: size 2 sums 3 10$" "$out"
ldd "$work/prog" | grep -F "$prefix/lib/libdistrt.so" ||
  fail "prog does not use the installed libdistrt"
"$prefix/share/distruntime/compile.sh" "$here/project/prog.mlir" -c -o "$work/prog.o"
[ -s "$work/prog.o" ] || fail "share/distruntime/compile.sh -c"

step "passed"
