#!/usr/bin/env python3
"""Summarises a ferry-perf CSV (and optionally a d2d_bandwidth CSV) into the tables the project
reports: kernel-loop time ratios against the baseline, the transfer table (count, bytes and time
per direction over the whole run) and achieved bandwidth against a measured device copy.

Usage: perf/scripts/summarize.py APPS_CSV [D2D_CSV]
"""
import csv
import math
import sys


def load(path):
    with open(path, newline="") as f:
        rows = [r for r in csv.reader(f) if r and not r[0].startswith("#")]
    head = rows[0]
    return [dict(zip(head, r)) for r in rows[1:]]


def main():
    rows = load(sys.argv[1])
    by = {(r["kernel"], r["variant"]): r for r in rows}
    kernels = list(dict.fromkeys(r["kernel"] for r in rows))
    variants = list(dict.fromkeys(r["variant"] for r in rows))
    base = "base_cuda" if "base_cuda" in variants else "base_omp"
    shown = [v for v in ("ferry_A", "ferry_B", "ferry_C") if v in variants]

    # time_per_rep_s is the minimum over passes; CSVs written before --npasses have one pass.
    npasses = max(int(r.get("npasses") or 1) for r in rows)
    over = f", minimum over {npasses} passes" if npasses > 1 else ""
    print(f"Kernel-loop time per rep (ms{over}) and ratio to {base}")
    print(f"{'kernel':24s} {base:>10s} " + " ".join(f"{v:>10s} {v + '/base':>13s}" for v in shown) + "  status")
    logs = {v: [] for v in shown}
    # A run cut short (a time limit) leaves kernels without every variant: listed, not ratioed.
    missing = [k for k in kernels if any((k, v) not in by for v in [base] + shown)]
    kernels = [k for k in kernels if k not in missing]
    b_over_c = []
    for k in kernels:
        b = float(by[(k, base)]["time_per_rep_s"]) * 1e3
        cells, status = [], set()
        for v in shown:
            r = by[(k, v)]
            t = float(r["time_per_rep_s"]) * 1e3
            cells.append(f"{t:10.4f} {t / b:13.3f}")
            logs[v].append(math.log(t / b))
            status.add(r["status"])
        status.add(by[(k, base)]["status"])
        if "ferry_B" in shown and "ferry_C" in shown:
            b_over_c.append((float(by[(k, "ferry_B")]["time_per_rep_s"]) /
                             float(by[(k, "ferry_C")]["time_per_rep_s"]), k))
        print(f"{k:24s} {b:10.4f} " + " ".join(cells) + "  " + ",".join(sorted(status)))
    print("geomean " + "  ".join(f"{v}/{base} = {math.exp(sum(l) / len(l)):.3f}" for v, l in logs.items()))
    if b_over_c:
        geo = math.exp(sum(math.log(r) for r, _ in b_over_c) / len(b_over_c))
        above = ", ".join(f"{k} {r:.3f}" for r, k in sorted(b_over_c, reverse=True) if r > 1.005)
        print(f"ferry_B/ferry_C geomean {geo:.3f}; above 1.005: {above or 'none'}")
    if missing:
        print(f"not every variant ran (not in the ratios): {', '.join(missing)}")

    if "h2d_count" in rows[0]:
        print("\nTransfers over the whole run (all reps, set-up and copy-back included)")
        print(f"{'variant':10s} {'H2D count':>10s} {'H2D MB':>10s} {'H2D ms':>9s} {'D2H count':>10s} {'D2H MB':>10s} {'D2H ms':>9s}")
        for v in [base] + shown:
            t = [0, 0, 0.0, 0, 0, 0.0]
            for k in kernels:
                r = by.get((k, v))
                if not r or r.get("h2d_count", "") == "":
                    continue
                t[0] += int(r["h2d_count"]); t[1] += int(r["h2d_bytes"]); t[2] += float(r["h2d_ms"])
                t[3] += int(r["d2h_count"]); t[4] += int(r["d2h_bytes"]); t[5] += float(r["d2h_ms"])
            print(f"{v:10s} {t[0]:10d} {t[1] / 1e6:10.1f} {t[2]:9.1f} {t[3]:10d} {t[4] / 1e6:10.1f} {t[5]:9.1f}")

    if len(sys.argv) > 2:
        d2d = load(sys.argv[2])
        ref = {r["method"]: float(r["median_gbs"]) for r in d2d}
        copy = max(ref.values())
        print(f"\nAchieved bandwidth (BytesMoved/rep / time per rep) vs measured D2D copy {copy:.0f} GB/s")
        for k in kernels:
            if not any(s in k for s in ("PRESSURE", "VOL3D")):
                continue
            for v in [base] + shown:
                r = by[(k, v)]
                gbs = float(r["bandwidth_GiBs"]) * 2**30 / 1e9
                print(f"  {k:22s} {v:10s} {gbs:8.0f} GB/s  {100 * gbs / copy:5.1f} % of the copy")


if __name__ == "__main__":
    main()
