#!/usr/bin/env bash
# Twenty-third run (H200), fourth call (the first call's binaries): the cold-cache guess for the
# one-launch kernels' excess. ferry-perf with one kernel at a time (no other kernel's code runs
# between its passes), DAXPY, MUL, ADD and TRIAD, ferry_B and ferry_C, 5 passes, default size,
# two runs each; then the four together, as in the suite, for contrast.
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
for r in 1 2; do
  for k in DAXPY MUL ADD TRIAD; do
    timeout 60 $c/ferry-perf --backend cuda --npasses 5 -k $k -v ferry_B,ferry_C --csv $out/alone-$k-$r.csv > $out/alone-$k-$r.log 2>&1; el "alone $k $r" $?
  done
done
timeout 90 $c/ferry-perf --backend cuda --npasses 5 -k DAXPY,MUL,ADD,TRIAD -v ferry_B,ferry_C --csv $out/together.csv > $out/together.log 2>&1; el together $?
for f in $out/alone-*.log $out/together.log; do echo "== $(basename $f)"; grep -E "^(Basic|Stream)_" $f; done
