#!/usr/bin/env python3
"""Side-by-side A/B of ferry-perf programs run alternately: the minimum time per rep of each
(program, kernel, variant) over every round, and ferry_B / ferry_C per program and kernel.

Usage: perf/scripts/ab.py DIR
DIR holds one CSV per run, named LABEL-ROUND.csv (LABEL the program, e.g. old-1.csv, new-1.csv).
Each CSV's time_per_rep_s is already the minimum over its passes; this takes the minimum over
rounds too (RAJAPerf's convention). Rows whose status is not PASSED are listed and kept out.
"""
import csv
import glob
import os
import sys


def main():
    folder = sys.argv[1]
    best, labels, kernels, variants = {}, [], [], []
    for path in sorted(glob.glob(os.path.join(folder, "*-*.csv"))):
        label = os.path.basename(path).rsplit("-", 1)[0]
        with open(path, newline="") as f:
            for r in csv.DictReader(l for l in f if not l.startswith("#")):
                if r["status"] != "PASSED":
                    print(f"not PASSED: {os.path.basename(path)} {r['kernel']} {r['variant']}")
                    continue
                key = (label, r["kernel"], r["variant"])
                t = float(r["time_per_rep_s"]) * 1e6
                best[key] = min(best.get(key, t), t)
                for lst, v in ((labels, label), (kernels, r["kernel"]), (variants, r["variant"])):
                    if v not in lst:
                        lst.append(v)
    if not best:
        sys.exit(f"no LABEL-ROUND.csv results in {folder}")
    print("minimum time per rep (us) over passes and rounds")
    print(f"{'kernel':24s} {'variant':10s} " + " ".join(f"{l:>10s}" for l in labels))
    for k in kernels:
        for v in variants:
            cells = [f"{best[(l, k, v)]:10.3f}" if (l, k, v) in best else f"{'-':>10s}" for l in labels]
            print(f"{k:24s} {v:10s} " + " ".join(cells))
    if "ferry_B" in variants and "ferry_C" in variants:
        print("ferry_B / ferry_C (each program's own ferry_C)")
        for k in kernels:
            cells = []
            for l in labels:
                b, c = best.get((l, k, "ferry_B")), best.get((l, k, "ferry_C"))
                cells.append(f"{b / c:10.3f}" if b and c else f"{'-':>10s}")
            print(f"{k:24s} {'':10s} " + " ".join(cells))


if __name__ == "__main__":
    main()
