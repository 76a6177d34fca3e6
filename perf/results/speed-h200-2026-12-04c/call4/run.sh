#!/usr/bin/env bash
# Twenty-sixth run (H200), fourth call: the build whose base_cuda runs on one stream for the
# whole process (and whose FERRY_INFO allocation lines name the address):
#   - every cuda unit test and device test;
#   - the suite twice, 27 kernels, 5 passes each, checks on, base_cuda, ferry_B, ferry_C.
# bins.tar.xz: cuda/ (ferry-perf, ferry_unit_tests, ferry_device_tests).
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
cp "$0" $out/run.sh
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,temperature.gpu --format=csv > $out/gpu.txt 2>&1
timeout 100 bash -c "$c/ferry_unit_tests --gtest_filter='*/cuda:-*terminates*:*death*' --gtest_brief=1; $c/ferry_device_tests --gtest_brief=1" > $out/tests.log 2>&1; el tests $?
timeout 230 $c/ferry-perf --backend cuda --npasses 5 -v base_cuda,ferry_B,ferry_C --csv $out/suite.csv --json $out/suite.json > $out/suite.log 2>&1; el suite $?
timeout 200 $c/ferry-perf --backend cuda --npasses 5 -v base_cuda,ferry_B,ferry_C --csv $out/suite2.csv > $out/suite2.log 2>&1; el suite2 $?
grep -E "tests ran|PASSED|FAILED|SKIPPED" $out/tests.log | head -8
python3 - $out/suite.csv $out/suite2.csv <<'PY'
import csv, sys, math
for p in sys.argv[1:]:
    d = {}
    try:
        rows = list(csv.DictReader(open(p)))
    except OSError:
        continue
    for r in rows:
        d.setdefault(r["kernel"].split("_", 1)[1], {})[r["variant"]] = (float(r["time_per_rep_s"]), r["status"])
    bc = {k: v["ferry_B"][0] / v["ferry_C"][0] for k, v in d.items() if "ferry_C" in v}
    bb = {k: v["ferry_B"][0] / v["base_cuda"][0] for k, v in d.items()}
    apps = [k for k in bb if k in ("DEL_DOT_VEC_2D", "ENERGY", "FIR", "LTIMES", "PRESSURE", "VOL3D", "MATVEC_3D_STENCIL")]
    geo = lambda xs: math.exp(sum(map(math.log, xs)) / len(xs))
    bad = [k for k, v in d.items() for n, (t, s) in v.items() if s != "PASSED"]
    print(p.split("/")[-1], "B/base geo27 %.3f apps %.3f max %s %.3f" % (geo(bb.values()), geo([bb[k] for k in apps]), *max(bb.items(), key=lambda x: x[1])),
          "| B/C geo %.3f >1.005:" % geo(bc.values()), " ".join("%s %.3f" % (k, r) for k, r in sorted(bc.items(), key=lambda x: -x[1]) if r > 1.005), "| not passed:", bad)
PY
