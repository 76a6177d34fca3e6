#!/usr/bin/env bash
# Twelfth run: one bounds check per stencil (view::around) on the H200: the device tests (the
# neighbourhood's trap and its in-range reads among them); the suite (checks on, 3 passes); the
# three stencil kernels again with 10 passes, side by side with base_cuda and ferry_C.
set -uo pipefail
out=${1:?out}; mkdir -p "$out"
b=bin-dir; rm -rf $b; mkdir -p $b; tar xJf "$(dirname "$0")/bins.tar.xz" -C $b
c=$b/cuda
export CUDA_MODULE_LOADING=EAGER
unset FERRY_INFO FERRY_BACKEND
t0=$(date +%s)
timeout 120 $c/ferry_device_tests --gtest_brief=1 > $out/tests.log 2>&1; echo "device tests rc=$? $(( $(date +%s) - t0 ))s"
timeout 240 $c/ferry-perf --backend cuda --npasses 3 -v base_cuda,ferry_A,ferry_B,ferry_C --csv $out/suite.csv --json $out/suite.json > $out/suite.log 2>&1; echo "suite rc=$? $(( $(date +%s) - t0 ))s"
timeout 150 $c/ferry-perf --backend cuda --npasses 10 -k VOL3D,DEL_DOT_VEC_2D,MATVEC_3D_STENCIL -v base_cuda,ferry_B,ferry_C --csv $out/stencil.csv > $out/stencil.log 2>&1; echo "stencil rc=$? $(( $(date +%s) - t0 ))s"
tail -n 3 $out/tests.log
grep -E "neighbourhood|FAILED" $out/tests.log | head
python3 perf/scripts/summarize.py $out/suite.csv | tail -34
python3 perf/scripts/summarize.py $out/stencil.csv | tail -6
