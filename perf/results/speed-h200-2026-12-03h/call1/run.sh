#!/usr/bin/env bash
# Twenty-first run (H200), first call (diagnostics):
#   - graph.cu (without its pdl mode, added for the second call): would replaying a recorded
#     launch sequence as a CUDA graph shorten HYDRO_2D's (three kernels) and ADD's (one kernel)
#     time per rep? 3 runs;
#   - MASS3DPA with 28 resident blocks per multiprocessor asked for instead of 32 (res/: the
#     ferry-perf-unchecked slot holds ferry-perf with MASS3DPA-ferry.cpp at resident = 28, built
#     with perf/scripts/link-unchecked.sh --only MASS3DPA --tree), 5 alternating rounds;
#     ratio = 32 / 28; base_cuda the control.
set -uo pipefail
out=${1:?out}; pack=${2:?pack}; mkdir -p "$out"
here=$(cd "$(dirname "$0")" && pwd)
b=bin-dir; rm -rf $b; mkdir -p $b; tar xJf "$here/bins.tar.xz" -C $b
export CUDA_MODULE_LOADING=EAGER
unset FERRY_INFO FERRY_BACKEND
t0=$(date +%s)
el() {
  echo "$1 rc=$2 $(( $(date +%s) - t0 ))s" | tee -a $out/steps.log
  tar czf "$pack" -C "$(dirname "$out")" "$(basename "$out")"
}
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,temperature.gpu --format=csv > $out/gpu.txt 2>&1
for r in 1 2 3; do echo "== run $r"; timeout 60 $b/graph; done > $out/graph.log 2>&1; el graph $?
timeout 200 $here/perf/scripts/bounds-cost.sh -n 5 -b $b/res -o $out/res.csv -- --backend cuda -k MASS3DPA -v base_cuda,ferry_B,ferry_C > $out/res.log 2>&1; el "resident A/B" $?
cat $out/graph.log
tail -n 8 $out/res.log
