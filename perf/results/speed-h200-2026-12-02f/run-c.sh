#!/usr/bin/env bash
# Thirteenth run, part C: the reduce bench (1e3-1e7) with each rep's two reductions timed one by
# one in a random order, against the slices, alternating, three times each.
set -uo pipefail
out=${1:?out}; mkdir -p "$out"
b=bin-dir; rm -rf $b; mkdir -p $b; tar xJf "$(dirname "$0")/bins.tar.xz" -C $b
c=$b/cuda
export CUDA_MODULE_LOADING=EAGER
unset FERRY_INFO FERRY_BACKEND
for r in 1 2 3; do
  for o in random slices; do
    timeout 60 $c/ferry-reduce-bench --max-n 1e7 --passes 3 --order $o --csv $out/$o-$r.csv > $out/$o-$r.log 2>&1
    echo "$o run $r rc=$?"; sed -n '4,8p' $out/$o-$r.log
  done
done
