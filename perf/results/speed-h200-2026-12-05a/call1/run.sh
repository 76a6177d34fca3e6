#!/usr/bin/env bash
# Twenty-eighth run (H200), first call: diagnostics of what is left between ferry_B and ferry_C
# (issue 7, item 3), on e4d2686's binaries (.gpu-stage/bins.tar.xz: ferry-perf, ferry_unit_tests,
# ferry_device_tests):
#   - every cuda unit test and device test (the checked_array death test among them);
#   - ferry_B - ferry_C in us per rep for seven apps at --size 1e4, 1e6 and 8e6 (--repfact
#     0.25), 5 passes, base_cuda, ferry_B, ferry_C: a cost per launch stays the same in us, a
#     cost per element grows with the size; and at the default size with 10 times the reps
#     (--repfact 10): a cost once per pass shrinks tenfold per rep;
#   - ncu, no cache flush, clocks as the timed runs have them: each kernel's device duration
#     (gpu__time_duration) for the same apps, 20 reps, then memory traffic, instructions and
#     occupancy of 3 reps.
set -uo pipefail
out=${1:?out}; pack=${2:?pack}; mkdir -p "$out"
b=bin-dir; rm -rf $b; mkdir -p $b; tar xJf .gpu-stage/bins.tar.xz -C $b
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
timeout 100 bash -c "$c/ferry_unit_tests --gtest_filter='*/cuda:-*terminates*:*death*' --gtest_brief=1; $c/ferry_device_tests --gtest_brief=1" > $out/tests.log 2>&1; el tests $?
K=VOL3D,DEL_DOT_VEC_2D,MATVEC_3D_STENCIL,FIR,MASS3DPA,CONVECTION3DPA,DIFFUSION3DPA
for s in 1e4 1e6 8e6; do
  extra=""; [[ $s == 8e6 ]] && extra="--repfact 0.25"
  timeout 110 $c/ferry-perf --backend cuda --npasses 5 -k $K -v base_cuda,ferry_B,ferry_C --size $s $extra --csv $out/size$s.csv > $out/size$s.log 2>&1; el "size $s" $?
done
timeout 110 $c/ferry-perf --backend cuda --npasses 5 -k $K -v base_cuda,ferry_B,ferry_C --repfact 10 --csv $out/sizerf10.csv > $out/sizerf10.log 2>&1; el "repfact 10" $?
timeout 120 ncu --metrics gpu__time_duration.sum --cache-control none --clock-control none --csv \
  --log-file $out/ncu-time.csv $c/ferry-perf --backend cuda -k $K -v base_cuda,ferry_B,ferry_C \
  --reps 20 --npasses 1 > $out/ncu-time.log 2>&1; el ncu-time $?
timeout 120 ncu --metrics dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_op_read.sum,lts__t_sectors_op_write.sum,smsp__inst_executed.sum,sm__warps_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread,launch__grid_size,launch__block_size \
  --cache-control none --clock-control none --csv --log-file $out/ncu-metrics.csv \
  $c/ferry-perf --backend cuda -k $K -v base_cuda,ferry_B,ferry_C --reps 3 --npasses 1 > $out/ncu-metrics.log 2>&1; el ncu-metrics $?
grep -E "tests ran|PASSED|FAILED" $out/tests.log | head -6
python3 - $out <<'PY'
import csv, sys, glob, os, re, statistics
o = sys.argv[1]
for p in sorted(glob.glob(o + "/size*.csv")):
    d = {}
    for r in csv.DictReader(open(p)):
        d.setdefault(r["kernel"].split("_", 1)[1], {})[r["variant"]] = (float(r["time_per_rep_s"]) * 1e6, r["status"])
    print(os.path.basename(p)[:-4], " ".join("%s %+.2fus %.3f%s" % (k[:6], v["ferry_B"][0] - v["ferry_C"][0], v["ferry_B"][0] / v["ferry_C"][0], "" if all(s == "PASSED" for _, s in v.values()) else " FAIL") for k, v in sorted(d.items())))
try:
    rows = [r for r in csv.reader(l for l in open(o + "/ncu-time.csv") if not l.startswith("=="))]
    h = rows[0]; ki = h.index("Kernel Name"); vi = h.index("Metric Value")
    t = {}
    for r in rows[1:]:
        n = r[ki]; m = re.search(r"(\w+_(?:ferry|cuda))::", n)
        kind = re.match(r"(?:void )?([\w:]+)", n).group(1).split("::")[-1]
        t.setdefault((m.group(1) if m else "") + " " + kind, []).append(float(r[vi].replace(",", "")))
    for k, v in sorted(t.items()):
        if len(v) >= 5: print("ncu %-60s n %3d min %9.0f med %9.0f ns" % (k, len(v), min(v), statistics.median(v)))
except Exception as e:
    print("ncu", e)
PY
