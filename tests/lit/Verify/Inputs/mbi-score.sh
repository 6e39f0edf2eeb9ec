#!/usr/bin/env bash
# Scores distruntime's checks on the MPI Bugs Initiative's classes of errors
# (tests/lit/Verify/Inputs/mbi/, docs/verification.md, "The MPI Bugs
# Initiative's classes") as MBI counts them: per case and per mode, a true or
# false positive or negative, then per mode TP FP TN FN, precision, recall
# and F1, and a markdown table per class.
#
# Usage: mbi-score.sh <distruntime-opt> <compile.sh> "<launcher up to -np>" <work dir> <case.mlir>...
#   mbi-score.sh build/bin/distruntime-opt scripts/compile.sh \
#     "mpirun --allow-run-as-root --oversubscribe --mca mpi_yield_when_idle 1 -np" \
#     /tmp/mbi tests/lit/Verify/Inputs/mbi/*.mlir
#
# A case is <class>-<name>-<ok|bad>.mlir: the label says whether the program
# is correct (ok: a positive is a false positive) or erroneous (bad); its
# header says the np it runs at ("np: N", default 2). The three modes:
#   static   distruntime-opt --distruntime-verify-spmd: an error or a warning
#            (or a program the op verifiers reject) is a positive;
#   runtime  compiled with DISTRUNTIME_PIPELINE_OPTIONS=verify-spmd=0 (a
#            compile error, which only the op verifiers can raise, is a
#            positive), then run under `timeout 60` with DISTRT_CHECK=1
#            DISTRT_TIMEOUT=20 at the case's np: a non-zero exit or a
#            `distrt:` line is a positive;
#   both     compiled with the default pipeline (the pass on): a compile
#            error is a positive; otherwise run as above. Where the lowered
#            program is the one the runtime mode ran (the pass proved no op,
#            so it marked nothing), the runtime verdict is reused.
# A run killed by `timeout` is a timeout (TO), which MBI counts apart from
# TP/FP/TN/FN, as it counts a tool failure (FAIL: a command that failed
# without a diagnostic of the program, or a launcher that did not start
# it); neither enters precision, recall or F1.
# Prints one line per case ("mbi: <case>: static=.. runtime=.. both=.."),
# the totals, and the tables. Needs bash, awk, cmp, timeout.
# No `set -e`: failing compiles and runs are the outcomes it records.
set -uo pipefail

if [ $# -lt 5 ]; then
  sed -n '2,/^set -uo/{/^set -uo/d;s/^# \{0,1\}//;p}' "${BASH_SOURCE[0]}" >&2
  exit 2
fi
opt="$1"
compile="$2"
read -r -a launch <<<"$3"
work="$4"
shift 4
mkdir -p "$work"
start=$SECONDS

# attempt <log> <command...>: 0 if it succeeds, 1 if it fails with a
# diagnostic of the program ("<file>:<line>:<col>: error:"), 2 (a tool
# failure) if it fails without one.
attempt() {
  local log="$1"
  shift
  "$@" >"$log" 2>&1 && return 0
  grep -qE ":[0-9]+:[0-9]+: (error|warning):" "$log" && return 1
  echo "mbi-score: failed without a diagnostic: $*" >&2
  cat "$log" >&2
  return 2
}

# run <exe> <np> <log>: prints POS, NEG, TO or FAIL (the launcher or the
# loader did not start the program).
run() {
  local exe="$1" np="$2" log="$3" rc
  env DISTRT_CHECK=1 DISTRT_TIMEOUT=20 timeout -k 5 60 "${launch[@]}" "$np" "$exe" >"$log" 2>&1
  rc=$?
  if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
    echo TO
  elif grep -q "distrt:" "$log"; then
    echo POS
  elif [ "$rc" -eq 0 ]; then
    echo NEG
  elif ! grep -qE "failed to start|could not be executed|error while loading shared libraries|ORTE_ERROR_LOG" "$log"; then
    # Any other non-zero exit is the program's (or MPI's) report.
    echo POS
  else
    echo FAIL
  fi
}

# verdict <POS|NEG|TO|FAIL> <ok|bad>: MBI's category.
verdict() {
  case "$1/$2" in
  POS/bad) echo TP ;;
  POS/ok) echo FP ;;
  NEG/bad) echo FN ;;
  NEG/ok) echo TN ;;
  *) echo "$1" ;;
  esac
}

results="$work/results.$$.txt"
: >"$results"
trap 'rm -f "$results"' EXIT
for file in "$@"; do
  base="$(basename "$file" .mlir)"
  label="${base##*-}"
  class="${base%%-*}"
  if [ "$label" != ok ] && [ "$label" != bad ]; then
    echo "mbi-score: $file: the name must end in -ok or -bad" >&2
    exit 2
  fi
  np="$(sed -n 's/.*np: \([0-9][0-9]*\).*/\1/p;T;q' "$file")"
  np="${np:-2}"
  dir="$work/$base"
  rm -rf "$dir"
  mkdir -p "$dir"

  # Static: the pass alone.
  attempt "$dir/static.log" "$opt" "$file" --distruntime-verify-spmd -o /dev/null
  rc=$?
  if grep -q ": error:" "$dir/static.log"; then
    s=POS static_how="error"
  elif grep -q ": warning:" "$dir/static.log"; then
    s=POS static_how="warning"
  elif [ "$rc" -eq 2 ]; then
    s=FAIL static_how="tool failure"
  else
    s=NEG static_how="clean"
  fi
  static="$(verdict "$s" "$label")"

  # Run time: checked mode alone (no pass, so no op is proven). A compile
  # error here can only come from the ops' verifiers.
  export DISTRUNTIME_PIPELINE_OPTIONS="verify-spmd=0"
  attempt "$dir/rt.compile.log" "$compile" "$file" --llvm-dialect -o "$dir/rt.llvm.mlir"
  rc=$?
  [ "$rc" -eq 0 ] && { attempt "$dir/rt.link.log" "$compile" "$file" -o "$dir/rt.exe"; rc=$?; }
  unset DISTRUNTIME_PIPELINE_OPTIONS
  case "$rc" in
  0) r="$(run "$dir/rt.exe" "$np" "$dir/rt.run.log")" rt_how="run" ;;
  1) r=POS rt_how="compile error" ;;
  *) r=FAIL rt_how="tool failure" ;;
  esac
  runtime="$(verdict "$r" "$label")"

  # Both: the default pipeline, then checked mode on what it did not prove.
  attempt "$dir/both.compile.log" "$compile" "$file" --llvm-dialect -o "$dir/both.llvm.mlir"
  rc=$?
  if [ "$rc" -eq 0 ] && [ "$rt_how" = run ] && cmp -s "$dir/rt.llvm.mlir" "$dir/both.llvm.mlir"; then
    b="$r" both_how="same program as runtime"
  else
    [ "$rc" -eq 0 ] && { attempt "$dir/both.link.log" "$compile" "$file" -o "$dir/both.exe"; rc=$?; }
    case "$rc" in
    0) b="$(run "$dir/both.exe" "$np" "$dir/both.run.log")" both_how="run" ;;
    1) b=POS both_how="compile error" ;;
    *) b=FAIL both_how="tool failure" ;;
    esac
  fi
  both="$(verdict "$b" "$label")"

  printf 'mbi: %s: static=%s runtime=%s both=%s (np %s; static %s; runtime %s; both %s)\n' \
    "$base" "$static" "$runtime" "$both" "$np" "$static_how" "$rt_how" "$both_how"
  printf '%s %s %s %s %s\n' "$class" "$label" "$static" "$runtime" "$both" >>"$results"
done

# Totals per mode, and a table per class, as MBI counts them: precision
# TP/(TP+FP), recall TP/(TP+FN), F1 their harmonic mean; timeouts and
# failures are reported apart and enter none of the three.
awk -v elapsed=$((SECONDS - start)) '
function ratio(n, d) { return d > 0 ? sprintf("%.3f", n / d) : "n/a" }
function f1(tp, fp, fn,   p, r) {
  if (tp + fp == 0 || tp + fn == 0) return "n/a"
  p = tp / (tp + fp); r = tp / (tp + fn)
  return (p + r) > 0 ? sprintf("%.3f", 2 * p * r / (p + r)) : "0.000"
}
{
  cls = $1; classes[cls] = 1; n[cls, $2]++; total[$2]++
  for (m = 1; m <= 3; m++) { c[m, $(m + 2)]++; cc[cls, m, $(m + 2)]++ }
}
END {
  name[1] = "static"; name[2] = "runtime"; name[3] = "both"
  printf "\ncases: %d (%d erroneous, %d correct)\n", NR, total["bad"], total["ok"]
  for (m = 1; m <= 3; m++)
    printf "mode %s: TP %d FP %d TN %d FN %d TO %d FAIL %d precision %s recall %s F1 %s\n",
      name[m], c[m, "TP"], c[m, "FP"], c[m, "TN"], c[m, "FN"], c[m, "TO"], c[m, "FAIL"],
      ratio(c[m, "TP"], c[m, "TP"] + c[m, "FP"]), ratio(c[m, "TP"], c[m, "TP"] + c[m, "FN"]),
      f1(c[m, "TP"], c[m, "FP"], c[m, "FN"])
  printf "\n| class | erroneous | correct | static TP / FN / FP | runtime TP / FN / FP | both TP / FN / FP |\n"
  printf "|---|---:|---:|---:|---:|---:|\n"
  k = 0
  for (cls in classes) order[++k] = cls
  for (i = 2; i <= k; i++)
    for (j = i; j > 1 && order[j - 1] > order[j]; j--) { t = order[j]; order[j] = order[j - 1]; order[j - 1] = t }
  for (i = 1; i <= k; i++) {
    cls = order[i]
    printf "| %s | %d | %d |", cls, n[cls, "bad"], n[cls, "ok"]
    for (m = 1; m <= 3; m++) {
      extra = cc[cls, m, "TO"] + cc[cls, m, "FAIL"]
      printf " %d / %d / %d%s |", cc[cls, m, "TP"], cc[cls, m, "FN"], cc[cls, m, "FP"], extra ? sprintf(" (+%d TO/FAIL)", extra) : ""
    }
    printf "\n"
  }
  printf "| **all** | %d | %d |", total["bad"], total["ok"]
  for (m = 1; m <= 3; m++) printf " %d / %d / %d |", c[m, "TP"], c[m, "FN"], c[m, "FP"]
  printf "\n| **precision / recall / F1** | | |"
  for (m = 1; m <= 3; m++)
    printf " %s / %s / %s |", ratio(c[m, "TP"], c[m, "TP"] + c[m, "FP"]),
      ratio(c[m, "TP"], c[m, "TP"] + c[m, "FN"]), f1(c[m, "TP"], c[m, "FP"], c[m, "FN"])
  printf "\n\nelapsed: %d s\n", elapsed
}' "$results"
