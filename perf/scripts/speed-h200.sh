#!/usr/bin/env bash
# speed-h200.sh: the GPU evidence for the speed work (restrict, reductions, the wider suite), in
# one device call. Binaries are built beforehand on the CPU machine and brought along in BINDIR.
#
#   perf/scripts/speed-h200.sh BINDIR OUTDIR [NPASSES]
#
# Steps, each under its own time limit, each logged to OUTDIR:
#   1. machine: nvidia-smi;
#   2. tests: the cuda instances of the unit tests (tests that end the process on purpose left
#      out) and the device tests;
#   3. suite: ferry-perf over every kernel, base_cuda and ferry_A/B/C on the cuda backend,
#      NPASSES passes (default 3), CSV and JSON (ratios use the minimum over passes);
#   4. bounds: bounds-cost.sh, 2 alternating rounds of ferry-perf and ferry-perf-unchecked over
#      every kernel, ferry_B and ferry_C, each run 2 passes (so the minimum is over 4 passes per
#      program: with one pass per round, the 50-rep reduction kernels' first, cold pass made
#      PI_REDUCE's ratio 1.19-1.22 in two runs, although its loop indexes no array);
#   5. reduce: ferry-reduce-bench (ferry::sum against cub::DeviceReduce::Sum), if built;
#   6. launch: ferry-launch-bench (host cost per launch against unsafe and raw launches);
#   7. ncu: device durations of the launch-bound kernels' ferry_B, ferry_C and base_cuda;
#      nsys-reduce (or ncu-reduce): CUDA API calls and kernel times of small reductions;
#      ncu-hydro2d: issue, stall, occupancy and memory sections of HYDRO_2D's kernels;
#   8. sass: registers and instruction counts per kernel entry of ferry-perf (cuobjdump).
# Prints a short table last: per kernel, ferry_B / base_cuda and ferry_B / ferry_C; then packs
# OUTDIR into OUTDIR.tar.gz.
# Exit status: 0 when every step ran and passed.
set -uo pipefail
bindir=${1:?usage: speed-h200.sh BINDIR OUTDIR [NPASSES]}
out=${2:?OUTDIR}
npasses=${3:-3}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
mkdir -p "$out"
export CUDA_MODULE_LOADING=EAGER
unset FERRY_INFO FERRY_BACKEND
status=0
summary=()

bin() {
  local d
  for d in "$bindir" "$bindir/tests/unit" "$bindir/tests/device" "$bindir/perf" "$bindir/perf/reduce" \
    "$bindir/perf/launch"; do
    [[ -x $d/$1 ]] && { echo "$d/$1"; return; }
  done
}
# step NAME LIMIT_S CMD...: runs CMD under a time limit, output to OUTDIR/NAME.log.
step() {
  local name=$1 limit=$2 t0 rc
  shift 2
  t0=$(date +%s)
  echo "== $name (limit ${limit}s)"
  timeout --kill-after=10 "$limit" "$@" > "$out/$name.log" 2>&1
  rc=$?
  summary+=("$(printf '%-8s rc=%-3s %4ss' "$name" "$rc" "$(( $(date +%s) - t0 ))")")
  (( rc == 0 )) || status=1
  tail -n 3 "$out/$name.log"
}

step machine 30 nvidia-smi
ut=$(bin ferry_unit_tests); dt=$(bin ferry_device_tests)
if [[ -n $ut ]]; then
  step tests 150 bash -c "'$ut' --gtest_filter='*/cuda:-*terminates*:*death*' --gtest_brief=1 && { [[ -z '$dt' ]] || '$dt' --gtest_brief=1; }"
fi
perf=$(bin ferry-perf)
step suite 300 "$perf" --backend cuda --npasses "$npasses" -v base_cuda,ferry_A,ferry_B,ferry_C \
  --csv "$out/suite.csv" --json "$out/suite.json"
pdir=$(dirname "$perf")
[[ -x $pdir/ferry-perf-unchecked ]] && step bounds 330 "$here/bounds-cost.sh" -n 2 -b "$pdir" -o "$out/bounds-cost.csv" -- \
  --backend cuda --npasses 2 -v ferry_B,ferry_C
rb=$(bin ferry-reduce-bench)
[[ -n $rb ]] && step reduce 120 "$rb" --passes 5 --csv "$out/reduce.csv"
lb=$(bin ferry-launch-bench)
[[ -n $lb ]] && step launch 120 "$lb" --passes 20 --csv "$out/launch-bench.csv"
# Kernel durations on the device (ncu, no host time), for the launch-bound kernels where the
# time per rep may be the host's or the device's: ferry_B against base_cuda and ferry_C.
command -v ncu > /dev/null && step ncu 240 ncu --metrics gpu__time_duration.sum --csv \
  --log-file "$out/ncu.csv" "$perf" --backend cuda -k ADD,DAXPY,TRIAD,INIT3,HYDRO_1D,HYDRO_2D,FIR \
  -v base_cuda,ferry_B,ferry_C --reps 5
# Why a kernel trails its baseline on the device (HYDRO_2D's first two loops: ferry_B's kernels
# took about twice base_cuda's device time in the previous run): issue, stall reasons, occupancy
# and memory traffic of one launch of each, side by side.
command -v ncu > /dev/null && step ncu-hydro2d 180 ncu --section LaunchStats --section Occupancy \
  --section SchedulerStats --section WarpStateStats --section MemoryWorkloadAnalysis \
  --section ComputeWorkloadAnalysis --csv --log-file "$out/ncu-hydro2d.csv" --launch-count 9 \
  "$perf" --backend cuda -k HYDRO_2D -v base_cuda,ferry_B,ferry_C --reps 1
# Where a small reduction's time goes (n = 1e3 and 1e4, where ferry::sum trails CUB most):
# nsys's per-call CUDA API and kernel summaries when nsys is there, else ncu kernel durations.
if [[ -n $rb ]]; then
  if command -v nsys > /dev/null; then
    step nsys-reduce 180 nsys profile -t cuda --stats=true -o "$out/reduce-small" --force-overwrite true \
      "$rb" --max-n 1e4 --passes 1 --csv "$out/reduce-small.csv"
  elif command -v ncu > /dev/null; then
    step ncu-reduce 180 ncu --metrics gpu__time_duration.sum --csv --launch-count 400 \
      --log-file "$out/ncu-reduce.csv" "$rb" --max-n 1e4 --passes 1 --csv "$out/reduce-small.csv"
  fi
fi
step sass 60 bash -c "cuobjdump --dump-resource-usage '$perf' | grep -E 'Function|REG' > '$out/resource-usage.txt'; cuobjdump -sass '$perf' | awk '/Function :/ { f = \$3 } /^ +\\/\\*[0-9a-f]+\\*\\// { n[f]++ } END { for (f in n) print n[f], f }' | sort -k2 > '$out/sass-instructions.txt'; wc -l '$out'/resource-usage.txt '$out'/sass-instructions.txt"

echo
echo "steps:"; printf '  %s\n' "${summary[@]}"
[[ -f $out/bounds-cost.csv ]] && { echo "bounds checks on/off (ferry_B, ferry_C):"; grep -E "geomean|ferry_B" "$out/bounds-cost.csv" | cut -d, -f1,2,6 | head -20; }
[[ -f $out/reduce.csv ]] && { echo "ferry::sum / CUB:"; cut -d, -f1- "$out/reduce.csv" | head -12; }
[[ -f $out/launch-bench.csv ]] && { echo "host us per launch:"; cut -d, -f1,2,6,10 "$out/launch-bench.csv"; }
[[ -f $out/suite.csv ]] && python3 "$here/summarize.py" "$out/suite.csv" | head -60
# Everything in one archive beside OUTDIR: a file per step and per bounds round is more files
# than some transports bring back.
tar -C "$(dirname "$out")" -czf "$out.tar.gz" "$(basename "$out")" && echo "archive: $out.tar.gz"
exit $status
