#!/usr/bin/env python3
"""Plot a ferry-perf CSV (written with `ferry-perf --csv FILE`) as PNG charts.

Writes two figures:
  PREFIX-time.png   time per rep (ms) per kernel, one bar per variant (log scale)
  PREFIX-ratio.png  time per rep / baseline time per rep per kernel, one bar per non-baseline
                    variant; the baseline is base_cuda where it ran, else base_omp (as in the
                    ferry-perf table). Bars below 1 are faster than the baseline.

Usage: plot.py results.csv [--out PREFIX] [--title TEXT]
PREFIX defaults to the CSV path without its extension. Needs matplotlib
(Debian: apt-get install python3-matplotlib).
"""

import argparse
import csv
import math
import os
import sys

VARIANT_ORDER = ["ref_seq", "base_omp", "base_cuda", "ferry_A", "ferry_B", "ferry_C"]


def read_rows(path):
    """Returns {kernel: {variant: row}} in file order, skipping runs that errored."""
    data = {}
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            if row.get("status") == "ERROR":
                continue
            try:
                row["time_per_rep_s"] = float(row["time_per_rep_s"])
            except (KeyError, ValueError):
                continue
            data.setdefault(row["kernel"], {})[row["variant"]] = row
    return data


def baseline_of(variants):
    """The baseline variant of one kernel: base_cuda if it ran, else base_omp, else None."""
    for name in ("base_cuda", "base_omp"):
        if name in variants and variants[name]["time_per_rep_s"] > 0:
            return name
    return None


def sorted_variants(data):
    seen = {v for per_kernel in data.values() for v in per_kernel}
    known = [v for v in VARIANT_ORDER if v in seen]
    return known + sorted(seen - set(VARIANT_ORDER))


def grouped_bars(ax, kernels, series, ylabel):
    """series: list of (label, [value or None per kernel])."""
    n = max(len(series), 1)
    width = 0.8 / n
    for i, (label, values) in enumerate(series):
        xs = [k + (i - (n - 1) / 2) * width for k in range(len(kernels))]
        ys = [v if v is not None else 0 for v in values]
        ax.bar(xs, ys, width, label=label)
    short = [k.split("_", 1)[1] if "_" in k else k for k in kernels]
    ax.set_xticks(range(len(kernels)))
    ax.set_xticklabels(short, rotation=30, ha="right")
    ax.set_ylabel(ylabel)
    ax.legend(fontsize="small")
    ax.grid(axis="y", alpha=0.3)


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("csv", help="CSV file written by ferry-perf --csv")
    parser.add_argument("--out", help="output prefix (default: CSV path without extension)")
    parser.add_argument("--title", default="ferry-perf", help="title prefix of the charts")
    args = parser.parse_args(argv)

    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        sys.exit("plot.py needs matplotlib (Debian: apt-get install python3-matplotlib, then run it "
                 "with the system interpreter, /usr/bin/python3)")

    data = read_rows(args.csv)
    if not data:
        sys.exit(f"{args.csv}: no successful runs to plot")
    prefix = args.out or os.path.splitext(args.csv)[0]
    kernels = list(data)
    variants = sorted_variants(data)

    # Time per rep.
    fig, ax = plt.subplots(figsize=(max(6, 1.3 * len(kernels) + 2), 4.5))
    series = []
    for v in variants:
        vals = [data[k][v]["time_per_rep_s"] * 1e3 if v in data[k] else None for k in kernels]
        series.append((v, vals))
    grouped_bars(ax, kernels, series, "time per rep (ms)")
    ax.set_yscale("log")
    ax.set_title(f"{args.title}: time per rep")
    fig.tight_layout()
    fig.savefig(prefix + "-time.png", dpi=120)
    plt.close(fig)

    # Ratio to the baseline.
    fig, ax = plt.subplots(figsize=(max(6, 1.3 * len(kernels) + 2), 4.5))
    series = []
    for v in variants:
        vals = []
        for k in kernels:
            base = baseline_of(data[k])
            if base is None or base == v or v not in data[k]:
                vals.append(None)
            else:
                vals.append(data[k][v]["time_per_rep_s"] / data[k][base]["time_per_rep_s"])
        if any(x is not None for x in vals):
            series.append((v, vals))
    if series:
        grouped_bars(ax, kernels, series, "time / baseline time")
        ax.axhline(1.0, color="black", linewidth=0.8)
        ratios = [x for _, vals in series for x in vals if x]
        if ratios and max(ratios) / min(ratios) > 20:
            ax.set_yscale("log")
        geo = [data[k]["ferry_B"]["time_per_rep_s"] / data[k][baseline_of(data[k])]["time_per_rep_s"]
               for k in kernels if "ferry_B" in data[k] and baseline_of(data[k])]
        note = ""
        if geo:
            note = f" (geomean ferry_B/base = {math.exp(sum(map(math.log, geo)) / len(geo)):.3f})"
        ax.set_title(f"{args.title}: ratio to baseline (base_cuda, else base_omp){note}",
                     fontsize="medium")
    else:
        ax.text(0.5, 0.5, "no baseline (base_cuda or base_omp) in this CSV", ha="center",
                transform=ax.transAxes)
    fig.tight_layout()
    fig.savefig(prefix + "-ratio.png", dpi=120)
    plt.close(fig)
    print(f"wrote {prefix}-time.png and {prefix}-ratio.png")


if __name__ == "__main__":
    main(sys.argv[1:])
