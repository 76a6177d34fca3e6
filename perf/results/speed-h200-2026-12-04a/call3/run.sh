#!/usr/bin/env bash
# Twenty-fourth run (H200), second call: perf/scripts/phase_probe.cu with two more forms
# (unsafe-res: ferry::unsafe::launch's kernel on ferry's resident copies; unsafe-flike: a kernel
# with ferry's body on device_buffer memory), 1M elements (500 reps) twice, 10M (100 reps) once.
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
timeout 60 $b/diag/phase_probe > $out/phase-1m-1.log 2>&1; el "1M 1" $?
timeout 60 $b/diag/phase_probe > $out/phase-1m-2.log 2>&1; el "1M 2" $?
timeout 60 $b/diag/phase_probe --n 10000000 --reps 100 > $out/phase-10m-1.log 2>&1; el "10M 1" $?
for f in $out/phase-*.log; do echo "== $(basename $f)"; cat $f; done
