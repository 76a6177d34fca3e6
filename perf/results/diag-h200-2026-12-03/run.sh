#!/usr/bin/env bash
# Diagnostics: where ferry_B's time over ferry_C goes in the kernels furthest from base_cuda
# (device time under ncu against time per rep; checked and unchecked; default and 8x size; SASS).
set -uo pipefail
out=${1:?out}; mkdir -p "$out"
here=$(cd "$(dirname "$0")" && pwd)
b=bin-dir; rm -rf $b; mkdir -p $b; tar xJf "$here/bins.tar.xz" -C $b
c=$b/diag
export CUDA_MODULE_LOADING=EAGER
unset FERRY_INFO FERRY_BACKEND
K=MASS3DPA,VOL3D,MATVEC_3D_STENCIL,DEL_DOT_VEC_2D,HYDRO_2D,DIFFUSION3DPA
t0=$(date +%s)
for r in 1 2; do
for bin in ferry-perf ferry-perf-unchecked; do
  for sz in default 8; do
    args=(); [[ $sz != default ]] && args=(--repfact 0.2 --size 8000000)
    timeout 120 $c/$bin --backend cuda -k $K -v base_cuda,ferry_B,ferry_C --npasses 3 "${args[@]}" \
      --csv $out/$bin-$sz-$r.csv > $out/$bin-$sz-$r.log 2>&1; echo "$bin $sz $r rc=$? $(( $(date +%s) - t0 ))s"
  done
done
done
timeout 60 $c/ferry-perf --backend cuda -k $K -v base_cuda,ferry_B,ferry_C --npasses 3 --size 1000 \
  --csv $out/tiny.csv > $out/tiny.log 2>&1; echo "tiny rc=$?"
for bin in ferry-perf ferry-perf-unchecked; do
  timeout 200 ncu --csv --metrics gpu__time_duration.sum,launch__registers_per_thread,smsp__inst_executed.sum,launch__occupancy_limit_registers,sm__warps_active.avg.pct_of_peak_sustained_active \
    $c/$bin --backend cuda -k $K -v base_cuda,ferry_B,ferry_C --reps 3 > $out/ncu-$bin.csv 2> $out/ncu-$bin.err
  echo "ncu $bin rc=$? $(( $(date +%s) - t0 ))s"
done
cuobjdump -sass $c/ferry-perf > $out/all.sass 2>&1; cuobjdump -sass $c/ferry-perf-unchecked > $out/allu.sass 2>&1
for f in all allu; do
  awk '/Function :/{name=$3} /\/\*[0-9a-f]+\*\//{n[name]++} END{for (k in n) printf "%d %s\n", n[k], k}' $out/$f.sass \
    | grep -i -E "mass3dpa|vol3d|matvec|del_dot|hydro_2d|hydro2d|diffusion" > $out/sass-counts-$f.txt
  awk -v o=$out/sass-$f 'BEGIN{keep=0} /Function :/{keep = ($3 ~ /[Mm][Aa][Ss][Ss]3[Dd][Pp][Aa]|[Vv][Oo][Ll]3[Dd]|mass3dpa|vol3d/); if (keep) {n++; file=o "-" n ".sass"; print $3 > (o "-names.txt")}} keep{print > file}' $out/$f.sass
done
rm -f $out/all.sass $out/allu.sass  # (the whole binaries' SASS: not kept)
