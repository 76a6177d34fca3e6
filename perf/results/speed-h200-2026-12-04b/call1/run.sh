#!/usr/bin/env bash
# Twenty-fifth run (H200), first call:
#   - every cuda unit test and device test, on the first build whose resident copies keep the
#     host address modulo max(16, element alignment) and start near a 256-byte boundary, with
#     the alignment refusal checked per launch on every backend;
#   - the suite, all 27 kernels, 5 passes (minimum and median per rep), warmup on, checks on,
#     base_cuda, ferry_B and ferry_C: the prediction of perf/NOTES.md ("Resident copies on
#     sector boundaries again") against the twenty-third run's suite;
#   - perf/scripts/phase_probe.cu with --graph 1 (each form's reps captured once into a CUDA
#     graph and replayed: the device's time alone) at 1M and 10M elements, and without graphs
#     at --reps 5000 (1M): which of the twenty-fourth run's two readings holds.
# bins.tar.xz: cuda/ the CUDA build (ferry-perf, ferry_unit_tests, ferry_device_tests,
# phase_probe).
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
timeout 170 bash -c "$c/ferry_unit_tests --gtest_filter='*/cuda:-*terminates*:*death*' --gtest_brief=1; $c/ferry_device_tests --gtest_brief=1" > $out/tests.log 2>&1; el tests $?
timeout 250 $c/ferry-perf --backend cuda --npasses 5 -v base_cuda,ferry_B,ferry_C --csv $out/suite.csv --json $out/suite.json > $out/suite.log 2>&1; el suite $?
timeout 40 $c/phase_probe --graph 1 > $out/graph-1m.log 2>&1; el "graph 1M" $?
timeout 40 $c/phase_probe --graph 1 --n 10000000 --reps 100 > $out/graph-10m.log 2>&1; el "graph 10M" $?
timeout 60 $c/phase_probe --reps 5000 > $out/reps5000-1m.log 2>&1; el "5000 reps 1M" $?
grep -E "tests ran|PASSED|FAILED|SKIPPED" $out/tests.log | head -14
for f in $out/graph-*.log $out/reps5000-*.log; do echo "== $(basename $f)"; tail -n 12 $f; done
tail -n 36 $out/suite.log
