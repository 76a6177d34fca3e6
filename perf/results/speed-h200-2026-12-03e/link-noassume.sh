#!/usr/bin/env bash
# One-off: ferry-perf with the block-launch ferry files compiled against headers whose block
# kernel makes no FERRY_ASSUME (the rest of the program unchanged), written as OUT/ferry-perf-unchecked
# so that bounds-cost.sh compares the two (ratio = with the assumption / without).
# Usage: link-noassume.sh BUILD OUT INCLUDE (INCLUDE: a copy of include/ with the three
# FERRY_ASSUME lines of ferry/backend/gpu/block.hpp deleted).
set -euo pipefail
exec "$(dirname "$0")/../../scripts/link-unchecked.sh" \
  --only 'MASS3DPA|DIFFUSION3DPA|CONVECTION3DPA|LTIMES|MAT_MAT_SHARED' --include "${3:?INCLUDE}" "${1:?BUILD}" "${2:?OUT}"
