#!/usr/bin/env bash
# Checks, on the PTX (no GPU needed), that every kernel of the benchmark's ferry files waits for
# the kernel before it (griddepcontrol.wait, the programmatic dependent launch's wait) before
# any instruction that touches global, shared, local or generic memory: compiles each
# perf/kernels/*/*-ferry.cpp for sm_90 and, per .entry, finds the first memory instruction
# (ld/st other than ld.param and ld.const, atom, red, cp.async, prefetch) that comes before the
# entry's first wait in the text. The safe kernel waits inside its range check's branch, so a
# memory instruction placed in the text before the wait would be one reachable without it.
#
# Usage: perf/scripts/ptx-wait-check.sh [out.txt]   (run from the repository root)
# Exit status: 0 when every entry passes, 1 otherwise.
set -euo pipefail
out=${1:-/dev/stdout}
nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
flags=(-std=c++20 -arch=sm_90 -O3 -restrict --extended-lambda --expt-relaxed-constexpr
  -Xcompiler -fopenmp '-DFERRY_DEVICE_BACKEND_HEADER="ferry/backend/cuda/backend.hpp"'
  -Iinclude -Iperf -ptx)
status=0
: > "$tmp/report"
for src in perf/kernels/*/*-ferry.cpp; do
  name=$(basename "$src" .cpp)
  "$nvcc" "${flags[@]}" -x cu "$src" -o "$tmp/$name.ptx"
  awk -v file="$name" '
    function finish() {
      if (entry == "") return
      total++
      if (bad != "") { printf "FAIL %s %s: %s before the wait\n", file, entry, bad; fails++ }
      else if (!waited) { printf "FAIL %s %s: no wait\n", file, entry; fails++ }
    }
    /^\.visible \.entry|^\.entry/ { finish(); entry = $NF; sub(/\(.*/, "", entry);
                                    waited = 0; bad = ""; next }
    entry == "" { next }
    /griddepcontrol\.wait/ { waited = 1; next }
    !waited && bad == "" && /^\t(@%p[0-9]+ )?(ld|st|atom|red|cp\.async|prefetch)[.\t ]/ &&
        !/^\t(@%p[0-9]+ )?ld\.(param|const)/ { bad = $0; sub(/^\t/, "", bad) }
    END { finish(); printf "%s: %d entries, %d failing\n", file, total, fails }
  ' "$tmp/$name.ptx" >> "$tmp/report"
done
cat "$tmp/report" > "$out"
grep -q "^FAIL" "$tmp/report" && status=1
[[ $out == /dev/stdout ]] || { grep -E "^FAIL|entries" "$tmp/report" | tail -n 40; }
exit $status
