#!/usr/bin/env bash
# diag-h200.sh: one device call of diagnostics for the speed work, on binaries and cubins built
# beforehand on the CPU machine (perf/scripts/diag-build.sh puts them in one folder):
#
#   perf/scripts/diag-h200.sh DIR OUTDIR [PASSES]
#
#   1. sass: cuobjdump -sass and -res-usage of every *.cubin in DIR (instruction counts per
#      kernel entry in sass-counts.txt);
#   2. launch: ferry-launch-bench (host cost per launch against unsafe and raw launches);
#   3. restrict: ferry-perf-mv-rr and ferry-perf-mv-norr (the same program, MATVEC_3D_STENCIL's
#      ferry file built with and without restrict on read-only arguments), PASSES alternating
#      rounds of MATVEC_3D_STENCIL ferry_B and ferry_C, minimum per rep of each;
#   (the suite CSV quotes its device column, which holds commas: fields are counted from the
#   end, time_per_rep_s being the 19th from the last)
#   4. reductions: the reduction kernels' base_cuda and ferry_B (ferry-perf-mv-rr).
# Prints a short table last.
set -uo pipefail
dir=${1:?usage: diag-h200.sh DIR OUTDIR [PASSES]}
out=${2:?OUTDIR}
passes=${3:-5}
mkdir -p "$out"
export CUDA_MODULE_LOADING=EAGER
unset FERRY_INFO FERRY_BACKEND
summary=()

echo "== sass"
: > "$out/sass-counts.txt"
for c in "$dir"/*.cubin; do
  b=$(basename "$c" .cubin)
  cuobjdump -sass "$c" > "$out/$b.sass" 2>&1
  cuobjdump -res-usage "$c" > "$out/$b.res" 2>&1
  # instructions per entry: lines of the form "/*0040*/  OPCODE ..." under each "Function :"
  awk -v f="$b" '/Function :/{name=$3} /\/\*[0-9a-f]+\*\//{n[name]++} END{for (k in n) printf "%s %d %s\n", f, n[k], k}' \
    "$out/$b.sass" >> "$out/sass-counts.txt"
done
sort "$out/sass-counts.txt" | awk '{printf "%-36s %5d %.90s\n", $1, $2, $3}' | tee "$out/sass-summary.txt" | head -40

echo "== launch"
timeout 120 "$dir/ferry-launch-bench" --passes 20 --csv "$out/launch-bench.csv" 2>&1 | tee "$out/launch.log" | tail -14

echo "== restrict on read-only arguments (MATVEC_3D_STENCIL)"
: > "$out/mv.csv"
for p in $(seq 1 "$passes"); do
  for v in rr norr; do
    timeout 60 "$dir/ferry-perf-mv-$v" --backend cuda -k MATVEC_3D_STENCIL -v ferry_B,ferry_C,base_cuda \
      --csv "$out/mv-$v-$p.csv" > "$out/mv-$v-$p.log" 2>&1
    awk -F, -v v="$v" 'NR > 1 {print v "," $1 "," $2 "," $(NF-18)}' "$out/mv-$v-$p.csv" >> "$out/mv.csv"
  done
done
echo "build,variant,min s/rep over $passes rounds"
awk -F, '{k=$1 "," $3; if (!(k in m) || $4 < m[k]) m[k] = $4} END {for (k in m) printf "%s,%.4g\n", k, m[k]}' \
  "$out/mv.csv" | sort | tee "$out/mv-min.csv"

echo "== reductions (fixed baselines)"
timeout 120 "$dir/ferry-perf-mv-rr" --backend cuda -k DOT,PI_REDUCE,TRAP_INT,REDUCE3_INT \
  -v base_cuda,ferry_B,ferry_C --npasses 3 --csv "$out/reduce-suite.csv" > "$out/reduce-suite.log" 2>&1
tail -n 12 "$out/reduce-suite.log"
