#!/usr/bin/env bash
# Twenty-third run (H200), first call:
#   - every cuda unit test (the held mapping's and the fast checks' host tests among them) and
#     the device tests: the first run of the held mapping, which only a device backend takes;
#   - ferry-launch-bench (host enqueue and loop time per launch, ferry::launch against
#     ferry::unsafe::launch and a hand-written launch, 1, 4 and 16 arrays);
#   - the suite, all 27 kernels, 5 passes (minimum and median per rep), warmup on, base_cuda,
#     ferry_B and ferry_C.
# bins.tar.xz: cuda/ the CUDA build (ferry-perf, ferry_unit_tests, ferry_device_tests,
# ferry-launch-bench).
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
timeout 150 bash -c "$c/ferry_unit_tests --gtest_filter='*/cuda:held_mapping*:fast_checks*:-*terminates*:*death*' --gtest_brief=1; $c/ferry_device_tests --gtest_brief=1" > $out/tests.log 2>&1; el tests $?
timeout 90 $c/ferry-launch-bench --csv $out/launch.csv > $out/launch.log 2>&1; el launch-bench $?
timeout 290 $c/ferry-perf --backend cuda --npasses 5 -v base_cuda,ferry_B,ferry_C --csv $out/suite.csv --json $out/suite.json > $out/suite.log 2>&1; el suite $?
grep -E "tests ran|PASSED|FAILED|SKIPPED" $out/tests.log | head -14
tail -n 14 $out/launch.log
tail -n 36 $out/suite.log
