#!/usr/bin/env bash
# Eleventh run: the GPU grid limits (front end and device), the raw launch shape check, on the
# H200: the new grid tests on cuda, the largest 1D grid the front end passes, every cuda unit
# test and the device tests; the suite (checks on, 3 passes); the launch bench; the reduce bench
# three times back to back (ferry::sum against CUB, the 1e4-1e6 spread).
set -uo pipefail
out=${1:?out}; mkdir -p "$out"
b=bin-dir; rm -rf $b; mkdir -p $b; tar xJf bins.tar.xz -C $b
c=$b/cuda
export CUDA_MODULE_LOADING=EAGER
unset FERRY_INFO FERRY_BACKEND
t0=$(date +%s)
timeout 120 bash -c "$c/ferry_unit_tests --gtest_filter='*grid*' --gtest_brief=1 && $c/ferry_device_tests --gtest_filter='*largest*'" > $out/grid-tests.log 2>&1; echo "grid tests rc=$? $(( $(date +%s) - t0 ))s"
timeout 200 bash -c "$c/ferry_unit_tests --gtest_filter='*/cuda:-*terminates*:*death*' --gtest_brief=1 && $c/ferry_device_tests --gtest_brief=1" > $out/tests.log 2>&1; echo "tests rc=$? $(( $(date +%s) - t0 ))s"
timeout 220 $c/ferry-perf --backend cuda --npasses 3 -v base_cuda,ferry_A,ferry_B,ferry_C --csv $out/suite.csv --json $out/suite.json > $out/suite.log 2>&1; echo "suite rc=$? $(( $(date +%s) - t0 ))s"
timeout 40 $c/ferry-launch-bench --passes 20 --csv $out/launch-bench.csv > $out/launch.log 2>&1; echo "launch rc=$?"
for k in 1 2 3; do
  timeout 60 $c/ferry-reduce-bench --passes 5 --csv $out/reduce-$k.csv > $out/reduce-$k.log 2>&1; echo "reduce $k rc=$? $(( $(date +%s) - t0 ))s"
done
tail -n 4 $out/grid-tests.log
tail -n 3 $out/tests.log
python3 perf/scripts/summarize.py $out/suite.csv | tail -34
tail -n 8 $out/launch.log
for k in 1 2 3; do tail -n 10 $out/reduce-$k.log; done
