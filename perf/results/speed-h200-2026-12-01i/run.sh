#!/usr/bin/env bash
# Ninth run: the sector lead of 1D launches. Tests, the suite (3 passes), one bounds round of 2
# passes, launch bench, ncu of the one-launch kernels.
#   run.sh BIN OUT   (BIN: the CUDA build's ferry-perf, ferry-perf-unchecked, tests and benches)
set -uo pipefail
c=${1:?usage: run.sh BIN OUT}
out=${2:?OUT}; mkdir -p "$out"
export CUDA_MODULE_LOADING=EAGER
unset FERRY_INFO FERRY_BACKEND
t0=$(date +%s)
timeout 100 bash -c "$c/ferry_unit_tests --gtest_filter='*/cuda:-*terminates*:*death*' --gtest_brief=1 && $c/ferry_device_tests --gtest_brief=1" > $out/tests.log 2>&1; echo "tests rc=$? $(( $(date +%s) - t0 ))s"
timeout 200 $c/ferry-perf --backend cuda --npasses 3 -v base_cuda,ferry_A,ferry_B,ferry_C --csv $out/suite.csv --json $out/suite.json > $out/suite.log 2>&1; echo "suite rc=$? $(( $(date +%s) - t0 ))s"
timeout 150 perf/scripts/bounds-cost.sh -n 1 -b $c -o $out/bounds-cost.csv -- --backend cuda --npasses 2 -v ferry_B,ferry_C > $out/bounds.log 2>&1; echo "bounds rc=$? $(( $(date +%s) - t0 ))s"
timeout 60 $c/ferry-launch-bench --passes 20 --csv $out/launch-bench.csv > $out/launch.log 2>&1; echo "launch rc=$?"
timeout 60 ncu --metrics gpu__time_duration.sum,lts__t_sectors_srcunit_tex_op_write.sum,lts__t_sectors_srcunit_tex_op_read.sum --csv --log-file $out/ncu.csv $c/ferry-perf --backend cuda -k ADD,DAXPY,TRIAD,INIT3,HYDRO_1D,FIR -v base_cuda,ferry_B,ferry_C --reps 5 > $out/ncu.log 2>&1; echo "ncu rc=$? $(( $(date +%s) - t0 ))s"
tail -n 3 $out/tests.log
python3 perf/scripts/summarize.py $out/suite.csv | tail -34
grep -E "ferry_B" $out/bounds-cost.csv | sort -t, -k6 -rn | head -5 | cut -d, -f1,6
python3 -c "
import csv,math
r=[x for x in csv.reader(open('$out/bounds-cost.csv')) if len(x)>5 and x[1]=='ferry_B']
v=[float(x[5]) for x in r]; print('bounds geomean', len(v), round(math.exp(sum(map(math.log,v))/len(v)),4))"
