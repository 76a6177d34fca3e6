#!/usr/bin/env bash
# Sixteenth run, part C: the binaries of the final code (launches read every argument once;
# ferry::around in HYDRO_2D; VOL3D back on view::around): every cuda unit test, the device tests,
# the examples on cuda, and the suite (checks on, 3 passes, every checksum).
set -uo pipefail
out=${1:?out}; mkdir -p "$out"
here=$(cd "$(dirname "$0")" && pwd)
b=bin-dir; rm -rf $b; mkdir -p $b; tar xJf "$here/bins.tar.xz" -C $b
c=$b/cuda
export CUDA_MODULE_LOADING=EAGER
unset FERRY_INFO FERRY_BACKEND
t0=$(date +%s)
timeout 240 bash -c "$c/ferry_unit_tests --gtest_filter='*/cuda:-*terminates*:*death*' --gtest_brief=1 && $c/ferry_device_tests --gtest_brief=1" > $out/tests.log 2>&1; echo "tests rc=$? $(( $(date +%s) - t0 ))s"
for e in $c/ferry_example_*; do FERRY_BACKEND=cuda timeout 30 $e > $out/$(basename $e).log 2>&1; echo "$(basename $e) rc=$?"; done
timeout 300 $c/ferry-perf --backend cuda --npasses 3 -v base_cuda,ferry_A,ferry_B,ferry_C --csv $out/suite.csv --json $out/suite.json > $out/suite.log 2>&1; echo "suite rc=$? $(( $(date +%s) - t0 ))s"
grep -E "tests ran|PASSED|FAILED|SKIPPED" $out/tests.log | head -8
grep -c PASSED $out/suite.log; grep -c FAILED $out/suite.log
python3 $here/perf/scripts/summarize.py $out/suite.csv | tail -34
