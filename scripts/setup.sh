#!/usr/bin/env bash
# Installs the Debian packages distruntime builds and runs with (DESIGN.md
# section 4). Idempotent: does nothing when they are all present.
set -euo pipefail

packages=(llvm-22-dev libmlir-22-dev mlir-22-tools llvm-22-tools
          libopenmpi-dev openmpi-bin catch2 libfmt-dev python3-matplotlib)
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
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
