#!/usr/bin/env bash
# Twenty-ninth run (H200), first call:
#   - every cuda unit test and device test of the final tree (.gpu-stage/bins.tar.xz:
#     ferry-perf, ferry-perf-old, ferry-launch-bench, ferry-launch-bench-old, ferry_unit_tests,
#     ferry_device_tests), among them block launches on resident memory from several threads;
#   - launch_blocks on resident memory taking the held mapping (one lock section, no pins, no
#     registration) and its fast argument checks: ferry-perf-old is the previous commit's,
#     ferry-perf the final tree's; the five block apps at --size 1e4 (each rep one launch's host
#     cost) and at the default size, ferry_B and ferry_C, 5 passes, the two alternating, two
#     rounds; ferry-launch-bench (old and new, alternating, twice): host enqueue time per launch
#     of launch_blocks against ferry::launch, ferry::unsafe::launch and a raw launch;
#   - the index list read with L1 eviction priority "last" (perf/NOTES.md, "The index list read
#     twice"), A/B from .gpu-stage/bins2.tar.xz: ferry-perf built without the hint and
#     ferry-perf-evict, the same with MATVEC_3D_STENCIL's and DEL_DOT_VEC_2D's ferry files
#     compiled against the hinted headers (perf/scripts/link-unchecked.sh --include); the two
#     alternating, two rounds, 5 passes; then ncu (no cache flush, clocks as in the timed runs):
#     duration, L2 read sectors and DRAM bytes of both builds' ferry_B and ferry_C kernels.
set -uo pipefail
out=${1:?out}; pack=${2:?pack}; mkdir -p "$out"
b=bin-dir; rm -rf $b; mkdir -p $b/new $b/ab
tar xJf .gpu-stage/bins.tar.xz -C $b/new; tar xJf .gpu-stage/bins2.tar.xz -C $b/ab
c=$b/new/cuda; a=$b/ab/cuda
export CUDA_MODULE_LOADING=EAGER
unset FERRY_INFO FERRY_BACKEND FERRY_DEPENDENT_LAUNCH
t0=$(date +%s)
el() {
  echo "$1 rc=$2 $(( $(date +%s) - t0 ))s" | tee -a $out/steps.log
  tar czf "$pack" -C "$(dirname "$out")" "$(basename "$out")"
}
cp "$0" $out/run.sh
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,temperature.gpu --format=csv > $out/gpu.txt 2>&1
timeout 100 bash -c "$c/ferry_unit_tests --gtest_filter='*/cuda:-*terminates*:*death*' --gtest_brief=1; $c/ferry_device_tests --gtest_brief=1" > $out/tests.log 2>&1; el tests $?
KB=MASS3DPA,CONVECTION3DPA,DIFFUSION3DPA,MAT_MAT_SHARED,LTIMES
for r in 1 2; do
  for v in -old ""; do
    for sz in 1e4 default; do
      extra=""; [[ $sz == 1e4 ]] && extra="--size 1e4"
      timeout 60 $c/ferry-perf$v --backend cuda --npasses 5 -k $KB -v ferry_B,ferry_C $extra --csv $out/held$v-$sz-$r.csv > $out/held$v-$sz-$r.log 2>&1; el "held$v $sz $r" $?
    done
  done
done
for r in 1 2; do
  for v in -old ""; do
    timeout 60 $c/ferry-launch-bench$v --passes 20 --csv $out/lb$v-$r.csv > $out/lb$v-$r.log 2>&1; el "lb$v $r" $?
  done
done
K=MATVEC_3D_STENCIL,DEL_DOT_VEC_2D
for r in 1 2; do
  for v in "" -evict; do
    timeout 60 $a/ferry-perf$v --backend cuda --npasses 5 -k $K -v base_cuda,ferry_B,ferry_C --csv $out/ab$v-$r.csv > $out/ab$v-$r.log 2>&1; el "ab$v $r" $?
  done
done
for v in "" -evict; do
  timeout 60 ncu --metrics gpu__time_duration.sum,dram__bytes_read.sum,lts__t_sectors_op_read.sum --cache-control none --clock-control none --csv \
    --log-file $out/ncu$v.csv $a/ferry-perf$v --backend cuda -k $K -v ferry_B,ferry_C --reps 10 --npasses 1 > $out/ncu$v.log 2>&1; el "ncu$v" $?
done
grep -E "tests ran|PASSED|FAILED" $out/tests.log | head -6
python3 - $out <<'PY'
import csv, sys, glob, os, re, statistics, math
o = sys.argv[1]
def load(p):
    d = {}
    for r in csv.DictReader(open(p)):
        d.setdefault(r["kernel"].split("_", 1)[1], {})[r["variant"]] = (float(r["time_per_rep_s"]) * 1e6, r["status"])
    return d
for sz in ("1e4", "default"):
    for r in ("1", "2"):
        row = []
        for v in ("-old", ""):
            try:
                d = load(o + "/held%s-%s-%s.csv" % (v, sz, r))
                row.append("%s: %s" % (v or "new", " ".join("%s B %.2f C %.2f%s" % (k[:6], x["ferry_B"][0], x["ferry_C"][0], "" if all(s == "PASSED" for _, s in x.values()) else " FAIL") for k, x in sorted(d.items()))))
            except Exception as e:
                row.append("%s: %s" % (v, e))
        print("held %-7s r%s | %s" % (sz, r, " | ".join(row)))
for p in sorted(glob.glob(o + "/lb*.csv")):
    rows = list(csv.DictReader(open(p)))
    print("%-8s" % os.path.basename(p)[:-4], " ".join("%s/%s %.3f" % (x["form"], x["args"], float(x["enqueue_min_us"])) for x in rows if x["form"] in ("ferry", "blocks", "unsafe", "raw")))
for p in sorted(glob.glob(o + "/ab*.csv")):
    d = load(p)
    print("%-10s" % os.path.basename(p)[:-4], " ".join("%s B %.2f C %.2f B/C %.3f%s" % (k[:6], v["ferry_B"][0], v["ferry_C"][0], v["ferry_B"][0] / v["ferry_C"][0], "" if all(s == "PASSED" for _, s in v.values()) else " FAIL") for k, v in sorted(d.items())))
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
PY
