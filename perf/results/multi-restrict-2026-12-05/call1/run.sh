#!/usr/bin/env bash
# Call 1: restrict parameters for each array of a multi-array ferry::around (the tree as checked
# out; multi-restrict.patch is the library change).
#   - every cuda unit test and device test of the tree (its codegen tests compile PTX only and
#     ran on the build machine);
#   - SASS (cuobjdump of cubins compiled with ferry-perf's flags) of the ferry files of VOL3D,
#     MATVEC_3D_STENCIL and DEL_DOT_VEC_2D with and without the change, and of MASS3DPA,
#     CONVECTION3DPA and FIR (ferry_B / ferry_C 1.02-1.03 there), by perf/scripts/sass_summary.py;
#   - ferry-perf with the change ("new") and without it ("old": the patch reversed, rebuilt),
#     alternately, 4 rounds of 5 passes, on the three apps whose ferry_B uses a multi-array
#     around, base_cuda, ferry_B and ferry_C; perf/scripts/ab.py prints the minima and
#     ferry_B / ferry_C per program.
# LEAN=1 (little device time left) builds ferry-perf only and skips the tests and the SASS.
here=$(cd "$(dirname "$0")" && pwd)
source perf/scripts/gpu-preamble.sh "$0" "$1"
cp "$here/multi-restrict.patch" "$out/"
b=$bld/cuda
lean=${LEAN:-0}
targets="ferry-perf ferry_unit_tests ferry_device_tests"; (( lean )) && targets=ferry-perf
cuda_configure . $b -DFERRY_BUILD_TESTS=ON; el configure $?
timeout 300 ninja -C $b -j 16 -k 0 $targets > $out/build.log 2>&1; el build $?
grep -E "error|FAILED" $out/build.log | head -5
if (( !lean )); then
u=$(find $b -name ferry_unit_tests -type f | head -1); dv=$(find $b -name ferry_device_tests -type f | head -1)
timeout 90 bash -c "$u --gtest_filter='*/cuda:-*terminates*:*death*' --gtest_brief=1; $dv --gtest_brief=1" 2>&1 |
  sed 's|^.*/tests/|tests/|' > $out/tests.log; el tests $?
grep -E "tests ran|PASSED|FAILED" $out/tests.log | head -6
# One cubin per ferry file, with ferry-perf's nvcc flags (the build's compile command with one
# real architecture), then its SASS and resource usage.
sass() {  # TAG KERNEL...
  local tag=$1; shift
  mkdir -p $out/sass-$tag
  for k in "$@"; do
    f=$(ls perf/kernels/*/$k-ferry.cpp)
    { nvcc '-DFERRY_DEVICE_BACKEND_HEADER="ferry/backend/cuda/backend.hpp"' -Iperf -Iinclude -O3 \
        -DNDEBUG -arch=sm_90 -restrict --extended-lambda --expt-relaxed-constexpr \
        -Xcompiler=-fopenmp -std=c++20 -x cu -cubin $f -o $bld/$k-$tag.cubin &&
      cuobjdump -sass $bld/$k-$tag.cubin > $out/sass-$tag/$k.sass &&
      cuobjdump -res-usage $bld/$k-$tag.cubin > $out/sass-$tag/$k.res.txt; } &
  done
  wait
  python3 perf/scripts/sass_summary.py $out/sass-$tag > $out/sass-$tag.txt 2>&1
}
sass new VOL3D MATVEC_3D_STENCIL DEL_DOT_VEC_2D MASS3DPA CONVECTION3DPA FIR; el sass-new $?
fi
mkdir -p $bld/bin; cp "$(find $b -name ferry-perf -type f | head -1)" $bld/bin/new
patch -R -p1 < "$here/multi-restrict.patch" > /dev/null && timeout 200 ninja -C $b -j 16 ferry-perf >> $out/build.log 2>&1; el build-old $?
cp "$(find $b -name ferry-perf -type f | head -1)" $bld/bin/old
(( lean )) || { sass old VOL3D MATVEC_3D_STENCIL DEL_DOT_VEC_2D; el sass-old $?; }
patch -p1 < "$here/multi-restrict.patch" > /dev/null
mkdir -p $out/runs
for r in 1 2 3 4; do
  for m in old new; do
    timeout 60 $bld/bin/$m --backend cuda -k VOL3D,MATVEC_3D_STENCIL,DEL_DOT_VEC_2D \
      -v base_cuda,ferry_B,ferry_C --npasses 5 --csv $out/runs/$m-$r.csv > $out/runs/$m-$r.log 2>&1 ||
      echo "$m $r failed"
  done
done; el runs $?
python3 perf/scripts/ab.py $out/runs | tee $out/ab.txt | tail -4
(( lean )) || for t in new old; do grep -E "^==|^  [BC] " $out/sass-$t.txt | sed "s/^/$t /" | cut -c1-150; done
head -2 $out/gpu.txt | tail -1
bundle
