#!/usr/bin/env bash
# Compile time with nvcc on the GPU machine (16 cores, quieter than the 2-core build machine):
# the twelve Apps ferry files against the headers with detail::pack (this tree) and against the
# previous commit's headers (.gpu-stage/inc_old/include, not committed), side by side in the
# same rounds, and each base_cuda file; 3 rounds, 4 kernels at a time.
set -uo pipefail
out=${1:?out}; mkdir -p "$out"
cp "$0" "$out/run.sh"
nproc > "$out/host.txt"; nvcc --version | tail -2 >> "$out/host.txt"
perf/scripts/compile-time.sh --reps 3 --jobs 4 --compare .gpu-stage/inc_old/include \
  --out "$out/compile-time.csv" > "$out/compile-time.log" 2>&1
echo "compile-time rc=$?"
cat "$out/compile-time.log" | grep -v '\.\.\.$'
