#!/usr/bin/env bash
# Twenty-sixth run (H200), third call: does base_cuda's cudaFree / cudaStreamDestroy per run
# disturb the ferry variants' times? The five one-launch kernels, 5 passes, base_cuda, ferry_B,
# ferry_C, with FERRY_PERF_BASE_CUDA_KEEP unset (cudaMalloc/cudaFree and a new stream per run,
# as before), =mem (device arrays kept and reused), =stream (one stream kept) and =all, in
# alternating rounds; and without base_cuda (control).
# bins.tar.xz: cuda/ (ferry-perf).
set -uo pipefail
out=${1:?out}; pack=${2:?pack}; mkdir -p "$out"
here=$(cd "$(dirname "$0")" && pwd)
b=bin-dir; rm -rf $b; mkdir -p $b; tar xJf "$here/bins.tar.xz" -C $b
c=$b/cuda
export CUDA_MODULE_LOADING=EAGER
unset FERRY_INFO FERRY_BACKEND FERRY_DEPENDENT_LAUNCH FERRY_PERF_BASE_CUDA_KEEP
t0=$(date +%s)
el() {
  echo "$1 rc=$2 $(( $(date +%s) - t0 ))s" | tee -a $out/steps.log
  tar czf "$pack" -C "$(dirname "$out")" "$(basename "$out")"
}
cp "$0" $out/run.sh
one=DAXPY,ADD,MUL,TRIAD,COPY
for run in none-1 all-1 mem-1 control-1 none-2 all-2 stream-1; do
  keep=${run%-*}
  v=base_cuda,ferry_B,ferry_C; [[ $keep == control ]] && v=ferry_B,ferry_C
  env $( [[ $keep == none || $keep == control ]] || echo FERRY_PERF_BASE_CUDA_KEEP=$keep ) \
    timeout 60 $c/ferry-perf --backend cuda --npasses 5 -k $one -v $v --csv $out/$run.csv > $out/$run.log 2>&1; el "$run" $?
done
python3 - $out <<'PY'
import csv, sys, glob, os, math
for p in sorted(glob.glob(sys.argv[1] + "/*.csv")):
    d = {}
    for r in csv.DictReader(open(p)):
        d.setdefault(r["kernel"].split("_", 1)[1], {})[r["variant"]] = float(r["time_per_rep_s"]) * 1e6
    g = math.exp(sum(math.log(v["ferry_B"] / v["ferry_C"]) for v in d.values()) / len(d))
    print("%-10s geo %.3f |" % (os.path.basename(p)[:-4], g), " ".join("%s %.2f/%.2f=%.3f" % (k, v["ferry_B"], v["ferry_C"], v["ferry_B"] / v["ferry_C"]) for k, v in d.items()))
PY
