#!/usr/bin/env bash
# Checks that no function of the runtime is longer than a limit (80 lines,
# from the first line of its declaration to its closing brace; lambdas and
# local classes count in the function that holds them). Exits non-zero,
# naming each function over the limit. scripts/check-style.sh runs it.
# It reads clang-format'ed C++ (LLVM style) with a brace counter, not a
# parser: string and character literals, comments and preprocessor lines
# are skipped, and a brace opens a function body when the declaration
# before it has a parameter list and is no namespace, class, enum or
# initializer.
# Usage: scripts/check-function-length.sh [--limit N] [--list] [files...]
#          (default: every C++ source of runtime/ that git tracks or does
#          not ignore; --list prints every function's length, longest
#          first, and never fails)
#        scripts/check-function-length.sh --help
set -euo pipefail
limit=80
list=0
while [ $# -gt 0 ]; do
  case "$1" in
  -h | --help)
    awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"
    exit 0 ;;
  --limit) limit="$2"; shift 2 ;;
  --list) list=1; shift ;;
  *) break ;;
  esac
done
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
files=("$@")
[ ${#files[@]} -gt 0 ] ||
  mapfile -t files < <(git ls-files --cached --others --exclude-standard \
    'runtime/*.cpp' 'runtime/*.h')

lengths="$(awk '
  FNR == 1 { depth = 0; inFunction = 0; header = ""; headerLine = 0
             inComment = 0 }
  {
    line = $0
    # Block comments, possibly spanning lines.
    if (inComment) {
      if (sub(/^([^*]|\*+[^*\/])*\*+\//, "", line) == 0) next
      inComment = 0
    }
    gsub(/\/\*([^*]|\*+[^*\/])*\*+\//, "", line)
    gsub(/\\./, "", line)                  # escapes, before the literals
    gsub(/"[^"]*"/, "\"\"", line)
    gsub(/'\''[^'\'']*'\''/, "0", line)
    sub(/\/\/.*/, "", line)
    if (match(line, /\/\*/)) { line = substr(line, 1, RSTART - 1); inComment = 1 }
    if (line ~ /^[ \t]*#/) next
    for (i = 1; i <= length(line); i++) {
      c = substr(line, i, 1)
      if (c == "{") {
        if (!inFunction && isFunction(header)) {
          inFunction = 1; start = headerLine; name = nameOf(header)
          functionDepth = depth
        }
        depth++; header = ""; headerLine = 0
      } else if (c == "}") {
        depth--
        if (inFunction && depth == functionDepth) {
          inFunction = 0
          printf "%d %s:%d %s\n", FNR - start + 1, FILENAME, start, name
        }
        header = ""; headerLine = 0
      } else if (c == ";") {
        header = ""; headerLine = 0
      } else if (!inFunction) {
        if (headerLine == 0 && c !~ /[ \t]/) headerLine = FNR
        header = header c
      }
    }
    if (!inFunction && headerLine) header = header " "
  }
  function isFunction(h,   flat) {
    if (h !~ /\(/) return 0
    if (h ~ /^[ \t]*(namespace|struct|class|enum|union|extern)[ \t"]/) return 0
    flat = h
    while (gsub(/\([^()]*\)/, "", flat)) {}  # the parameter lists
    gsub(/operator[ \t]*[=!<>]+/, "", flat)  # operator=, operator==
    return flat !~ /=/                       # an initializer
  }
  function nameOf(h) {
    sub(/\(.*/, "", h)
    sub(/^.*[ \t*&]/, "", h)
    return h
  }
' "${files[@]}" | sort -k1,1nr)"

if [ "$list" = 1 ]; then
  printf '%s\n' "$lengths"
  exit 0
fi
over="$(printf '%s\n' "$lengths" | awk -v limit="$limit" '$1 > limit')"
if [ -n "$over" ]; then
  printf '%s\n' "$over" | awk -v limit="$limit" '{
    printf "check-function-length: %s: %s is %d lines (at most %d)\n", $2, $3,
      $1, limit }' >&2
  exit 1
fi
echo "check-function-length: ${#files[@]} files, no function over $limit lines" >&2
