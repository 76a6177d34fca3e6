#!/usr/bin/env bash
# Twenty-second run (H200), second call (ferry-perf rebuilt: in the first call some of its objects
# were stale, compiled against the kernel class layout before the warmup's field):
#   - ferry-perf's warmup: the reductions and some one-launch kernels with the default warmup
#     against --warmup-disable (warm/ wrappers of one binary), 3 alternating rounds;
#     ratio = with / without;
#   - the suite, all 27 kernels, 5 passes (minimum and median per rep), warmup on, base_cuda,
#     ferry_B and ferry_C.
# bins.tar.xz: cuda/ ferry-perf; warm/ the two wrappers.
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
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,temperature.gpu --format=csv > $out/gpu.txt 2>&1
timeout 130 $here/perf/scripts/bounds-cost.sh -n 3 -b $b/warm -o $out/warm.csv -- --backend cuda -k PI_REDUCE,TRAP_INT,REDUCE3_INT,DOT,DAXPY,ADD,TRIAD -v base_cuda,ferry_B,ferry_C > $out/warm.log 2>&1; el "warmup A/B" $?
timeout 280 $c/ferry-perf --backend cuda --npasses 5 -v base_cuda,ferry_B,ferry_C --csv $out/suite.csv --json $out/suite.json > $out/suite.log 2>&1; el suite $?
tail -n 24 $out/warm.log
tail -n 36 $out/suite.log
