#!/usr/bin/python3
"""Plots docs/benchmarks.csv: one PNG per section of docs/benchmarks.md.

Usage: scripts/plot_benchmarks.py [benchmarks.csv] [output-dir]
       scripts/plot_benchmarks.py --help

Defaults: docs/benchmarks.csv, written next to it as docs/bench-<section>.png.
Each plot shows distrt's time over the baseline's (the CSV's ratio) against
the size, one line per case, with 1.0 drawn and the band the control
(control_mpi_vs_mpi: MPI against the same MPI call) spans over all its sizes
shaded: ratios inside it are within the launch's noise. Needs matplotlib:
Debian's python3-matplotlib (scripts/setup.sh --plots installs it), so run it with
/usr/bin/python3 when another python3 comes first on PATH.
"""

import csv
import os
import sys

USAGE = __doc__

# Sections of docs/benchmarks.md: (file stem, title, x label, [(panel title,
# [case prefix or name, ...])]). A case belongs to the first panel whose
# entry equals it, or, for entries ending in '*', starts with it.
SECTIONS = [
    ("foundation", "get_halo and allreduce vs raw MPI (np = 2)", None, [
        ("get_halo (size = N of an N x N f64 array)", ["halo_w*"]),
        ("allreduce (size = bytes)", ["allreduce_sum_f64"]),
    ]),
    ("update-halo", "update_halo vs hand-written MPI (np = 2)",
     "bytes per face", [
         ("", ["update_halo_rows", "update_halo_cols"]),
     ]),
    ("collectives", "StableHLO-style collectives vs raw MPI (np = 2, f64)",
     "bytes per process", [
         ("all_gather", ["all_gather", "all_gather_reversed_group",
                         "all_gather_two_operands",
                         "all_gather_dynamic_shape"]),
         ("reductions", ["all_reduce_sum", "all_reduce_two_operands",
                         "reduce_scatter_sum"]),
         ("data movement", ["all_to_all", "all_to_all_v",
                            "collective_broadcast", "collective_permute",
                            "send_recv"]),
     ]),
    ("checked", "Checked mode (DISTRT_CHECK=1, np = 2)", "bytes per process", [
        ("", ["checked_*"]),
    ]),
    ("gather-scatter", "gather / scatter loops vs a C++ loop (one process)",
     "bytes moved", [
         ("", ["gather_embedding", "scatter_add_embedding"]),
     ]),
    ("shard-halo",
     "shard.update_halo: distruntime / upstream convert-shard-to-mpi (np = 2)",
     "bytes per face", [
         ("", ["shard_halo_col_*"]),
     ]),
    ("stencil", "Application: the stencil example vs hand-written MPI (np = 2)",
     "N (N x N f64 grid)", [
         # Not stencil_exchange_share: a share of the step, not a ratio
         # to a baseline (docs/benchmarks.md quotes it).
         ("", ["stencil_blocking", "stencil_overlap",
               "stencil_overlap_vs_blocking", "stencil_sync_vs_overlap",
               "stencil_sync_vs_hand_overlap", "stencil_compute"]),
     ]),
    ("gradient-sync",
     "Gradient sync: 1 all_reduce / 64 MPI_Allreduce (np = 2)",
     "bytes per tensor (64 f32 tensors)", [
         ("", ["gradient_sync_64"]),
     ]),
    ("sharded-matmul",
     "Sharded matmul: reduce_scatter vs all_reduce + slice",
     "bytes of the N x N f64 result", [
         ("", ["sharded_matmul_rs_np*"]),
     ]),
]
# Sizes that are counts (N), not bytes.
COUNT_CASES = ("halo_w", "stencil_")
CONTROL = "control_mpi_vs_mpi"


def size_label(value, _pos=None):
    value = int(value)
    for unit, shift in (("MiB", 20), ("KiB", 10)):
        if value >= 1 << shift and value % (1 << shift) == 0:
            return f"{value >> shift} {unit}"
    return f"{value} B"


def matches(case, entry):
    return case.startswith(entry[:-1]) if entry.endswith("*") else case == entry


def main(argv):
    if any(a in ("-h", "--help") for a in argv[1:]):
        print(USAGE.strip())
        return 0
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    path = argv[1] if len(argv) > 1 else os.path.join(root, "docs",
                                                       "benchmarks.csv")
    outdir = argv[2] if len(argv) > 2 else os.path.dirname(os.path.abspath(path))
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        from matplotlib.ticker import FuncFormatter, NullFormatter
    except ImportError:
        sys.stderr.write(
            "plot_benchmarks.py: no matplotlib for %s; install Debian's "
            "python3-matplotlib and run /usr/bin/python3 %s\n"
            % (sys.executable, argv[0]))
        return 1

    rows = {}
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            rows.setdefault(r["case"], []).append(
                (int(r["size"]), float(r["ratio"])))
    for points in rows.values():
        points.sort()
    control = [ratio for _, ratio in rows.get(CONTROL, [])]

    written = []
    for stem, title, xlabel, panels in SECTIONS:
        groups = []
        for panel_title, entries in panels:
            cases = [c for c in rows if any(matches(c, e) for e in entries)]
            cases.sort(key=lambda c: next(
                i for i, e in enumerate(entries) if matches(c, e)))
            if cases:
                groups.append((panel_title, cases))
        if not groups:
            continue
        fig, axes = plt.subplots(1, len(groups), figsize=(5.2 * len(groups), 4.2),
                                 squeeze=False, sharey=stem == "collectives")
        for ax, (panel_title, cases) in zip(axes[0], groups):
            # The control is an MPI launch's noise: not shown for the
            # single-process loops.
            if control and stem != "gather-scatter":
                lo, hi = min(control), max(control)
                ax.axhspan(lo, hi, color="tab:gray", alpha=0.2, lw=0,
                           label=f"control band {lo:.2f}-{hi:.2f}")
            ax.axhline(1.0, color="black", lw=0.8)
            if stem == "gradient-sync":  # issue 23's target: 3x faster
                ax.axhline(1 / 3, color="tab:red", ls=":", lw=1,
                           label="target: 3x faster")
            for case in cases:
                xs = [s for s, _ in rows[case]]
                ys = [r for _, r in rows[case]]
                ax.plot(xs, ys, marker="o", ms=3.5, lw=1.2,
                        label=case.replace("checked_vs_unchecked_",
                                           "checked vs unchecked ")
                        if stem == "checked" else case)
            if stem == "collectives" and CONTROL in rows:
                ax.plot([s for s, _ in rows[CONTROL]],
                        [r for _, r in rows[CONTROL]], color="tab:gray",
                        ls="--", lw=1, label=CONTROL)
            ax.set_xscale("log", base=2)
            if not cases[0].startswith(COUNT_CASES):
                ax.xaxis.set_major_formatter(FuncFormatter(size_label))
            else:
                ax.xaxis.set_major_formatter(
                    FuncFormatter(lambda v, _p: f"{int(v)}"))
            ax.xaxis.set_minor_formatter(NullFormatter())
            ax.set_xticks(sorted({s for c in cases for s, _ in rows[c]}))
            ax.tick_params(axis="x", labelrotation=45, labelsize=8)
            ax.set_xlabel(xlabel or panel_title)
            ax.set_ylabel("ratio (distrt / baseline, lower is faster)")
            if xlabel and panel_title:
                ax.set_title(panel_title, fontsize=10)
            ax.grid(True, which="major", alpha=0.3)
            ax.legend(fontsize=7, loc="best")
        fig.suptitle(title, fontsize=11)
        fig.tight_layout()
        out = os.path.join(outdir, f"bench-{stem}.png")
        fig.savefig(out, dpi=90)
        plt.close(fig)
        written.append(out)
    for out in written:
        print(f"plot_benchmarks.py: wrote {out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
