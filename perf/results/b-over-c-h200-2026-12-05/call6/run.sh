#!/usr/bin/env bash
# Call 6: VOL3D's ferry_B with its x, y, z as one multi-array ferry::around (as committed: the
# bound argument has three bases and passes no restrict parameter, so its 24 loads are plain
# ld.global) against three single-array ferry::around arguments (three-arounds.patch: each
# passes its base as a restrict parameter, and the loads become ld.global.nc as in ferry_C).
# Both programs alternately, 4 rounds of 5 passes, VOL3D only, ferry_B and ferry_C.
set -uo pipefail
out=${1:?out}; mkdir -p "$out"
cp "$0" "$(dirname "$0")/three-arounds.patch" "$out/"
t0=$(date +%s)
el() { echo "$1 rc=$2 $(( $(date +%s) - t0 ))s" | tee -a $out/steps.log; }
export CUDA_MODULE_LOADING=EAGER
unset FERRY_INFO FERRY_BACKEND FERRY_DEPENDENT_LAUNCH
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,temperature.gpu --format=csv > $out/gpu.txt 2>&1
b=/tmp/bld-vol
cmake -S . -B $b -G Ninja -DCMAKE_BUILD_TYPE=Release -DFERRY_DEVICE_BACKEND=cuda \
  -DFERRY_BUILD_TESTS=OFF -DFERRY_BUILD_EXAMPLES=OFF > /dev/null 2>&1; el configure $?
ninja -C $b -j 16 ferry-perf > $out/build.log 2>&1; el build $?
one=/tmp/ferry-perf-one; cp "$(find $b -name ferry-perf -type f | head -1)" $one
patch -p1 < "$(dirname "$0")/three-arounds.patch" > /dev/null && ninja -C $b ferry-perf >> $out/build.log 2>&1; el build-three $?
three=$(find $b -name ferry-perf -type f | head -1)
patch -R -p1 < "$(dirname "$0")/three-arounds.patch" > /dev/null
for r in 1 2 3 4; do
  for m in one three; do
    p=$one; [[ $m == three ]] && p=$three
    $p --backend cuda -k VOL3D -v ferry_B,ferry_C --npasses 5 --csv $out/$m-$r.csv > $out/$m-$r.log 2>&1 || echo "$m $r failed"
  done
done; el runs $?
python3 - $out <<'PY'
import csv, glob, sys
o = sys.argv[1]
best = {}
for f in glob.glob(o + "/*-*.csv"):
    m = f.rsplit("/", 1)[1].split("-")[0]
    for r in csv.DictReader(l for l in open(f) if not l.startswith("#")):
        k = (m, r["variant"]); t = float(r["time_per_rep_s"]) * 1e6
        best[k] = min(best.get(k, t), t)
        if r["status"] != "PASSED": print("NOT PASSED", f, r["variant"])
for k in sorted(best): print("%-6s %-8s %8.3f us" % (k[0], k[1], best[k]))
c = min(best[("one", "ferry_C")], best[("three", "ferry_C")])
print("ferry_B / ferry_C: one around %.3f, three arounds %.3f; ferry_C one/three %.3f" % (
    best[("one", "ferry_B")] / c, best[("three", "ferry_B")] / c,
    best[("one", "ferry_C")] / best[("three", "ferry_C")]))
PY
head -2 $out/gpu.txt | tail -1
