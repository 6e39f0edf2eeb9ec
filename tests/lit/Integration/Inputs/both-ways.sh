#!/usr/bin/env bash
# Compiles each program with the optimizing passes of the pipelines (the
# default) and without them (combine-collectives=0 overlap-halo=0
# async-collectives=0 carry-loads=0, and shard-simplify=0 for programs with
# shard annotations), and compares. A file with split-file
# parts (//---) is taken part by part; parts without @main are skipped.
#  - The same LLVM dialect both ways: "<name>: unchanged".
#  - Otherwise both are compiled and run at np N (the largest `-np N` or
#    `%mpirun N` of the file, or of a part's `%mpirun N %t/<part>` lines,
#    N <= 4, else 2; `file:N` sets it), with the arguments of the first such
#    RUN line, and their sorted outputs compared, without the launcher's
#    lines about failed processes (which name process ids), so programs that
#    end in an error compare too: "<name>: changed, same output at np N",
#    or "<name>: changed, OUTPUT DIFFERS at np N" and the diff.
# Usage: both-ways.sh "<mpirun ... -np>" <compile.sh> <work dir> <file[:N]>...
set -uo pipefail
read -r -a launcher <<<"$1"
compile="$2"
work="$3"
shift 3
mkdir -p "$work"

# The np a file's own runs use (of part $2 if given: `%mpirun N %t/$2`).
npOf() {
  local n pattern='(-np|%mpirun) [0-9]+'
  [ -z "${2:-}" ] || pattern="%mpirun [0-9]+ %t/$2( |\$)"
  n="$(grep -oE -- "$pattern" "$1" | grep -oE '^[^0-9]*[0-9]+' |
    grep -oE '[0-9]+$' | awk '$1 <= 4' | sort -n | tail -1)"
  echo "${n:-}"
}

# The arguments of the first `%mpirun $2 %t[/$3] ...` RUN line of file $1.
argsOf() {
  sed -nE "s#.*%mpirun $2 %t${3:+/$3}(( [^ |>]+)*)( [0-9]?[|>].*| *)\$#\1#p" "$1" |
    head -1
}

# A run's sorted output without the launcher's notes on failed processes.
runSorted() {
  "${launcher[@]}" "$@" 2>&1 | grep -vE -- \
    '^-+$|^ *$|Process name:|Exit code:|PID|Primary job|non-zero exit code' |
    sort
}

for arg in "$@"; do
  file="${arg%:*}"
  fixed="${arg##*:}"
  [ "$fixed" != "$arg" ] || fixed=""
  name="$(basename "$file" .mlir)"
  parts=("$file")
  if grep -q '^//--- ' "$file"; then
    rm -rf "${work:?}/$name.parts"
    mkdir -p "$work/$name.parts"
    split-file "$file" "$work/$name.parts"
    parts=("$work/$name.parts"/*.mlir)
  fi
  for part in "${parts[@]}"; do
    grep -q 'func.func @main' "$part" || continue
    label="$name"
    partName=""
    [ "$part" = "$file" ] || partName="$(basename "$part" .mlir)"
    [ -z "$partName" ] || label="$name/$partName"
    np="$fixed"
    [ -n "$np" ] || [ -z "$partName" ] || np="$(npOf "$file" "$partName")"
    [ -n "$np" ] || np="$(npOf "$file")"
    np="${np:-2}"
    read -r -a args <<<"$(argsOf "$file" "$np" "$partName")"
    pipeline=distruntime-to-llvm
    off="combine-collectives=0 overlap-halo=0 async-collectives=0 carry-loads=0"
    if grep -q 'shard\.grid' "$part"; then
      pipeline=shard-to-llvm
      off="shard-simplify=0 $off"
    fi
    out="$work/$(echo "$label" | tr / _)"
    distruntime-opt "$part" --pass-pipeline="builtin.module($pipeline)" \
      >"$out.on.mlir" 2>&1
    distruntime-opt "$part" --pass-pipeline="builtin.module($pipeline{$off})" \
      >"$out.off.mlir" 2>&1
    if cmp -s "$out.on.mlir" "$out.off.mlir"; then
      echo "$label: unchanged"
      continue
    fi
    "$compile" "$part" -o "$out.on" &&
      DISTRUNTIME_PIPELINE_OPTIONS="$off" "$compile" "$part" -o "$out.off" && {
      runSorted "$np" "$out.on" "${args[@]}" >"$out.on.txt"
      runSorted "$np" "$out.off" "${args[@]}" >"$out.off.txt"
    }
    if [ -s "$out.on.txt" ] && diff "$out.on.txt" "$out.off.txt"; then
      echo "$label: changed, same output at np $np"
    else
      echo "$label: changed, OUTPUT DIFFERS at np $np"
    fi
  done
done
