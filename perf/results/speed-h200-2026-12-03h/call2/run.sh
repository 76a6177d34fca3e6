#!/usr/bin/env bash
# Twenty-first run (H200), second call (the first version of ferry's programmatic dependent
# launches: griddepcontrol.launch_dependents, then griddepcontrol.wait, first in every kernel):
#   - every cuda unit test and the device tests (the dependent-launch chain among them), with
#     programmatic dependent launches on, and the device tests' chain again with them off;
#   - graph.cu with its pdl mode (programmatic dependent launch, hand-written), 3 runs;
#   - ferry's programmatic dependent launches: ferry-perf against the same program run with
#     FERRY_DEPENDENT_LAUNCH=0 (pdl/ferry-perf-unchecked, a wrapper), all 27 kernels, 3 alternating
#     rounds; ratio = on / off; base_cuda (launched with <<<...>>>, unaffected) the control
#   (the A/B's runs with them on are the suite: the minimum over its 3 rounds, every checksum).
# bins.tar.xz: cuda/ the CUDA build with programmatic dependent launches (ferry-perf,
# ferry_unit_tests, ferry_device_tests).
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
timeout 100 bash -c "$c/ferry_unit_tests --gtest_filter='*/cuda:-*terminates*:*death*' --gtest_brief=1 && $c/ferry_device_tests --gtest_brief=1 && FERRY_DEPENDENT_LAUNCH=0 $c/ferry_device_tests --gtest_brief=1 --gtest_filter='*dependent*'" > $out/tests.log 2>&1; el tests $?
for r in 1 2 3; do echo "== run $r"; timeout 60 $b/graph; done > $out/graph.log 2>&1; el graph $?
timeout 330 $here/perf/scripts/bounds-cost.sh -n 3 -b $b/pdl -o $out/pdl.csv -- --backend cuda -v base_cuda,ferry_B,ferry_C > $out/pdl.log 2>&1; el "dependent launch A/B" $?
grep -E "tests ran|PASSED|FAILED|SKIPPED" $out/tests.log | head -12
cat $out/graph.log
tail -n 40 $out/pdl.log
