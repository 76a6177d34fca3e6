#!/usr/bin/env bash
# Eighteenth run, part B: the final code (fixed tile shapes with the attack's message fixes,
# <complex> and <chrono> out of the headers, LTIMES asking for 2 resident tiles): every cuda
# unit test, the device tests, the suite twice (checks on, 3 passes, every checksum), what the
# bounds checks cost in the kernels that changed, and the block kernels with and without the
# local-index assumption (ferry-perf against a ferry-perf whose block-launch files were compiled
# with block.hpp's FERRY_ASSUME lines removed, run as bounds-cost.sh's second program).
set -uo pipefail
out=${1:?out}; mkdir -p "$out"
here=$(cd "$(dirname "$0")" && pwd)
b=bin-dir; rm -rf $b; mkdir -p $b; tar xJf "$here/bins.tar.xz" -C $b
c=$b/cuda
cp $c/ferry-perf $b/noas/ferry-perf
export CUDA_MODULE_LOADING=EAGER
unset FERRY_INFO FERRY_BACKEND
t0=$(date +%s)
timeout 120 bash -c "$c/ferry_unit_tests --gtest_filter='*/cuda:-*terminates*:*death*' --gtest_brief=1 && $c/ferry_device_tests --gtest_brief=1" > $out/tests.log 2>&1; echo "tests rc=$? $(( $(date +%s) - t0 ))s"
BK=MASS3DPA,DIFFUSION3DPA,CONVECTION3DPA,LTIMES,LTIMES_NOVIEW,MAT_MAT_SHARED
timeout 90 $here/perf/scripts/bounds-cost.sh -n 3 -b $b/noas -o $out/assume.csv -- --backend cuda -k $BK -v base_cuda,ferry_B,ferry_C > $out/assume.log 2>&1; echo "assume rc=$? $(( $(date +%s) - t0 ))s"
timeout 90 $here/perf/scripts/bounds-cost.sh -n 3 -b $c -o $out/bounds-cost.csv -- --backend cuda -k $BK,FIR -v base_cuda,ferry_B,ferry_C > $out/bounds-cost.log 2>&1; echo "bounds cost rc=$? $(( $(date +%s) - t0 ))s"
for r in 1 2; do
  timeout 200 $c/ferry-perf --backend cuda --npasses 3 -v base_cuda,ferry_B,ferry_C --csv $out/suite-$r.csv --json $out/suite-$r.json > $out/suite-$r.log 2>&1; echo "suite $r rc=$? $(( $(date +%s) - t0 ))s"
done
grep -E "tests ran|PASSED|FAILED|SKIPPED" $out/tests.log | head -8
echo "suite PASSED $(cat $out/suite-*.log | grep -c PASSED) FAILED $(cat $out/suite-*.log | grep -c FAILED)"
tail -n 24 $out/assume.log
tail -n 26 $out/bounds-cost.log
python3 $here/perf/scripts/summarize.py $out/suite-1.csv | tail -31
python3 $here/perf/scripts/summarize.py $out/suite-2.csv | tail -31
