#!/usr/bin/env bash
# Twenty-third run (H200), sixth call (enqueue times added): perf/scripts/phase_probe.cu (DAXPY through ferry::launch
# and ferry::unsafe::launch, each on arrays that start on 256 bytes and 16 bytes past), 1M and
# 10M elements, 500 reps, 10 passes, twice each.
set -uo pipefail
out=${1:?out}; pack=${2:?pack}; mkdir -p "$out"
here=$(cd "$(dirname "$0")" && pwd)
b=bin-dir; rm -rf $b; mkdir -p $b; tar xJf "$here/bins.tar.xz" -C $b
export CUDA_MODULE_LOADING=EAGER
unset FERRY_INFO FERRY_BACKEND FERRY_DEPENDENT_LAUNCH
t0=$(date +%s)
el() {
  echo "$1 rc=$2 $(( $(date +%s) - t0 ))s" | tee -a $out/steps.log
  tar czf "$pack" -C "$(dirname "$out")" "$(basename "$out")"
}
cp "$0" $out/run.sh
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,temperature.gpu --format=csv > $out/gpu.txt 2>&1
for r in 1 2; do
  timeout 60 $b/diag/phase_probe > $out/phase-1m-$r.log 2>&1; el "1M $r" $?
  timeout 60 $b/diag/phase_probe --n 10000000 --reps 100 > $out/phase-10m-$r.log 2>&1; el "10M $r" $?
done
for f in $out/phase-*.log; do echo "== $(basename $f)"; cat $f; done
