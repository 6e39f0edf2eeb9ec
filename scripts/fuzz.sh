#!/usr/bin/env bash
# Fuzzes parse + verify + distruntime-to-llvm with libFuzzer, ASan and UBSan
# (tools/distruntime-fuzz). Installs clang 22 and libFuzzer if missing,
# builds only the fuzz target into build-fuzz/ (no runtime, no MPI code),
# seeds a corpus from tests/lit (one file per `// -----` case) and fuzzes
# for the given seconds. Exits non-zero on any crash, sanitizer report,
# timeout or out-of-memory; the input is left in build-fuzz/fuzz/crashes/.
# Usage: scripts/fuzz.sh [seconds] [libFuzzer flags...]    (default 60 s)
#        scripts/fuzz.sh 0                                 (build and seed only)
#        scripts/fuzz.sh --help
# DISTRUNTIME_FUZZ_BUILD=0 skips the configure/build step.
set -euo pipefail
if [[ "${1:-}" == -h || "${1:-}" == --help ]]; then
  awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"
  exit 0
fi
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${DISTRUNTIME_FUZZ_BUILD_DIR:-$root/build-fuzz}"
seconds="${1:-60}"
shift || true

"$root/scripts/setup.sh"
missing=()
for p in clang-22 libclang-rt-22-dev libfuzzer-22-dev; do
  status="$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null)" || status=""
  [[ "$status" == *"install ok installed"* ]] || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "fuzz: installing ${missing[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq \
    --no-install-recommends "${missing[@]}"
fi

if [ "${DISTRUNTIME_FUZZ_BUILD:-1}" != 0 ]; then
  if [ ! -f "$build/CMakeCache.txt" ]; then
    mlir_dir="${MLIR_DIR:-$(llvm-config-22 --cmakedir)/../mlir}"
    CC=clang-22 CXX=clang++-22 cmake -S "$root" -B "$build" -G Ninja \
      -DCMAKE_BUILD_TYPE=Release -DMLIR_DIR="$mlir_dir" \
      -DDISTRUNTIME_BUILD_RUNTIME=OFF -DDISTRUNTIME_ENABLE_FUZZER=ON
  fi
  cmake --build "$build" -j "${DISTRUNTIME_JOBS:-2}" --target distruntime-fuzz
fi

# Seeds: every case of every lit test, with the file's RUN lines on top (they
# pick the pipeline variant, see distruntime-fuzz.cpp). New inputs the fuzzer
# finds accumulate in corpus/, which later runs start from.
work="$build/fuzz"
rm -rf "$work/seeds"
mkdir -p "$work/seeds" "$work/corpus" "$work/crashes"
python3 - "$root/tests/lit" "$work/seeds" <<'PY'
import pathlib, re, sys
lit, out = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
for path in sorted(lit.rglob("*.mlir")):
    text = path.read_text()
    run = "".join(l + "\n" for l in text.splitlines() if "RUN:" in l)
    name = "-".join(path.relative_to(lit).with_suffix("").parts)
    for i, case in enumerate(re.split(r"^// -----.*$", text, flags=re.M)):
        (out / f"{name}-{i:03}.mlir").write_text(case if i == 0 else run + case)
PY
[ "$seconds" -gt 0 ] || exit 0

llvm="$(llvm-config-22 --prefix)"
export ASAN_SYMBOLIZER_PATH="$llvm/bin/llvm-symbolizer"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
"$build/bin/distruntime-fuzz" -max_total_time="$seconds" -max_len=4096 \
  -timeout=20 -rss_limit_mb=4096 -print_final_stats=1 \
  -dict="$root/tools/distruntime-fuzz/distruntime.dict" \
  -artifact_prefix="$work/crashes/" "$@" "$work/corpus" "$work/seeds"
