#!/usr/bin/env bash
# Tenth run, part B: the final kernels (aligned host arrays; launch bounds in the library, none in
# the suite). The lead, alignment and launch-bounds tests on the GPU first, then every cuda unit
# test and the device tests, the suite (3 passes), the launch and reduce benches.
set -uo pipefail
out=${1:?out}; mkdir -p "$out"
b=bin-dir; rm -rf $b; mkdir -p $b; tar xJf bins.tar.xz -C $b
c=$b/cuda
export CUDA_MODULE_LOADING=EAGER
unset FERRY_INFO FERRY_BACKEND
t0=$(date +%s)
timeout 150 $c/ferry_unit_tests --gtest_filter='*lead*/cuda:*aligned*/cuda:*modulo_256*/cuda:*launch_bounds*/cuda:*launch_bounds*' --gtest_brief=1 > $out/new-tests.log 2>&1; echo "lead, alignment, launch-bounds tests rc=$? $(( $(date +%s) - t0 ))s"
timeout 150 bash -c "$c/ferry_unit_tests --gtest_filter='*/cuda:-*terminates*:*death*' --gtest_brief=1 && $c/ferry_device_tests --gtest_brief=1" > $out/tests.log 2>&1; echo "tests rc=$? $(( $(date +%s) - t0 ))s"
timeout 220 $c/ferry-perf --backend cuda --npasses 3 -v base_cuda,ferry_A,ferry_B,ferry_C --csv $out/suite.csv --json $out/suite.json > $out/suite.log 2>&1; echo "suite rc=$? $(( $(date +%s) - t0 ))s"
timeout 40 $c/ferry-launch-bench --passes 20 --csv $out/launch-bench.csv > $out/launch.log 2>&1; echo "launch rc=$?"
timeout 60 $c/ferry-reduce-bench --passes 5 --csv $out/reduce.csv > $out/reduce.log 2>&1; echo "reduce rc=$? $(( $(date +%s) - t0 ))s"
tail -n 3 $out/new-tests.log
tail -n 3 $out/tests.log
python3 perf/scripts/summarize.py $out/suite.csv | tail -34
tail -n 8 $out/launch.log
tail -n 12 $out/reduce.log
