#!/usr/bin/env bash
# The scaling study (issue 24, docs/scaling.md): distruntime under SimGrid's
# SMPI at P = 4, 16, 64, 256 and 1,024 simulated ranks on the 1,024-host fat
# tree of platforms/fattree-1024.xml, each figure against raw MPI under SMPI
# at the same P. Builds the SMPI build (build-smpi/, scripts/build.sh with
# DISTRUNTIME_MPI=smpi) and the Open MPI build's distruntime-opt (the
# programs), runs benchmarks/scale_main.cpp (collectives at 8 B and 64 KiB
# in the network model alone, grid-axis creation, halos, checked mode and
# the watchdog with CPU bursts measured) and two compiled
# programs weak-scaled (examples/shard/jacobi.mlir on an R x C grid of
# 16 x 16 blocks, examples/stencil.mlir with 4 rows per rank), writes
# docs/scaling.csv and regenerates the tables of docs/scaling.md between
# its "BEGIN/END GENERATED" markers, with a log-log figure per table
# (docs/scaling-*.png) when python3-matplotlib is installed.
#   scripts/scale.sh [--max-p N | --p "P..."]
#                    [--only collectives|teams|halo|checked|repro|programs]
#   scripts/scale.sh calibrate
# --max-p N stops at N ranks (default 1024); --p "256 1024" runs those P
# only. --only runs one part. The rows of docs/scaling.csv for the parts
# and P not run stay as they were.
# calibrate: raw MPI_Allgather at np 2 on platforms/calibrated-2core.xml
# against docs/benchmarks.csv's measured control_mpi_vs_mpi figures
# (platforms/README.md).
# Each simulation runs under `timeout` (DISTRUNTIME_SCALE_TIMEOUT seconds,
# default 900); one that times out is reported and its row left out.
# Logs: build-smpi/scale/*.log.
set -euo pipefail
if [ "${1:-}" = --help ] || [ "${1:-}" = -h ]; then
  sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"
  exit 0
fi
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
max_p=1024
only_p=""
only=""
calibrate=0
while [ $# -gt 0 ]; do
  case "$1" in
  --max-p) max_p="$2"; shift ;;
  --p) only_p="$2"; shift ;;
  --only) only="$2"; shift ;;
  calibrate) calibrate=1 ;;
  *) echo "scale.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
  shift
done
case "$only" in
"" | collectives | teams | halo | checked | repro | programs) ;;
*) echo "scale.sh: --only takes collectives, teams, halo, checked, repro or" \
  "programs, not '$only'" >&2; exit 2 ;;
esac
if ! [[ "$max_p" =~ ^[0-9]+$ ]]; then
  echo "scale.sh: --max-p takes a rank count, not '$max_p'" >&2
  exit 2
fi
ps=()
for p in ${only_p:-4 16 64 256 1024}; do
  if ! [[ "$p" =~ ^[1-9][0-9]*$ ]] || [ "$p" -gt 1024 ]; then
    echo "scale.sh: --p takes rank counts from 1 to 1024 (the fat tree's" \
      "hosts), not '$p'" >&2
    exit 2
  fi
  [ "$p" -le "$max_p" ] && ps+=("$p")
done
limit="${DISTRUNTIME_SCALE_TIMEOUT:-900}"
# The figures need matplotlib: Debian's python3 has it (python3-matplotlib);
# another python3 first on PATH may not.
py=/usr/bin/python3
[ -x "$py" ] || py=python3
platforms="$root/platforms"
build="$root/build-smpi"
logs="$build/scale"

if [ "$calibrate" = 1 ]; then
  mkdir -p "$logs"
  smpicxx -O2 -std=c++17 "$platforms/calibrate.cpp" -o "$logs/calibrate"
  timeout "$limit" smpirun -np 2 -platform "$platforms/calibrated-2core.xml" \
    -hostfile "$platforms/calibrated-2core.hosts" --log=xbt_cfg.thres:warning \
    --log=smpi_config.thres:error --cfg=smpi/simulate-computation:no \
    "$logs/calibrate" >"$logs/calibrate.csv"
  "$py" "$root/scripts/scaling_report.py" calibrate "$logs/calibrate.csv" \
    "$root/docs/benchmarks.csv"
  exit 0
fi

DISTRUNTIME_MPI=openmpi "$root/scripts/build.sh" distruntime-opt >&2
DISTRUNTIME_MPI=smpi "$root/scripts/build.sh" distrt distrt_scale >&2
mkdir -p "$logs"
csv="$root/docs/scaling.csv"
# This run's rows; two runs of different parts may go on at once.
new="$(mktemp "$logs/scaling.XXXXXX.csv")"

# One simulation: smpirun on the fat tree with Open MPI's collective
# algorithms, as its tuned component picks them (SMPI's default selector has
# linear ones: a P^2-message all_gather is hours of simulation at
# P = 1,024, and no MPI uses them at that size), CPU bursts all counted, the
# simulated time printed at the end (display-timing). SMPI charges 100 us
# of simulated time per MPI_Test and MPI_Iprobe by default, to throttle busy
# loops; a real one costs about 0.1 us, and the runtime's watched waits
# poll, so they get 0.1 us here (the baselines' waits block). When the
# command's last argument is --network-only, no computation is simulated:
# the time is the network's alone, exact and the same from run to run.
smpi() {
  local np="$1" log="$2"
  shift 2
  local model=--cfg=smpi/cpu-threshold:0
  [ "${*: -1}" != --network-only ] ||
    model=--cfg=smpi/simulate-computation:no
  timeout "$limit" smpirun -np "$np" -platform "$platforms/fattree-1024.xml" \
    -hostfile "$platforms/fattree-1024.hosts" --log=xbt_cfg.thres:warning \
    --log=smpi_config.thres:error --log=smpi_coll.thres:warning "$model" \
    --cfg=smpi/coll-selector:ompi --cfg=smpi/test:1e-7 \
    --cfg=smpi/iprobe:1e-7 --cfg=smpi/display-timing:yes "$@" \
    >"$log.out" 2>"$log.err"
}

bench="$build/bin/distrt_scale"
[ -x "$bench" ] || bench="$build/benchmarks/distrt_scale"
# Rows are labelled with the part, "-net" appended for a run in the
# network model alone when the part also runs with computation (teams,
# halo: a first call's own CPU work is only in the latter).
run_bench() {
  local part="$1" label="$1"
  shift
  [ "$part" != teams ] && [ "$part" != halo ] ||
    [ "${*: -1}" != --network-only ] || label="$part-net"
  for p in "${ps[@]}"; do
    local log="$logs/$part-$*-p$p"
    log="${log// /_}"
    echo "scale.sh: $part $* at P = $p" >&2
    if smpi "$p" "$log" "$bench" "$part" "$@"; then
      sed "s/^/$label,/" "$log.out" >>"$new"
    else
      echo "scale.sh: $part $* at P = $p failed or timed out ($log.err)" >&2
    fi
  done
}
want() { [ -z "$only" ] || [ "$only" = "$1" ]; }
# The collectives in the network model alone: both sides make the same MPI
# call, so what can differ is messages and bytes; the measured CPU bursts
# of P ranks run in turn on one core are noise of 10-40 % at P >= 16
# (docs/scaling.md), and the runtime's CPU cost per call is what the np 2
# benchmarks measure.
want collectives && run_bench collectives 8 --network-only &&
  run_bench collectives 65536 --network-only
# Grid axes and halo plans: first calls, whose own CPU work (O(P) at
# P = 1,024) the CPU model charges as the host measured it, 1,024 ranks
# in turn on one core: natively a few us, charged up to several hundred
# (docs/scaling.md, "Reading the tables"). The network model alone shows
# the messages they add.
want teams && run_bench teams && run_bench teams --network-only
want halo && run_bench halo 64 && run_bench halo 64 --network-only
want checked && run_bench checked
# Reproducible all_reduces (ordered, exact) and the ordered gradient sync,
# in the network model alone as the collectives: their folds' CPU cost is
# what the np 3 and 4 rows of docs/benchmarks.md measure.
if want repro; then
  for bytes in 256 4096 65536; do run_bench repro "$bytes" --network-only; done
fi

# Programs, weak-scaled: the simulated time of the whole run. Their
# collectives stay blocking (async-collectives=0): SMPI's nonblocking
# collectives are linear algorithms, P^2 messages per call, and a wait on
# one costs O(P^2) of simulation (a 256-rank Jacobi had not ended
# after 12 minutes); the blocking ones get Open MPI's algorithms.
compile() {
  DISTRUNTIME_BUILD_DIR="$build" \
    DISTRUNTIME_PIPELINE_OPTIONS=async-collectives=0 \
    "$root/scripts/compile.sh" "$@"
}
if want programs; then
  work="$logs/programs"
  mkdir -p "$work"
  for p in "${ps[@]}"; do
    [ "$p" -ge 4 ] || continue
    rows=1
    while [ $((rows * rows * 4)) -le "$p" ]; do rows=$((rows * 2)); done
    cols=$((p / rows))
    sed -e "s/shape = 2x2/shape = ${rows}x${cols}/" \
      -e "s/dims = \[37, 23\]/dims = [$((16 * rows)), $((16 * cols))]/" \
      -e "s/arith.constant 37 : index/arith.constant $((16 * rows)) : index/" \
      -e "s/arith.constant 23 : index/arith.constant $((16 * cols)) : index/" \
      -e "s/%steps = arith.constant 50 : index/%steps = arith.constant 20 : index/" \
      "$root/examples/shard/jacobi.mlir" >"$work/jacobi-p$p.mlir"
    compile "$work/jacobi-p$p.mlir" -o "$work/jacobi-p$p"
    echo "scale.sh: shard jacobi ${rows}x${cols} at P = $p" >&2
    if smpi "$p" "$logs/jacobi-p$p" "$work/jacobi-p$p"; then
      t="$(sed -n 's/.*Simulated time: \([0-9.e+-]*\) s.*/\1/p' "$logs/jacobi-p$p.err")"
      echo "programs,shard_jacobi_16x16_20steps,$p,$((16 * rows))x$((16 * cols)),${t:-nan}" >>"$new"
    fi
  done
  compile "$root/examples/stencil.mlir" -o "$work/stencil"
  for p in "${ps[@]}"; do
    echo "scale.sh: stencil at P = $p" >&2
    if smpi "$p" "$logs/stencil-p$p" "$work/stencil" $((4 * p)) 20 1; then
      t="$(sed -n 's/.*Simulated time: \([0-9.e+-]*\) s.*/\1/p' "$logs/stencil-p$p.err")"
      echo "programs,stencil_4rows_20steps,$p,$((4 * p))x$((4 * p)),${t:-nan}" >>"$new"
    fi
  done
fi

# Rows of the parts and P not run this time are kept (one merge at a time).
(
  flock 9
  if [ -f "$csv" ]; then
    awk -F, -v only="$only" -v ps=" ${ps[*]} " \
      '!((only == "" || $1 == only || $1 == only "-net") &&
        index(ps, " " $3 " "))' "$csv" >>"$new"
  fi
  mv "$new" "$csv"
  "$py" "$root/scripts/scaling_report.py" report "$csv" \
    "$root/docs/scaling.md"
) 9>"$logs/merge.lock"
echo "scale.sh: docs/scaling.csv and docs/scaling.md updated" >&2
