#!/usr/bin/env bash
# offload-h200.sh: the llvm_offload backend on an NVIDIA GPU, against the cuda backend, in one
# device call. The executables are built on the CPU machine and brought along with the Debian
# packages of LLVM's offload run-time libraries (the GPU machine has no package registry).
#
# On the CPU machine (the two build folders configured with FERRY_DEVICE_BACKEND=llvm_offload and
# =cuda, ferry-perf, ferry_unit_tests and ferry_offload_check built in the first, ferry-perf in
# the second):
#   perf/scripts/offload-h200.sh prepare LLVM_OFFLOAD_BUILD CUDA_BUILD BINDIR DEBDIR
# copies ferry-perf, ferry_unit_tests and ferry_offload_check of the llvm_offload build to
# BINDIR/llvm_offload/ and ferry-perf of the cuda build to BINDIR/cuda/, stripped (symbols only:
# the device images stay), and downloads (apt-get download, no install) the run-time packages
# into DEBDIR: libllvm22, liboffload-22 (libLLVMOffload, LLVM's offload API with its CUDA and AMD
# plug-ins, which ferry's runtime calls), libomp5-19 (OpenMP, for the host backends), libz3-4
# and libicu72 (libLLVM's dependencies).
#
# On the GPU machine:
#   perf/scripts/offload-h200.sh run BINDIR DEBDIR OUTDIR [NPASSES]
# Steps, each under its own time limit, each logged to OUTDIR/<step>.log:
#   1. runtime: unpacks every DEBDIR/*.deb into a temporary folder (dpkg -x) and puts its library
#      folders on LD_LIBRARY_PATH (for the llvm_offload programs only);
#   2. check: ferry_offload_check, a few seconds: saxpy, a sum, a 2D grid with dynamic shared
#      memory, back-to-back launches (time to issue each), a trapping kernel that must raise
#      device_error (PASS/FAIL lines);
#   3. machine: nvidia-smi; ldd: the libraries the llvm_offload ferry-perf resolves;
#   4. unit: ferry_unit_tests, the llvm_offload instances and tests (backend selection, the
#      bounds-check test: device_error in a child process);
#   5. unit_all: the whole ferry_unit_tests program (every host backend and llvm_offload);
#   6. llvm_offload: ferry-perf --backend llvm_offload over the seven apps, ferry_A/B/C,
#      NPASSES passes (default 3), CSV OUTDIR/llvm_offload.csv;
#   7. cuda: the cuda build's ferry-perf, same kernels and passes, with base_cuda, CSV
#      OUTDIR/cuda.csv;
# and prints last, per app and variant, the minimum time per rep of both builds and the ratio
# llvm_offload / cuda (issue target: <= 1.10 for ferry_B), and the checksum status of each
# (every variant is checked against ref_seq). OUTDIR/ratios.csv holds the same table.
# FERRY_OFFLOAD_KERNELS (run): the kernels of steps 6 and 7, as ferry-perf's -k takes them, or
# "all" for every kernel of the suite (the table then adds the geomean over the seven apps).
# Exit status: 0 when every step ran and passed.
set -uo pipefail

apps=DEL_DOT_VEC_2D,ENERGY,FIR,LTIMES,MATVEC_3D_STENCIL,PRESSURE,VOL3D
kernels=${FERRY_OFFLOAD_KERNELS:-$apps}
kernel_args=(-k "$kernels")
[[ $kernels == all ]] && kernel_args=()
runtime_packages=(libllvm22 liboffload-22 libomp5-19 libz3-4 libicu72)

usage() {
  sed -n '2,/^set -uo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//'
  exit 2
}

prepare() {
  local lo=${1:?LLVM_OFFLOAD_BUILD} cu=${2:?CUDA_BUILD} bindir=${3:?BINDIR} debdir=${4:?DEBDIR} f
  mkdir -p "$bindir/llvm_offload" "$bindir/cuda" "$debdir"
  for f in "$lo/perf/ferry-perf" "$lo/tests/unit/ferry_unit_tests" \
    "$lo/tests/llvm_offload/ferry_offload_check" "$cu/perf/ferry-perf"; do
    [[ -x $f ]] || { echo "missing $f (build it first)" >&2; exit 1; }
  done
  # strip removes the host symbol tables only; each device image is a data section.
  strip -o "$bindir/llvm_offload/ferry-perf" "$lo/perf/ferry-perf"
  strip -o "$bindir/llvm_offload/ferry_unit_tests" "$lo/tests/unit/ferry_unit_tests"
  strip -o "$bindir/llvm_offload/ferry_offload_check" "$lo/tests/llvm_offload/ferry_offload_check"
  strip -o "$bindir/cuda/ferry-perf" "$cu/perf/ferry-perf"
  (cd "$debdir" && apt-get download "${runtime_packages[@]}") || exit 1
  du -ab "$bindir" "$debdir" | sort -n | tail -n 12
  echo "total: $(du -cb "$bindir" "$debdir" | tail -n 1 | cut -f1) bytes"
}

run() {
  local bindir=${1:?BINDIR} debdir=${2:?DEBDIR} out=${3:?OUTDIR} npasses=${4:-3}
  local lo_perf="$bindir/llvm_offload/ferry-perf" lo_unit="$bindir/llvm_offload/ferry_unit_tests"
  local lo_check="$bindir/llvm_offload/ferry_offload_check"
  local cu_perf="$bindir/cuda/ferry-perf"
  mkdir -p "$out"
  out=$(cd "$out" && pwd)
  unset FERRY_INFO FERRY_BACKEND
  local status=0 summary=() rt libpath
  rt=$(mktemp -d)
  trap "rm -rf '$rt'" EXIT

  # step NAME LIMIT_S CMD...: runs CMD (a program, or a function of this script, which runs
  # without the limit) under a time limit, output to OUTDIR/NAME.log.
  step() {
    local name=$1 limit=$2 t0 rc
    shift 2
    t0=$(date +%s)
    echo "== $name (limit ${limit}s)"
    if declare -F "$1" >/dev/null; then
      "$@" >"$out/$name.log" 2>&1
    else
      timeout --kill-after=10 "$limit" "$@" >"$out/$name.log" 2>&1
    fi
    rc=$?
    summary+=("$(printf '%-13s rc=%-3s %4ss' "$name" "$rc" "$(($(date +%s) - t0))")")
    ((rc == 0)) || status=1
    tail -n 3 "$out/$name.log"
  }

  unpack() {
    local f
    shopt -s nullglob
    local debs=("$debdir"/*.deb)
    ((${#debs[@]})) || { echo "no .deb files in $debdir"; return 1; }
    for f in "${debs[@]}"; do
      if command -v dpkg >/dev/null 2>&1; then
        dpkg -x "$f" "$rt" || return 1
      else  # a .deb is an ar archive holding data.tar.*; tar detects the compression
        local x
        x=$(mktemp -d)
        (cd "$x" && ar x "$(realpath "$f")" && tar -xf data.tar.* -C "$rt") || return 1
        rm -rf "$x"
      fi
      echo "unpacked $(basename "$f")"
    done
    # A program that loads libomptarget (older llvm_offload builds did) also has it dlopen()
    # "libomp.so", which the run-time package does not provide (only libomp.so.5): without this
    # link the loader could find a second OpenMP runtime elsewhere (OMP: Error #15).
    ln -sf libomp.so.5 "$rt/usr/lib/x86_64-linux-gnu/libomp.so"
    ls "$rt/usr/lib/x86_64-linux-gnu" | grep -E 'libomp|libLLVM|offload' || true
  }
  step runtime 120 unpack
  libpath="$rt/usr/lib/x86_64-linux-gnu:$rt/usr/lib/llvm-22/lib:$rt/usr/lib/llvm-19/lib"
  # The llvm_offload programs run with the unpacked run-time libraries.
  local with_runtime=(env "LD_LIBRARY_PATH=$libpath${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}")
  step check 60 "${with_runtime[@]}" "$lo_check"
  grep -E '^(PASS|FAIL|INFO)' "$out/check.log"
  step machine 30 nvidia-smi
  step ldd 30 "${with_runtime[@]}" ldd "$lo_perf"
  # The llvm_offload instances exist only where ferry found the device when the program started:
  # none listed is a failure, not a pass of zero tests.
  unit_offload() {
    local n
    n=$("${with_runtime[@]}" "$lo_unit" --gtest_list_tests --gtest_filter='*/llvm_offload' |
      grep -c llvm_offload)
    echo "llvm_offload test instances: $n"
    ((n > 0)) || { echo "no llvm_offload instances: the device was not usable"; return 1; }
    timeout --kill-after=10 300 "${with_runtime[@]}" "$lo_unit" --gtest_brief=1 \
      --gtest_filter='*/llvm_offload:*llvm_offload*'
  }
  step unit 330 unit_offload
  step unit_all 600 "${with_runtime[@]}" "$lo_unit" --gtest_brief=1
  step llvm_offload 600 "${with_runtime[@]}" "$lo_perf" --backend llvm_offload "${kernel_args[@]}" \
    -v ferry_A,ferry_B,ferry_C --npasses "$npasses" --csv "$out/llvm_offload.csv"
  step cuda 600 "$cu_perf" --backend cuda "${kernel_args[@]}" -v base_cuda,ferry_A,ferry_B,ferry_C \
    --npasses "$npasses" --csv "$out/cuda.csv"

  echo
  echo "steps:"
  printf '  %s\n' "${summary[@]}"
  if [[ -f $out/llvm_offload.csv && -f $out/cuda.csv ]]; then
    python3 - "$out/llvm_offload.csv" "$out/cuda.csv" "$out/ratios.csv" "$apps" <<'EOF' || status=1
import csv, math, sys

def load(path):
    with open(path, newline="") as f:
        rows = [r for r in csv.reader(f) if r and not r[0].startswith("#")]
    return {(r["kernel"], r["variant"]): r for r in (dict(zip(rows[0], x)) for x in rows[1:])}

lo, cu = load(sys.argv[1]), load(sys.argv[2])
device = next(iter(lo.values()))["device"] if lo else "?"
print(f"llvm_offload device: {device}")
print("time per rep, minimum over passes (ms); ratio llvm_offload / cuda; checksum status")
print(f"{'kernel':28s} {'variant':8s} {'llvm_offload':>13s} {'cuda':>10s} {'ratio':>7s}  status")
out, logs = [], {}
for (k, v), r in sorted(lo.items()):
    if v == "ref_seq" or (k, v) not in cu:
        continue
    c = cu[(k, v)]
    a = float(r.get("min_time_per_rep_s") or r["time_per_rep_s"])
    b = float(c.get("min_time_per_rep_s") or c["time_per_rep_s"])
    ratio = a / b if b > 0 else float("nan")
    if ratio > 0:
        logs.setdefault(v, []).append(math.log(ratio))
    st = f"{r['status']}/{c['status']}"
    print(f"{k:28s} {v:8s} {a * 1e3:13.4f} {b * 1e3:10.4f} {ratio:7.3f}  {st}")
    out.append([k, v, a, b, ratio, r["status"], c["status"]])
for v, l in sorted(logs.items()):
    print(f"{'geomean':28s} {v:8s} {'':13s} {'':10s} {math.exp(sum(l) / len(l)):7.3f}")
# With more kernels than the seven apps: the apps' geomean too.
apps = set(sys.argv[4].split(","))
for v in sorted(logs):
    l = [math.log(o[4]) for o in out if o[1] == v and o[4] > 0 and o[0].split("_", 1)[-1] in apps]
    if l and len(l) < len(logs[v]):
        print(f"{'geomean, the 7 apps':28s} {v:8s} {'':13s} {'':10s} {math.exp(sum(l) / len(l)):7.3f}")
with open(sys.argv[3], "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["kernel", "variant", "llvm_offload_s", "cuda_s", "ratio", "status_llvm_offload",
                "status_cuda"])
    w.writerows(out)
bad = [o for o in out if o[5] != "PASSED"]
sys.exit(1 if bad else 0)
EOF
  fi
  return $status
}

case "${1:-}" in
  prepare) shift; prepare "$@" ;;
  run) shift; run "$@" ;;
  *) usage ;;
esac
