#!/usr/bin/env bash
# Thirtieth run, call 2: the tree with detail::pack (bound arguments and reduction states in a
# plain struct instead of std::tuple), built on the GPU machine (16 cores): ferry-perf, and the
# unit and device tests where that machine's CMake finds GoogleTest; every cuda unit test and
# device test, then the suite: 27 kernels, 3 passes, base_cuda, ferry_B, ferry_C, checks on.
set -uo pipefail
out=${1:?out}; mkdir -p "$out"
cp "$0" "$out/run.sh"
t0=$(date +%s)
el() { echo "$1 rc=$2 $(( $(date +%s) - t0 ))s" | tee -a $out/steps.log; }
export CUDA_MODULE_LOADING=EAGER
unset FERRY_INFO FERRY_BACKEND FERRY_DEPENDENT_LAUNCH
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,temperature.gpu --format=csv > $out/gpu.txt 2>&1
b=/tmp/bld; tests=ON
cmake -S . -B $b -G Ninja -DCMAKE_BUILD_TYPE=Release -DFERRY_DEVICE_BACKEND=cuda \
  -DFERRY_BUILD_TESTS=ON -DFERRY_BUILD_EXAMPLES=OFF > $out/configure.log 2>&1 ||
  { tests=OFF; cmake -S . -B $b -G Ninja -DCMAKE_BUILD_TYPE=Release -DFERRY_DEVICE_BACKEND=cuda \
      -DFERRY_BUILD_TESTS=OFF -DFERRY_BUILD_EXAMPLES=OFF >> $out/configure.log 2>&1; }
el "configure (tests $tests)" $?
targets="ferry-perf"; [[ $tests == ON ]] && targets="$targets ferry_unit_tests ferry_device_tests"
timeout 330 ninja -C $b -j 16 -k 0 $targets > $out/build.log 2>&1; el build $?
if [[ $tests == ON ]]; then
  u=$(find $b -name ferry_unit_tests -type f | head -1); dv=$(find $b -name ferry_device_tests -type f | head -1)
  timeout 90 bash -c "$u --gtest_filter='*/cuda:-*terminates*:*death*' --gtest_brief=1; $dv --gtest_brief=1" > $out/tests.log 2>&1; el tests $?
fi
p=$(find $b -name ferry-perf -type f | head -1)
timeout 200 $p --backend cuda --npasses 3 -v base_cuda,ferry_B,ferry_C --csv $out/suite.csv > $out/suite.log 2>&1; el suite $?
grep -E "tests ran|PASSED|FAILED" $out/tests.log 2>/dev/null | head -6
head -1 $out/gpu.txt; tail -1 $out/gpu.txt
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
print("kernels %d | B/base geo27 %.3f apps %.3f max %s %.3f | not passed: %s" % (len(d), geo(bb.values()), geo([bb[k] for k in apps]), *max(bb.items(), key=lambda x: x[1]), bad))
print("B/C geo %.3f; above 1.005:" % geo(bc.values()), " ".join("%s %.3f" % (k, x) for k, x in sorted(bc.items(), key=lambda x: -x[1]) if x > 1.005))
PY
