#!/usr/bin/env bash
# Thirteenth run: the stencil tests on the H200 (every cuda unit test, the device tests), the
# reduce bench's paired ratio (ferry::sum / CUB, slices alternating) three times back to back,
# and the launch bench.
set -uo pipefail
out=${1:?out}; mkdir -p "$out"
b=bin-dir; rm -rf $b; mkdir -p $b; tar xJf "$(dirname "$0")/bins.tar.xz" -C $b
c=$b/cuda
export CUDA_MODULE_LOADING=EAGER
unset FERRY_INFO FERRY_BACKEND
t0=$(date +%s)
timeout 200 bash -c "$c/ferry_unit_tests --gtest_filter='*/cuda:-*terminates*:*death*' --gtest_brief=1 && $c/ferry_device_tests --gtest_brief=1" > $out/tests.log 2>&1; echo "tests rc=$? $(( $(date +%s) - t0 ))s"
timeout 60 $c/ferry_unit_tests --gtest_filter='*stencil*/cuda' > $out/stencil-tests.log 2>&1; echo "stencil tests rc=$?"
for k in 1 2 3; do
  timeout 90 $c/ferry-reduce-bench --passes 5 --csv $out/reduce-$k.csv > $out/reduce-$k.log 2>&1; echo "reduce $k rc=$? $(( $(date +%s) - t0 ))s"
done
timeout 40 $c/ferry-launch-bench --passes 20 --csv $out/launch-bench.csv > $out/launch.log 2>&1; echo "launch rc=$?"
tail -n 3 $out/tests.log
grep -E "OK|FAILED" $out/stencil-tests.log | head -8
for k in 1 2 3; do tail -n 10 $out/reduce-$k.log; done
tail -n 8 $out/launch.log
