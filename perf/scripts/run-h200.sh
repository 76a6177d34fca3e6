#!/usr/bin/env bash
# run-h200.sh: the one script that runs ferry's measurements on the GPU machine (NVIDIA H200).
#
# Binaries are built beforehand on the CPU machine and brought along; this script only runs them:
#   1. records the machine: GPU name, driver, memory (nvidia-smi), nvcc and CUDA runtime versions;
#   2. d2d_bandwidth: device-to-device copy bandwidth (cudaMemcpy and a copy kernel, 1 GiB);
#   3. ferry-perf: the suite in ref_seq, base_cuda, ferry_A, ferry_B, ferry_C on ferry's default
#      backend, with FERRY_INFO unset; CSV and JSON;
#   4. the transfer table: a second ferry-perf run if the harness has an option for transfer
#      statistics, otherwise the per-variant transfer columns of the step-3 CSV;
#   5. ferry-transfer-bench: host<->device transfer microbenchmark (its own time limit);
# then prints a short summary last. A failing or missing step is reported and the rest still
# run. Each step has a time limit inside a total budget (default 450 s, under 8 minutes).
#
# Usage: perf/scripts/run-h200.sh [BINDIR [OUTDIR]]
#   BINDIR  build directory of the CUDA build (default build-cuda-perf); ferry-perf,
#           ferry-transfer-bench and d2d_bandwidth are looked up in BINDIR, BINDIR/perf and
#           BINDIR/perf/transfer.
#   OUTDIR  output directory (default $OUT if set, else perf/results/h200-<date> in the repository).
# Build on the CPU machine first (from the repository root):
#   cmake -S . -B build-cuda-perf -G Ninja -DFERRY_DEVICE_BACKEND=cuda \
#     -DFERRY_BUILD_TESTS=OFF -DFERRY_BUILD_EXAMPLES=OFF
#   cmake --build build-cuda-perf --target ferry-perf ferry-transfer-bench
#   nvcc -O3 -std=c++17 -arch=sm_90 -o build-cuda-perf/d2d_bandwidth perf/scripts/d2d_bandwidth.cu
# Environment, for trying the script elsewhere (leave unset on the H200):
#   FERRY_PERF_VARIANTS  variants of step 3 (default ref_seq,base_cuda,ferry_A,ferry_B,ferry_C)
#   FERRY_PERF_ARGS      extra ferry-perf arguments, e.g. "--size 100000 --repfact 0.1"
#   FERRY_BACKEND        passed through to ferry-perf (unset: the build's default, cuda)
#   RUN_H200_BUDGET_S    total time budget in seconds (default 450)
#   D2D_ARGS             d2d_bandwidth arguments (default none: 1 GiB, 20 reps)
#   TRANSFER_BENCH_ARGS  extra ferry-transfer-bench arguments (e.g. --quick)
#
# Exit status: 0 when every step ran and passed, 1 otherwise (details in the summary).
set -uo pipefail

script_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo_root=$(cd "$script_dir/../.." && pwd)
bindir=${1:-build-cuda-perf}
# A relative BINDIR that is not under the current directory is taken from the repository root.
[[ -d $bindir || $bindir == /* ]] || bindir=$repo_root/$bindir
default_out=$repo_root/perf/results/h200-$(date +%Y%m%d-%H%M%S)
outdir=${2:-${OUT:-$default_out}}
variants=${FERRY_PERF_VARIANTS:-ref_seq,base_cuda,ferry_A,ferry_B,ferry_C}
read -r -a perf_args <<<"${FERRY_PERF_ARGS:-}"
read -r -a d2d_args <<<"${D2D_ARGS:-}"
read -r -a bench_args <<<"${TRANSFER_BENCH_ARGS:-}"
budget=${RUN_H200_BUDGET_S:-450}
unset FERRY_INFO
# Load every kernel when the CUDA context is created, not at its first launch: ferry-perf runs no
# warm-up, so lazy loading would put module loading into the first timed rep of each variant.
export CUDA_MODULE_LOADING=${CUDA_MODULE_LOADING:-EAGER}

mkdir -p "$outdir" || {
  echo "run-h200: cannot create $outdir" >&2
  exit 1
}
t0=$SECONDS

# --- helpers --------------------------------------------------------------------------------
step_names=()
declare -A step_status step_time

note() { printf '\n=== %s ===\n' "$*"; }

# Records the outcome of a step: name, status text, seconds.
record() {
  step_names+=("$1")
  step_status[$1]=$2
  step_time[$1]=$3
}

remaining() { echo $((budget - (SECONDS - t0))); }

# Seconds a step may take: its own limit, capped by what the budget leaves after `reserve`.
limit_for() {
  local want=$1 reserve=$2 left
  left=$(($(remaining) - reserve))
  ((left < want)) && want=$left
  echo "$want"
}

# Path of an executable named $1 under the build directory, or nothing.
find_bin() {
  local d
  for d in "$bindir" "$bindir/perf" "$bindir/perf/transfer" "$bindir/bin"; do
    if [[ -x $d/$1 && -f $d/$1 ]]; then
      echo "$d/$1"
      return 0
    fi
  done
  return 1
}

# run_step NAME LIMIT_S LOG CMD...: runs CMD under a time limit, output shown and saved to LOG;
# records OK, TIMEOUT or "FAILED (rc N)". Returns CMD's exit status.
run_step() {
  local name=$1 limit=$2 log=$3 start rc status
  shift 3
  if ((limit < 5)); then
    echo "run-h200: skipping $name: time budget spent"
    record "$name" "SKIPPED (time budget spent)" 0
    return 125
  fi
  echo "+ $* (limit ${limit}s)"
  start=$SECONDS
  timeout --kill-after=10 "$limit" "$@" 2>&1 | tee "$log"
  rc=${PIPESTATUS[0]}
  case $rc in
    0) status=OK ;;
    124 | 137) status="TIMEOUT after ${limit}s" ;;
    *) status="FAILED (rc $rc)" ;;
  esac
  record "$name" "$status" $((SECONDS - start))
  return "$rc"
}

# Splits CSV lines (quoted fields may hold commas); POSIX awk, so mawk works too.
csv_awk_lib='
function csvsplit(line, f,    n, i, c, q, cur) {
  n = 0; cur = ""; q = 0
  for (i = 1; i <= length(line); i++) {
    c = substr(line, i, 1)
    if (q) {
      if (c == "\"") {
        if (substr(line, i + 1, 1) == "\"") { cur = cur "\""; i++ } else q = 0
      } else cur = cur c
    } else if (c == "\"") q = 1
    else if (c == ",") { f[++n] = cur; cur = "" }
    else cur = cur c
  }
  f[++n] = cur
  return n
}'

# --- 1. the machine ----------------------------------------------------------------------------
note "1. machine"
sysfile=$outdir/system.txt
{
  echo "date: $(date -Iseconds)"
  echo "host: $(hostname 2>/dev/null || echo unknown)"
  echo "cpu: $(awk -F': ' '/^model name/ {print $2; exit}' /proc/cpuinfo 2>/dev/null), $(nproc) cores"
  echo "bindir: $bindir"
  echo "FERRY_BACKEND: ${FERRY_BACKEND:-<unset: build default>}"
  echo "CUDA_MODULE_LOADING: $CUDA_MODULE_LOADING"
  echo "ferry-perf variants: $variants; extra args: ${FERRY_PERF_ARGS:-none}"
  if command -v git >/dev/null 2>&1 && git -C "$repo_root" rev-parse --git-dir >/dev/null 2>&1; then
    echo "git: $(git -C "$repo_root" rev-parse --short HEAD 2>/dev/null)$(git -C "$repo_root" diff --quiet 2>/dev/null || echo ' (modified)')"
  fi
} | tee "$sysfile"
gpu_line=unknown
start=$SECONDS
if command -v nvidia-smi >/dev/null 2>&1 &&
  smi=$(timeout 30 nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>&1); then
  gpu_line=$smi
  echo "gpu: $smi" | tee -a "$sysfile"
  timeout 30 nvidia-smi >"$outdir/nvidia-smi.txt" 2>&1
  record "nvidia-smi" OK $((SECONDS - start))
else
  echo "gpu: nvidia-smi unavailable or failed: ${smi:-not found}" | tee -a "$sysfile"
  record "nvidia-smi" "FAILED (no nvidia-smi or no GPU)" $((SECONDS - start))
fi
if command -v nvcc >/dev/null 2>&1; then
  echo "nvcc: $(nvcc --version 2>&1 | grep -i release | head -1)" | tee -a "$sysfile"
else
  echo "nvcc: not on PATH" | tee -a "$sysfile"
fi
perf_bin=$(find_bin ferry-perf) || perf_bin=
bench_bin=$(find_bin ferry-transfer-bench) || bench_bin=
d2d_bin=$(find_bin d2d_bandwidth) || d2d_bin=
if [[ -n $perf_bin ]] && command -v ldd >/dev/null 2>&1; then
  echo "ferry-perf cudart: $(ldd "$perf_bin" 2>/dev/null | awk '/cudart/ {print $1, $3}' | head -1)" |
    tee -a "$sysfile"
fi

# --- 2. device-to-device copy bandwidth ---------------------------------------------------------
note "2. device-to-device copy bandwidth"
if [[ -z $d2d_bin ]] && command -v nvcc >/dev/null 2>&1 && [[ -f $script_dir/d2d_bandwidth.cu ]]; then
  # Not brought along: build it here (about half a minute) rather than lose the measurement.
  tmpbin=$(mktemp -d)
  trap 'rm -rf "$tmpbin"' EXIT
  lim=$(limit_for 120 300)
  if run_step "d2d build" "$lim" "$outdir/d2d-build.log" \
    nvcc -O3 -std=c++17 -arch=sm_90 -o "$tmpbin/d2d_bandwidth" "$script_dir/d2d_bandwidth.cu"; then
    d2d_bin=$tmpbin/d2d_bandwidth
  fi
fi
if [[ -n $d2d_bin ]]; then
  run_step "d2d_bandwidth" "$(limit_for 60 240)" "$outdir/d2d-h200.log" \
    "$d2d_bin" --csv "$outdir/d2d-h200.csv" "${d2d_args[@]}"
else
  echo "run-h200: d2d_bandwidth not found in $bindir (and no nvcc to build it)"
  record "d2d_bandwidth" "MISSING (not built)" 0
fi

# --- 3. the ferry-perf suite -------------------------------------------------------------------
note "3. ferry-perf apps"
apps_csv=$outdir/apps-h200.csv
if [[ -n $perf_bin ]]; then
  "$perf_bin" --help >"$outdir/ferry-perf-help.txt" 2>&1
  timeout 60 "$perf_bin" --list >"$outdir/ferry-perf-list.txt" 2>&1 &&
    sed -n '/^Kernels/,$p' "$outdir/ferry-perf-list.txt"
  # The rep timer must wait for the device (perf/harness/cuda_sync.cu); without it the times of
  # asynchronous variants would leave out device time.
  if ! grep -q -a 'cudaDeviceSynchronize in the rep timer' "$perf_bin"; then
    echo "run-h200: WARNING: $perf_bin lacks the CUDA rep-timer synchronize hook" \
      "(perf/harness/cuda_sync.cu not compiled in); ferry variant times may exclude device time"
    record "rep-timer hook" "MISSING (cuda_sync.cu not built in)" 0
  fi
  run_step "ferry-perf apps" "$(limit_for 240 90)" "$outdir/apps-h200.log" \
    "$perf_bin" --variants "$variants" --csv "$apps_csv" --json "$outdir/apps-h200.json" \
    "${perf_args[@]}"
  rc=$?
  # Exit status 1 with a written CSV means some variant failed its checksum or threw; the
  # summary lists them.
  if ((rc == 1)) && [[ -s $apps_csv ]]; then
    step_status["ferry-perf apps"]="FAILED (some variants failed, see table)"
  fi
else
  echo "run-h200: ferry-perf not found in $bindir"
  record "ferry-perf apps" "MISSING (not built)" 0
fi

# --- 4. transfer table -------------------------------------------------------------------------
note "4. transfer table"
transfer_csv=$apps_csv
transfer_flag=
if [[ -n $perf_bin ]]; then
  transfer_flag=$(grep -o -- '--transfer[a-z_-]*' "$outdir/ferry-perf-help.txt" 2>/dev/null | head -1)
fi
if [[ -n $transfer_flag ]]; then
  transfer_csv=$outdir/apps-transfers-h200.csv
  run_step "ferry-perf transfers" "$(limit_for 120 70)" "$outdir/apps-transfers-h200.log" \
    "$perf_bin" --variants "$variants" "$transfer_flag" --csv "$transfer_csv" \
    --json "$outdir/apps-transfers-h200.json" "${perf_args[@]}"
elif [[ -s $apps_csv ]] && head -1 "$apps_csv" | grep -q 'h2d_bytes'; then
  echo "ferry-perf has no transfer option; its CSV carries per-variant transfer columns already"
  record "transfer table" "OK (columns of apps-h200.csv)" 0
elif [[ -s $apps_csv ]]; then
  echo "run-h200: no per-variant transfer statistics in this ferry-perf"
  record "transfer table" "UNSUPPORTED by this ferry-perf" 0
else
  echo "run-h200: no ferry-perf results to take transfer statistics from"
  record "transfer table" "SKIPPED (no ferry-perf results)" 0
fi

# --- 5. host<->device transfer microbenchmark --------------------------------------------------
note "5. ferry-transfer-bench"
if [[ -n $bench_bin ]]; then
  lim=$(limit_for 200 10)
  own_limit=$((lim - 40))
  ((own_limit < 10)) && own_limit=10
  run_step "ferry-transfer-bench" "$lim" "$outdir/transfer-h200.log" \
    "$bench_bin" --csv "$outdir/transfer-h200.csv" --time-limit "$own_limit" "${bench_args[@]}"
else
  echo "run-h200: ferry-transfer-bench not found in $bindir"
  record "ferry-transfer-bench" "MISSING (not built)" 0
fi

# --- summary (last: only the tail of the output may come back) ---------------------------------
all_ok=1
printf '\n\n==================== run-h200 summary ====================\n'
echo "gpu:     $gpu_line"
grep -E '^(nvcc|FERRY_BACKEND|git):' "$sysfile"
[[ -s $outdir/d2d-h200.log ]] && grep -m1 -E '^d2d_bandwidth: .*CUDA runtime [0-9]' "$outdir/d2d-h200.log"
echo "output:  $outdir ($((SECONDS - t0)) s in all)"
printf '\n%-22s %6s  %s\n' step seconds status
for s in "${step_names[@]}"; do
  printf '%-22s %6s  %s\n' "$s" "${step_time[$s]}" "${step_status[$s]}"
  [[ ${step_status[$s]} == OK* ]] || all_ok=0
done

if [[ -s $outdir/d2d-h200.csv ]]; then
  printf '\nDevice copy (bytes read + written):\n'
  awk -F, 'NR > 1 { printf "  %-15s median %7.0f GB/s  (best %7.0f)\n", $1, $7, $8 }' \
    "$outdir/d2d-h200.csv"
fi

if [[ -s $outdir/transfer-h200.log ]]; then
  printf '\nferry-transfer-bench (full results in transfer-h200.csv):\n'
  if grep -q '^compiled defaults:' "$outdir/transfer-h200.log"; then
    sed -n '/^compiled defaults:/,$p' "$outdir/transfer-h200.log" | head -n 40 | sed 's/^/  /'
  else
    tail -n 5 "$outdir/transfer-h200.log" | sed 's/^/  /'
  fi
fi

if [[ -s $transfer_csv ]] && head -1 "$transfer_csv" | grep -q 'h2d_bytes'; then
  printf '\nHost<->device transfers per run, H2D + D2H over all reps: MB (1e6 B) / ms of copies\n'
  awk "$csv_awk_lib"'
    NR == 1 { for (i = csvsplit($0, h); i > 0; i--) col[h[i]] = i; next }
    {
      csvsplit($0, f)
      k = f[col["kernel"]]; sub(/^[A-Za-z]+_/, "", k); v = f[col["variant"]]
      if (!(k in seen)) { seen[k] = 1; order[++nk] = k }
      mb[k, v] = (f[col["h2d_bytes"]] + f[col["d2h_bytes"]]) / 1e6
      ms[k, v] = f[col["h2d_ms"]] + f[col["d2h_ms"]]
      has[k, v] = 1
    }
    END {
      nv = split("base_cuda ferry_A ferry_B ferry_C", vs, " ")
      printf "  %-18s", "kernel"
      for (j = 1; j <= nv; j++) printf "%22s", vs[j]
      printf "\n"
      for (i = 1; i <= nk; i++) {
        printf "  %-18s", order[i]
        for (j = 1; j <= nv; j++) {
          if ((order[i], vs[j]) in has) cell = sprintf("%.1f / %.1f", mb[order[i], vs[j]], ms[order[i], vs[j]])
          else cell = "-"
          printf "%22s", cell
        }
        printf "\n"
      }
    }' "$transfer_csv"
fi

if [[ -s $outdir/apps-h200.log ]] && grep -q '^ferry-perf results' "$outdir/apps-h200.log"; then
  printf '\n'
  sed -n '/^ferry-perf results/,$p' "$outdir/apps-h200.log"
elif [[ -s $apps_csv ]]; then
  printf '\nferry-perf (ms per rep):\n'
  awk "$csv_awk_lib"'
    NR == 1 { for (i = csvsplit($0, h); i > 0; i--) col[h[i]] = i; next }
    { csvsplit($0, f); printf "  %-26s %-9s %12.4f ms  %s\n", f[col["kernel"]], f[col["variant"]],
      f[col["time_per_rep_s"]] * 1e3, f[col["status"]] }' "$apps_csv"
else
  printf '\nferry-perf: no results (see %s)\n' "$outdir/apps-h200.log"
fi
((all_ok)) && echo "run-h200: all steps OK" || echo "run-h200: some steps did not succeed (see above)"
((all_ok)) && exit 0 || exit 1
