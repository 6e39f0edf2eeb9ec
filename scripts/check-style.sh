#!/usr/bin/env bash
# Checks that the tree stays as the model codebases keep theirs; .ci/run runs
# it. Exits non-zero, naming each file and what is wrong, when:
#  - a C/C++ file is not clang-format clean (the repository's .clang-format);
#  - a source file of the product or of the runtime tests lacks LLVM's
#    banner on its first line, `//===- <its name> - <what it holds> ---===//`
#    (C headers: `/*===- ... ===*\`), or the banner is broken (longer than
#    80 columns, or wrapped by clang-format so that it no longer closes).
# Usage: scripts/check-style.sh [--format-only | --banners-only]
#        scripts/check-style.sh --help
set -euo pipefail
case "${1:-}" in
-h | --help)
  sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"
  exit 0 ;;
esac
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
fail=0

if [ "${1:-}" != --banners-only ]; then
  # clang-format 14 (the machine's) and Debian's clang-format-22 lay out a
  # few constructs differently; the tree follows the machine's.
  format="$(command -v clang-format || true)"
  if [ -z "$format" ]; then
    echo "check-style: no clang-format (apt-get install clang-format)" >&2
    exit 2
  fi
  mapfile -t sources < <(git ls-files '*.cpp' '*.h' '*.hpp' '*.c')
  report="$("$format" --dry-run "${sources[@]}" 2>&1)" || true
  if [ -n "$report" ]; then
    printf '%s\n' "$report" | grep "warning:" | sed 's/^/check-style: format: /' >&2 || true
    echo "check-style: not clang-format clean (fix: clang-format -i <file>)" >&2
    fail=1
  fi
fi

if [ "${1:-}" != --format-only ]; then
  mapfile -t banned < <(git ls-files 'dialect/*.cpp' 'dialect/*.h' 'lowering/*.cpp' \
    'lowering/*.h' 'runtime/*.cpp' 'runtime/*.h' 'tools/*.cpp' 'tools/*.h' \
    'include/*.h' 'include/*.hpp' 'include/*.td' 'tests/Runtime/*.cpp' \
    'tests/Runtime/*.h' 'benchmarks/*.cpp' 'benchmarks/*.h')
  for f in "${banned[@]}"; do
    name="$(basename "$f")"
    IFS= read -r first <"$f" || first=""
    case "$first" in
    "//===- $name "*"===//" | "/*===- $name "*"===*\\") ;;
    *)
      echo "check-style: banner: $f: first line is not '//===- $name - ... ===//': $first" >&2
      fail=1
      continue ;;
    esac
    if [ ${#first} -gt 80 ]; then
      echo "check-style: banner: $f: ${#first} columns (at most 80): $first" >&2
      fail=1
    fi
  done
fi

[ -n "${1:-}" ] || "$root/scripts/check-function-length.sh" || fail=1
[ "$fail" = 0 ] && echo "check-style: format and banners clean" >&2
exit "$fail"
