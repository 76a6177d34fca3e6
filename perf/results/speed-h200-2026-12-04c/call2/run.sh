#!/usr/bin/env bash
# Twenty-sixth run (H200), second call: where the one-launch kernels' copies lie.
#   - spacing_probe (plain CUDA): Stream ADD with its three arrays at eight spacings in one
#     region, twice;
#   - ferry-perf with FERRY_INFO=1 (allocation addresses of base_cuda's arrays, ferry_B's
#     resident copies and ferry_C's device buffers), Stream ADD and DAXPY, 2 passes of 1 rep,
#     with and without base_cuda;
#   - the five one-launch kernels timed (no FERRY_INFO), 5 passes, with and without base_cuda,
#     two rounds.
# bins.tar.xz: cuda/ (ferry-perf, spacing_probe).
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
timeout 30 $c/spacing_probe > $out/spacing1.log 2>&1; el spacing1 $?
timeout 30 $c/spacing_probe > $out/spacing2.log 2>&1; el spacing2 $?
for order in base_cuda,ferry_B,ferry_C ferry_B,ferry_C; do
  f=addr-${order//,/-}
  FERRY_INFO=1 timeout 60 $c/ferry-perf --backend cuda --npasses 2 --reps 1 -k ADD,DAXPY -v $order > $out/$f.log 2>&1; el "$f" $?
done
for round in 1 2; do
  for order in base_cuda,ferry_B,ferry_C ferry_B,ferry_C; do
    f=time$round-${order//,/-}
    timeout 60 $c/ferry-perf --backend cuda --npasses 5 -k ADD,DAXPY,MUL,TRIAD,COPY -v $order --csv $out/$f.csv > $out/$f.log 2>&1; el "$f" $?
  done
done
cat $out/spacing1.log $out/spacing2.log
for f in $out/addr-*.log; do
  echo "== $(basename $f)"
  grep -E "alloc|cudaMalloc|\] (Basic|Stream)" $f | grep -v ref_seq | sed -E 's/ +bytes/ B/; s/ferry::unsafe::device_buffer/device_buffer/; s/ +/ /g' | head -60
done
python3 - $out <<'PY'
import csv, sys, glob, os
for p in sorted(glob.glob(sys.argv[1] + "/time*.csv")):
    d = {}
    for r in csv.DictReader(open(p)):
        d.setdefault(r["kernel"].split("_", 1)[1], {})[r["variant"]] = float(r["time_per_rep_s"]) * 1e6
    print("==", os.path.basename(p), " ".join("%s %.3f/%.3f=%.3f" % (k, v["ferry_B"], v["ferry_C"], v["ferry_B"] / v["ferry_C"]) for k, v in d.items()))
PY
