#!/usr/bin/env bash
# Thirtieth run, call 3: the final tree (detail::pack, laid out as std::tuple, for the bound
# arguments, states, block steps and repeat phases), built on the GPU machine (16 cores): every
# cuda unit test and device test; then compile time with nvcc, each Apps ferry file against this
# tree's headers and against 82f910d's (.gpu-stage/inc_old/include, std::tuple), 3 rounds, 4
# kernels at a time; then, in the time left, the suite (27 kernels, 3 passes, base_cuda,
# ferry_B, ferry_C, checks on).
set -uo pipefail
out=${1:?out}; mkdir -p "$out"
cp "$0" "$out/run.sh"
t0=$(date +%s)
el() { echo "$1 rc=$2 $(( $(date +%s) - t0 ))s" | tee -a $out/steps.log; }
export CUDA_MODULE_LOADING=EAGER
unset FERRY_INFO FERRY_BACKEND FERRY_DEPENDENT_LAUNCH
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,temperature.gpu --format=csv > $out/gpu.txt 2>&1
b=/tmp/bld3
cmake -S . -B $b -G Ninja -DCMAKE_BUILD_TYPE=Release -DFERRY_DEVICE_BACKEND=cuda \
  -DFERRY_BUILD_TESTS=ON -DFERRY_BUILD_EXAMPLES=OFF > /dev/null 2>&1; el configure $?
timeout 220 ninja -C $b -j 16 -k 0 ferry-perf ferry_unit_tests ferry_device_tests > $out/build.log 2>&1; el build $?
grep -E "error|FAILED" $out/build.log | head -5
u=$(find $b -name ferry_unit_tests -type f | head -1); dv=$(find $b -name ferry_device_tests -type f | head -1)
timeout 90 bash -c "$u --gtest_filter='*/cuda:-*terminates*:*death*' --gtest_brief=1; $dv --gtest_brief=1" 2>&1 |
  sed 's|^.*/tests/|tests/|' > $out/tests.log; el tests $?
grep -E "tests ran|PASSED|FAILED" $out/tests.log | head -6
timeout 250 perf/scripts/compile-time.sh --reps 3 --jobs 4 --compare .gpu-stage/inc_old/include \
  --out "$out/compile-time.csv" 2>/dev/null | grep -v '^written' > "$out/compile-time.log"; el compile-time $?
cat "$out/compile-time.log"
left=$(( 545 - ($(date +%s) - t0) ))
if (( left > 60 )); then
  p=$(find $b -name ferry-perf -type f | head -1)
  timeout $left $p --backend cuda --npasses 3 -v base_cuda,ferry_B,ferry_C --csv $out/suite.csv > $out/suite.log 2>&1; el suite $?
  python3 - $out <<'PY'
import csv, sys, math
o = sys.argv[1]
d = {}
for r in csv.DictReader(open(o + "/suite.csv")):
    d.setdefault(r["kernel"].split("_", 1)[1], {})[r["variant"]] = (float(r["time_per_rep_s"]) * 1e6, r["status"])
geo = lambda xs: math.exp(sum(map(math.log, xs)) / len(xs))
rat = lambda a, b: {k: v[a][0] / v[b][0] for k, v in d.items() if a in v and b in v}
bb, bc = rat("ferry_B", "base_cuda"), rat("ferry_B", "ferry_C")
apps = [k for k in bb if k in ("DEL_DOT_VEC_2D", "ENERGY", "FIR", "LTIMES", "PRESSURE", "VOL3D", "MATVEC_3D_STENCIL")]
bad = [k for k, v in d.items() for n, (t, s) in v.items() if s != "PASSED"]
print("kernels %d | B/base geo %.3f apps %.3f max %s %.3f | not passed: %s" % (len(d), geo(bb.values()), geo([bb[k] for k in apps]) if apps else 0, *max(bb.items(), key=lambda x: x[1]), bad))
print("B/C geo %.3f" % geo(bc.values()))
PY
fi
head -1 $out/gpu.txt; tail -1 $out/gpu.txt
