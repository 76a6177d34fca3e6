#!/usr/bin/env bash
# One-off: ferry-perf with the ferry files of the block-launch and reduction kernels compiled
# against the headers before this run's change (block and reduction kernels without restrict
# parameters; the rest of the program unchanged), written as OUT/ferry-perf-unchecked so that
# bounds-cost.sh compares the two (ratio = with restrict / without).
# Usage: link-norestrict.sh BUILD OUT INCLUDE (INCLUDE: include/ of the commit before the change).
set -euo pipefail
build=$1; out=$2; inc=$3
mkdir -p "$out"; out=$(cd "$out" && pwd)
cd "$build"
tmp=$(mktemp -d)
link=$(ninja -t commands ferry-perf | tail -n 1)
objs=$(ninja -t commands ferry-perf | grep -o 'perf/CMakeFiles/ferry_perf_variants.dir/kernels/[a-z]*/[A-Z0-9_]*-ferry.cpp.o' | sort -u |
  grep -E 'MASS3DPA|DIFFUSION3DPA|CONVECTION3DPA|LTIMES|MAT_MAT_SHARED|DOT|PI_REDUCE|REDUCE3_INT|TRAP_INT')
pids=()
for o in $objs; do
  cmd=$(ninja -t commands "$o" | tail -n 1)
  new="$tmp/$(basename "$o")"
  cmd="${cmd%" -o $o"} -o $new"
  cmd=$(sed -E 's/ -MD -MT [^ ]+ -MF [^ ]+//' <<<"$cmd")
  cmd=$(sed -E "s# -I[^ ]*/include # -I$inc #" <<<"$cmd")  # the repository's include/
  [[ $cmd == *"-I$inc "* ]] || { echo "no include flag replaced in: $cmd" >&2; exit 1; }
  echo "compiling $(basename "$o" .o) without restrict in block and reduction kernels"
  eval "$cmd" &
  pids+=($!)
  if (( ${#pids[@]} >= ${FERRY_JOBS:-2} )); then wait "${pids[0]}"; pids=("${pids[@]:1}"); fi
  link=${link//"$o"/"$new"}
done
for p in "${pids[@]}"; do wait "$p"; done
link=${link//"-o perf/ferry-perf "/"-o $out/ferry-perf-unchecked "}
eval "${link#: && }"
echo "wrote $out/ferry-perf-unchecked"
