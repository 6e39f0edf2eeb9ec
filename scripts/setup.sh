#!/usr/bin/env bash
# Installs the Debian packages distruntime builds and runs with (DESIGN.md
# section 4). Idempotent: does nothing when they are all present.
#   scripts/setup.sh
# DISTRUNTIME_MPI=mpich also installs Debian's MPICH (mpich, libmpich-dev)
# beside Open MPI. The system default MPI (update-alternatives mpi and
# mpirun) stays what it was: if the install changes it, it is set back.
set -euo pipefail
if [ "${1:-}" = --help ] || [ "${1:-}" = -h ]; then
  sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"
  exit 0
fi

packages=(llvm-22-dev libmlir-22-dev mlir-22-tools llvm-22-tools
          libopenmpi-dev openmpi-bin catch2 libfmt-dev python3-matplotlib)
case "${DISTRUNTIME_MPI:-openmpi}" in
openmpi) ;;
mpich) packages+=(mpich libmpich-dev) ;;
*) echo "DISTRUNTIME_MPI=$DISTRUNTIME_MPI: expected openmpi or mpich" >&2; exit 2 ;;
esac
# Build tools the machine normally has; installed too if missing.
tools=(cmake g++ python3)

missing=()
for p in "${packages[@]}" "${tools[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
    missing+=("$p")
done
command -v ninja >/dev/null 2>&1 || missing+=(ninja-build)
[ ${#missing[@]} -eq 0 ] && exit 0

echo "setup: installing ${missing[*]}"
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
# The alternatives' current choices (empty when not installed yet).
alternative() { update-alternatives --query "$1" 2>/dev/null | sed -n 's/^Value: //p'; }
mpi_before="$(alternative mpi)"
mpirun_before="$(alternative mpirun)"
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
# Installing MPICH must not make it the system's mpicc/mpirun.
for name in mpi mpirun; do
  before="mpi_before"
  [ $name = mpi ] || before="mpirun_before"
  if [ -n "${!before}" ] && [ "$(alternative $name)" != "${!before}" ]; then
    echo "setup: restoring update-alternatives $name to ${!before}"
    $sudo update-alternatives --set $name "${!before}"
  fi
done
