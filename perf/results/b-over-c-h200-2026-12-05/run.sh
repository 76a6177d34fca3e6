#!/usr/bin/env bash
# Call 4: where ferry_B's excess over ferry_C comes from, on the kernels where ferry_B / ferry_C
# was above 1.005 in call1. ferry-perf (bounds checks on) and ferry-perf-unchecked (the same
# sources with FERRY_UNSAFE_NO_BOUNDS_CHECKS=1) run alternately by perf/scripts/bounds-cost.sh,
# 4 rounds of 2 passes each; ferry_C indexes no ferry view, so its on/off ratio is the noise.
# Printed last: per kernel ferry_B / ferry_C with checks on and with them off.
set -uo pipefail
out=${1:?out}; mkdir -p "$out"
cp "$0" "$out/run.sh"
t0=$(date +%s)
el() { echo "$1 rc=$2 $(( $(date +%s) - t0 ))s" | tee -a $out/steps.log; }
export CUDA_MODULE_LOADING=EAGER
unset FERRY_INFO FERRY_BACKEND FERRY_DEPENDENT_LAUNCH
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,temperature.gpu --format=csv > $out/gpu.txt 2>&1
b=/tmp/bld-unchecked
cmake -S . -B $b -G Ninja -DCMAKE_BUILD_TYPE=Release -DFERRY_DEVICE_BACKEND=cuda \
  -DFERRY_BUILD_TESTS=OFF -DFERRY_BUILD_EXAMPLES=OFF -DFERRY_PERF_UNCHECKED=ON > /dev/null 2>&1; el configure $?
timeout 200 ninja -C $b -j 16 ferry-perf ferry-perf-unchecked > $out/build.log 2>&1; el build $?
k=DIFFUSION3DPA,CONVECTION3DPA,MATVEC_3D_STENCIL,MASS3DPA,FIR,VOL3D,MULADDSUB,MAT_MAT_SHARED,INIT3,PRESSURE,DAXPY
timeout 300 perf/scripts/bounds-cost.sh -n 4 -b $b -o $out/bounds.csv -- --backend cuda \
  -v base_cuda,ferry_B,ferry_C -k $k --npasses 2 > $out/bounds.log 2>&1; el bounds-cost $?
python3 - $out/bounds.csv <<'PY'
import csv, sys
t = {}
for r in csv.DictReader(open(sys.argv[1])):
    t[(r["kernel"], r["variant"])] = (float(r["min_checked_s"]), float(r["min_unchecked_s"]))
print("%-26s %9s %9s %9s" % ("kernel", "B/C on", "B/C off", "C on/off"))
for (k, v), (on, off) in t.items():
    if v != "ferry_B" or (k, "ferry_C") not in t: continue
    c_on, c_off = t[(k, "ferry_C")]
    c = min(c_on, c_off)
    print("%-26s %9.3f %9.3f %9.3f" % (k, on / c, off / c, c_on / c_off))
PY
head -2 $out/gpu.txt | tail -1
