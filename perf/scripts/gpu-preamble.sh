# Sourced by a results call's run.sh on the GPU machine, from the repository root:
#   source perf/scripts/gpu-preamble.sh "$0" "$1"
# where $1, the call's output folder, lies below the folder the machine returns (e.g.
# $OUT/call1): bundle writes its tarball beside it, so with $OUT itself nothing would come back.
# Turns on `set -uo pipefail` in the calling script (an unset variable stops it: give optional
# settings defaults, as ${LEAN:-0}; a pipeline's status is its first failing command's).
# Sets out (the output folder, made, with run.sh copied in), t0 (start, s) and bld (a scratch
# build folder outside the tree), and defines
#   el STEP RC        appends "STEP rc=RC <seconds since start>s" to $out/steps.log and prints it;
#   cuda_configure SRC DIR [cmake args...]   a Release CUDA configure of SRC into DIR, its log in
#                     $out/configure-<last folder name of DIR>.log;
#   bundle            packs $out into $out.tgz and removes $out: the device machine returns at
#                     most 8 files per call, so a call with more brings them back as one;
#   sass_of TAG KERNEL...   compiles each KERNEL's ferry file (perf/kernels/*/KERNEL-ferry.cpp)
#                     to a cubin with ferry-perf's nvcc flags and one real architecture (sm_90),
#                     writes its SASS and resource usage to $out/sass-TAG/KERNEL.sass and
#                     .res.txt, and perf/scripts/sass_summary.py's summary to $out/sass-TAG.txt.
# Exports CUDA_MODULE_LOADING=EAGER (modules load before the timed loops), puts the CUDA
# toolkit on PATH (nvcc, cuobjdump) and clears the ferry variables that change what runs
# (FERRY_INFO, FERRY_BACKEND, FERRY_DEPENDENT_LAUNCH).
set -uo pipefail
out=${2:?usage: run.sh OUT}
out=${out%/}
mkdir -p "$out"
cp "$1" "$out/run.sh"
t0=$(date +%s)
bld=$(mktemp -d)
el() {
  local step=${1:?usage: el STEP RC} rc=${2:?usage: el STEP RC}
  echo "$step rc=$rc $(($(date +%s) - t0))s" | tee -a "$out/steps.log"
}
cuda_configure() {
  local use="usage: cuda_configure SRC DIR [cmake args...]"
  local src=${1:?$use} dir=${2:?$use}
  shift 2
  cmake -S "$src" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DFERRY_DEVICE_BACKEND=cuda \
    -DFERRY_BUILD_EXAMPLES=OFF "$@" > "$out/configure-$(basename "$dir").log" 2>&1
}
bundle() { tar -czf "$out.tgz" -C "$(dirname "$out")" "$(basename "$out")" && rm -rf "$out"; }
sass_of() {
  local tag=${1:?usage: sass_of TAG KERNEL...} k f
  shift
  mkdir -p "$out/sass-$tag"
  for k in "$@"; do
    f=$(ls perf/kernels/*/"$k"-ferry.cpp)
    { nvcc '-DFERRY_DEVICE_BACKEND_HEADER="ferry/backend/cuda/backend.hpp"' -Iperf -Iinclude -O3 \
        -DNDEBUG -arch=sm_90 -restrict --extended-lambda --expt-relaxed-constexpr \
        -Xcompiler=-fopenmp -std=c++20 -x cu -cubin "$f" -o "$bld/$k-$tag.cubin" &&
      cuobjdump -sass "$bld/$k-$tag.cubin" > "$out/sass-$tag/$k.sass" &&
      cuobjdump -res-usage "$bld/$k-$tag.cubin" > "$out/sass-$tag/$k.res.txt"; } &
  done
  wait
  python3 perf/scripts/sass_summary.py "$out/sass-$tag" > "$out/sass-$tag.txt" 2>&1
}
export CUDA_MODULE_LOADING=EAGER PATH=$PATH:/usr/local/cuda/bin
unset FERRY_INFO FERRY_BACKEND FERRY_DEPENDENT_LAUNCH
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,temperature.gpu --format=csv > "$out/gpu.txt" 2>&1
