#!/usr/bin/env bash
# link-unchecked.sh: builds ferry-perf-unchecked from a CUDA build's ferry-perf objects, faster
# than the FERRY_PERF_UNCHECKED target: only the ferry variant files (perf/kernels/*/*-ferry.cpp,
# the only ones whose code FERRY_UNSAFE_NO_BOUNDS_CHECKS=1 changes) are compiled again, with the
# definition and otherwise the same command as ferry-perf's; the program is then linked with
# ferry-perf's own link command. Every translation unit that indexes a ferry view is in that set
# (the reference, OpenMP and hand-written CUDA files index raw pointers; the harness and the
# library index no view), so the one-definition rule holds as in the CMake target.
#
#   perf/scripts/link-unchecked.sh [--only REGEX] [--include DIR | --tree DIR] BUILD OUT
#       e.g. link-unchecked.sh build-cuda .gpu-bin
#
# BUILD: a Ninja build tree whose ferry-perf is up to date; OUT: where ferry-perf-unchecked goes.
# For an A/B of a header change instead of the checks (bounds-cost.sh then compares the two):
#   --include DIR  compile against DIR (e.g. the previous commit's include/) instead of the
#                  repository's include/, and without the definition;
#   --tree DIR     for an A/B of a change to the benchmark's own sources as well: compile DIR's
#                  ferry files against DIR's perf/ and include/ (DIR: a checkout of the earlier
#                  commit, e.g. from git worktree add --detach), without the definition;
#   --only REGEX   recompile only the ferry objects whose path matches REGEX (grep -E).
# With --only, the one-definition rule holds only if the other files instantiate nothing that
# the header change touches (as for the block or reduction kernels of a few apps).
set -euo pipefail
only=""
inc=""
tree=""
while [[ ${1:-} == --* ]]; do
  case $1 in
    --only) only=${2:?--only REGEX}; shift 2 ;;
    --include) inc=$(cd "${2:?--include DIR}" && pwd); shift 2 ;;
    --tree) tree=$(cd "${2:?--tree DIR}" && pwd); shift 2 ;;
    *) echo "link-unchecked.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
build=${1:?usage: link-unchecked.sh [--only REGEX] [--include DIR | --tree DIR] BUILD OUT}
[[ -z $inc || -z $tree ]] || { echo "link-unchecked.sh: --include and --tree exclude each other" >&2; exit 2; }
out=${2:?OUT}
mkdir -p "$out"
out=$(cd "$out" && pwd)
cd "$build"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
link=$(ninja -t commands ferry-perf | tail -n 1)
objs=$(ninja -t commands ferry-perf | grep -o 'perf/CMakeFiles/ferry_perf_variants.dir/kernels/[a-z]*/[A-Z0-9_]*-ferry.cpp.o' | sort -u)
[[ -z $only ]] || objs=$(grep -E "$only" <<<"$objs" || true)
[[ -n $objs ]] || { echo "link-unchecked.sh: no ferry objects in ferry-perf's commands" >&2; exit 1; }
pids=()
for o in $objs; do
  # The object's own compile command (the last command ninja would run for it), with the
  # definition added and the output redirected.
  cmd=$(ninja -t commands "$o" | tail -n 1)
  new="$tmp/$(basename "$o")"
  [[ $cmd == *" -o $o" ]] || { echo "link-unchecked.sh: unexpected command for $o" >&2; exit 1; }
  cmd="${cmd%" -o $o"} -o $new"
  cmd=$(sed -E 's/ -MD -MT [^ ]+ -MF [^ ]+//' <<<"$cmd")  # no dependency file in the build tree
  if [[ -n $tree ]]; then
    # The build's source tree (where CMake found the top CMakeLists.txt) in sources and -I flags.
    root=$(sed -n 's/^CMAKE_HOME_DIRECTORY:INTERNAL=//p' CMakeCache.txt)
    [[ -n $root && $cmd == *" $root/perf/"* ]] || { echo "link-unchecked.sh: no source under the build's tree in: $cmd" >&2; exit 1; }
    cmd=${cmd//"$root/"/"$tree/"}
    echo "compiling $(basename "$o" .o) from $tree"
  elif [[ -z $inc ]]; then
    cmd=${cmd/" -c "/" -DFERRY_UNSAFE_NO_BOUNDS_CHECKS=1 -c "}
    echo "compiling $(basename "$o" .o) unchecked"
  else
    cmd=$(sed -E "s# -I[^ ]*/include # -I$inc #" <<<"$cmd")  # the repository's include/
    [[ $cmd == *"-I$inc "* ]] || { echo "link-unchecked.sh: no include flag in: $cmd" >&2; exit 1; }
    echo "compiling $(basename "$o" .o) against $inc"
  fi
  eval "$cmd" &
  pids+=($!)
  if (( ${#pids[@]} >= ${FERRY_JOBS:-2} )); then wait "${pids[0]}"; pids=("${pids[@]:1}"); fi
  link=${link//"$o"/"$new"}
done
for p in "${pids[@]}"; do wait "$p"; done
link=${link//"-o perf/ferry-perf "/"-o $out/ferry-perf-unchecked "}
eval "${link#: && }"
echo "wrote $out/ferry-perf-unchecked"
