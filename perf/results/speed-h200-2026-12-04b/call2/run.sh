#!/usr/bin/env bash
# Twenty-fifth run (H200), second call: where ferry::launch's one-launch excess over
# ferry::unsafe::launch lies, now that the first call showed it in a CUDA graph too (the
# device's time alone: safe 3.75 us, unsafe 3.52, ferry's body through unsafe::launch 3.61).
#   - the SASS of phase_probe's kernels (cuobjdump), to compare ferry's kernel with the
#     unsafe and ferry-bodied ones instruction by instruction;
#   - ncu, each kernel alone (no overlap): duration, instructions, launch statistics and
#     occupancy of 5 launches of each form;
#   - phase_probe with FERRY_DEPENDENT_LAUNCH=0 (no programmatic dependent launch), stream and
#     graph modes: is the excess tied to dependent launches?
#   - the suite again (5 passes), for the spread between two runs of the same build.
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
cuobjdump -sass $c/phase_probe > $out/phase_probe.sass 2>&1; el sass $?
timeout 120 ncu --section LaunchStats --section Occupancy --section SpeedOfLight \
  --metrics gpu__time_duration.sum,smsp__inst_executed.sum,sm__cycles_active.avg,smsp__warps_launched.sum,lts__t_sectors.sum \
  --csv --log-file $out/ncu.csv $c/phase_probe --reps 5 --passes 1 > $out/ncu-run.log 2>&1; el ncu $?
FERRY_DEPENDENT_LAUNCH=0 timeout 60 $c/phase_probe --reps 2000 > $out/nopdl-stream-1m.log 2>&1; el "no PDL stream" $?
FERRY_DEPENDENT_LAUNCH=0 timeout 60 $c/phase_probe --graph 1 > $out/nopdl-graph-1m.log 2>&1; el "no PDL graph" $?
timeout 40 $c/phase_probe --graph 1 > $out/graph-1m-2.log 2>&1; el "graph 1M again" $?
timeout 250 $c/ferry-perf --backend cuda --npasses 5 -v base_cuda,ferry_B,ferry_C --csv $out/suite2.csv > $out/suite2.log 2>&1; el suite2 $?
for f in $out/nopdl-*.log $out/graph-1m-2.log; do echo "== $(basename $f)"; tail -n 8 $f; done
python3 - "$out/ncu.csv" <<'PY'
import csv, sys, collections
rows = list(csv.reader(open(sys.argv[1])))
hdr = next(i for i, r in enumerate(rows) if r and r[0] == "ID")
h = rows[hdr]; ki = h.index("Kernel Name"); mi = h.index("Metric Name"); vi = h.index("Metric Value"); ii = h.index("ID")
want = {"gpu__time_duration.sum", "smsp__inst_executed.sum", "Registers Per Thread", "Grid Size", "Block Size",
        "Achieved Occupancy", "Shared Memory Configuration Size", "Dynamic Shared Memory Per Block", "Waves Per SM"}
seen = collections.OrderedDict()
for r in rows[hdr + 1:]:
    if len(r) <= vi or r[mi] not in want: continue
    name = ("nd:" if "kernel_nd" in r[ki] else "unsafe:") + ("flike" if "flike" in r[ki] else "safe" if "safe_daxpy" in r[ki] else "addr" if "resident_address" in r[ki] else "plain")
    seen.setdefault((r[ii], name), {})[r[mi]] = r[vi]
for (i, n), m in list(seen.items())[:40]:
    print(i, n, " ".join(f"{k.split('__')[-1][:18]}={v}" for k, v in m.items()))
PY
grep -c "Function :" $out/phase_probe.sass
