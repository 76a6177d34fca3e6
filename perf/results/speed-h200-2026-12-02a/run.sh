#!/usr/bin/env bash
# Tenth run, part A: the suite with the aligned host arrays and launch bounds at VOL3D and
# HYDRO_2D's second kernel (3 passes), then ncu of VOL3D, HYDRO_2D and DIFFUSION3DPA (duration,
# registers, occupancy, L2 sectors), and the kernels' resource usage.
set -uo pipefail
out=${1:?out}; mkdir -p "$out"
b=bin-dir; rm -rf $b; mkdir -p $b; tar xJf bins.tar.xz -C $b
c=$b/cuda
export CUDA_MODULE_LOADING=EAGER
unset FERRY_INFO FERRY_BACKEND
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv > $out/machine.log 2>&1
timeout 220 $c/ferry-perf --backend cuda --npasses 3 -v base_cuda,ferry_A,ferry_B,ferry_C --csv $out/suite.csv --json $out/suite.json > $out/suite.log 2>&1; echo "suite rc=$? $(( $(date +%s) - t0 ))s"
timeout 120 ncu --metrics gpu__time_duration.sum,launch__registers_per_thread,launch__occupancy_limit_registers,sm__warps_active.avg.pct_of_peak_sustained_active,lts__t_sectors_srcunit_tex_op_write.sum,lts__t_sectors_srcunit_tex_op_read.sum --csv --log-file $out/ncu.csv $c/ferry-perf --backend cuda -k VOL3D,HYDRO_2D,DIFFUSION3DPA -v base_cuda,ferry_B,ferry_C --reps 3 > $out/ncu.log 2>&1; echo "ncu rc=$? $(( $(date +%s) - t0 ))s"
cuobjdump --dump-resource-usage $c/ferry-perf 2>/dev/null | grep -A1 -E "VOL3D|vol3d|HYDRO_2D|hydro_2d" | grep -E "Function|REG" > $out/resource-usage.txt; echo "cuobjdump rc=$?"
python3 perf/scripts/summarize.py $out/suite.csv | tail -34
python3 - "$out/ncu.csv" <<'PY'
import csv,sys,collections
rows=[r for r in csv.reader(open(sys.argv[1])) if len(r)>10]
h=rows[0]; i=h.index('Kernel Name'); m=h.index('Metric Name'); v=h.index('Metric Value')
agg=collections.OrderedDict()
for r in rows[1:]:
    k=r[i][:60]; agg.setdefault((k,r[m]),[]).append(r[v])
for (k,mm),vals in agg.items():
    if mm in('launch__registers_per_thread','sm__warps_active.avg.pct_of_peak_sustained_active','gpu__time_duration.sum'):
        print(f"{k[:55]:55s} {mm[:30]:30s} {vals[-1]}")
PY
