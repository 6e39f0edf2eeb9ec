#!/usr/bin/env bash
# Installs the Debian packages distruntime builds and runs with (DESIGN.md
# section 4). Idempotent: does nothing when they are all present. Works on a
# machine where nothing is installed yet (a bare Debian 12 root included:
# scripts/fresh-check.sh proves it).
#   scripts/setup.sh [--plots | --valgrind]
# --plots also installs python3-matplotlib, for scripts/bench.sh's plots,
# and --valgrind valgrind, for scripts/call-cost.sh (nothing else needs
# them, so a first run does not download them).
# SimGrid's SMPI (libsimgrid-dev: smpicxx, smpirun) is installed for every
# MPI: the default suite runs two programs on 16 simulated ranks under it
# (ctest smpi.p16), and DISTRUNTIME_MPI=smpi builds against it.
# DISTRUNTIME_MPI=mpich also installs Debian's MPICH (mpich, libmpich-dev)
# beside Open MPI. The system default MPI
# (update-alternatives mpi and mpirun) stays what it was: if the install
# changes it, it is set back.
# Any failure names the command that failed and what to do about it.
set -euo pipefail
plots=0
valgrind=0
case "${1:-}" in
--help | -h)
  sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"
  exit 0 ;;
--plots) plots=1 ;;
--valgrind) valgrind=1 ;;
"") ;;
*) echo "setup: unknown option $1 (expected --plots, --valgrind or --help)" >&2; exit 2 ;;
esac
hint="re-run scripts/setup.sh; if it fails again, install the packages above by hand (DESIGN.md section 4)"
trap 'rc=$?; echo "setup: failed (exit $rc): $BASH_COMMAND" >&2; echo "setup: $hint" >&2' ERR

packages=(llvm-22-dev libmlir-22-dev mlir-22-tools llvm-22-tools
          libopenmpi-dev openmpi-bin catch2 libfmt-dev libsimgrid-dev)
[ "$plots" = 0 ] || packages+=(python3-matplotlib)
[ "$valgrind" = 0 ] || packages+=(valgrind)
case "${DISTRUNTIME_MPI:-openmpi}" in
openmpi | smpi) ;;
mpich) packages+=(mpich libmpich-dev) ;;
*) echo "setup: DISTRUNTIME_MPI=$DISTRUNTIME_MPI: expected openmpi, mpich or smpi" >&2; exit 2 ;;
esac
# Build tools a developer machine normally has; a bare root has none.
tools=(cmake g++ python3 ninja-build git)

# Every query below captures its output before looking at it: a query that
# fails (nothing installed, no alternative yet) must not end the script
# through pipefail, and no reader may close a pipe early.
installed() {
  local status
  status="$(dpkg-query -W -f='${Status}' "$1" 2>/dev/null)" || return 1
  [[ "$status" == *"install ok installed"* ]]
}
# An alternative's current choice, empty when there is none yet.
alternative() {
  local out
  out="$(update-alternatives --query "$1" 2>/dev/null)" || return 0
  sed -n 's/^Value: //p' <<<"$out"
}

missing=()
for p in "${packages[@]}" "${tools[@]}"; do
  installed "$p" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

sudo=()
if [ "$(id -u)" -ne 0 ]; then
  if ! command -v sudo >/dev/null 2>&1; then
    echo "setup: missing packages: ${missing[*]}" >&2
    echo "setup: not root and no sudo: install them as root (apt-get install ${missing[*]})" >&2
    exit 1
  fi
  sudo=(sudo)
fi
echo "setup: installing ${#missing[@]} Debian package(s) with apt-get: ${missing[*]}"
echo "setup: (a few minutes on a fresh machine; this runs once)"
export DEBIAN_FRONTEND=noninteractive
mpi_before="$(alternative mpi)"
mpirun_before="$(alternative mpirun)"
hint="check the network and the apt sources (/etc/apt/sources.list.d), then re-run scripts/setup.sh"
"${sudo[@]}" apt-get update -qq
"${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
# Installing MPICH must not make it the system's mpicc/mpirun.
hint="set it back by hand: update-alternatives --config mpi (and mpirun)"
for name in mpi mpirun; do
  before="mpi_before"
  [ $name = mpi ] || before="mpirun_before"
  if [ -n "${!before}" ] && [ "$(alternative $name)" != "${!before}" ]; then
    echo "setup: restoring update-alternatives $name to ${!before}"
    "${sudo[@]}" update-alternatives --set $name "${!before}"
  fi
done
echo "setup: done"
