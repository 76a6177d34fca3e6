#!/usr/bin/env bash
# Twenty-first run (H200), fourth call (the final code: griddepcontrol.wait alone first in every
# kernel, every kernel launched with programmatic stream serialization):
#   - every cuda unit test and the device tests (the dependent-launch chain and the refusal of an
#     unknown FERRY_DEPENDENT_LAUNCH among them), and the chain again with FERRY_DEPENDENT_LAUNCH=0;
#   - ferry-perf against the same program run with FERRY_DEPENDENT_LAUNCH=0 (pdl/ferry-perf-unchecked,
#     a wrapper), all 27 kernels, 2 alternating rounds; ratio = on / off; base_cuda (launched with
#     <<<...>>>, unaffected) the control. The runs with them on are the suite: the minimum over the
#     2 rounds, every checksum (pdl.csv.runs/checked-*.csv).
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
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,temperature.gpu --format=csv > $out/gpu.txt 2>&1
timeout 100 bash -c "$c/ferry_unit_tests --gtest_filter='*/cuda:-*terminates*:*death*' --gtest_brief=1 && $c/ferry_device_tests --gtest_brief=1 && FERRY_DEPENDENT_LAUNCH=0 $c/ferry_device_tests --gtest_brief=1 --gtest_filter='*dependent_launches*'" > $out/tests.log 2>&1; el tests $?
timeout 330 $here/perf/scripts/bounds-cost.sh -n 2 -b $b/pdl -o $out/pdl.csv -- --backend cuda -v base_cuda,ferry_B,ferry_C > $out/pdl.log 2>&1; el "dependent launch A/B" $?
grep -E "tests ran|PASSED|FAILED|SKIPPED" $out/tests.log | head -12
tail -n 86 $out/pdl.log
