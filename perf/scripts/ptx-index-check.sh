#!/usr/bin/env bash
# Checks that ferry's index arithmetic compiles to what a hand-written kernel does: compiles each
# Apps and Lcals kernel's ferry variants and its hand-written CUDA baseline to PTX (no GPU
# needed) and counts, per kernel entry, integer division/remainder instructions
# (div.s64/u64/s32/u32, rem.*) and all instructions. A ferry kernel must have no div/rem its
# baseline lacks.
#
# Usage: perf/scripts/ptx-index-check.sh [out.csv]   (run from the repository root)
set -euo pipefail
out=${1:-perf/results/ptx-index-check.csv}
nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
flags=(-std=c++20 -arch=sm_90 -O3 --extended-lambda --expt-relaxed-constexpr -Xcompiler -fopenmp
       '-DFERRY_DEVICE_BACKEND_HEADER="ferry/backend/cuda/backend.hpp"' -Iinclude -Iperf -ptx)
echo "kernel_file,variant,entry,instructions,int_div_rem" > "$out"
for src in perf/kernels/{apps,lcals}/*-ferry.cpp perf/kernels/{apps,lcals}/*-cuda.cu; do
  name=$(basename "$src")
  variant=$([[ $src == *-ferry.cpp ]] && echo ferry || echo base_cuda)
  "$nvcc" "${flags[@]}" -x cu "$src" -o "$tmp/$name.ptx"
  # One record per .entry: count instruction lines (tab-indented, not directives or labels).
  awk -v file="${name%%-*}" -v variant="$variant" '
    /^\.visible \.entry|^\.entry/ { if (entry != "") print file "," variant "," entry "," n "," d;
                                    entry = $NF; sub(/\(.*/, "", entry); n = 0; d = 0; next }
    entry != "" && /^\t[a-z@]/ && !/^\t\./ { n++; if ($0 ~ /\t(div|rem)\.(s|u)(32|64)/) d++ }
    END { if (entry != "") print file "," variant "," entry "," n "," d }' "$tmp/$name.ptx" >> "$out"
done
echo "per kernel file: entries, instructions and integer div/rem (ferry vs base_cuda):"
awk -F, 'NR > 1 { k = $1 "," $2; e[k]++; n[k] += $4; d[k] += $5 }
         END { for (k in e) printf "  %-28s %3d entries %7.1f instr/entry %3d div/rem\n", k, e[k], n[k] / e[k], d[k] }' "$out" | sort
bad=$(awk -F, 'NR > 1 && $2 == "ferry" && $5 > 0' "$out" | wc -l)
echo "ferry entries with integer div/rem: $bad (written: $out)"
