#!/usr/bin/python3
"""Prints rows of a benchmarks CSV as a Markdown table.

Usage: scripts/bench_table.py CSV [CASE ...]
       scripts/bench_table.py --update MARKDOWN CSV
       scripts/bench_table.py --cost COST_CSV CSV
       scripts/bench_table.py --help

CSV is what scripts/bench.sh writes (case,np,size,baseline_us,distrt_us,
ratio). A CASE ending in '*' selects the cases starting with it; no CASE
selects every row. Rows keep the CSV's order. Used for the tables of
docs/benchmarks.md, e.g. MPICH's:
  scripts/bench_table.py docs/benchmarks-mpich.csv 'all_reduce*'

--update rewrites, in place, the figures of MARKDOWN's tables that CSV has
(its first row of each case and size): a table headed `| case | size ... | baseline µs | distrt µs |
ratio |` gets the three times of each (case, size) row; a table headed
`| case | 8 B | 32 B | ...` gets the ratios of its size columns (up to a
column whose label starts with "before"). Cells CSV lacks, and cells that
are not one number (ranges), stay as they are.

--cost prints the runtime's own cost per call: for each row of COST_CSV
(scripts/call-cost.sh: case,np,size,runtime_instructions), its
instructions per call beside the row of CSV with the same case and size:
raw MPI's and distrt's times and distrt's time over MPI's in ns.
"""

import csv
import re
import sys

UNITS = {"B": 1, "KiB": 1 << 10, "MiB": 1 << 20}
# A figure; other cells (ranges such as "0.98-1.01", notes) are left alone.
NUMBER = re.compile(r"\d+\.\d+")


def selected(case, patterns):
    if not patterns:
        return True
    return any(case.startswith(p[:-1]) if p.endswith("*") else case == p
               for p in patterns)


def read_rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def size_of(label):
    """Bytes of a column label such as "2 KiB", or None."""
    m = re.fullmatch(r"(\d+) (B|KiB|MiB)", label.strip())
    return int(m.group(1)) * UNITS[m.group(2)] if m else None


def cells(line):
    return [c.strip() for c in line.strip().strip("|").split("|")]


def update(markdown, path):
    figures = {}
    for r in read_rows(path):
        figures.setdefault((r["case"], int(r["size"])), r)
    lines = open(markdown).read().split("\n")
    header = None
    for i, line in enumerate(lines):
        if not line.startswith("|"):
            header = None
            continue
        row = cells(line)
        if header is None:
            header = row
            continue
        if row[0].startswith("---") or header[0] != "case":
            continue
        case = re.sub(r" \(.*\)$", "", row[0])
        if header[-3:] == ["baseline µs", "distrt µs", "ratio"]:
            r = figures.get((case, int(row[1]))) if row[1].isdigit() else None
            if r:
                row[-3:] = [r["baseline_us"], r["distrt_us"], r["ratio"]]
        else:
            for k, label in enumerate(header[1:], 1):
                if label.startswith("before"):
                    break
                r = figures.get((case, size_of(label)))
                if r and k < len(row) and NUMBER.fullmatch(row[k]):
                    row[k] = r["ratio"]
        lines[i] = "| " + " | ".join(row) + " |"
    open(markdown, "w").write("\n".join(lines))


def cost_table(cost_path, path):
    figures = {(r["case"], r["size"]): r for r in read_rows(path)}
    print("| case | size | runtime instructions | MPI µs | distrt µs | "
          "over MPI, ns |")
    print("|---|---:|---:|---:|---:|---:|")
    for c in read_rows(cost_path):
        r = figures.get((c["case"], c["size"]))
        times = ["-", "-", "-"]
        if r:
            over = (float(r["distrt_us"]) - float(r["baseline_us"])) * 1000
            times = [r["baseline_us"], r["distrt_us"], "%+.0f" % over]
        print("| %s | %s | %.0f | %s |" % (
            c["case"], c["size"], float(c["runtime_instructions"]),
            " | ".join(times)))


def main(argv):
    if len(argv) < 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    if argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        return 0
    if argv[1] == "--update" and len(argv) == 4:
        update(argv[2], argv[3])
        return 0
    if argv[1] == "--cost" and len(argv) == 4:
        cost_table(argv[2], argv[3])
        return 0
    rows = [r for r in read_rows(argv[1]) if selected(r["case"], argv[2:])]
    print("| case | np | size | baseline µs | distrt µs | ratio |")
    print("|---|---:|---:|---:|---:|---:|")
    for r in rows:
        print("| {case} | {np} | {size} | {baseline_us} | {distrt_us} | "
              "{ratio} |".format(**r))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
