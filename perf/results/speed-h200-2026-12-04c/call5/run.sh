#!/usr/bin/env bash
# Twenty-sixth run (H200), fifth call: ferry::around over several arrays rebuilt from one
# restrict parameter (every array's base from array 0's restrict base and its distance), so
# that the device compiler reads the arrays through its read-only path (ld.global.nc, as
# ferry_C's restrict pointers get). A/B: ferry-perf-old (call4's build) against ferry-perf-new
# (link-unchecked.sh --include on the three files that use it: VOL3D, DEL_DOT_VEC_2D,
# MATVEC_3D_STENCIL), alternating, 5 passes each, base_cuda, ferry_B, ferry_C.
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
for run in old-1 new-1 old-2 new-2; do
  timeout 50 $c/ferry-perf-${run%-*} --backend cuda --npasses 5 -k VOL3D,DEL_DOT_VEC_2D,MATVEC_3D_STENCIL -v base_cuda,ferry_B,ferry_C --csv $out/$run.csv > $out/$run.log 2>&1; el $run $?
done
python3 - $out <<'PY'
import csv, sys, glob, os
for p in sorted(glob.glob(sys.argv[1] + "/*.csv")):
    d = {}
    for r in csv.DictReader(open(p)):
        d.setdefault(r["kernel"].split("_", 1)[1], {})[r["variant"]] = (float(r["time_per_rep_s"]) * 1e6, r["status"])
    print("%-6s" % os.path.basename(p)[:-4], " ".join("%s base %.2f B %.2f C %.2f B/C %.3f %s" % (k, v["base_cuda"][0], v["ferry_B"][0], v["ferry_C"][0], v["ferry_B"][0] / v["ferry_C"][0], v["ferry_B"][1]) for k, v in d.items()))
PY
