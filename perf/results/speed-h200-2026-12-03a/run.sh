#!/usr/bin/env bash
# Seventeenth run, part A: the multi-array ferry::around in VOL3D, DEL_DOT_VEC_2D and
# MATVEC_3D_STENCIL (suite 2 x 5 passes, and device time under ncu).
set -uo pipefail
out=${1:?out}; mkdir -p "$out"
here=$(cd "$(dirname "$0")" && pwd)
b=bin-dir; rm -rf $b; mkdir -p $b; tar xJf "$here/bins.tar.xz" -C $b
c=$b/diag
export CUDA_MODULE_LOADING=EAGER
unset FERRY_INFO FERRY_BACKEND
K=VOL3D,DEL_DOT_VEC_2D,MATVEC_3D_STENCIL,HYDRO_2D,MASS3DPA
for r in 1 2; do
  timeout 120 $c/ferry-perf --backend cuda -k $K -v base_cuda,ferry_A,ferry_B,ferry_C --npasses 5 \
    --csv $out/suite-$r.csv > $out/suite-$r.log 2>&1; echo "suite $r rc=$?"
done
timeout 200 ncu --csv --metrics gpu__time_duration.sum,launch__registers_per_thread,smsp__inst_executed.sum \
  $c/ferry-perf --backend cuda -k VOL3D,DEL_DOT_VEC_2D,MATVEC_3D_STENCIL -v base_cuda,ferry_B,ferry_C --reps 3 > $out/ncu.csv 2> $out/ncu.err
echo "ncu rc=$?"
grep -c PASSED $out/suite-1.log; grep -c FAILED $out/suite-1.log
for r in 1 2; do python3 $here/perf/scripts/summarize.py $out/suite-$r.csv | grep -E "Apps_|Lcals_|geomean"; done
python3 - "$out/ncu.csv" <<'PY'
import csv,sys,collections,re
rows=list(csv.reader(l for l in open(sys.argv[1]) if l.startswith('"')))
h=rows[0]; ki=h.index('Kernel Name'); mi=h.index('Metric Name'); vi=h.index('Metric Value')
d=collections.defaultdict(lambda: collections.defaultdict(list))
for r in rows[1:]:
    k=r[ki]; m=re.search(r'(\w+)_ferry::(rep|run_ferry_c)',k)
    name=(m.group(1)+(' C' if m.group(2)=='run_ferry_c' else ' B')) if m else re.search(r'::(\w+)\(',k).group(1)+' base'
    d[name][r[mi]].append(float(r[vi].replace(',','')))
for k,v in d.items(): print('%-22s'%k, ' '.join('%s=%.4g'%(m.split('__')[1][:14],sum(x)/len(x)) for m,x in v.items()))
PY
