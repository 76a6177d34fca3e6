#!/usr/bin/env python3
"""Medians of ncu metrics per ferry_B and ferry_C kernel, from `ncu --csv --log-file` output.

Usage: ncu_summary.py DIR LABEL...

Reads DIR/ncu-LABEL.csv for each LABEL (e.g. old new: two builds of ferry-perf profiled with
`-v ferry_B,ferry_C`) and prints one line per label and variant:
    ncu LABEL ferry_B <metric> <median> ...
The safe launch's kernel (kernel_nd) is ferry_B, the unsafe one (kernel_unsafe) ferry_C; other
kernels are skipped. Metric names are shortened to what follows their first "__"
(gpu__time_duration.sum -> time_duration.sum). A file that cannot be read prints "ncu LABEL" and
the error, and the others still print.
"""
import csv
import statistics
import sys


def summarize(path):
    """{variant letter: {metric: [values]}} for the ferry_B / ferry_C kernels of one CSV."""
    with open(path) as f:
        rows = list(csv.reader(line for line in f if not line.startswith("==")))
    head = rows[0]
    ki, mi, vi = head.index("Kernel Name"), head.index("Metric Name"), head.index("Metric Value")
    out = {}
    for r in rows[1:]:
        v = "B" if "kernel_nd" in r[ki] else "C" if "kernel_unsafe" in r[ki] else None
        if v:
            out.setdefault(v, {}).setdefault(r[mi], []).append(float(r[vi].replace(",", "")))
    return out


def main(argv):
    if len(argv) < 3:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    d = argv[1]
    for label in argv[2:]:
        try:
            for v, ms in sorted(summarize(f"{d}/ncu-{label}.csv").items()):
                print(f"ncu {label} ferry_{v} " + " ".join(
                    f"{k.split('__')[1]} {statistics.median(x):.4g}" for k, x in sorted(ms.items())))
        except Exception as e:  # noqa: BLE001 - report and go on to the next label
            print("ncu", label, e)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
