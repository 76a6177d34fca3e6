#!/usr/bin/env bash
# Twentieth run (H200), one call:
#   - every cuda unit test (the read-only elementwise's among them) and the device tests;
#   - the read-only elementwise (ferry::elementwise(std::as_const(v))) in the Stream and Basic
#     kernels: ferry-perf against the previous commit's ferry-perf (prev/, run as bounds-cost.sh's
#     second program, 3 alternating rounds; ratio = with / without; base_cuda the control);
#   - the partial-assembly finishes that read their column before writing it (pa_add_column):
#     ferry-perf against one whose three partial-assembly ferry files come from the tree before
#     that change (oldpa/, link-oldpa.sh), 3 alternating rounds;
#   - where the L2-resident kernels' gap lives: ncu at the GPU's own clocks without flushing the
#     caches between kernels (as in the suite, where each kernel reads what the one before left in
#     L2): device time, instructions, L2 hit rate, the L1's global load and store sectors and DRAM
#     reads of ADD, HYDRO_2D and DEL_DOT_VEC_2D, one process per kernel and variant, 5 reps;
#   - the suite once (checks on, 3 passes, every checksum).
# bins.tar.xz: cuda/ the CUDA build of 5a3a9f6 (ferry-perf, ferry_unit_tests, ferry_device_tests);
# prev/ferry-perf-unchecked the ferry-perf of d271b8c; oldpa/ferry-perf-unchecked link-oldpa.sh's
# program (d271b8c with the partial-assembly files of 898a5eb).
# Results go into OUT as they come; after each step OUT is packed into PACK (one file, so that
# what is done survives a run stopped at its limit).
set -uo pipefail
out=${1:?out}; pack=${2:?pack}; mkdir -p "$out"
here=$(cd "$(dirname "$0")" && pwd)
b=bin-dir; rm -rf $b; mkdir -p $b; tar xJf "$here/bins.tar.xz" -C $b
c=$b/cuda
export CUDA_MODULE_LOADING=EAGER
unset FERRY_INFO FERRY_BACKEND
t0=$(date +%s)
el() {
  echo "$1 rc=$2 $(( $(date +%s) - t0 ))s" | tee -a $out/steps.log
  tar czf "$pack" -C "$(dirname "$out")" "$(basename "$out")"
}
timeout 100 bash -c "$c/ferry_unit_tests --gtest_filter='*/cuda:-*terminates*:*death*' --gtest_brief=1 && $c/ferry_device_tests --gtest_brief=1" > $out/tests.log 2>&1; el tests $?
cp $c/ferry-perf $b/prev/ferry-perf; cp $c/ferry-perf $b/oldpa/ferry-perf
K=ADD,COPY,MUL,TRIAD,DOT,DAXPY,INIT3,MULADDSUB,IF_QUAD,REDUCE3_INT,HYDRO_2D
timeout 120 $here/perf/scripts/bounds-cost.sh -n 3 -b $b/prev -o $out/ro.csv -- --backend cuda -k $K -v base_cuda,ferry_B,ferry_C > $out/ro.log 2>&1; el "read-only elementwise A/B" $?
timeout 100 $here/perf/scripts/bounds-cost.sh -n 3 -b $b/oldpa -o $out/pa.csv -- --backend cuda -k MASS3DPA,DIFFUSION3DPA,CONVECTION3DPA -v base_cuda,ferry_B,ferry_C > $out/pa.log 2>&1; el "pa A/B" $?
m=gpu__time_duration.sum,smsp__inst_executed.sum,lts__t_sector_hit_rate.pct,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,dram__bytes_read.sum
for k in ADD HYDRO_2D DEL_DOT_VEC_2D; do
  for v in base_cuda ferry_B ferry_C; do
    timeout 25 ncu --csv --cache-control none --clock-control none --metrics $m \
      $c/ferry-perf --backend cuda -k $k -v $v --reps 5 --npasses 1 > $out/ncu-$k-$v.csv 2> $out/ncu-$k-$v.err; el "ncu $k $v" $?
  done
done
timeout 170 $c/ferry-perf --backend cuda --npasses 3 -v base_cuda,ferry_B,ferry_C --csv $out/suite.csv --json $out/suite.json > $out/suite.log 2>&1; el suite $?
grep -E "tests ran|PASSED|FAILED|SKIPPED" $out/tests.log | head -8
echo "suite PASSED $(grep -c PASSED $out/suite.log) FAILED $(grep -c FAILED $out/suite.log)"
tail -n 34 $out/ro.log
tail -n 12 $out/pa.log
python3 $here/perf/scripts/summarize.py $out/suite.csv | tail -31
