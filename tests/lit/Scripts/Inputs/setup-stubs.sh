#!/usr/bin/env bash
# setup-stubs.sh <scripts-dir> <case>: runs scripts/setup.sh against stub
# dpkg-query, apt-get, update-alternatives, sudo and id on PATH, and prints
# each call the script made (`call: ...`), its output and its exit status.
# Cases:
#   fresh        nothing installed, no alternative set (a bare root)
#   plots        the same, with --plots
#   installed    every package installed: nothing to do
#   alternatives mpi alternatives set before; the install changes them
#   apt-fails    apt-get install fails
#   no-sudo      not root and no sudo
set -uo pipefail
scripts="$1"
case="$2"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
bin="$work/bin"
mkdir -p "$bin"
log="$work/calls"
: >"$log"
stub() {
  printf '#!/bin/bash\necho "%s $*" >>"%s"\n%s\n' "$1" "$log" "$2" >"$bin/$1"
  chmod +x "$bin/$1"
}
state="$work/alt"
case "$case" in
installed) stub dpkg-query 'printf "install ok installed"' ;;
*) stub dpkg-query 'echo "dpkg-query: no packages found matching $*" >&2; exit 1' ;;
esac
# The alternatives: none, or a value in $state that the install may change.
stub update-alternatives '
case "$1" in
--query) [ -s "'"$state"'.$2" ] || { echo "update-alternatives: error: no alternatives for $2" >&2; exit 2; }
         echo "Name: $2"; echo "Value: $(cat "'"$state"'.$2")"; echo "Status: auto" ;;
--set) echo "$3" >"'"$state"'.$2" ;;
esac'
install='exit 0'
case "$case" in
alternatives)
  echo /usr/lib/x86_64-linux-gnu/openmpi/include >"$state.mpi"
  echo /usr/bin/mpirun.openmpi >"$state.mpirun"
  install='echo /usr/include/x86_64-linux-gnu/mpich >"'"$state"'.mpi"; echo /usr/bin/mpirun.mpich >"'"$state"'.mpirun"' ;;
apt-fails) install='echo "E: Unable to locate package llvm-22-dev" >&2; exit 100' ;;
esac
stub apt-get 'case "$1" in update) exit 0 ;; esac; [ "$1" = install ] || exit 0; '"$install"
stub sudo 'exec "$@"'
if [ "$case" = no-sudo ]; then
  stub id 'echo 1000'
  rm "$bin/sudo"
  # No sudo anywhere on PATH: only the stubs (setup.sh needs no other
  # command before it gives up).
  path="$bin"
else
  path="$bin:$PATH"
fi
args=()
[ "$case" != plots ] || args=(--plots)
out="$(PATH="$path" DISTRUNTIME_MPI="${DISTRUNTIME_MPI:-openmpi}" "$(command -v timeout)" 60 \
  "$(command -v bash)" "$scripts/setup.sh" "${args[@]}" 2>&1)"
rc=$?
printf '%s\n' "$out" | sed 's/^/out: /'
sed 's/^/call: /' "$log"
for name in mpi mpirun; do
  [ ! -s "$state.$name" ] || echo "alternative $name: $(cat "$state.$name")"
done
echo "exit: $rc"
