#!/usr/bin/env bash
# One GPU session: the unit tests (every backend, cuda included), the device tests and the
# examples on the H200, then perf/scripts/run-h200.sh (D2D bandwidth, ferry-perf, transfer table,
# transfer benchmark). Binaries are built beforehand on the CPU machine into BINDIR.
# Usage: perf/scripts/gpu-session.sh BINDIR OUTDIR
set -uo pipefail
bindir=$1
out=$2
mkdir -p "$out"
export CUDA_MODULE_LOADING=EAGER
here=$(cd "$(dirname "$0")" && pwd)
{
  echo "== unit tests (serial, checked, openmp, cuda)"
  "$bindir/ferry_unit_tests" --gtest_brief=1 2>&1 | tail -n 12
  echo "== bounds tests (FERRY_CHECKED=1)"
  "$bindir/ferry_bounds_tests" --gtest_brief=1 2>&1 | tail -n 6
  echo "== device tests"
  "$bindir/ferry_device_tests" 2>&1 | grep -E "^\[ *(OK|FAILED|SKIPPED|PASSED) *\]|caught:|Failure|error" | head -n 30
  echo "== examples"
  for e in "$bindir"/ferry_example_*; do
    if "$e" >"$out/$(basename "$e").log" 2>&1; then echo "$(basename "$e"): ok"; else echo "$(basename "$e"): FAILED"; fi
  done
} >"$out/tests-h200.log" 2>&1
"$here/run-h200.sh" "$bindir" "$out"
status=$?
echo
echo "== tests on the H200 (full log: tests-h200.log)"
grep -E "^==|PASSED|FAILED|ok$|tests? ran|SKIPPED" "$out/tests-h200.log" | head -n 30
exit $status
