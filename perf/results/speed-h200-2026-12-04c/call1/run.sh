#!/usr/bin/env bash
# Twenty-sixth run (H200), first call: where ferry_B's excess after base_cuda comes from.
#   - every cuda unit test and device test (the resident-entry refactor's first GPU run);
#   - the five one-launch kernels (DAXPY, ADD, MUL, TRIAD, COPY), 5 passes, in four variant
#     orders (ferry-perf now runs the variants in the order -v names them), at the default reps
#     and at 5000 reps;
#   - the three partial-assembly kernels with and without bounds checks (ferry-perf-unchecked
#     from link-unchecked.sh --only), in two orders;
#   - the suite, 27 kernels, 5 passes, in the order base_cuda, ferry_C, ferry_B.
# bins.tar.xz: cuda/ (ferry-perf, ferry-perf-unchecked, ferry_unit_tests, ferry_device_tests).
set -uo pipefail
out=${1:?out}; pack=${2:?pack}; mkdir -p "$out"
here=$(cd "$(dirname "$0")" && pwd)
b=bin-dir; rm -rf $b; mkdir -p $b; tar xJf "$here/bins.tar.xz" -C $b
c=$b/cuda
export CUDA_MODULE_LOADING=EAGER
unset FERRY_INFO FERRY_BACKEND FERRY_DEPENDENT_LAUNCH
t0=$(date +%s)
el() {
  echo "$1 rc=$2 $(( $(date +%s) - t0 ))s" | tee -a $out/steps.log
  tar czf "$pack" -C "$(dirname "$out")" "$(basename "$out")"
}
cp "$0" $out/run.sh
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,temperature.gpu --format=csv > $out/gpu.txt 2>&1
timeout 120 bash -c "$c/ferry_unit_tests --gtest_filter='*/cuda:-*terminates*:*death*' --gtest_brief=1; $c/ferry_device_tests --gtest_brief=1" > $out/tests.log 2>&1; el tests $?
one=DAXPY,ADD,MUL,TRIAD,COPY
for order in base_cuda,ferry_B,ferry_C base_cuda,ferry_C,ferry_B ferry_B,ferry_C ferry_C,ferry_B; do
  timeout 60 $c/ferry-perf --backend cuda --npasses 5 -k $one -v $order --csv $out/one-${order//,/-}.csv > $out/one-${order//,/-}.log 2>&1; el "one $order" $?
done
for order in base_cuda,ferry_B,ferry_C base_cuda,ferry_C,ferry_B; do
  timeout 60 $c/ferry-perf --backend cuda --npasses 5 --reps 5000 -k $one -v $order --csv $out/one5000-${order//,/-}.csv > $out/one5000-${order//,/-}.log 2>&1; el "one 5000 $order" $?
done
pa=MASS3DPA,DIFFUSION3DPA,CONVECTION3DPA
for exe in ferry-perf ferry-perf-unchecked; do
  for order in base_cuda,ferry_B,ferry_C base_cuda,ferry_C,ferry_B; do
    timeout 60 $c/$exe --backend cuda --npasses 5 -k $pa -v $order --csv $out/pa-$exe-${order//,/-}.csv > $out/pa-$exe-${order//,/-}.log 2>&1; el "pa $exe $order" $?
  done
done
timeout 240 $c/ferry-perf --backend cuda --npasses 5 -v base_cuda,ferry_C,ferry_B --csv $out/suite-CB.csv --json $out/suite-CB.json > $out/suite-CB.log 2>&1; el "suite C,B" $?
grep -E "tests ran|PASSED|FAILED|SKIPPED|^==" $out/tests.log | head -8
python3 - $out <<'PY'
import csv, sys, glob, math, os
for p in sorted(glob.glob(sys.argv[1] + "/*.csv")):
    d = {}
    for r in csv.DictReader(open(p)):
        d.setdefault(r["kernel"].split("_", 1)[1], {})[r["variant"]] = float(r["time_per_rep_s"]) * 1e6
    print("==", os.path.basename(p))
    if "suite" in p:
        bc = {k: v["ferry_B"] / v["ferry_C"] for k, v in d.items() if "ferry_C" in v}
        bb = [v["ferry_B"] / v["base_cuda"] for v in d.values()]
        print("geomean B/base %.3f" % math.exp(sum(map(math.log, bb)) / len(bb)), "B/C>1.005:",
              " ".join("%s %.3f" % (k, r) for k, r in sorted(bc.items(), key=lambda x: -x[1]) if r > 1.005))
        continue
    for k, v in d.items():
        print("  %-16s" % k, " ".join("%s %.3f" % (n[-1] if n != "base_cuda" else "base", t) for n, t in v.items()),
              " B/C %.3f" % (v["ferry_B"] / v["ferry_C"]))
PY
