#!/usr/bin/env bash
# Tenth run, part C: run-to-run spread. ferry-reduce-bench three times back to back (up to 1e7
# elements), then the suite once more (3 passes), on the part-B binaries.
set -uo pipefail
out=${1:?out}; mkdir -p "$out"
b=bin-dir; rm -rf $b; mkdir -p $b; tar xJf bins.tar.xz -C $b
c=$b/cuda
export CUDA_MODULE_LOADING=EAGER
unset FERRY_INFO FERRY_BACKEND
t0=$(date +%s)
for r in 1 2 3; do
  timeout 60 $c/ferry-reduce-bench --max-n 1e7 --passes 10 --csv $out/reduce-$r.csv > $out/reduce-$r.log 2>&1; echo "reduce $r rc=$? $(( $(date +%s) - t0 ))s"
done
timeout 220 $c/ferry-perf --backend cuda --npasses 3 -v base_cuda,ferry_B,ferry_C --csv $out/suite.csv --json $out/suite.json > $out/suite.log 2>&1; echo "suite rc=$? $(( $(date +%s) - t0 ))s"
for r in 1 2 3; do tail -n 6 $out/reduce-$r.log; done
python3 perf/scripts/summarize.py $out/suite.csv | tail -30
