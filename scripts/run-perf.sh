#!/usr/bin/env bash
# Builds ferry-perf (Release, host build in build/: no device backend, so it runs on OpenMP;
# FERRY_BACKEND=serial or checked picks another host backend) and runs it with default options,
# writing the results table to the terminal and CSV, JSON and (where python3 has matplotlib) PNG
# charts into build/ferry-perf-results/. Builds with $FERRY_JOBS jobs (default: the core count).
#
# Usage: scripts/run-perf.sh [ferry-perf options...]
#   e.g. scripts/run-perf.sh --kernels LTIMES --reps 5; scripts/run-perf.sh --help lists them
# Installs missing Debian build packages first (needs root or sudo then). Charts are optional:
# matplotlib (with numpy and fonts, the largest package by far) is installed only with
# FERRY_PERF_CHARTS=1; without it the charts are drawn if matplotlib is already there.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

start=$(now)
packages=("${FERRY_BUILD_PACKAGES[@]}")
[[ "${FERRY_PERF_CHARTS:-0}" == 0 ]] || packages+=(python3-matplotlib)
ensure_packages "${packages[@]}"

configure_host_build
say "building ferry-perf with $FERRY_JOBS jobs"
cmake --build "$FERRY_BUILD" --target ferry-perf --parallel "$FERRY_JOBS"
perf_bin="$FERRY_BUILD/perf/ferry-perf"
[[ -x "$perf_bin" ]] || die "ferry-perf was built but is not at $perf_bin"
built=$(now)

results="$FERRY_BUILD/ferry-perf-results"
mkdir -p "$results"
stem="$results/ferry-perf-$(date +%Y%m%d-%H%M%S)"
out_args=()
[[ " $* " == *" --csv"* ]] || out_args+=(--csv "$stem.csv")
[[ " $* " == *" --json"* ]] || out_args+=(--json "$stem.json")

say "running ferry-perf ${*:-(default options)}"
set +e
"$perf_bin" "${out_args[@]}" "$@"
status=$?
set -e
ran=$(now)

if [[ -s "$stem.csv" ]]; then
  # Debian's python3-matplotlib belongs to /usr/bin/python3, which another python3 earlier in
  # PATH (a virtual environment, pyenv) may hide.
  py=""
  for candidate in /usr/bin/python3 python3; do
    if "$candidate" -c 'import matplotlib' >/dev/null 2>&1; then
      py="$candidate"
      break
    fi
  done
  if [[ -n "$py" ]]; then
    say "drawing charts with $py perf/scripts/plot.py"
    MPLBACKEND=Agg "$py" "$FERRY_ROOT/perf/scripts/plot.py" "$stem.csv" --out "$stem" ||
      warn "plotting failed (the CSV and JSON are still there)"
  else
    say "no python3 with matplotlib: no PNG charts (FERRY_PERF_CHARTS=1 scripts/run-perf.sh installs it, or draw them later: python3 perf/scripts/plot.py <csv> --out <stem>)"
  fi
fi

say "build $((built - start)) s, run $((ran - built)) s; ferry-perf exit status $status"
if [[ -e "$stem.csv" || -e "$stem.json" ]]; then
  say "results in ${results#"$FERRY_ROOT"/}/:"
  for f in "$stem"*; do [[ -e "$f" ]] && printf '    %s\n' "${f#"$FERRY_ROOT"/}"; done
fi
exit "$status"
