#!/usr/bin/env bash
# Twenty-fifth run (H200), seventh call: phase_probe on the build of call6 (the wait after the
# range check) with safe-vec (ferry::launch over preloaded containers, as ferry-perf's ferry_B
# DAXPY) beside the span forms: stream mode twice at 500 reps, once at 5000.
# bins7.tar.xz: cuda/phase_probe.
set -uo pipefail
out=${1:?out}; pack=${2:?pack}; mkdir -p "$out"
here=$(cd "$(dirname "$0")" && pwd)
b=bin-dir; rm -rf $b; mkdir -p $b; tar xJf "$here/bins7.tar.xz" -C $b
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
timeout 40 $c/phase_probe > $out/stream-1m-1.log 2>&1; el "stream 1M 1" $?
timeout 40 $c/phase_probe > $out/stream-1m-2.log 2>&1; el "stream 1M 2" $?
timeout 60 $c/phase_probe --reps 5000 > $out/stream-1m-5000.log 2>&1; el "stream 1M 5000" $?
for f in $out/stream-*.log; do echo "== $(basename $f)"; grep -A12 "^form" $f; done
