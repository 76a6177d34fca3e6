#!/usr/bin/env bash
# Twenty-fourth run (H200), first call: perf/scripts/param_probe.cu (plain CUDA DAXPY with its
# parameter block padded by 0 / 88 / 256 / 1024 bytes, launched with and without programmatic
# stream serialization), 1M elements (500 reps) and 10M (100 reps), 10 passes, twice each.
set -uo pipefail
out=${1:?out}; pack=${2:?pack}; mkdir -p "$out"
here=$(cd "$(dirname "$0")" && pwd)
b=bin-dir; rm -rf $b; mkdir -p $b; tar xJf "$here/bins.tar.xz" -C $b
export CUDA_MODULE_LOADING=EAGER
t0=$(date +%s)
el() {
  echo "$1 rc=$2 $(( $(date +%s) - t0 ))s" | tee -a $out/steps.log
  tar czf "$pack" -C "$(dirname "$out")" "$(basename "$out")"
}
cp "$0" $out/run.sh
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,temperature.gpu --format=csv > $out/gpu.txt 2>&1
for r in 1 2; do
  timeout 60 $b/diag/param_probe > $out/param-1m-$r.log 2>&1; el "1M $r" $?
  timeout 60 $b/diag/param_probe --n 10000000 --reps 100 > $out/param-10m-$r.log 2>&1; el "10M $r" $?
done
for f in $out/param-*.log; do echo "== $(basename $f)"; cat $f; done
