#!/usr/bin/env bash
# Runs clang-tidy (LLVM 22's, which reads C++20's <source_location>) with the
# repository's .clang-tidy over every C++ source of the dialect, the
# lowering, the tools and the runtime. Exits non-zero on any warning.
# Usage: scripts/tidy.sh [files...]     (default: every such source in git)
#        scripts/tidy.sh --help
set -euo pipefail
if [[ "${1:-}" == -h || "${1:-}" == --help ]]; then
  awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"
  exit 0
fi
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${DISTRUNTIME_BUILD_DIR:-$root/build}"

if ! command -v clang-tidy-22 >/dev/null 2>&1; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq \
    --no-install-recommends clang-tidy-22
fi
[ -f "$build/compile_commands.json" ] || "$root/scripts/build.sh"

cd "$root"
files=("$@")
[ ${#files[@]} -gt 0 ] ||
  mapfile -t files < <(git ls-files 'dialect/*.cpp' 'lowering/*.cpp' \
    'tools/*.cpp' 'runtime/*.cpp')
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
# Two files at a time (the machine's two cores), each file's report whole.
printf '%s\0' "${files[@]}" |
  xargs -0 -n 1 -P "${DISTRUNTIME_JOBS:-2}" sh -c \
    'out="$(clang-tidy-22 -p "$0" --quiet "$1" 2>/dev/null)"; printf "%s\n" "$out"' "$build" |
  tee "$log"
if grep -q "warning:\|error:" "$log"; then
  echo "tidy.sh: warnings above" >&2
  exit 1
fi
echo "tidy.sh: ${#files[@]} files clean" >&2
