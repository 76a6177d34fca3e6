#!/usr/bin/env bash
# Twenty-seventh run (H200), second call: is ferry_B's excess over ferry_C on the apps a cost per
# launch or per element? VOL3D, DEL_DOT_VEC_2D, MATVEC_3D_STENCIL, FIR, MASS3DPA, CONVECTION3DPA
# at --size 1e4, 1e6 (their default, or near it) and 8e6 (--repfact 0.25), 5 passes, base_cuda,
# ferry_B, ferry_C, checks on; each size twice. call1's binary (bins.tar.xz).
set -uo pipefail
out=${1:?out}; pack=${2:?pack}; mkdir -p "$out"
here=$(cd "$(dirname "$0")" && pwd)
b=bin-dir; rm -rf $b; mkdir -p $b; tar xJf "$here/bins.tar.xz" -C $b
c=$b/cuda
export CUDA_MODULE_LOADING=EAGER
unset FERRY_INFO FERRY_BACKEND FERRY_DEPENDENT_LAUNCH
t0=$(date +%s)
el() {
  echo "$1 rc=$2 $(( $(date +%s) - t0 ))s" | tee -a $out/steps.log
  tar czf "$pack" -C "$(dirname "$out")" "$(basename "$out")"
}
cp "$0" $out/run.sh
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,temperature.gpu --format=csv > $out/gpu.txt 2>&1
K=VOL3D,DEL_DOT_VEC_2D,MATVEC_3D_STENCIL,FIR,MASS3DPA,CONVECTION3DPA
for r in 1 2; do
  for s in 1e4 1e6 8e6; do
    extra=""; [[ $s == 8e6 ]] && extra="--repfact 0.25"
    timeout 150 $c/ferry-perf --backend cuda --npasses 5 -k $K -v base_cuda,ferry_B,ferry_C --size $s $extra --csv $out/size$s-$r.csv > $out/size$s-$r.log 2>&1; el "size $s $r" $?
  done
done
python3 - $out <<'PY'
import csv, sys, glob, os
o = sys.argv[1]
for p in sorted(glob.glob(o + "/size*.csv")):
    d = {}
    for r in csv.DictReader(open(p)):
        d.setdefault(r["kernel"].split("_", 1)[1], {})[r["variant"]] = (float(r["time_per_rep_s"]) * 1e6, r["status"])
    print("%-14s" % os.path.basename(p)[:-4], " ".join("%s %.2f-%.2f=%+.2fus %.3f%s" % (k[:6], v["ferry_B"][0], v["ferry_C"][0], v["ferry_B"][0] - v["ferry_C"][0], v["ferry_B"][0] / v["ferry_C"][0], "" if all(s == "PASSED" for _, s in v.values()) else " FAIL") for k, v in sorted(d.items())))
PY
