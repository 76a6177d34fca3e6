#!/usr/bin/env bash
# Twenty-second run (H200), third call:
#   - the device tests built WITHOUT griddepcontrol.wait in the kernels' prologue (a diagnostic
#     build of the same commit, nowait/ferry_device_tests): the two dependent-launch tests must
#     fail with dependent launches on, and pass with FERRY_DEPENDENT_LAUNCH=0 (the stream's usual
#     order). Shows that the tests catch a missing wait;
#   - the one-launch kernels (Stream, DAXPY, HYDRO_1D) with dependent launches on and off
#     (FERRY_DEPENDENT_LAUNCH=0), 5 passes each, base_cuda, ferry_B and ferry_C: does ferry_B
#     trail ferry_C by as much without them?
# bins.tar.xz: cuda/ ferry-perf (call2's); nowait/ ferry_device_tests.
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
timeout 60 $b/nowait/ferry_device_tests --gtest_filter='*dependent_launch*:-*death*' > $out/nowait-on.log 2>&1; el "no wait, dependent launches on" $?
FERRY_DEPENDENT_LAUNCH=0 timeout 60 $b/nowait/ferry_device_tests --gtest_filter='*dependent_launch*:-*death*' > $out/nowait-off.log 2>&1; el "no wait, dependent launches off" $?
for r in 1 2; do
  timeout 60 $c/ferry-perf --backend cuda --npasses 5 -k Stream,DAXPY,HYDRO_1D -v base_cuda,ferry_B,ferry_C --csv $out/on-$r.csv > $out/on-$r.log 2>&1; el "on $r" $?
  FERRY_DEPENDENT_LAUNCH=0 timeout 60 $c/ferry-perf --backend cuda --npasses 5 -k Stream,DAXPY,HYDRO_1D -v base_cuda,ferry_B,ferry_C --csv $out/off-$r.csv > $out/off-$r.log 2>&1; el "off $r" $?
done
grep -E "OK|FAILED|Failure|Expected|Which is|rep " $out/nowait-on.log | head -20
grep -E "PASSED|FAILED" $out/nowait-off.log | head -5
for f in $out/on-2.log $out/off-2.log; do echo "== $f"; grep -A12 "^Kernel" $f; done
