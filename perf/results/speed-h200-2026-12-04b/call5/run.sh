#!/usr/bin/env bash
# Twenty-fifth run (H200), fifth call: two experiment builds of phase_probe against copies of
# include/ with kernel_nd changed (not configurations of ferry):
#   V1: kernel_nd's parameters reordered, the restrict pointers first (pointers, space, first
#       index, kernel object, bound tuple);
#   V2: the 1D kernel waits for its predecessor (griddepcontrol.wait) after its range check,
#       not before, so that the parameter loads the compiler places after the check may be
#       issued before the wait.
# Each: SASS of its kernels, graph mode twice and stream mode once (1M elements).
# bins4.tar.xz: cuda/phase_probe_V1, cuda/phase_probe_V2.
set -uo pipefail
out=${1:?out}; pack=${2:?pack}; mkdir -p "$out"
here=$(cd "$(dirname "$0")" && pwd)
b=bin-dir; rm -rf $b; mkdir -p $b; tar xJf "$here/bins4.tar.xz" -C $b
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
for v in V1 V2; do
  cuobjdump -sass $c/phase_probe_$v > $out/sass-$v.txt 2>&1
  timeout 40 $c/phase_probe_$v --graph 1 > $out/$v-graph-1.log 2>&1; el "$v graph 1" $?
  timeout 40 $c/phase_probe_$v --graph 1 > $out/$v-graph-2.log 2>&1; el "$v graph 2" $?
  timeout 40 $c/phase_probe_$v > $out/$v-stream.log 2>&1; el "$v stream" $?
done
for f in $out/V*.log; do echo "== $(basename $f)"; grep -A10 "^form" $f | cut -c1-56; done
