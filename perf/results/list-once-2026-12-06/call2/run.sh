#!/usr/bin/env bash
# Call 2 (after call1's QUICK run): every cuda unit test and device test of the tree, then ncu
# (no cache flush, clocks as in the timed runs) of MATVEC_3D_STENCIL's ferry_B and ferry_C
# kernels, 10 reps, with the change ("new") and without it ("old": call1's patch reversed).
here=$(cd "$(dirname "$0")" && pwd)
source perf/scripts/gpu-preamble.sh "$0" "$1"
b=$bld/cuda
cuda_configure . $b -DFERRY_BUILD_TESTS=ON; el configure $?
timeout 200 ninja -C $b -j 16 -k 0 ferry-perf ferry_unit_tests ferry_device_tests > $out/build.log 2>&1; el build $?
u=$(find $b -name ferry_unit_tests -type f | head -1); dv=$(find $b -name ferry_device_tests -type f | head -1)
timeout 120 bash -c "$u --gtest_filter='*/cuda:-*terminates*:*death*' --gtest_brief=1; $dv --gtest_brief=1" 2>&1 |
  sed 's|^.*/tests/|tests/|' > $out/tests.log; el tests $?
grep -E "tests ran|PASSED|FAILED" $out/tests.log | head -6
mkdir -p $bld/bin; cp "$(find $b -name ferry-perf -type f | head -1)" $bld/bin/new
patch -R -p1 < "$here/../call1/list-once.patch" > /dev/null && timeout 120 ninja -C $b -j 16 ferry-perf >> $out/build.log 2>&1; el build-old $?
cp "$(find $b -name ferry-perf -type f | head -1)" $bld/bin/old
patch -p1 < "$here/../call1/list-once.patch" > /dev/null
for m in new old; do
  timeout 60 ncu --metrics gpu__time_duration.sum,dram__bytes_read.sum,lts__t_sectors_op_read.sum \
    --cache-control none --clock-control none --csv --log-file $out/ncu-$m.csv \
    $bld/bin/$m --backend cuda -k MATVEC_3D_STENCIL -v ferry_B,ferry_C --reps 10 --npasses 1 \
    > $out/ncu-$m.log 2>&1; el ncu-$m $?
done
python3 perf/scripts/ncu_summary.py $out old new | tee $out/ncu.txt
head -2 $out/gpu.txt | tail -1
bundle
