#!/usr/bin/env bash
# Twenty-third run (H200), third call (the first call's binaries): the launch-bound regime.
#   - ferry-launch-bench at --n 10000 (40 blocks, as ferry-perf's --size 1e4), 20 passes;
#   - ferry-perf --size 1e4, DAXPY, ADD, MUL, ferry_B and ferry_C, 5 passes, three runs in a row
#     (how much the minimum moves between runs), then one with FERRY_DEPENDENT_LAUNCH=0.
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
timeout 90 $c/ferry-launch-bench --n 10000 --csv $out/launch-10k.csv > $out/launch-10k.log 2>&1; el launch-10k $?
for r in 1 2 3; do
  timeout 60 $c/ferry-perf --backend cuda --npasses 5 --size 1e4 -k DAXPY,ADD,MUL -v ferry_B,ferry_C --csv $out/size-1e4-$r.csv > $out/size-1e4-$r.log 2>&1; el "size 1e4 run $r" $?
done
FERRY_DEPENDENT_LAUNCH=0 timeout 60 $c/ferry-perf --backend cuda --npasses 5 --size 1e4 -k DAXPY,ADD,MUL -v ferry_B,ferry_C --csv $out/size-1e4-nopdl.csv > $out/size-1e4-nopdl.log 2>&1; el "size 1e4 no PDL" $?
cut -d, -f1,2,6,7,8,9 $out/launch-10k.csv | head -10
for f in $out/size-1e4-*.log; do echo "== $f"; grep -E "^(Basic|Stream)_" $f; done
