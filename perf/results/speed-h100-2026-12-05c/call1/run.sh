#!/usr/bin/env bash
# Thirtieth run, call 1: every cuda unit test and device test of 82f910d (.gpu-stage/bins.tar.xz:
# ferry_unit_tests, ferry_device_tests; the library code of 82f910d is main's), then the suite
# (its ferry-perf: the launch code of 9347595 without the final refusal rule, which a passing
# launch never reaches): 27 kernels, 5 passes, base_cuda, ferry_B, ferry_C, checks on.
set -uo pipefail
out=${1:?out}; pack=${2:?pack}; mkdir -p "$out"
b=bin-dir; rm -rf $b; mkdir -p $b/new; tar xJf .gpu-stage/bins.tar.xz -C $b/new
c=$b/new/cuda
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
timeout 300 $c/ferry-perf --backend cuda --npasses 5 -v base_cuda,ferry_B,ferry_C --csv $out/suite.csv --json $out/suite.json > $out/suite.log 2>&1; el suite $?
grep -E "tests ran|PASSED|FAILED" $out/tests.log | head -6
head -1 $out/gpu.txt; tail -1 $out/gpu.txt
python3 - $out <<'PY'
import csv, sys, math
o = sys.argv[1]
d = {}
for r in csv.DictReader(open(o + "/suite.csv")):
    d.setdefault(r["kernel"].split("_", 1)[1], {})[r["variant"]] = (float(r["time_per_rep_s"]) * 1e6, r["status"])
geo = lambda xs: math.exp(sum(map(math.log, xs)) / len(xs))
rat = lambda a, b: {k: v[a][0] / v[b][0] for k, v in d.items() if a in v and b in v}
bb, bc, ab = rat("ferry_B", "base_cuda"), rat("ferry_B", "ferry_C"), rat("ferry_A", "ferry_B")
apps = [k for k in bb if k in ("DEL_DOT_VEC_2D", "ENERGY", "FIR", "LTIMES", "PRESSURE", "VOL3D", "MATVEC_3D_STENCIL")]
bad = [k for k, v in d.items() for n, (t, s) in v.items() if s != "PASSED"]
print("kernels %d | B/base geo27 %.3f apps %.3f max %s %.3f | not passed: %s" % (len(d), geo(bb.values()), geo([bb[k] for k in apps]), *max(bb.items(), key=lambda x: x[1]), bad))
print("B/base above 1.00:", " ".join("%s %.3f" % (k, x) for k, x in sorted(bb.items(), key=lambda x: -x[1]) if x > 1.0))
print("B/C geo %.3f; above 1.005:" % geo(bc.values()), " ".join("%s %.3f" % (k, x) for k, x in sorted(bc.items(), key=lambda x: -x[1]) if x > 1.005))
if ab: print("A/B geo %.3f max %s %.3f" % (geo(ab.values()), *max(ab.items(), key=lambda x: x[1])))
PY
