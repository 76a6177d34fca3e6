#!/usr/bin/env bash
# One-off: ferry-perf with the three partial-assembly ferry files compiled from TREE, a checkout of
# the current commit with those files and partial_assembly.hpp as they were before pa_add_column
# (git checkout 898a5eb -- the four files), written as OUT/ferry-perf-unchecked so that
# bounds-cost.sh compares the two (ratio = with pa_add_column / without).
# Usage: link-oldpa.sh BUILD OUT TREE
set -euo pipefail
exec "$(dirname "$0")/../../scripts/link-unchecked.sh" \
  --only 'MASS3DPA|DIFFUSION3DPA|CONVECTION3DPA' --tree "${3:?TREE}" "${1:?BUILD}" "${2:?OUT}"
