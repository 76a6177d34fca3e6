#!/usr/bin/env python3
"""Side-by-side A/B of ferry-perf programs run alternately: the minimum time per rep of each
(program, kernel, variant) over every round, and ferry_B / ferry_C per program and kernel.

Usage: perf/scripts/ab.py DIR
DIR holds one ferry-perf CSV (--csv) per run, named LABEL-ROUND.csv: LABEL names the program
(it may contain dashes, e.g. ferry-perf-old-2.csv is round 2 of ferry-perf-old), ROUND is a
number. Other files are ignored. Each CSV's time_per_rep_s is already the minimum over its
passes; this takes the minimum over rounds too (RAJAPerf's convention). Rows whose status is not
PASSED are listed and kept out; a kernel and variant a program has no PASSED row for shows "-".
Exits with status 1 if DIR has no PASSED row.
"""
import glob
import os
import re
import sys

from summarize import load  # a ferry-perf CSV as a list of rows, its comment lines left out

NEEDED = {"kernel", "variant", "status", "time_per_rep_s"}


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__.split("\n\n")[1].split("\n")[0])
    folder = sys.argv[1]
    best, labels, kernels, variants = {}, [], [], []
    for path in sorted(glob.glob(os.path.join(folder, "*-*.csv"))):
        m = re.fullmatch(r"(.+)-(\d+)\.csv", os.path.basename(path))
        if not m:
            continue
        label = m.group(1)
        rows = load(path)
        if rows and not NEEDED <= set(rows[0]):
            print(f"skipped (not a ferry-perf CSV): {os.path.basename(path)}")
            continue
        for r in rows:
            if r.get("status") != "PASSED" or not r.get("time_per_rep_s"):
                print(f"not PASSED: {os.path.basename(path)} {r.get('kernel')} {r.get('variant')}")
                continue
            key = (label, r["kernel"], r["variant"])
            t = float(r["time_per_rep_s"]) * 1e6
            best[key] = min(best.get(key, t), t)
            for lst, v in ((labels, label), (kernels, r["kernel"]), (variants, r["variant"])):
                if v not in lst:
                    lst.append(v)
    if not best:
        sys.exit(f"no PASSED rows in LABEL-ROUND.csv files in {folder}")
    kw = max(len(k) for k in kernels)
    vw = max(len(v) for v in variants)
    cw = max(10, max(len(l) for l in labels))
    cell = lambda x: f"{x:{cw}.3f}" if x is not None else f"{'-':>{cw}s}"
    print("minimum time per rep (us) over passes and rounds")
    print(f"{'kernel':{kw}s} {'variant':{vw}s} " + " ".join(f"{l:>{cw}s}" for l in labels))
    for k in kernels:
        for v in variants:
            print(f"{k:{kw}s} {v:{vw}s} " + " ".join(cell(best.get((l, k, v))) for l in labels))
    if "ferry_B" in variants and "ferry_C" in variants:
        print("ferry_B / ferry_C (each program's own ferry_C)")
        for k in kernels:
            ratios = []
            for l in labels:
                b, c = best.get((l, k, "ferry_B")), best.get((l, k, "ferry_C"))
                ratios.append(b / c if b and c else None)
            print(f"{k:{kw}s} {'':{vw}s} " + " ".join(cell(r) for r in ratios))


if __name__ == "__main__":
    main()
