#!/usr/bin/env bash
# Seventeenth run, part B: the final code (the multi-array ferry::around in VOL3D, DEL_DOT_VEC_2D
# and MATVEC_3D_STENCIL; block launches past 65535 blocks along k): every cuda unit test, the
# device tests, the examples on cuda, the suite (checks on, 3 passes, every checksum), and the
# partial-assembly kernels at --size 8e6 (past 65535 elements).
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
timeout 100 $c/ferry-perf --backend cuda -k MASS3DPA,DIFFUSION3DPA,CONVECTION3DPA --size 8000000 --repfact 0.2 --npasses 2 -v base_cuda,ferry_A,ferry_B,ferry_C --csv $out/pa-8e6.csv > $out/pa-8e6.log 2>&1; echo "pa 8e6 rc=$? $(( $(date +%s) - t0 ))s"
timeout 280 $c/ferry-perf --backend cuda --npasses 3 -v base_cuda,ferry_A,ferry_B,ferry_C --csv $out/suite.csv --json $out/suite.json > $out/suite.log 2>&1; echo "suite rc=$? $(( $(date +%s) - t0 ))s"
grep -E "tests ran|PASSED|FAILED|SKIPPED" $out/tests.log | head -8
echo "suite PASSED $(grep -c PASSED $out/suite.log) FAILED $(grep -c FAILED $out/suite.log); pa-8e6 PASSED $(grep -c PASSED $out/pa-8e6.log) FAILED $(grep -c -E 'FAILED|ERROR' $out/pa-8e6.log)"
python3 $here/perf/scripts/summarize.py $out/pa-8e6.csv | grep -E "Apps_|geomean"
python3 $here/perf/scripts/summarize.py $out/suite.csv | tail -34
