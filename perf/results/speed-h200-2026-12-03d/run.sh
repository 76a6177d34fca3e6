#!/usr/bin/env bash
# Eighteenth run: whole tiles (tiles3d<1, 1, d1> in the partial-assembly finishes), the block
# shape assumed in block kernels, and the subview check that folds: every cuda unit test, the
# device tests, the examples, the suite twice (checks on, 3 passes, every checksum), the
# partial-assembly kernels at --size 8e6, what the bounds checks cost in the kernels that
# changed, device time of the partial-assembly kernels under ncu, and HYDRO_2D under ncu without
# cache flushes (the hot-cache gap of the seventeenth run).
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
PA=MASS3DPA,DIFFUSION3DPA,CONVECTION3DPA
timeout 100 $c/ferry-perf --backend cuda -k $PA --size 8000000 --repfact 0.2 --npasses 2 -v base_cuda,ferry_A,ferry_B,ferry_C --csv $out/pa-8e6.csv > $out/pa-8e6.log 2>&1; echo "pa 8e6 rc=$? $(( $(date +%s) - t0 ))s"
for r in 1 2; do
  timeout 150 $c/ferry-perf --backend cuda --npasses 3 -v base_cuda,ferry_A,ferry_B,ferry_C --csv $out/suite-$r.csv --json $out/suite-$r.json > $out/suite-$r.log 2>&1; echo "suite $r rc=$? $(( $(date +%s) - t0 ))s"
done
timeout 100 $here/perf/scripts/bounds-cost.sh -n 3 -b $c -o $out/bounds-cost.csv -- --backend cuda -k $PA,LTIMES,LTIMES_NOVIEW,FIR -v base_cuda,ferry_B,ferry_C > $out/bounds-cost.log 2>&1; echo "bounds cost rc=$? $(( $(date +%s) - t0 ))s"
timeout 60 ncu --csv --metrics gpu__time_duration.sum,launch__registers_per_thread,smsp__inst_executed.sum \
  $c/ferry-perf --backend cuda -k $PA -v base_cuda,ferry_B,ferry_C --reps 3 > $out/ncu-pa.csv 2> $out/ncu-pa.err; echo "ncu pa rc=$? $(( $(date +%s) - t0 ))s"
timeout 60 ncu --csv --cache-control none --metrics gpu__time_duration.sum,lts__t_sector_hit_rate.pct,dram__bytes_read.sum,dram__bytes_write.sum,launch__grid_size,launch__block_size \
  $c/ferry-perf --backend cuda -k HYDRO_2D,DEL_DOT_VEC_2D -v base_cuda,ferry_B,ferry_C --reps 3 > $out/ncu-hot.csv 2> $out/ncu-hot.err; echo "ncu hot rc=$? $(( $(date +%s) - t0 ))s"
grep -E "tests ran|PASSED|FAILED|SKIPPED" $out/tests.log | head -8
echo "suite PASSED $(cat $out/suite-*.log | grep -c PASSED) FAILED $(cat $out/suite-*.log | grep -c FAILED); pa-8e6 PASSED $(grep -c PASSED $out/pa-8e6.log) FAILED $(grep -c -E 'FAILED|ERROR' $out/pa-8e6.log)"
python3 $here/perf/scripts/summarize.py $out/pa-8e6.csv | grep -E "Apps_|geomean"
tail -n 14 $out/bounds-cost.log
python3 $here/perf/scripts/summarize.py $out/suite-1.csv | tail -31
python3 $here/perf/scripts/summarize.py $out/suite-2.csv | tail -31
