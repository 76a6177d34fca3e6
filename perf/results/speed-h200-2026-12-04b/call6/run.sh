#!/usr/bin/env bash
# Twenty-fifth run (H200), sixth call: the build whose safe kernel waits for its predecessor
# after its range check (run_1d, run_2d, run_3d):
#   - every cuda unit test and device test, the device tests also with
#     FERRY_DEPENDENT_LAUNCH=0 (the early-trigger test guards the wait);
#   - phase_probe, stream mode (500 and 5000 reps) and graph mode, 1M elements;
#   - the suite twice, 27 kernels, 5 passes each, checks on, base_cuda, ferry_B, ferry_C.
# bins.tar.xz: cuda/ (ferry-perf, ferry_unit_tests, ferry_device_tests, phase_probe).
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
timeout 170 bash -c "$c/ferry_unit_tests --gtest_filter='*/cuda:-*terminates*:*death*' --gtest_brief=1; $c/ferry_device_tests --gtest_brief=1; echo '== FERRY_DEPENDENT_LAUNCH=0'; FERRY_DEPENDENT_LAUNCH=0 $c/ferry_device_tests --gtest_brief=1" > $out/tests.log 2>&1; el tests $?
timeout 40 $c/phase_probe > $out/stream-1m.log 2>&1; el "stream 1M" $?
timeout 60 $c/phase_probe --reps 5000 > $out/stream-1m-5000.log 2>&1; el "stream 1M 5000" $?
timeout 40 $c/phase_probe --graph 1 > $out/graph-1m.log 2>&1; el "graph 1M" $?
timeout 230 $c/ferry-perf --backend cuda --npasses 5 -v base_cuda,ferry_B,ferry_C --csv $out/suite.csv --json $out/suite.json > $out/suite.log 2>&1; el suite $?
timeout 230 $c/ferry-perf --backend cuda --npasses 5 -v base_cuda,ferry_B,ferry_C --csv $out/suite2.csv > $out/suite2.log 2>&1; el suite2 $?
grep -E "tests ran|PASSED|FAILED|SKIPPED|^==" $out/tests.log | head -14
for f in $out/stream-*.log $out/graph-*.log; do echo "== $(basename $f)"; grep -A10 "^form" $f | cut -c1-56; done
python3 - $out/suite.csv $out/suite2.csv <<'PY'
import csv, sys, math
for p in sys.argv[1:]:
    d = {}
    for r in csv.DictReader(open(p)):
        d.setdefault(r["kernel"], {})[r["variant"]] = float(r["time_per_rep_s"])
    bc = {k: v["ferry_B"] / v["ferry_C"] for k, v in d.items() if "ferry_C" in v}
    bb = [v["ferry_B"] / v["base_cuda"] for v in d.values()]
    print(p.split("/")[-1], "geomean B/base %.3f" % math.exp(sum(map(math.log, bb)) / len(bb)),
          "B/C>1.005:", " ".join("%s %.3f" % (k.split("_", 1)[1], r) for k, r in sorted(bc.items(), key=lambda x: -x[1]) if r > 1.005))
PY
