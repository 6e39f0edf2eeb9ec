#!/usr/bin/env bash
# Runs the style checks .ci/run uses (check-style.sh, tidy.sh) on small trees
# with one known defect each, made in a fresh git repository under $2 with
# the checkout's scripts and configuration, and prints one line per case:
# the case, the exit status, and the checks' messages.
#   style-sandbox.sh <checkout> <scratch dir> [tidy <build dir>]
set -uo pipefail
src="$1"
scratch="$2"

# A tree whose only source is runtime/<name> with the given content.
make_tree() {
  local dir="$scratch/$1" name="$2"
  rm -rf "$dir" && mkdir -p "$dir/scripts" "$dir/runtime"
  cp "$src/scripts/check-style.sh" "$src/scripts/check-function-length.sh" \
    "$src/scripts/tidy.sh" "$dir/scripts/"
  cp "$src/.clang-format" "$src/.clang-tidy" "$dir/"
  cat >"$dir/runtime/$name"
  git -C "$dir" init -q && git -C "$dir" add -A
}

run_case() {
  local dir="$scratch/$1"
  shift
  local out status
  out="$("$@" 2>&1)"
  status=$?
  printf '%s: exit %d\n%s\n' "$(basename "$dir")" "$status" "$out"
}

banner='//===- Good.cpp - A well-kept file ------------------------------*- C++ -*-===//'

if [ "${3:-}" = tidy ]; then
  # A clean file, then one name against the LLVM naming rules.
  for c in tidy_clean tidy_naming; do
    fn=count
    [ $c = tidy_clean ] || fn=Count_Items
    printf '%s\n\nnamespace {\nstruct Counter {\n  int %s(int n) const { return n + 1; }\n};\n} // namespace\n' \
      "${banner/Good.cpp/Naming.cpp}" "$fn" | make_tree $c Naming.cpp
    dir="$scratch/$c"
    printf '[{"directory": "%s", "file": "%s/runtime/Naming.cpp", "command": "c++ -std=c++20 -c %s/runtime/Naming.cpp"}]\n' \
      "$dir" "$dir" "$dir" >"$dir/compile_commands.json"
    run_case $c env DISTRUNTIME_BUILD_DIR="$dir" "$dir/scripts/tidy.sh"
  done
  exit 0
fi

printf '%s\n\nint count(int n) { return n + 1; }\n' "$banner" |
  make_tree clean Good.cpp
run_case clean "$scratch/clean/scripts/check-style.sh"

printf '// Good.cpp, no banner\n\nint count(int n) { return n + 1; }\n' |
  make_tree banner Good.cpp
run_case banner "$scratch/banner/scripts/check-style.sh" --banners-only

printf '%s\n\nint count(int n)   {\nreturn n+1;   }\n' "$banner" |
  make_tree format Good.cpp
run_case format "$scratch/format/scripts/check-style.sh" --format-only

# 81 lines from the declaration to the closing brace.
{
  printf '%s\n\nint count(int n) {\n' "$banner"
  for i in $(seq 79); do printf '  n += %d;\n' "$i"; done
  printf '}\n'
} | make_tree length Good.cpp
run_case length "$scratch/length/scripts/check-style.sh"
