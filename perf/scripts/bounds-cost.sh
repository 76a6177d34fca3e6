#!/usr/bin/env bash
# What ferry's default bounds checks cost: runs ferry-perf (checks on) and ferry-perf-unchecked
# (the same sources built with FERRY_UNSAFE_NO_BOUNDS_CHECKS=1) alternately, N rounds, and prints
# per kernel and variant the minimum time per rep with checks on and off, their ratio (on / off,
# > 1 means the checks cost time), and the geometric mean of the ratios per variant. The minimum
# over rounds is the least noisy estimate of what the code costs; alternating the two programs,
# and their order from one round to the next, spreads drift (clocks, other load) over both.
# Variants that index no ferry view (ref_seq, base_omp, base_cuda, ferry_C) are controls: their
# ratio shows the noise level of the measurement.
#
# Usage: perf/scripts/bounds-cost.sh [-n ROUNDS] [-b BINDIR] [-o OUT.csv] [-- FERRY_PERF_ARGS...]
#   -n ROUNDS  rounds, each running both programs once (default 5)
#   -b BINDIR  folder holding ferry-perf and ferry-perf-unchecked, or a build tree whose perf/
#              holds them (default: build)
#   -o FILE    summary CSV: kernel,variant,backend,min_checked_s,min_unchecked_s,ratio,rounds
#              (default bounds-cost.csv); each run's own CSV is kept next to it, in FILE.runs/
#   FERRY_PERF_ARGS  passed to both programs, e.g. --backend openmp --size 100000 -v ferry_A,ferry_B
# Exit status: 0 on success, 1 if a run failed or a checksum did not pass, 2 on a usage error.
set -euo pipefail

rounds=5
bindir=build
out=bounds-cost.csv
while getopts "n:b:o:h" opt; do
  case $opt in
    n) rounds=$OPTARG ;;
    b) bindir=$OPTARG ;;
    o) out=$OPTARG ;;
    h)
      sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'
      exit 0
      ;;
    *) exit 2 ;;
  esac
done
shift $((OPTIND - 1))
[[ ${1:-} == "--" ]] && shift
if ! [[ $rounds =~ ^[1-9][0-9]*$ ]]; then
  echo "bounds-cost.sh: -n needs a positive integer, got '$rounds'" >&2
  exit 2
fi

find_bin() {
  local d
  for d in "$bindir" "$bindir/perf"; do
    [[ -x $d/$1 ]] && { echo "$d/$1"; return 0; }
  done
  echo "bounds-cost.sh: no executable $1 in $bindir or $bindir/perf (build the ferry-perf and" \
    "ferry-perf-unchecked targets)" >&2
  return 1
}
checked=$(find_bin ferry-perf)
unchecked=$(find_bin ferry-perf-unchecked)

runs="$out.runs"
rm -rf "$runs"
mkdir -p "$runs"
status=0
run_one() {  # MODE ROUND: runs one program with the CSV option and the user's arguments
  local bin=$checked
  [[ $1 == unchecked ]] && bin=$unchecked
  echo "round $2/$rounds: $1" >&2
  if ! "$bin" --csv "$runs/$1-$2.csv" "${perf_args[@]}" >"$runs/$1-$2.log" 2>&1; then
    echo "bounds-cost.sh: $bin failed in round $2 (log: $runs/$1-$2.log)" >&2
    status=1
  fi
}
perf_args=("$@")
for ((r = 1; r <= rounds; r++)); do
  if ((r % 2)); then order=(checked unchecked); else order=(unchecked checked); fi
  for m in "${order[@]}"; do run_one "$m" "$r"; done
done

python3 - "$runs" "$out" "$rounds" <<'PY' || status=1
import csv, glob, math, os, sys

runs, out, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3])
best = {}  # (kernel, variant, backend) -> {"checked": [times], "unchecked": [times]}
bad = []
for path in sorted(glob.glob(os.path.join(runs, "*.csv"))):
    mode = os.path.basename(path).split("-")[0]
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            key = (row["kernel"], row["variant"], row["backend"])
            if row["status"] != "PASSED":
                bad.append(f"{path}: {key[0]} {key[1]}: {row['status']}")
                continue
            t = float(row["time_per_rep_s"])
            best.setdefault(key, {"checked": [], "unchecked": []})[mode].append(t)

rows = []
for key in sorted(best):
    on, off = best[key]["checked"], best[key]["unchecked"]
    if not on or not off:
        continue
    lo_on, lo_off = min(on), min(off)
    ratio = lo_on / lo_off if lo_off > 0 else float("nan")
    rows.append((*key, lo_on, lo_off, ratio, min(len(on), len(off))))

with open(out, "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["kernel", "variant", "backend", "min_checked_s", "min_unchecked_s", "ratio",
                "rounds"])
    for r in rows:
        w.writerow([r[0], r[1], r[2], f"{r[3]:.6e}", f"{r[4]:.6e}", f"{r[5]:.4f}", r[6]])

print(f"bounds-check cost: min time per rep over {rounds} round(s); ratio = checks on / off")
print(f"{'kernel':<28} {'variant':<10} {'backend':<8} {'on (ms)':>11} {'off (ms)':>11} {'ratio':>7}")
for r in rows:
    print(f"{r[0]:<28} {r[1]:<10} {r[2]:<8} {r[3] * 1e3:>11.4f} {r[4] * 1e3:>11.4f} {r[5]:>7.3f}")
print("geomean of the ratios per variant:")
for v in sorted({r[1] for r in rows}):
    rs = [r[5] for r in rows if r[1] == v and r[5] > 0 and math.isfinite(r[5])]
    if rs:
        g = math.exp(sum(math.log(x) for x in rs) / len(rs))
        print(f"  {v:<10} {g:.4f}  ({len(rs)} kernel(s))")
print(f"summary CSV: {out}; per-run CSVs and logs: {runs}/")
for b in bad:
    print("not counted (did not pass): " + b, file=sys.stderr)
if not rows:
    print("no (kernel, variant) ran in both programs", file=sys.stderr)
    sys.exit(1)
sys.exit(1 if bad else 0)
PY
exit $status
