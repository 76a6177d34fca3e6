#!/usr/bin/env bash
# Twenty-third run (H200), second call (the first call's binaries): where the one-launch
# kernels' ferry_B / ferry_C excess comes from.
#   - ferry-perf, DAXPY, ADD, MUL, TRIAD, COPY, base_cuda / ferry_B / ferry_C, 5 passes, at
#     --size 1e4 (launch-bound), the default 1e6, and 1e7 (DRAM-bound): a constant per launch
#     shows as the same microseconds at every size;
#   - ferry-launch-bench at --n 1000000 (loop time per launch = device time of a 1M-element
#     kernel, ferry::launch against ferry::unsafe::launch and <<<...>>>), 10 passes.
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
for s in 1e4 1e6 1e7; do
  timeout 120 $c/ferry-perf --backend cuda --npasses 5 --size $s -k DAXPY,ADD,MUL,TRIAD,COPY -v base_cuda,ferry_B,ferry_C --csv $out/size-$s.csv > $out/size-$s.log 2>&1; el "size $s" $?
done
timeout 120 $c/ferry-launch-bench --n 1000000 --passes 10 --csv $out/launch-1m.csv > $out/launch-1m.log 2>&1; el launch-1m $?
for s in 1e4 1e6 1e7; do tail -n 8 $out/size-$s.log; done
tail -n 14 $out/launch-1m.log
