#!/usr/bin/env python3
"""Runs ferry-perf several times on the host and reports, per kernel, the median over runs of
the time ratio of each variant to base_omp (measured side by side in each run). A single run on
a shared machine varies by 10-30 %; the median of alternating runs is what the CPU target
(ferry_B / base_omp <= 1.05) is judged by.

Usage: perf/scripts/cpu-ratios.py FERRY_PERF OUTDIR [RUNS] [extra ferry-perf args...]
Writes OUTDIR/run-K.csv for each run and OUTDIR/median-ratios.csv; prints the table.
"""
import csv
import os
import statistics
import subprocess
import sys


def main():
    exe, out = sys.argv[1], sys.argv[2]
    runs = int(sys.argv[3]) if len(sys.argv) > 3 else 5
    extra = sys.argv[4:]
    os.makedirs(out, exist_ok=True)
    ratios = {}  # (kernel, variant) -> [ratio per run]
    for k in range(runs):
        path = os.path.join(out, f"run-{k + 1}.csv")
        subprocess.run([exe, "--variants", "ref_seq,base_omp,ferry_A,ferry_B,ferry_C", "--csv", path]
                       + extra, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        with open(path, newline="") as f:
            rows = list(csv.DictReader(f))
        base = {r["kernel"]: float(r["time_per_rep_s"]) for r in rows if r["variant"] == "base_omp"}
        for r in rows:
            if r["status"] != "PASSED":
                sys.exit(f"{r['kernel']} {r['variant']}: {r['status']}")
            if r["variant"].startswith("ferry_"):
                ratios.setdefault((r["kernel"], r["variant"]), []).append(
                    float(r["time_per_rep_s"]) / base[r["kernel"]])
        print(f"run {k + 1}/{runs} done", file=sys.stderr)
    kernels = list(dict.fromkeys(k for k, _ in ratios))
    variants = ["ferry_A", "ferry_B", "ferry_C"]
    with open(os.path.join(out, "median-ratios.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["kernel"] + [f"{v}/base_omp median" for v in variants] + ["ferry_B/base_omp per run"])
        print(f"{'kernel':24s} " + " ".join(f"{v + '/base':>13s}" for v in variants) + "   ferry_B/base per run")
        for k in kernels:
            med = [statistics.median(ratios[(k, v)]) for v in variants]
            per = " ".join(f"{x:.3f}" for x in ratios[(k, "ferry_B")])
            w.writerow([k] + [f"{m:.3f}" for m in med] + [per])
            print(f"{k:24s} " + " ".join(f"{m:13.3f}" for m in med) + "   " + per)
        gm = statistics.geometric_mean([statistics.median(ratios[(k, "ferry_B")]) for k in kernels])
        print(f"geomean of the ferry_B medians: {gm:.3f}")
        w.writerow(["geomean", "", f"{gm:.3f}", "", ""])


if __name__ == "__main__":
    main()
