#!/usr/bin/env bash
# Twenty-eighth run (H200), second call: the index list read with L1 eviction priority "last"
# (detail::load_index_entry; perf/NOTES.md, "The index list read twice"). .gpu-stage/bins2.tar.xz:
# ferry-perf (e4d2686) and ferry-perf-evict (the same, with MATVEC_3D_STENCIL's and
# DEL_DOT_VEC_2D's ferry files compiled against the changed headers: the only two that read an
# index list).
#   - the two kernels, 5 passes, base_cuda, ferry_B, ferry_C, the two binaries alternating, two
#     rounds;
#   - ncu (no cache flush, clocks as in the timed runs): duration, L2 read sectors and DRAM bytes
#     of their ferry_B and ferry_C kernels in each binary, 10 reps;
#   - the suite once with ferry-perf-evict (27 kernels, 5 passes, checks on).
set -uo pipefail
out=${1:?out}; pack=${2:?pack}; mkdir -p "$out"
b=bin-dir; rm -rf $b; mkdir -p $b; tar xJf .gpu-stage/bins2.tar.xz -C $b
c=$b/cuda
export CUDA_MODULE_LOADING=EAGER
unset FERRY_INFO FERRY_BACKEND FERRY_DEPENDENT_LAUNCH
t0=$(date +%s)
el() {
  echo "$1 rc=$2 $(( $(date +%s) - t0 ))s" | tee -a $out/steps.log
  tar czf "$pack" -C "$(dirname "$out")" "$(basename "$out")"
}
cp "$0" $out/run.sh
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,temperature.gpu --format=csv > $out/gpu.txt 2>&1
K=MATVEC_3D_STENCIL,DEL_DOT_VEC_2D
for r in 1 2; do
  for v in "" -evict; do
    timeout 60 $c/ferry-perf$v --backend cuda --npasses 5 -k $K -v base_cuda,ferry_B,ferry_C --csv $out/ab$v-$r.csv > $out/ab$v-$r.log 2>&1; el "ab$v $r" $?
  done
done
for v in "" -evict; do
  timeout 90 ncu --metrics gpu__time_duration.sum,dram__bytes_read.sum,lts__t_sectors_op_read.sum --cache-control none --clock-control none --csv \
    --log-file $out/ncu$v.csv $c/ferry-perf$v --backend cuda -k $K -v ferry_B,ferry_C --reps 10 --npasses 1 > $out/ncu$v.log 2>&1; el "ncu$v" $?
done
timeout 230 $c/ferry-perf-evict --backend cuda --npasses 5 -v base_cuda,ferry_B,ferry_C --csv $out/suite.csv --json $out/suite.json > $out/suite.log 2>&1; el suite $?
python3 - $out <<'PY'
import csv, sys, glob, os, re, statistics, math
o = sys.argv[1]
def load(p):
    d = {}
    for r in csv.DictReader(open(p)):
        d.setdefault(r["kernel"].split("_", 1)[1], {})[r["variant"]] = (float(r["time_per_rep_s"]) * 1e6, r["status"])
    return d
for p in sorted(glob.glob(o + "/ab*.csv")):
    d = load(p)
    print("%-14s" % os.path.basename(p)[:-4], " ".join("%s B %.2f C %.2f B/C %.3f%s" % (k[:6], v["ferry_B"][0], v["ferry_C"][0], v["ferry_B"][0] / v["ferry_C"][0], "" if all(s == "PASSED" for _, s in v.values()) else " FAIL") for k, v in sorted(d.items())))
for v in ("", "-evict"):
    try:
        rows = [r for r in csv.reader(l for l in open(o + "/ncu%s.csv" % v) if not l.startswith("=="))]
        h = rows[0]; ki = h.index("Kernel Name"); mi = h.index("Metric Name"); vi = h.index("Metric Value")
        t = {}
        for r in rows[1:]:
            m = re.search(r"(\w+)_ferry::(rep|run_ferry_c)", r[ki])
            if not m: continue
            t.setdefault((m.group(1)[:10], "B" if m.group(2) == "rep" else "C"), {}).setdefault(r[mi].split("__")[1][:18], []).append(float(r[vi].replace(",", "")))
        for k, ms in sorted(t.items()):
            print("ncu%-7s %s %s" % (v, k, " ".join("%s %.4g" % (m, statistics.median(x)) for m, x in sorted(ms.items()))))
    except Exception as e:
        print("ncu", v, e)
try:
    d = load(o + "/suite.csv")
    bc = {k: v["ferry_B"][0] / v["ferry_C"][0] for k, v in d.items() if "ferry_C" in v}
    bb = {k: v["ferry_B"][0] / v["base_cuda"][0] for k, v in d.items()}
    apps = [k for k in bb if k in ("DEL_DOT_VEC_2D", "ENERGY", "FIR", "LTIMES", "PRESSURE", "VOL3D", "MATVEC_3D_STENCIL")]
    geo = lambda xs: math.exp(sum(map(math.log, xs)) / len(xs))
    bad = [k for k, v in d.items() for n, (t, s) in v.items() if s != "PASSED"]
    print("suite B/base geo27 %.3f apps %.3f max %s %.3f" % (geo(bb.values()), geo([bb[k] for k in apps]), *max(bb.items(), key=lambda x: x[1])),
          "| B/C >1.005:", " ".join("%s %.3f" % (k, r) for k, r in sorted(bc.items(), key=lambda x: -x[1]) if r > 1.005), "| not passed:", bad)
except Exception as e:
    print("suite", e)
PY
