#!/usr/bin/env bash
# Random differential testing of the distruntime compiler (issue 33 part 3).
# Loops over seeds until the time budget is spent. Per seed and rank count N:
#  - generates a correct program (tests/spmdfuzz/spmdgen.py, K cases) and the
#    output its Python model expects;
#  - runs distruntime-opt --distruntime-verify-spmd on it: any warning or
#    error is a false alarm;
#  - compiles it with scripts/compile.sh with the optimizing passes (default)
#    and without them (combine-collectives=0 overlap-halo=0
#    async-collectives=0 carry-loads=0), runs both under
#    `timeout 60 mpirun -np N` and compares the sorted outputs bit for bit,
#    with each other and with the model; runs the optimized program once more
#    under DISTRT_CHECK=all (a report there is a false alarm of checked mode).
# Per seed it also generates one program with an injected bug (mismatch,
# nowait, early-touch in turn, at an N >= 2 in turn) and checks it is caught:
# the compile fails, or a DISTRT_CHECK=1 run exits non-zero with a `distrt:`
# message. A DISTRT_CHECK=1 run that exits 0 silently while DISTRT_CHECK=all
# reports the bug is a wrong proof. When the compile catches a mismatch or
# nowait bug, the program is also compiled with verify-spmd=0 and run under
# DISTRT_CHECK=1, which must catch it at run time.
# Failing programs and their logs go to <work>/findings/; a summary table
# closes the run. Exit status 1 if there was any finding.
#
# Usage: tests/spmdfuzz/run.sh [--seconds T] [--seed S] [--np "1 2 3 4"]
#            [--cases K] [--work DIR] [--build DIR] [--no-inject]
#            [--gen-args "ARGS"]
#   --seconds T   time budget (default 300); the seed running then completes
#   --seed S      first seed (default 1); seeds S, S+1, ...
#   --np LIST     rank counts (default "1 2 3 4")
#   --cases K     cases per program (default 24)
#   --work DIR    work directory (default /tmp/spmdfuzz); findings in DIR/findings
#   --build DIR   the build directory whose bin/distruntime-opt and
#                 lib/libdistrt.so are used (default: the checkout's build/).
#                 They are copied to DIR/tools first, so a rebuild running
#                 meanwhile does not change the compiler under test.
#   --no-inject   no injected-bug programs
#   --gen-args    more arguments for spmdgen.py's correct programs, e.g.
#                 "--contexts plain,loop --kinds all_reduce,all_gather"
# Example: tests/spmdfuzz/run.sh --seconds 600 --seed 100 --np "2 4"
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"

seconds=300
seed=1
nps="1 2 3 4"
cases=24
work=/tmp/spmdfuzz
build="$root/build"
inject=1
genArgs=()
while [ $# -gt 0 ]; do
  case "$1" in
  --seconds) seconds="$2"; shift ;;
  --seed) seed="$2"; shift ;;
  --np) nps="$2"; shift ;;
  --cases) cases="$2"; shift ;;
  --work) work="$2"; shift ;;
  --build) build="$2"; shift ;;
  --no-inject) inject=0 ;;
  --gen-args) read -r -a genArgs <<<"$2"; shift ;;
  -h | --help) sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"; exit 0 ;;
  *) echo "run.sh: unknown argument $1 (--help)" >&2; exit 2 ;;
  esac
  shift
done

mkdir -p "$work/findings" "$work/progs" "$work/tools/bin" "$work/tools/lib"

# A snapshot of the compiler and the runtime: a rebuild meanwhile does not
# change what is under test.
for f in bin/distruntime-opt lib/libdistrt.so; do
  if [ ! -s "$build/$f" ]; then
    echo "run.sh: no $build/$f (build first: scripts/build.sh)" >&2
    exit 2
  fi
done
cp "$build/bin/distruntime-opt" "$work/tools/bin/"
cp "$build/lib/libdistrt.so" "$work/tools/lib/"
export DISTRUNTIME_BUILD_DIR="$work/tools"
opt="$work/tools/bin/distruntime-opt"
compile="$root/scripts/compile.sh"
gen="$here/spmdgen.py"
off="combine-collectives=0 overlap-halo=0 async-collectives=0 carry-loads=0"
# The Open MPI build's launcher (build/ is the Open MPI build).
launcher=mpirun
[ ! -x /usr/bin/mpiexec.openmpi ] || launcher=/usr/bin/mpiexec.openmpi
launch=("$launcher" --allow-run-as-root --oversubscribe --mca mpi_yield_when_idle 1)

declare -A count=()   # findings by class
declare -A kept=()    # programs kept by class
programs=0
injected=0
caseCount=0
runs=0
progSeconds=0
seeds=0
caughtStatic=0
caughtRun=0
caughtRuntimeOnly=0

# finding CLASS PROGRAM-BASE MESSAGE: counts it, keeps the first 5 per class.
finding() {
  local class="$1" base="$2" msg="$3" name n
  count[$class]=$((${count[$class]:-0} + 1))
  n=${kept[$class]:-0}
  name="$(basename "$base")"
  echo "FINDING [$class] $name: $msg"
  # its signature: the message without paths, positions and SSA names
  echo "$class: $msg" | sed -E 's#[^ ]*/##g; s/[^ ]*\.mlir:[0-9]+:[0-9]+: //g; s/%[A-Za-z0-9_]+/%_/g' |
    cut -c1-160 >>"$work/signatures.txt"
  if [ "$n" -lt 5 ]; then
    kept[$class]=$((n + 1))
    mkdir -p "$work/findings/$class"
    for f in "$base".*; do
      case "$f" in *.on | *.off | *.nocheck) continue ;; esac
      cp "$f" "$work/findings/$class/"
    done
    echo "$msg" >"$work/findings/$class/$name.finding.txt"
  fi
}

# run OUT ERR N PROGRAM [ENV...]: runs under timeout 60; returns the status.
run() {
  local out="$1" err="$2" np="$3" prog="$4" rc=0
  shift 4
  runs=$((runs + 1))
  env "$@" timeout -k 5 60 "${launch[@]}" -np "$np" "$prog" >"$out.raw" 2>"$err" || rc=$?
  LC_ALL=C sort "$out.raw" >"$out"
  rm -f "$out.raw"
  return "$rc"
}

correct() { # seed np
  local s="$1" np="$2" base="$work/progs/s$1-n$2" rc t0
  t0=$(date +%s.%N)
  python3 "$gen" --seed "$s" --cases "$cases" --np "$np" --expect "$base.expect" \
    ${genArgs[@]+"${genArgs[@]}"} >"$base.mlir"
  programs=$((programs + 1))
  caseCount=$((caseCount + cases))
  rc=0
  "$opt" --distruntime-verify-spmd "$base.mlir" -o /dev/null 2>"$base.verify.txt" || rc=$?
  if [ "$rc" -ne 0 ] || grep -qE 'warning|error' "$base.verify.txt"; then
    finding false-alarm "$base" "verify-spmd: $(grep -m1 -E 'warning|error' "$base.verify.txt" || echo "exit $rc")"
  fi
  rc=0
  "$compile" "$base.mlir" -o "$base.on" 2>"$base.compile-on.txt" || rc=$?
  if [ "$rc" -ne 0 ]; then
    finding rejected "$base" "compile (passes on) failed: $(grep -m1 error "$base.compile-on.txt" || echo "exit $rc")"
    return 0
  fi
  rc=0
  DISTRUNTIME_PIPELINE_OPTIONS="$off" "$compile" "$base.mlir" -o "$base.off" \
    2>"$base.compile-off.txt" || rc=$?
  if [ "$rc" -ne 0 ]; then
    finding rejected "$base" "compile (passes off) failed: $(grep -m1 error "$base.compile-off.txt" || echo "exit $rc")"
    return 0
  fi
  rc=0
  run "$base.out-on.txt" "$base.err-on.txt" "$np" "$base.on" || rc=$?
  [ "$rc" -eq 0 ] || finding run-error "$base" "passes on: exit $rc: $(head -c 300 "$base.err-on.txt")"
  rc=0
  run "$base.out-off.txt" "$base.err-off.txt" "$np" "$base.off" || rc=$?
  [ "$rc" -eq 0 ] || finding run-error "$base" "passes off: exit $rc: $(head -c 300 "$base.err-off.txt")"
  if ! cmp -s "$base.out-on.txt" "$base.out-off.txt"; then
    diff "$base.out-off.txt" "$base.out-on.txt" >"$base.diff-passes.txt" || true
    finding passes-change-output "$base" "sorted outputs differ with and without the passes: $(head -3 "$base.diff-passes.txt" | tr '\n' ' ')"
  elif ! cmp -s "$base.out-on.txt" "$base.expect"; then
    diff "$base.expect" "$base.out-on.txt" >"$base.diff-model.txt" || true
    finding wrong-result "$base" "both builds agree, but not with the model: $(head -3 "$base.diff-model.txt" | tr '\n' ' ')"
  fi
  rc=0
  run "$base.out-all.txt" "$base.err-all.txt" "$np" "$base.on" DISTRT_CHECK=all DISTRT_TIMEOUT=20 || rc=$?
  if [ "$rc" -ne 0 ] || grep -q 'distrt:' "$base.err-all.txt"; then
    finding check-false-alarm "$base" "DISTRT_CHECK=all: exit $rc: $(grep -m1 'distrt:' "$base.err-all.txt" || true)"
  elif ! cmp -s "$base.out-all.txt" "$base.out-on.txt"; then
    finding check-changes-output "$base" "DISTRT_CHECK=all changes the output"
  fi
  rm -f "$base.on" "$base.off"
  progSeconds=$(awk -v a="$progSeconds" -v b="$(date +%s.%N)" -v c="$t0" 'BEGIN { print a + b - c }')
}

bugs=(mismatch nowait early-touch)
injectOne() { # seed np bug
  local s="$1" np="$2" bug="$3" base="$work/progs/s$1-n$2-$3" rc
  python3 "$gen" --seed "$s" --cases "$(((cases + 3) / 4))" --np "$np" --inject "$bug" >"$base.mlir"
  injected=$((injected + 1))
  rc=0
  "$compile" "$base.mlir" -o "$base.on" 2>"$base.compile-on.txt" || rc=$?
  if [ "$rc" -ne 0 ]; then
    if ! grep -q 'error' "$base.compile-on.txt"; then
      finding crash "$base" "compile failed without an error diagnostic (exit $rc)"
      return 0
    fi
    caughtStatic=$((caughtStatic + 1))
    [ "$bug" != early-touch ] || return 0
    # The run-time checks must catch it too, unproven.
    rc=0
    DISTRUNTIME_PIPELINE_OPTIONS=verify-spmd=0 "$compile" "$base.mlir" -o "$base.nocheck" \
      2>"$base.compile-nocheck.txt" || rc=$?
    if [ "$rc" -ne 0 ]; then
      finding rejected "$base" "compile with verify-spmd=0 failed: $(grep -m1 error "$base.compile-nocheck.txt" || echo "exit $rc")"
      return 0
    fi
    rc=0
    run "$base.out-1.txt" "$base.err-1.txt" "$np" "$base.nocheck" DISTRT_CHECK=1 DISTRT_TIMEOUT=20 || rc=$?
    if [ "$rc" -ne 0 ] && grep -q 'distrt:' "$base.err-1.txt"; then
      caughtRuntimeOnly=$((caughtRuntimeOnly + 1))
    else
      finding runtime-missed "$base" "verify-spmd=0 build under DISTRT_CHECK=1: exit $rc, $(grep -c 'distrt:' "$base.err-1.txt" || true) distrt: lines"
    fi
    rm -f "$base.nocheck"
    return 0
  fi
  rc=0
  run "$base.out-1.txt" "$base.err-1.txt" "$np" "$base.on" DISTRT_CHECK=1 DISTRT_TIMEOUT=20 || rc=$?
  if [ "$rc" -ne 0 ] && grep -q 'distrt:' "$base.err-1.txt"; then
    caughtRun=$((caughtRun + 1))
  elif [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
    finding hang "$base" "DISTRT_CHECK=1 run still ran after 60 s"
  elif [ "$rc" -ne 0 ]; then
    finding missed "$base" "DISTRT_CHECK=1: exit $rc without a distrt: message: $(head -c 200 "$base.err-1.txt")"
  else
    rc=0
    run "$base.out-all.txt" "$base.err-all.txt" "$np" "$base.on" DISTRT_CHECK=all DISTRT_TIMEOUT=20 || rc=$?
    if [ "$rc" -ne 0 ] || grep -q 'distrt:' "$base.err-all.txt"; then
      finding wrong-proof "$base" "DISTRT_CHECK=1 exits 0, DISTRT_CHECK=all: $(grep -m1 'distrt:' "$base.err-all.txt" || echo "exit $rc")"
    else
      finding missed "$base" "compiles, and DISTRT_CHECK=1 and =all both exit 0"
    fi
  fi
  rm -f "$base.on"
}

read -r -a npList <<<"$nps"
multi=()
for np in "${npList[@]}"; do
  [ "$np" -lt 2 ] || multi+=("$np")
done
start=$(date +%s)
s="$seed"
i=0
while [ $(($(date +%s) - start)) -lt "$seconds" ]; do
  for np in "${npList[@]}"; do
    correct "$s" "$np"
  done
  if [ "$inject" = 1 ] && [ "${#multi[@]}" -gt 0 ]; then
    injectOne "$s" "${multi[$((i % ${#multi[@]}))]}" "${bugs[$((i % 3))]}"
  fi
  seeds=$((seeds + 1))
  s=$((s + 1))
  i=$((i + 1))
done
elapsed=$(($(date +%s) - start))

total=0
for c in "${!count[@]}"; do
  total=$((total + count[$c]))
done
echo
echo "spmdfuzz summary ($(date -u +%Y-%m-%dT%H:%M:%SZ), compiler snapshot of $build)"
printf '  %-28s %s\n' "seeds" "$seed .. $((s - 1)) ($seeds)" \
  "rank counts" "$nps" \
  "correct programs" "$programs ($caseCount cases, $cases per program)" \
  "mpirun runs" "$runs" \
  "time per correct program" "$(awk -v t="$progSeconds" -v n="$programs" 'BEGIN { if (n > 0) printf "%.1f", t / n; else print "-" }') s (generate, verify, 2 compiles, 3 runs)" \
  "injected-bug programs" "$injected (caught: $caughtStatic compiling, $caughtRun at run time; runtime re-check of compile-caught: $caughtRuntimeOnly)" \
  "elapsed" "$elapsed s"
echo "  findings by class:"
for c in false-alarm rejected run-error passes-change-output wrong-result check-false-alarm \
  check-changes-output crash runtime-missed hang missed wrong-proof; do
  printf '    %-26s %s\n' "$c" "${count[$c]:-0}"
done
if [ "$total" -gt 0 ]; then
  echo "  distinct findings (count, signature) of this run:"
  tail -n "$total" "$work/signatures.txt" | sort | uniq -c | sort -rn | sed 's/^/    /'
fi
echo "  findings kept in $work/findings/"
[ "$total" -eq 0 ]
