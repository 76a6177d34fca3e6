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
#                                     [--compare DIR] [--jobs N]
#        (from the repository root; NVCC=... picks the compiler)
# --out FILE.csv: where the rows go (default perf/results/compile-time.csv; name a dated file
#   under perf/results/ to keep a run with the results).
# --compare DIR also compiles each ferry file against the ferry headers under DIR (an include
#   directory, e.g. an older tree's `include`), in the same rounds, and adds its time and ratio
#   (old_ferry_s, old_ratio): an A/B of a header change measured side by side.
# --jobs N times N kernels at once (default 1; on a machine with many idle cores, 4 keeps the
#   run short without the jobs disturbing each other much).
# Each round compiles every file once, in turn (ferry, the --compare ferry, base_cuda), so a
# slow spell of a shared machine hits all of a kernel's files alike; the minimum over rounds is
# reported. CPU times are far less sensitive to other jobs than wall times, but an idle machine
# is best.
set -euo pipefail
reps=3
out=perf/results/compile-time.csv
kernels=""
compare=""
jobs=1
while [[ $# -gt 0 ]]; do
  [[ $1 == -h || $1 == --help || $# -ge 2 ]] ||
    { echo "compile-time.sh: $1 needs a value (see --help)" >&2; exit 2; }
  case $1 in
    --reps) reps=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --kernels) kernels=$2; shift 2 ;;
    --compare) compare=$2; shift 2 ;;
    --jobs) jobs=$2; shift 2 ;;
    -h|--help) sed -n '2,25p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "compile-time.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
done
[[ -z $compare || -f $compare/ferry/ferry.hpp ]] ||
  { echo "compile-time.sh: --compare $compare holds no ferry/ferry.hpp" >&2; exit 2; }
[[ $reps =~ ^[1-9][0-9]*$ && $jobs =~ ^[1-9][0-9]*$ ]] ||
  { echo "compile-time.sh: --reps and --jobs take a positive integer" >&2; exit 2; }
nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
[[ -x $nvcc ]] || { echo "compile-time.sh: nvcc not found (set NVCC)" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
flags=(-std=c++20 -arch=sm_90 -O3 --extended-lambda --expt-relaxed-constexpr -restrict
       -Xcompiler -fopenmp '-DFERRY_DEVICE_BACKEND_HEADER="ferry/backend/cuda/backend.hpp"' -Iperf)
if [[ -z $kernels ]]; then
  kernels=$(ls perf/kernels/apps/*-ferry.cpp | xargs -n1 basename | sed 's/-ferry.cpp//')
fi

# cpu_time FILE INCLUDE OBJ: the CPU time (user + system) of one compilation of FILE with the
# ferry headers under INCLUDE, of nvcc and every process it ran, in seconds. CPU time rather
# than wall time: on a shared machine another job's load stretches the wall time of a
# compilation but hardly its CPU time.
cpu_time() {
  local t
  t=$( { TIMEFORMAT='%U %S'; time "$nvcc" "${flags[@]}" "-I$2" -x cu -c "$1" -o "$3" 2> "$3.err"; } 2>&1 ) ||
    { cat "$3.err" >&2; echo "compile-time.sh: nvcc failed on $1 (headers $2)" >&2; return 1; }
  awk '{ printf "%.2f", $(NF - 1) + $NF }' <<< "$t"
}
min() { awk -v a="$1" -v b="$2" 'BEGIN { print (b == "" || a < b) ? a : b }'; }
# measure NAME FERRY_FILE BASE_FILE: one CSV row, the minimum over $reps rounds of each file.
measure() {
  local name=$1 f=$2 b=$3 tf="" tb="" to="" r o=$tmp/$1.o
  local t
  for ((r = 0; r < reps; r++)); do
    t=$(cpu_time "$f" include "$o") || return 1
    tf=$(min "$t" "$tf")
    if [[ -n $compare ]]; then
      t=$(cpu_time "$f" "$compare" "$o") || return 1
      to=$(min "$t" "$to")
    fi
    t=$(cpu_time "$b" include "$o") || return 1
    tb=$(min "$t" "$tb")
  done
  local row="$name,$tf,$tb,$(ratio "$tf" "$tb"),$(lines "$f"),$(lines "$b")"
  [[ -n $compare ]] && row="$row,$to,$(ratio "$to" "$tb")"
  echo "$row"
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
lines() { "$nvcc" "${flags[@]}" -Iinclude -x cu -E "$1" 2>/dev/null | wc -l; }

header='kernel,ferry_s,base_cuda_s,ratio,ferry_lines,base_cuda_lines'
[[ -n $compare ]] && header="$header,old_ferry_s,old_ratio"
printf '#include <ferry/ferry.hpp>\n' > "$tmp/ferry_only.cu"
printf '#include <cuda_runtime.h>\n' > "$tmp/cuda_only.cu"
for k in $kernels; do
  [[ -f perf/kernels/apps/$k-ferry.cpp && -f perf/kernels/apps/$k-cuda.cu ]] ||
    { echo "compile-time.sh: no perf/kernels/apps/$k-ferry.cpp / $k-cuda.cu" >&2; exit 1; }
done
export -f cpu_time min measure ratio lines
export nvcc reps compare tmp
# The kernels in parallel (--jobs), each writing its row to its own file; rows are then
# gathered in the kernels' order.
{
  echo "include-only $tmp/ferry_only.cu $tmp/cuda_only.cu"
  for k in $kernels; do echo "$k perf/kernels/apps/$k-ferry.cpp perf/kernels/apps/$k-cuda.cu"; done
} | xargs -P "$jobs" -L 1 bash -c 'flags=('"$(printf '%q ' "${flags[@]}")"'); echo "  $0 ..." >&2; measure "$0" "$1" "$2" > "$tmp/row.$0" || exit 255'
echo "$header" > "$out"
for k in include-only $kernels; do cat "$tmp/row.$k" >> "$out"; done
printf '%-22s %8s %11s %6s %11s %10s' kernel ferry_s base_cuda_s ratio ferry_lines cuda_lines
[[ -n $compare ]] && printf ' %11s %9s' old_ferry_s old_ratio
echo
tail -n +2 "$out" | awk -F, '{ printf "%-22s %8s %11s %6s %11s %10s", $1, $2, $3, $4, $5, $6;
                              if (NF > 6) printf " %11s %9s", $7, $8; printf "\n" }'
awk -F, 'NR > 2 { s += log($4); n++; if (NF > 6) { o += log($8); old = 1 } }
         END { if (n) { printf "geomean ratio over %d apps: %.2f", n, exp(s / n);
                        if (old) printf " (old headers: %.2f)", exp(o / n); printf "\n" } }' "$out"
echo "written: $out"
