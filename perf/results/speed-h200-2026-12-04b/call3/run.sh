#!/usr/bin/env bash
# Twenty-fifth run (H200), third call: phase_probe with safe-res and flike-res (ferry::launch,
# ferry's body through ferry::unsafe::launch and the plain unsafe kernel, all three on one pair
# of resident arrays), in graph mode twice (the device's time alone) and in stream mode at
# 500 and 5000 reps. bins3.tar.xz: cuda/phase_probe.
set -uo pipefail
out=${1:?out}; pack=${2:?pack}; mkdir -p "$out"
here=$(cd "$(dirname "$0")" && pwd)
b=bin-dir; rm -rf $b; mkdir -p $b; tar xJf "$here/bins3.tar.xz" -C $b
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
timeout 40 $c/phase_probe --graph 1 > $out/graph-1m-1.log 2>&1; el "graph 1M 1" $?
timeout 40 $c/phase_probe --graph 1 > $out/graph-1m-2.log 2>&1; el "graph 1M 2" $?
timeout 40 $c/phase_probe > $out/stream-1m.log 2>&1; el "stream 1M" $?
timeout 60 $c/phase_probe --reps 5000 > $out/stream-1m-5000.log 2>&1; el "stream 1M 5000" $?
timeout 40 $c/phase_probe --graph 1 --n 10000000 --reps 100 > $out/graph-10m.log 2>&1; el "graph 10M" $?
for f in $out/*.log; do echo "== $(basename $f)"; grep -A12 "^form" $f | cut -c1-60; done
