#!/usr/bin/env bash
# Call 2: the tree's cuda unit tests and device tests (call 1 ran LEAN, without them).
source perf/scripts/gpu-preamble.sh "$0" "$1"
b=$bld/cuda
cuda_configure . $b -DFERRY_BUILD_TESTS=ON; el configure $?
timeout 200 ninja -C $b -j 16 -k 0 ferry_unit_tests ferry_device_tests > $out/build.log 2>&1; el build $?
grep -E "error|FAILED" $out/build.log | head -5
u=$(find $b -name ferry_unit_tests -type f | head -1); dv=$(find $b -name ferry_device_tests -type f | head -1)
timeout 60 bash -c "$u --gtest_filter='*/cuda:-*terminates*:*death*' --gtest_brief=1; $dv --gtest_brief=1" 2>&1 |
  sed 's|^.*/tests/|tests/|' > $out/tests.log; el tests $?
grep -E "tests ran|PASSED|FAILED" $out/tests.log | head -8
head -2 $out/gpu.txt | tail -1
