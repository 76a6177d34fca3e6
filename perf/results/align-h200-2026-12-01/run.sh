#!/usr/bin/env bash
# One-launch kernels: why ferry_B's kernel_1d takes 0.3-0.7 us more device time than base_cuda's
# and ferry_C's (ncu, DAXPY and ADD). BIN: the folder holding the CUDA build's ferry-perf.
#   run.sh BIN OUT
set -uo pipefail
bin=${1:?usage: run.sh BIN OUT}
out=${2:?OUT}; mkdir -p "$out"
p=$bin/ferry-perf
export CUDA_MODULE_LOADING=EAGER
unset FERRY_INFO FERRY_BACKEND
timeout 200 ncu --section SpeedOfLight --section MemoryWorkloadAnalysis --section LaunchStats \
  --section Occupancy --section WarpStateStats --section SchedulerStats --section InstructionStats \
  --metrics dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_write.sum,gpu__time_duration.sum,sm__cycles_active.avg,smsp__inst_executed.sum,launch__func_cache_config \
  --csv --log-file $out/ncu-full.csv $p --backend cuda -k DAXPY,ADD -v base_cuda,ferry_B,ferry_C --reps 2 > $out/ncu-full.log 2>&1
echo "full rc=$?"
for cc in all none; do
  timeout 120 ncu --cache-control $cc --clock-control none --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum \
    --csv --log-file $out/ncu-$cc.csv $p --backend cuda -k DAXPY,ADD,TRIAD,INIT3 -v base_cuda,ferry_B,ferry_C --reps 10 > $out/ncu-$cc.log 2>&1
  echo "cc=$cc rc=$?"
done
cuobjdump -sass $p | awk '/Function : .*(daxpy|add_ferry|stream9add|3add)/ {on=1} /Function :/ && !/(daxpy|add_ferry|3add)/ {on=0} on' > $out/sass-daxpy-add.txt
cuobjdump --dump-resource-usage $p | grep -A1 -E "daxpy|add_ferry|3add" > $out/res-daxpy-add.txt
python3 - "$out" <<'PY'
import csv, sys, collections
out = sys.argv[1]
def load(f):
    rows = list(csv.reader(open(f)))
    for i, r in enumerate(rows):
        if r and r[0] == "ID": hdr = r; start = i + 1; break
    else: return {}
    ix = {k: j for j, k in enumerate(hdr)}
    d = collections.defaultdict(lambda: collections.defaultdict(list))
    for r in rows[start:]:
        if len(r) < len(hdr): continue
        name = r[ix["Kernel Name"]]
        short = ("ferry_B" if "kernel_1d" in name else "ferry_C" if "kernel_unsafe" in name else "base") + ":" + \
            next((w for w in ("daxpy", "init3", "triad", "add") if w in name.lower()), name[:20])
        try: v = float(r[ix["Metric Value"]].replace(",", ""))
        except ValueError: continue
        d[short][r[ix["Metric Name"]]].append(v)
    return d
for f in ("ncu-all.csv", "ncu-none.csv", "ncu-full.csv"):
    d = load(f"{out}/{f}")
    print(f"== {f}")
    mets = sorted({m for k in d for m in d[k]})
    keep = [m for m in mets if m in ("gpu__time_duration.sum", "dram__bytes_read.sum", "dram__bytes_write.sum",
            "sm__cycles_active.avg", "smsp__inst_executed.sum", "lts__t_sectors_srcunit_tex_op_read.sum",
            "lts__t_sectors_srcunit_tex_op_write.sum", "Registers Per Thread", "Achieved Occupancy",
            "Memory Throughput", "DRAM Throughput", "Duration", "Waves Per SM", "Static Shared Memory Per Block",
            "Driver Shared Memory Per Block", "Block Limit Registers", "Theoretical Occupancy")]
    for k in sorted(d):
        print(k.ljust(16), "  ".join(f"{m.split('.')[0][-22:]}={min(d[k][m]):.4g}" for m in keep if m in d[k]))
PY
