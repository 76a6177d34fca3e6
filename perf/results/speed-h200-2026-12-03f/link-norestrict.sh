#!/usr/bin/env bash
# One-off: ferry-perf with the ferry files of the block-launch and reduction kernels compiled
# against the headers before this run's change (block and reduction kernels without restrict
# parameters; the rest of the program unchanged), written as OUT/ferry-perf-unchecked so that
# bounds-cost.sh compares the two (ratio = with restrict / without).
# Usage: link-norestrict.sh BUILD OUT INCLUDE (INCLUDE: include/ of the commit before the change).
set -euo pipefail
exec "$(dirname "$0")/../../scripts/link-unchecked.sh" \
  --only 'MASS3DPA|DIFFUSION3DPA|CONVECTION3DPA|LTIMES|MAT_MAT_SHARED|DOT|PI_REDUCE|REDUCE3_INT|TRAP_INT' --include "${3:?INCLUDE}" "${1:?BUILD}" "${2:?OUT}"
