#!/usr/bin/env bash
# Thirteenth run, part B: where the reductions' two speeds come from. The machine's topology,
# then the reduce bench (1e3-1e6) pinned to each NUMA node's cores in turn, three times each.
set -uo pipefail
out=${1:?out}; mkdir -p "$out"
b=bin-dir; rm -rf $b; mkdir -p $b; tar xJf "$(dirname "$0")/bins.tar.xz" -C $b
c=$b/cuda
export CUDA_MODULE_LOADING=EAGER
unset FERRY_INFO FERRY_BACKEND
{ nvidia-smi topo -m; lscpu | grep -i -E "numa|model name|^cpu\(s\)"; } > $out/topology.txt 2>&1
cat $out/topology.txt
nodes=$(lscpu | awk -F: '/NUMA node[0-9]+ CPU/ {gsub(/ /,"",$2); print $2}')
[ -z "$nodes" ] && nodes=$(nproc --all | awk '{print "0-"$1-1}')
k=0
for cpus in $nodes; do
  for r in 1 2 3; do
    k=$((k+1))
    timeout 60 taskset -c $cpus $c/ferry-reduce-bench --max-n 1e6 --passes 3 --csv $out/pinned-$k.csv > $out/pinned-$k.log 2>&1
    echo "cpus $cpus run $r rc=$?"; sed -n '4,7p' $out/pinned-$k.log
  done
done
for r in 1 2 3; do
  k=$((k+1))
  timeout 60 $c/ferry-reduce-bench --max-n 1e6 --passes 3 --csv $out/unpinned-$r.csv > $out/unpinned-$r.log 2>&1
  echo "unpinned run $r rc=$?"; sed -n '4,7p' $out/unpinned-$r.log
done
