#!/usr/bin/env bash
# One GPU session: the unit tests (every backend, cuda included), the device tests and the
# examples on the H200, then perf/scripts/run-h200.sh (D2D bandwidth, ferry-perf, transfer table,
# transfer benchmark). Binaries are built beforehand on the CPU machine into BINDIR.
# Usage: perf/scripts/gpu-session.sh BINDIR OUTDIR
#   BINDIR: a CUDA build directory, or a folder holding its binaries side by side.
set -uo pipefail
bindir=$1
out=$2
mkdir -p "$out"
export CUDA_MODULE_LOADING=EAGER
here=$(cd "$(dirname "$0")" && pwd)
# A binary in BINDIR itself (a folder of collected binaries) or where a CMake build puts it.
bin() {
  local d
  for d in "$bindir" "$bindir/tests/unit" "$bindir/tests/device" "$bindir/perf"; do
    [[ -x $d/$1 ]] && { echo "$d/$1"; return; }
  done
  echo "$bindir/$1"  # missing: the call below reports it
}
examples=("$bindir"/ferry_example_* "$bindir"/examples/ferry_example_*)
{
  echo "== unit tests (serial, checked, openmp, cuda)"
  "$(bin ferry_unit_tests)" --gtest_brief=1 2>&1 | tail -n 12
  echo "== bounds-check opt-out tests (FERRY_UNSAFE_NO_BOUNDS_CHECKS=1)"
  "$(bin ferry_no_bounds_checks_tests)" --gtest_brief=1 2>&1 | tail -n 6
  echo "== device tests"
  "$(bin ferry_device_tests)" 2>&1 | grep -E "^\[ *(OK|FAILED|SKIPPED|PASSED) *\]|caught:|Failure|error" | head -n 30
  echo "== examples"
  for e in "${examples[@]}"; do
    [[ -x $e ]] || continue
    if "$e" >"$out/$(basename "$e").log" 2>&1; then echo "$(basename "$e"): ok"; else echo "$(basename "$e"): FAILED"; fi
  done
} >"$out/tests-h200.log" 2>&1
"$here/run-h200.sh" "$bindir" "$out"
status=$?
echo
echo "== tests on the H200 (full log: tests-h200.log)"
grep -E "^==|PASSED|FAILED|ok$|tests? ran|SKIPPED" "$out/tests-h200.log" | head -n 30
exit $status
