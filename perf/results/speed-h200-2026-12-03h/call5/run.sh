#!/usr/bin/env bash
# Twenty-first run (H200), fifth call (final code):
#   - every cuda unit test and the device tests (the two dependent-launch tests and the refusal of
#     an unknown FERRY_DEPENDENT_LAUNCH among them), and the two dependent-launch tests again with
#     FERRY_DEPENDENT_LAUNCH=0;
#   - the reductions and ADD: ferry-perf against the ferry-perf of a663c01 (before this run's
#     changes; old/ferry-perf-unchecked), 3 alternating rounds; ratio = now / before.
# bins.tar.xz: cuda/ the CUDA build (ferry-perf, ferry_unit_tests, ferry_device_tests).
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
timeout 100 bash -c "$c/ferry_unit_tests --gtest_filter='*/cuda:-*terminates*:*death*' --gtest_brief=1; $c/ferry_device_tests --gtest_brief=1; FERRY_DEPENDENT_LAUNCH=0 $c/ferry_device_tests --gtest_brief=1 --gtest_filter='*dependent_launch*:-*death*'" > $out/tests.log 2>&1; el tests $?
timeout 120 $here/perf/scripts/bounds-cost.sh -n 3 -b $b/old -o $out/old.csv -- --backend cuda -k PI_REDUCE,TRAP_INT,REDUCE3_INT,DOT,ADD -v base_cuda,ferry_B,ferry_C > $out/old.log 2>&1; el "now / before" $?
grep -E "tests ran|PASSED|FAILED|SKIPPED" $out/tests.log | head -14
tail -n 22 $out/old.log
