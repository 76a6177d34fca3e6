#!/usr/bin/env bash
# diag-build.sh: builds, on the CPU machine, what perf/scripts/diag-h200.sh runs on the GPU.
#
#   perf/scripts/diag-build.sh OUTDIR      (from the repository root, after a CUDA build in
#                                           build-cuda/ of ferry-perf and ferry-launch-bench)
#
# Into OUTDIR: cubins (sm_90) of the MATVEC_3D_STENCIL, VOL3D and PRESSURE ferry files (checked,
# unchecked, and for MATVEC and VOL3D without restrict on read-only arguments) and of their
# base_cuda files; ferry-perf-mv-rr and ferry-perf-mv-norr, build-cuda's ferry-perf objects
# linked with MATVEC's ferry file built with and without read-only restrict; ferry-launch-bench.
# "Without read-only restrict" is a copy of include/ in which no argument takes part in
# core/restrict.hpp's rebasing: an experiment build, never a configuration of ferry.
set -euo pipefail
out=${1:?usage: diag-build.sh OUTDIR}
mkdir -p "$out"
out=$(cd "$out" && pwd)
nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp -r include "$tmp/inc-norr"
sed -i 's/if constexpr (rebasable<B>)/if constexpr (false \&\& rebasable<B>)/' \
  "$tmp/inc-norr/ferry/core/restrict.hpp"
(( $(grep -c 'false && rebasable' "$tmp/inc-norr/ferry/core/restrict.hpp") == 2 )) ||
  { echo "diag-build.sh: core/restrict.hpp changed; update the experiment's edit" >&2; exit 1; }
flags=(-O3 -DNDEBUG -DFERRY_ENABLE_CUDA=1 -restrict --extended-lambda --expt-relaxed-constexpr
  -Xcompiler=-fopenmp -std=c++20 -Iperf)
gen=(--generate-code=arch=compute_90,code=[compute_90,sm_90])
apps=perf/kernels/apps
"$nvcc" "${flags[@]}" -Iinclude "${gen[@]}" -x cu -c $apps/MATVEC_3D_STENCIL-ferry.cpp -o "$tmp/mv_rr.o"
"$nvcc" "${flags[@]}" -I"$tmp/inc-norr" "${gen[@]}" -x cu -c $apps/MATVEC_3D_STENCIL-ferry.cpp \
  -o "$tmp/mv_norr.o"
for f in MATVEC_3D_STENCIL VOL3D PRESSURE; do
  "$nvcc" "${flags[@]}" -Iinclude -arch=sm_90 -x cu -cubin $apps/$f-ferry.cpp -o "$out/$f-ferry.cubin"
  "$nvcc" "${flags[@]}" -Iinclude -arch=sm_90 -DFERRY_UNSAFE_NO_BOUNDS_CHECKS=1 -x cu -cubin \
    $apps/$f-ferry.cpp -o "$out/$f-ferry-unchecked.cubin"
  "$nvcc" "${flags[@]}" -Iinclude -arch=sm_90 -x cu -cubin $apps/$f-cuda.cu -o "$out/$f-cuda.cubin"
done
for f in MATVEC_3D_STENCIL VOL3D; do
  "$nvcc" "${flags[@]}" -I"$tmp/inc-norr" -arch=sm_90 -x cu -cubin $apps/$f-ferry.cpp \
    -o "$out/$f-ferry-norr.cubin"
done
link=$(cd build-cuda && ninja -t commands ferry-perf | tail -n 1)
obj=perf/CMakeFiles/ferry_perf_variants.dir/kernels/apps/MATVEC_3D_STENCIL-ferry.cpp.o
for v in rr norr; do
  cmd=${link//"$obj"/"$tmp/mv_$v.o"}
  cmd=${cmd//"-o perf/ferry-perf "/"-o $out/ferry-perf-mv-$v "}
  (cd build-cuda && eval "${cmd#: && }")
done
cp build-cuda/perf/launch/ferry-launch-bench "$out/"
ls -la "$out"
