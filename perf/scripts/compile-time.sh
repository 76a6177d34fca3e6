#!/usr/bin/env bash
# Compile time of ferry code against hand-written CUDA, with nvcc (no GPU needed).
#
# For every Apps kernel, compiles its ferry variants file (perf/kernels/apps/X-ferry.cpp, as
# CUDA) and its base_cuda file (X-cuda.cu) to an object file with the flags of a CUDA build of
# ferry-perf (-O3, sm_90, C++20, -restrict), each --reps times (default 3), and reports the
# minimum CPU time (user + system, nvcc and the compilers it runs) of each and their ratio
# (target: ferry / base_cuda <= 1.5). Also times two probes: a file that only includes
# <ferry/ferry.hpp> against one that only includes <cuda_runtime.h>, and both files'
# preprocessed line counts.
#
# Usage: perf/scripts/compile-time.sh [--reps N] [--out FILE.csv] [--kernels "A B"]
#        (from the repository root; NVCC=... picks the compiler)
# CPU times are far less sensitive to other jobs than wall times, but an idle machine is best.
set -euo pipefail
reps=3
out=perf/results/compile-time.csv
kernels=""
while [[ $# -gt 0 ]]; do
  case $1 in
    --reps) reps=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --kernels) kernels=$2; shift 2 ;;
    -h|--help) sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "compile-time.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
done
nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
[[ -x $nvcc ]] || { echo "compile-time.sh: nvcc not found (set NVCC)" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
flags=(-std=c++20 -arch=sm_90 -O3 --extended-lambda --expt-relaxed-constexpr -restrict
       -Xcompiler -fopenmp '-DFERRY_DEVICE_BACKEND_HEADER="ferry/backend/cuda/backend.hpp"' -Iinclude -Iperf)
if [[ -z $kernels ]]; then
  kernels=$(ls perf/kernels/apps/*-ferry.cpp | xargs -n1 basename | sed 's/-ferry.cpp//')
fi

# min_time FILE: the minimum over $reps compilations of FILE of the CPU time (user + system)
# of nvcc and every process it ran, in seconds. CPU time rather than wall time: on a shared
# machine another job's load stretches the wall time of a compilation but hardly its CPU time.
min_time() {
  local best="" t
  for ((r = 0; r < reps; r++)); do
    t=$( { TIMEFORMAT='%U %S'; time "$nvcc" "${flags[@]}" -x cu -c "$1" -o "$tmp/o.o" 2> "$tmp/err"; } 2>&1 ) ||
      { cat "$tmp/err" >&2; echo "compile-time.sh: nvcc failed on $1" >&2; exit 1; }
    t=$(awk '{ printf "%.2f", $(NF - 1) + $NF }' <<< "$t")
    if [[ -z $best ]] || awk -v a="$t" -v b="$best" 'BEGIN { exit !(a < b) }'; then best=$t; fi
  done
  echo "$best"
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
lines() { "$nvcc" "${flags[@]}" -x cu -E "$1" 2>/dev/null | wc -l; }

echo 'kernel,ferry_s,base_cuda_s,ratio,ferry_lines,base_cuda_lines' > "$out"
printf '#include <ferry/ferry.hpp>\n' > "$tmp/ferry_only.cu"
printf '#include <cuda_runtime.h>\n' > "$tmp/cuda_only.cu"
f=$(min_time "$tmp/ferry_only.cu"); b=$(min_time "$tmp/cuda_only.cu")
echo "include-only,$f,$b,$(ratio "$f" "$b"),$(lines "$tmp/ferry_only.cu"),$(lines "$tmp/cuda_only.cu")" >> "$out"
for k in $kernels; do
  fsrc=perf/kernels/apps/$k-ferry.cpp
  bsrc=perf/kernels/apps/$k-cuda.cu
  [[ -f $fsrc && -f $bsrc ]] || { echo "compile-time.sh: no $fsrc / $bsrc" >&2; exit 1; }
  echo "  $k ..." >&2
  f=$(min_time "$fsrc"); b=$(min_time "$bsrc")
  echo "$k,$f,$b,$(ratio "$f" "$b"),$(lines "$fsrc"),$(lines "$bsrc")" >> "$out"
done
printf '%-20s %9s %11s %7s %12s %12s\n' kernel ferry_s base_cuda_s ratio ferry_lines cuda_lines
tail -n +2 "$out" | awk -F, '{ printf "%-20s %9s %11s %7s %12s %12s\n", $1, $2, $3, $4, $5, $6 }'
awk -F, 'NR > 2 { s += log($4); n++ } END { if (n) printf "geomean ratio over %d apps: %.2f\n", n, exp(s / n) }' "$out"
echo "written: $out"
