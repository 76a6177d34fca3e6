#!/usr/bin/env bash
# Nineteenth run: restrict parameters for the block and reduction kernels.
#   part 1: every cuda unit test and the device tests; the kernels that changed (block launches,
#           reductions) with and without restrict (ferry-perf against a ferry-perf whose block and
#           reduction ferry files were compiled with the previous headers: link-norestrict.sh,
#           run as bounds-cost.sh's second program, 3 alternating rounds); the suite twice
#           (checks on, 3 passes, every checksum); ferry-reduce-bench once.
#   part 2 (the final code: block kernels without restrict again): what the bounds checks cost
#           over all 27 kernels (3 alternating rounds); DEL_DOT_VEC_2D, HYDRO_2D and ADD at three
#           sizes (is their gap a fixed cost per launch?); MASS3DPA under ncu at the GPU's own
#           clocks, checked and unchecked (where do ferry_B's 8 % over ferry_C go?), and the SASS
#           of its kernels.
#   part 4 (the final code: the bounce slots reverted): the partial-assembly kernels whose ferry
#           finishes read their column before writing it, against part 2's ferry-perf (run as
#           bounds-cost.sh's second program, 3 alternating rounds); the suite once.
set -uo pipefail
part=${1:?part}; out=${2:?out}; mkdir -p "$out"
here=$(cd "$(dirname "$0")" && pwd)
b=bin-dir; rm -rf $b; mkdir -p $b; tar xJf "$here/bins.tar.xz" -C $b
c=$b/cuda
export CUDA_MODULE_LOADING=EAGER
unset FERRY_INFO FERRY_BACKEND
t0=$(date +%s)
if [[ $part == 1 ]]; then
  cp $c/ferry-perf $b/norestrict/ferry-perf
  timeout 150 bash -c "$c/ferry_unit_tests --gtest_filter='*/cuda:-*terminates*:*death*' --gtest_brief=1 && $c/ferry_device_tests --gtest_brief=1" > $out/tests.log 2>&1; echo "tests rc=$? $(( $(date +%s) - t0 ))s"
  K=MASS3DPA,DIFFUSION3DPA,CONVECTION3DPA,LTIMES,LTIMES_NOVIEW,MAT_MAT_SHARED,DOT,PI_REDUCE,REDUCE3_INT,TRAP_INT
  timeout 100 $here/perf/scripts/bounds-cost.sh -n 3 -b $b/norestrict -o $out/restrict.csv -- --backend cuda -k $K -v base_cuda,ferry_B,ferry_C > $out/restrict.log 2>&1; echo "restrict rc=$? $(( $(date +%s) - t0 ))s"
  for r in 1 2; do
    timeout 200 $c/ferry-perf --backend cuda --npasses 3 -v base_cuda,ferry_B,ferry_C --csv $out/suite-$r.csv --json $out/suite-$r.json > $out/suite-$r.log 2>&1; echo "suite $r rc=$? $(( $(date +%s) - t0 ))s"
  done
  timeout 60 $c/ferry-reduce-bench --max-n 1e8 --passes 5 --csv $out/reduce.csv > $out/reduce.log 2>&1; echo "reduce rc=$? $(( $(date +%s) - t0 ))s"
  grep -E "tests ran|PASSED|FAILED|SKIPPED" $out/tests.log | head -8
  echo "suite PASSED $(cat $out/suite-*.log | grep -c PASSED) FAILED $(cat $out/suite-*.log | grep -c FAILED)"
  tail -n 40 $out/restrict.log
  tail -n 12 $out/reduce.log
  python3 $here/perf/scripts/summarize.py $out/suite-1.csv | tail -31
  python3 $here/perf/scripts/summarize.py $out/suite-2.csv | tail -31
else
  timeout 420 $here/perf/scripts/bounds-cost.sh -n 3 -b $c -o $out/bounds-cost.csv -- --backend cuda -v base_cuda,ferry_B > $out/bounds-cost.log 2>&1; echo "bounds cost rc=$? $(( $(date +%s) - t0 ))s"
  for s in 1e5 1e6 4e6; do
    timeout 60 $c/ferry-perf --backend cuda --npasses 5 --size $s -k DEL_DOT_VEC_2D,HYDRO_2D,ADD -v base_cuda,ferry_B,ferry_C --csv $out/size-$s.csv > $out/size-$s.log 2>&1; echo "size $s rc=$? $(( $(date +%s) - t0 ))s"
  done
  for bin in ferry-perf ferry-perf-unchecked; do
    timeout 60 ncu --csv --clock-control none --section SpeedOfLight --section WarpStateStats --section Occupancy --section InstructionStats --section LaunchStats \
      $c/$bin --backend cuda -k MASS3DPA -v base_cuda,ferry_B,ferry_C --reps 3 > $out/ncu-mass-$bin.csv 2> $out/ncu-mass-$bin.err; echo "ncu $bin rc=$? $(( $(date +%s) - t0 ))s"
  done
  cuobjdump -sass $c/ferry-perf | awk '/Function :/ {keep = ($0 ~ /mass3dpa/)} keep' > $out/mass.sass 2>&1
  cuobjdump -sass $c/ferry-perf-unchecked | awk '/Function :/ {keep = ($0 ~ /mass3dpa/)} keep' > $out/mass-unchecked.sass 2>&1
  tail -n 36 $out/bounds-cost.log
  for s in 1e5 1e6 4e6; do echo "== size $s"; python3 $here/perf/scripts/summarize.py $out/size-$s.csv | grep -E "DEL_DOT|HYDRO_2D|ADD"; done
fi
