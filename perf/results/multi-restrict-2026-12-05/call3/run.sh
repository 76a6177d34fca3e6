#!/usr/bin/env bash
# Call 3: SASS of the ferry files of VOL3D, MATVEC_3D_STENCIL and DEL_DOT_VEC_2D with the change
# ("new") and without it ("old": call1's patch reversed): cubins compiled with ferry-perf's nvcc
# flags, one real architecture, summarised by perf/scripts/sass_summary.py.
source perf/scripts/gpu-preamble.sh "$0" "$1"
patch1=perf/results/multi-restrict-2026-12-05/call1/multi-restrict.patch
sass() {  # TAG KERNEL...
  local tag=$1; shift
  mkdir -p $out/sass-$tag
  for k in "$@"; do
    { nvcc '-DFERRY_DEVICE_BACKEND_HEADER="ferry/backend/cuda/backend.hpp"' -Iperf -Iinclude -O3 \
        -DNDEBUG -arch=sm_90 -restrict --extended-lambda --expt-relaxed-constexpr \
        -Xcompiler=-fopenmp -std=c++20 -x cu -cubin perf/kernels/apps/$k-ferry.cpp -o $bld/$k.cubin &&
      cuobjdump -sass $bld/$k.cubin > $out/sass-$tag/$k.sass &&
      cuobjdump -res-usage $bld/$k.cubin > $out/sass-$tag/$k.res.txt; } &
  done
  wait
  python3 perf/scripts/sass_summary.py $out/sass-$tag > $out/sass-$tag.txt 2>&1
}
sass new VOL3D MATVEC_3D_STENCIL DEL_DOT_VEC_2D; el sass-new $?
patch -R -p1 < $patch1 > /dev/null; sass old VOL3D MATVEC_3D_STENCIL DEL_DOT_VEC_2D; el sass-old $?
patch -p1 < $patch1 > /dev/null
for t in new old; do grep -E "^==|^  [BC] " $out/sass-$t.txt | sed "s/^/$t /" | cut -c1-120; done
bundle
