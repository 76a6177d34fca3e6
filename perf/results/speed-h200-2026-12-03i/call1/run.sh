#!/usr/bin/env bash
# Twenty-second run (H200), first call:
#   - every cuda unit test and the device tests (the early-trigger dependent-launch test with its
#     fixed reset, and the new refused-launch test among them); the dependent-launch tests and the
#     refused-launch test again with FERRY_DEPENDENT_LAUNCH=0;
#   - ferry-perf's warmup: the reductions and some one-launch kernels with the default warmup
#     against --warmup-disable (warm/ wrappers of one binary), 3 alternating rounds;
#     ratio = with / without;
#   - the suite, all 27 kernels, 5 passes (minimum and median per rep), warmup on;
#   - ferry-launch-bench (host enqueue and loop time per launch).
# bins.tar.xz: cuda/ the CUDA build (ferry-perf, ferry_unit_tests, ferry_device_tests,
# ferry-launch-bench); warm/ the two wrappers.
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
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,temperature.gpu --format=csv > $out/gpu.txt 2>&1
timeout 120 bash -c "$c/ferry_unit_tests --gtest_filter='*/cuda:-*terminates*:*death*' --gtest_brief=1; $c/ferry_device_tests --gtest_brief=1; FERRY_DEPENDENT_LAUNCH=0 $c/ferry_device_tests --gtest_brief=1 --gtest_filter='*dependent_launch*:*driver_refuses*:-*death*'" > $out/tests.log 2>&1; el tests $?
timeout 150 $here/perf/scripts/bounds-cost.sh -n 3 -b $b/warm -o $out/warm.csv -- --backend cuda -k PI_REDUCE,TRAP_INT,REDUCE3_INT,DOT,DAXPY,ADD,TRIAD -v base_cuda,ferry_B,ferry_C > $out/warm.log 2>&1; el "warmup A/B" $?
timeout 300 $c/ferry-perf --backend cuda --npasses 5 -v base_cuda,ferry_A,ferry_B,ferry_C --csv $out/suite.csv --json $out/suite.json > $out/suite.log 2>&1; el suite $?
timeout 90 $c/ferry-launch-bench --csv $out/launch.csv > $out/launch.log 2>&1; el launch-bench $?
grep -E "tests ran|PASSED|FAILED|SKIPPED" $out/tests.log | head -14
tail -n 24 $out/warm.log
tail -n 40 $out/suite.log
tail -n 14 $out/launch.log
