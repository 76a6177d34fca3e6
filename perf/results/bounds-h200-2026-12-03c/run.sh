#!/usr/bin/env bash
# Seventeenth run, part C: what the bounds checks cost with the final kernels (the multi-array
# ferry::around in VOL3D, DEL_DOT_VEC_2D and MATVEC_3D_STENCIL): ferry-perf and
# ferry-perf-unchecked alternately, 3 rounds, base_cuda, ferry_B and ferry_C (base_cuda and
# ferry_C index no view: the controls).
set -uo pipefail
out=${1:?out}; mkdir -p "$out"
here=$(cd "$(dirname "$0")" && pwd)
b=bin-dir; rm -rf $b; mkdir -p $b; tar xJf "$here/bins.tar.xz" -C $b
c=$b/cuda
export CUDA_MODULE_LOADING=EAGER
unset FERRY_INFO FERRY_BACKEND
t0=$(date +%s)
timeout 560 $here/perf/scripts/bounds-cost.sh -n 3 -b $c -o $out/bounds-cost.csv -- --backend cuda -v base_cuda,ferry_B,ferry_C > $out/bounds-cost.log 2>&1; echo "bounds cost rc=$? $(( $(date +%s) - t0 ))s"
tail -n 45 $out/bounds-cost.log
