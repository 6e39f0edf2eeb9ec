#!/usr/bin/env bash
# check-help.sh <scripts-dir> [pending...]: every script in the directory
# (*.sh, *.py) answers --help with exit 0 and a usage line ("usage", or a
# line showing how to call it: "scripts/<name> ..."). A script whose source
# never mentions --help fails without being run (--help must not run a
# script that ignores it). Names given as pending are skipped with a note.
set -uo pipefail
dir="$1"
shift
fail=0
for script in "$dir"/*.sh "$dir"/*.py; do
  name="$(basename "$script")"
  if [[ " $* " == *" $name "* ]]; then
    echo "pending: $name"
    continue
  fi
  if ! grep -q -- "--help" "$script"; then
    echo "FAIL: $name: no --help"
    fail=1
    continue
  fi
  out="$(timeout 60 "$script" --help 2>&1 </dev/null)"
  rc=$?
  if [ "$rc" != 0 ]; then
    echo "FAIL: $name --help: exit $rc"
    fail=1
  elif ! grep -qiE "usage|^ *(scripts/)?$name( |$)" <<<"$out"; then
    echo "FAIL: $name --help: no usage line"
    fail=1
  else
    echo "ok: $name"
  fi
done
exit "$fail"
