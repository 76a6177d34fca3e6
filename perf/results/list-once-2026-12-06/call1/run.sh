#!/usr/bin/env bash
# Call 1: one read of an index list that several arguments of a 1D launch share, and one
# transient copy of it (the tree as checked out; list-once.patch is the library change).
#   - every cuda unit test and device test of the tree (the new
#     around_many_test.arguments_over_different_index_lists_each_read_their_own_entries/cuda
#     among them);
#   - SASS of MATVEC_3D_STENCIL's and DEL_DOT_VEC_2D's ferry files with the change
#     (perf/scripts/sass_summary.py), with SASS=1 only (device time was short);
#   - ferry-perf with the change ("new") and without it ("old": the patch reversed, rebuilt),
#     alternately, 4 rounds of 5 passes, on the two apps whose ferry_B reads a shared index list
#     (MATVEC_3D_STENCIL, DEL_DOT_VEC_2D) and VOL3D as a control, base_cuda, ferry_A (whose
#     transient launch now copies the list in once), ferry_B and ferry_C; perf/scripts/ab.py
#     prints the minima and ferry_B / ferry_C per program;
#   - ncu (no cache flush, clocks as in the timed runs): duration, L2 read sectors and DRAM
#     bytes read of both builds' MATVEC_3D_STENCIL ferry_B and ferry_C kernels, 10 reps.
# LEAN=1 (little device time left) builds ferry-perf only and skips the tests, SASS and ncu.
# QUICK=1 (less left than the whole call needs): ferry-perf and the unit tests, of which only
# the around, indirect and residency tests on cuda run; 2 rounds; no device tests, SASS or ncu.
here=$(cd "$(dirname "$0")" && pwd)
source perf/scripts/gpu-preamble.sh "$0" "$1"
cp "$here/list-once.patch" "$out/"
b=$bld/cuda
lean=${LEAN:-0}; quick=${QUICK:-0}; rounds=4
targets="ferry-perf ferry_unit_tests ferry_device_tests"; (( lean )) && targets=ferry-perf
(( quick )) && { targets="ferry-perf ferry_unit_tests"; rounds=2; }
cuda_configure . $b -DFERRY_BUILD_TESTS=ON; el configure $?
timeout 300 ninja -C $b -j 16 -k 0 $targets > $out/build.log 2>&1; el build $?
grep -E "error|FAILED" $out/build.log | head -5
if (( !lean )); then
u=$(find $b -name ferry_unit_tests -type f | head -1); dv=$(find $b -name ferry_device_tests -type f | head -1)
if (( quick )); then
  flt='*around*/cuda:*indirect*/cuda:*residency*/cuda:-*terminates*:*death*'; dv=true
else
  flt='*/cuda:-*terminates*:*death*'
fi
timeout 120 bash -c "$u --gtest_filter='$flt' --gtest_brief=1; $dv --gtest_brief=1" 2>&1 |
  sed 's|^.*/tests/|tests/|' > $out/tests.log; el tests $?
grep -E "tests ran|PASSED|FAILED" $out/tests.log | head -6
(( ${SASS:-0} )) && { sass_of new MATVEC_3D_STENCIL DEL_DOT_VEC_2D; el sass-new $?; }
fi
mkdir -p $bld/bin; cp "$(find $b -name ferry-perf -type f | head -1)" $bld/bin/new
patch -R -p1 < "$here/list-once.patch" > /dev/null && timeout 200 ninja -C $b -j 16 ferry-perf >> $out/build.log 2>&1; el build-old $?
cp "$(find $b -name ferry-perf -type f | head -1)" $bld/bin/old
patch -p1 < "$here/list-once.patch" > /dev/null
mkdir -p $out/runs
for r in $(seq $rounds); do
  for m in old new; do
    timeout 60 $bld/bin/$m --backend cuda -k MATVEC_3D_STENCIL,DEL_DOT_VEC_2D,VOL3D \
      -v base_cuda,ferry_A,ferry_B,ferry_C --npasses 5 --csv $out/runs/$m-$r.csv > $out/runs/$m-$r.log 2>&1 ||
      echo "$m $r failed"
  done
done; el runs $?
python3 perf/scripts/ab.py $out/runs | tee $out/ab.txt | tail -4
if (( !lean && !quick )) && command -v ncu > /dev/null; then
  for m in old new; do
    timeout 60 ncu --metrics gpu__time_duration.sum,dram__bytes_read.sum,lts__t_sectors_op_read.sum \
      --cache-control none --clock-control none --csv --log-file $out/ncu-$m.csv \
      $bld/bin/$m --backend cuda -k MATVEC_3D_STENCIL -v ferry_B,ferry_C --reps 10 --npasses 1 \
      > $out/ncu-$m.log 2>&1; el ncu-$m $?
  done
  python3 perf/scripts/ncu_summary.py $out old new
fi | tee $out/ncu.txt
(( ${SASS:-0} )) && grep -E "^==|^  [BC] " $out/sass-new.txt | cut -c1-150
head -2 $out/gpu.txt | tail -1
bundle
