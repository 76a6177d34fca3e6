#!/usr/bin/env bash
# Twenty-first run (H200), third call: pdl.cu (where the griddepcontrol instructions go), 3 runs.
set -uo pipefail
out=${1:?out}; pack=${2:?pack}; mkdir -p "$out"
here=$(cd "$(dirname "$0")" && pwd)
b=bin-dir; rm -rf $b; mkdir -p $b; tar xJf "$here/bins.tar.xz" -C $b
for r in 1 2 3; do echo "== run $r"; timeout 60 $b/pdl; done > $out/pdl.log 2>&1
tar czf "$pack" -C "$(dirname "$out")" "$(basename "$out")"
cat $out/pdl.log
