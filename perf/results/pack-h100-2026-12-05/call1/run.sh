#!/usr/bin/env bash
# Call 1: the flat detail::pack tree, built on the GPU machine (16 cores): every cuda unit test and
# device test (the new one checks that a kernel reads packs with the host's layout); then the
# suite (27 kernels, 5 passes, base_cuda, ferry_B, ferry_C, checks on), summarised by
# perf/scripts/summarize.py.
set -uo pipefail
out=${1:?out}; mkdir -p "$out"
cp "$0" "$out/run.sh"
t0=$(date +%s)
el() { echo "$1 rc=$2 $(( $(date +%s) - t0 ))s" | tee -a $out/steps.log; }
export CUDA_MODULE_LOADING=EAGER
unset FERRY_INFO FERRY_BACKEND FERRY_DEPENDENT_LAUNCH
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,temperature.gpu --format=csv > $out/gpu.txt 2>&1
b=/tmp/bld-pack
cmake -S . -B $b -G Ninja -DCMAKE_BUILD_TYPE=Release -DFERRY_DEVICE_BACKEND=cuda \
  -DFERRY_BUILD_TESTS=ON -DFERRY_BUILD_EXAMPLES=OFF > /dev/null 2>&1; el configure $?
timeout 290 ninja -C $b -j 16 -k 0 ferry-perf ferry_unit_tests ferry_device_tests > $out/build.log 2>&1; el build $?
grep -E "error|FAILED" $out/build.log | head -5
u=$(find $b -name ferry_unit_tests -type f | head -1); dv=$(find $b -name ferry_device_tests -type f | head -1)
timeout 90 bash -c "$u --gtest_filter='*/cuda:-*terminates*:*death*' --gtest_brief=1; $dv --gtest_brief=1" 2>&1 |
  sed 's|^.*/tests/|tests/|' > $out/tests.log; el tests $?
grep -E "tests ran|PASSED|FAILED" $out/tests.log | head -6
left=$(( 560 - ($(date +%s) - t0) ))
p=$(find $b -name ferry-perf -type f | head -1)
if (( left > 60 )) && [[ -n $p ]]; then
  timeout $left $p --backend cuda --npasses 5 -v base_cuda,ferry_B,ferry_C --csv $out/suite.csv \
    --json $out/suite.json > $out/suite.log 2>&1; el suite $?
  python3 perf/scripts/summarize.py $out/suite.csv > $out/summary.txt 2>&1
  grep -E "^geomean|ferry_B/ferry_C|not every" $out/summary.txt
  grep -c PASSED $out/suite.log | sed 's/^/PASSED lines: /'
fi
head -2 $out/gpu.txt | tail -1
