#!/usr/bin/env bash
# safety-h200.sh: the GPU evidence for ferry's safety rules, in one script per device call.
#
#   perf/scripts/safety-h200.sh tests    BINDIR OUTDIR   unit tests (every backend, cuda included),
#                                                        device tests, the bounds opt-out program and
#                                                        the examples, then compute-sanitizer's
#                                                        memcheck, racecheck, initcheck and synccheck
#                                                        over the cuda instances of the unit tests,
#                                                        the examples and a reduced ferry-perf
#   perf/scripts/safety-h200.sh bounds   BINDIR OUTDIR   what the default bounds checks cost:
#                                                        bounds-cost.sh over the seven apps, checks
#                                                        on (ferry-perf) vs off (ferry-perf-unchecked)
#
# BINDIR holds the binaries of a CUDA build side by side (or is a CUDA build tree); OUTDIR gets
# one log per step and a summary CSV. The last lines printed are a short table. Each step has a
# time limit so that a call ends inside the device machine's 10 minutes.
# Exit status: 0 when every step passed (no sanitizer finding, every test passed), else 1.
set -uo pipefail
mode=${1:?usage: safety-h200.sh tests|bounds BINDIR OUTDIR}
bindir=${2:?BINDIR}
out=${3:?OUTDIR}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
mkdir -p "$out"
export CUDA_MODULE_LOADING=EAGER
unset FERRY_INFO FERRY_BACKEND

bin() {
  local d
  for d in "$bindir" "$bindir/tests/unit" "$bindir/tests/device" "$bindir/perf" "$bindir/examples"; do
    [[ -x $d/$1 ]] && { echo "$d/$1"; return; }
  done
  echo "$bindir/$1"
}
examples=()
for e in "$bindir"/ferry_example_* "$bindir"/examples/ferry_example_*; do
  [[ -x $e ]] && examples+=("$e")
done

rows=()   # "step|result|detail" for the final table
failed=0
# Runs a command with a time limit, its output in OUTDIR/<log>; records pass/fail.
step() { # name log limit_s command...
  local name=$1 log=$2 limit=$3
  shift 3
  timeout "$limit" "$@" >"$out/$log" 2>&1
  local rc=$?
  local detail
  detail=$(grep -E "tests? ran|PASSED|FAILED|ERROR SUMMARY" "$out/$log" | tail -n 2 | tr '\n' ' ')
  if ((rc == 0)); then
    rows+=("$name|ok|$detail")
  else
    rows+=("$name|FAILED (exit $rc)|$detail")
    failed=1
  fi
}

# compute-sanitizer over one program: the finding count comes from its ERROR SUMMARY line.
sanitize() { # tool name limit_s command...
  local tool=$1 name=$2 limit=$3
  shift 3
  local log="cs-$tool-$name.log"
  timeout "$limit" compute-sanitizer --tool "$tool" --error-exitcode 86 --print-limit 20 \
    "$@" >"$out/$log" 2>&1
  local rc=$?
  local findings
  # memcheck, initcheck, synccheck: "ERROR SUMMARY: N errors"; racecheck: "RACECHECK SUMMARY:
  # N hazards displayed (E errors, W warnings)".
  findings=$(grep -Eo "ERROR SUMMARY: [0-9]+" "$out/$log" | tail -n 1 | grep -Eo "[0-9]+$")
  [[ -n $findings ]] ||
    findings=$(grep -Eo "RACECHECK SUMMARY: [0-9]+ hazards" "$out/$log" | tail -n 1 | grep -Eo "[0-9]+")
  [[ -n $findings ]] || findings="?"
  if ((rc == 0)) && [[ $findings == 0 ]]; then
    rows+=("$tool $name|0 findings|")
  else
    rows+=("$tool $name|$findings findings (exit $rc)|see $log")
    failed=1
  fi
}

case $mode in
  tests)
    nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv >"$out/nvidia-smi.txt" 2>&1
    step "unit tests (serial, checked, openmp, cuda)" unit-tests.log 240 \
      "$(bin ferry_unit_tests)" --gtest_brief=1
    step "device tests" device-tests.log 120 "$(bin ferry_device_tests)"
    step "bounds opt-out tests" no-bounds-checks-tests.log 60 \
      "$(bin ferry_no_bounds_checks_tests)" --gtest_brief=1
    for e in "${examples[@]}"; do step "example $(basename "$e")" "$(basename "$e").log" 60 "$e"; done
    # The cuda instances only: the host backends run no device code. Death tests fork and trap
    # on purpose; the fault tests make kernels fail on purpose: both are excluded. The thread
    # stress tests (thousands of launches from 8 host threads) take too long under the tools, and
    # the tests that end the process on purpose (*terminates*) hang under them.
    unit_filter='*/cuda:-*death*:*fault*:*threads*:*terminates*'
    small_perf=(--size 20000 --reps 2 -v base_cuda,ferry_A,ferry_B,ferry_C)
    # The four tools run side by side (one GPU, many cores): each appends its rows to a file of
    # its own, merged below, so a call ends well inside the device machine's 10 minutes.
    for tool in memcheck racecheck initcheck synccheck; do
      (
        rows=()
        failed=0
        sanitize "$tool" unit 220 "$(bin ferry_unit_tests)" --gtest_filter="$unit_filter"
        for e in "${examples[@]}"; do sanitize "$tool" "$(basename "$e")" 60 "$e"; done
        sanitize "$tool" ferry-perf 180 "$(bin ferry-perf)" "${small_perf[@]}"
        printf '%s\n' "${rows[@]}" >"$out/rows-$tool.txt"
        exit $failed
      ) &
    done
    for job in $(jobs -p); do wait "$job" || failed=1; done
    for tool in memcheck racecheck initcheck synccheck; do
      [[ -f $out/rows-$tool.txt ]] || { rows+=("$tool|no result|"); failed=1; continue; }
      while IFS= read -r r; do [[ -n $r ]] && rows+=("$r"); done <"$out/rows-$tool.txt"
      rm -f "$out/rows-$tool.txt"
    done
    ;;
  bounds)
    step "bounds cost (${BOUNDS_ROUNDS:-5} rounds)" bounds-cost.log 540 \
      "$here/bounds-cost.sh" -n "${BOUNDS_ROUNDS:-5}" -b "$bindir" -o "$out/bounds-cost.csv" -- \
      --backend cuda -v base_cuda,ferry_A,ferry_B,ferry_C
    ;;
  *)
    echo "safety-h200.sh: unknown mode '$mode' (tests or bounds)" >&2
    exit 2
    ;;
esac

{
  echo "step,result,detail"
  for r in "${rows[@]}"; do IFS='|' read -r a b c <<<"$r"; printf '"%s","%s","%s"\n' "$a" "$b" "$c"; done
} >"$out/safety-$mode-summary.csv"
if [[ $mode == bounds && -f $out/bounds-cost.log ]]; then
  echo "== bounds cost (min over rounds; on/off > 1: the checks cost time)"
  tail -n 40 "$out/bounds-cost.log"
fi
echo "== summary ($mode)"
for r in "${rows[@]}"; do IFS='|' read -r a b c <<<"$r"; printf '%-48s %-22s %s\n' "$a" "$b" "${c:0:60}"; done
exit $failed
