#!/usr/bin/python3
"""Prints rows of a benchmarks CSV as a Markdown table.

Usage: scripts/bench_table.py CSV [CASE ...]
       scripts/bench_table.py --help

CSV is what scripts/bench.sh writes (case,np,size,baseline_us,distrt_us,
ratio). A CASE ending in '*' selects the cases starting with it; no CASE
selects every row. Rows keep the CSV's order. Used for the tables of
docs/benchmarks.md, e.g. MPICH's:
  scripts/bench_table.py docs/benchmarks-mpich.csv 'all_reduce*'
"""

import csv
import sys


def selected(case, patterns):
    if not patterns:
        return True
    return any(case.startswith(p[:-1]) if p.endswith("*") else case == p
               for p in patterns)


def main(argv):
    if len(argv) < 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    if argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        return 0
    with open(argv[1], newline="") as f:
        rows = [r for r in csv.DictReader(f) if selected(r["case"], argv[2:])]
    print("| case | np | size | baseline µs | distrt µs | ratio |")
    print("|---|---:|---:|---:|---:|---:|")
    for r in rows:
        print("| {case} | {np} | {size} | {baseline_us} | {distrt_us} | "
              "{ratio} |".format(**r))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
