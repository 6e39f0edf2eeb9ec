#!/usr/bin/env bash
# Proves the README's main command on a fresh machine: makes a bare Debian 12
# root (mmdebstrap --variant=apt bookworm, with this machine's own apt
# sources), copies the checkout's tracked files in, and runs
#   ./scripts/run.sh examples/heat2d.mlir -np 4
# inside it as root, with /proc, /dev and /sys mounted in a private mount
# namespace. Passes when the program prints what
# examples/heat2d_reference.py prints. Each stage's time is printed.
#   scripts/fresh-check.sh [--keep]
# --keep leaves the root (its path is printed) instead of deleting it.
# DISTRUNTIME_FRESH_DIR: where the root is made (default: a new directory
# under /var/tmp). DISTRUNTIME_FRESH_REF=<commit> copies that commit instead
# of the working tree's tracked files. Needs root, unshare and mmdebstrap (installed if missing).
set -euo pipefail
if [ "${1:-}" = --help ] || [ "${1:-}" = -h ]; then
  sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"
  exit 0
fi
keep=0
[ "${1:-}" != --keep ] || keep=1
src="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
stage=""
trap 'echo "fresh-check: failed in stage \"$stage\" (exit $?): $BASH_COMMAND" >&2' ERR
start=$SECONDS
t0=$SECONDS
begin() {
  [ -z "$stage" ] || echo "fresh-check: $stage: $((SECONDS - t0)) s" >&2
  stage="$1"
  t0=$SECONDS
  [ -z "$stage" ] || echo "fresh-check: $stage ..." >&2
}

[ "$(id -u)" -eq 0 ] || { echo "fresh-check: must run as root (chroot, mounts)" >&2; exit 2; }
begin "mmdebstrap present"
if ! command -v mmdebstrap >/dev/null 2>&1; then
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
    mmdebstrap >/dev/null
fi

dir="${DISTRUNTIME_FRESH_DIR:-$(mktemp -d /var/tmp/distruntime-fresh.XXXXXX)}"
rootfs="$dir/root"
cleanup() {
  if [ "$keep" = 1 ]; then
    echo "fresh-check: root kept in $rootfs" >&2
  else
    # The mounts lived in the private namespace, gone with it; never cross
    # into a file system that is still mounted.
    rm -rf --one-file-system "$dir"
  fi
}
trap cleanup EXIT

begin "bare Debian 12 root (mmdebstrap)"
# The machine's apt sources (deb822 or one-line) on standard input, and its
# apt options (a snapshot mirror needs Check-Valid-Until false, for one).
aptopts=()
for f in /etc/apt/apt.conf.d/*; do
  [ -f "$f" ] && grep -qs "Acquire::" "$f" && aptopts+=(--aptopt="$f")
done
sources() {
  local f
  for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list \
    /etc/apt/sources.list.d/*.sources; do
    [ -f "$f" ] && { cat "$f"; echo; }
  done
  return 0
}
sources | mmdebstrap --quiet --variant=apt "${aptopts[@]}" bookworm "$rootfs" -

begin "copy the checkout (tracked files)"
mkdir -p "$rootfs/src"
if [ -n "${DISTRUNTIME_FRESH_REF:-}" ]; then
  git -C "$src" archive "$DISTRUNTIME_FRESH_REF" | tar -xf - -C "$rootfs/src"
else
  (cd "$src" && git ls-files -z --cached | tar --null -T - -cf -) | tar -xf - -C "$rootfs/src"
fi
cp /etc/resolv.conf "$rootfs/etc/resolv.conf"

begin "./scripts/run.sh examples/heat2d.mlir -np 4 (setup, build, run)"
out="$dir/heat2d.out"
# Each line of run.sh's stderr with the seconds since it started.
stamp() {
  local t0=$SECONDS line
  while IFS= read -r line; do printf '%4d %s\n' $((SECONDS - t0)) "$line"; done
}
unshare --mount --propagation private -- bash -c '
  set -e
  r="$1"
  mount -t proc proc "$r/proc"
  mount --rbind /dev "$r/dev"
  mount --rbind /sys "$r/sys"
  exec chroot "$r" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
    LANG=C.UTF-8 bash -c "cd /src && ./scripts/run.sh examples/heat2d.mlir -np 4"
' fresh "$rootfs" >"$out" 2> >(stamp >"$dir/heat2d.err") || {
  wait
  echo "fresh-check: run.sh failed in the fresh root; its output:" >&2
  tail -n 40 "$dir/heat2d.err" "$out" >&2
  exit 1
}
wait
# Where the first run's time went, from the seconds stamped on its lines.
at() { sed -n "/^ *[0-9]* $1/{s/^ *\([0-9]*\) .*/\1/p;q}" "$dir/heat2d.err"; }
installed="$(at 'setup: done')"
built="$(at 'run.sh: compiled to')"
echo "fresh-check: run.sh: packages installed at ${installed:-?} s," \
  "compiler, runtime and plugin built and heat2d compiled at ${built:-?} s" >&2

begin "compare with examples/heat2d_reference.py"
expected="$(python3 "$src/examples/heat2d_reference.py")"
if [ "$(cat "$out")" != "$expected" ]; then
  echo "fresh-check: heat2d printed" >&2
  cat "$out" >&2
  echo "fresh-check: the reference prints" >&2
  echo "$expected" >&2
  exit 1
fi
cat "$out"
begin ""
echo "fresh-check: a fresh Debian 12 root ran heat2d at np 4 and printed the reference result in $((SECONDS - start)) s" >&2
