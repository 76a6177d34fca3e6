#!/usr/bin/env bash
# Twentieth run (H200), second call, on the final code of this run (bins.tar.xz: cuda/ the CUDA
# build of 6a39c0b): every cuda unit test (among them the read-only arguments of a ferry::array,
# which copy nothing back) and the device tests; the suite once (checks on, 3 passes, every
# checksum). Results go into OUT and are packed into PACK after each step.
set -uo pipefail
out=${1:?out}; pack=${2:?pack}; mkdir -p "$out"
here=$(cd "$(dirname "$0")" && pwd)
b=bin-dir; rm -rf $b; mkdir -p $b; tar xJf "$here/bins.tar.xz" -C $b
c=$b/cuda
export CUDA_MODULE_LOADING=EAGER
unset FERRY_INFO FERRY_BACKEND
t0=$(date +%s)
el() {
  echo "$1 rc=$2 $(( $(date +%s) - t0 ))s" | tee -a $out/steps.log
  tar czf "$pack" -C "$(dirname "$out")" "$(basename "$out")"
}
timeout 100 bash -c "$c/ferry_unit_tests --gtest_filter='*/cuda:-*terminates*:*death*' --gtest_brief=1 && $c/ferry_device_tests --gtest_brief=1" > $out/tests.log 2>&1; el tests $?
timeout 170 $c/ferry-perf --backend cuda --npasses 3 -v base_cuda,ferry_B,ferry_C --csv $out/suite.csv --json $out/suite.json > $out/suite.log 2>&1; el suite $?
grep -E "tests ran|PASSED|FAILED|SKIPPED" $out/tests.log | head -8
$c/ferry_unit_tests --gtest_filter='*elementwise_read*/cuda' 2>&1 | grep -E "^\[ +(OK|FAILED|SKIPPED) +\]" | tee $out/elementwise-read.log | grep -oE "(OK|FAILED|SKIPPED)" | sort | uniq -c
echo "suite PASSED $(grep -c PASSED $out/suite.log) FAILED $(grep -c FAILED $out/suite.log)"
python3 $here/perf/scripts/summarize.py $out/suite.csv | tail -31
