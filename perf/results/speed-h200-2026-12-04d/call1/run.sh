#!/usr/bin/env bash
# Twenty-seventh run (H200), first call: read-only arguments of compile-time extent
# (ferry::read<K>, ferry::slices<K>) in the three partial-assembly kernels' ferry_A/ferry_B:
#   - every cuda unit test (test_fixed_read's included) and device test;
#   - the SASS and register counts of the ferry_B and ferry_C kernels of VOL3D, DEL_DOT_VEC_2D,
#     MATVEC_3D_STENCIL and DIFFUSION3DPA (cuobjdump of cubins compiled like ferry-perf's
#     objects), summarised by sass_summary.py;
#   - MASS3DPA, DIFFUSION3DPA, CONVECTION3DPA, 5 passes, base_cuda, ferry_B, ferry_C, in three
#     builds, alternating, twice: new (this commit), old (the three ferry files as at the
#     previous commit: views of the whole arrays), unchecked (new, without bounds checks);
#   - the suite once (27 kernels, 5 passes, checks on, warmup on).
# bins.tar.xz: cuda/ (ferry-perf, ferry-perf-old, ferry-perf-unchecked, ferry_unit_tests,
# ferry_device_tests), cubins/.
set -uo pipefail
out=${1:?out}; pack=${2:?pack}; mkdir -p "$out"
here=$(cd "$(dirname "$0")" && pwd)
b=bin-dir; rm -rf $b; mkdir -p $b; tar xJf "$here/bins.tar.xz" -C $b
c=$b/cuda
export CUDA_MODULE_LOADING=EAGER
unset FERRY_INFO FERRY_BACKEND FERRY_DEPENDENT_LAUNCH
t0=$(date +%s)
el() {
  echo "$1 rc=$2 $(( $(date +%s) - t0 ))s" | tee -a $out/steps.log
  tar czf "$pack" -C "$(dirname "$out")" "$(basename "$out")"
}
cp "$0" $out/run.sh; cp "$here/sass_summary.py" $out/
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,temperature.gpu --format=csv > $out/gpu.txt 2>&1
timeout 100 bash -c "$c/ferry_unit_tests --gtest_filter='*/cuda:-*terminates*:*death*' --gtest_brief=1; $c/ferry_device_tests --gtest_brief=1" > $out/tests.log 2>&1; el tests $?
mkdir -p $out/sass
for f in $b/cubins/*.cubin; do
  n=$(basename $f .cubin)
  cuobjdump -res-usage $f > $out/sass/$n.res.txt 2>&1
  cuobjdump -sass $f > $out/sass/$n.sass 2>&1
done
python3 $here/sass_summary.py $out/sass > $out/sass-summary.txt 2>&1; el sass $?
for r in 1 2; do
  for v in "" -old -unchecked; do
    timeout 60 $c/ferry-perf$v --backend cuda --npasses 5 -k MASS3DPA,DIFFUSION3DPA,CONVECTION3DPA -v base_cuda,ferry_B,ferry_C --csv $out/pa$v-$r.csv > $out/pa$v-$r.log 2>&1; el "pa$v $r" $?
  done
done
timeout 250 $c/ferry-perf --backend cuda --npasses 5 -v base_cuda,ferry_B,ferry_C --csv $out/suite.csv --json $out/suite.json > $out/suite.log 2>&1; el suite $?
grep -E "tests ran|PASSED|FAILED|SKIPPED" $out/tests.log | head -8
head -30 $out/sass-summary.txt
python3 - $out <<'PY'
import csv, sys, math, glob, os
o = sys.argv[1]
def load(p):
    d = {}
    for r in csv.DictReader(open(p)):
        d.setdefault(r["kernel"].split("_", 1)[1], {})[r["variant"]] = (float(r["time_per_rep_s"]), r["status"])
    return d
for p in sorted(glob.glob(o + "/pa*.csv")):
    try: d = load(p)
    except Exception as e: print(p, e); continue
    print("%-22s" % os.path.basename(p), " ".join("%s B %.2f C %.2f B/C %.3f %s" % (k[:5], v["ferry_B"][0]*1e6, v["ferry_C"][0]*1e6, v["ferry_B"][0]/v["ferry_C"][0], "" if all(s == "PASSED" for _, s in v.values()) else "FAIL") for k, v in sorted(d.items())))
try:
    d = load(o + "/suite.csv")
    bc = {k: v["ferry_B"][0] / v["ferry_C"][0] for k, v in d.items() if "ferry_C" in v}
    bb = {k: v["ferry_B"][0] / v["base_cuda"][0] for k, v in d.items()}
    apps = [k for k in bb if k in ("DEL_DOT_VEC_2D", "ENERGY", "FIR", "LTIMES", "PRESSURE", "VOL3D", "MATVEC_3D_STENCIL")]
    geo = lambda xs: math.exp(sum(map(math.log, xs)) / len(xs))
    bad = [k for k, v in d.items() for n, (t, s) in v.items() if s != "PASSED"]
    print("suite B/base geo27 %.3f apps %.3f max %s %.3f" % (geo(bb.values()), geo([bb[k] for k in apps]), *max(bb.items(), key=lambda x: x[1])),
          "| B/C geo %.3f >1.005:" % geo(bc.values()), " ".join("%s %.3f" % (k, r) for k, r in sorted(bc.items(), key=lambda x: -x[1]) if r > 1.005), "| not passed:", bad)
except Exception as e:
    print("suite", e)
PY
