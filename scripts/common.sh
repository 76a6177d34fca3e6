# Shared helpers of scripts/run-perf.sh and scripts/test.sh (sourced, not run).
#
# FERRY_ROOT      the repository root
# FERRY_BUILD     the host build folder (build/), shared by both scripts so neither rebuilds
#                 what the other built

FERRY_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
FERRY_BUILD="$FERRY_ROOT/build"
FERRY_JOBS="${FERRY_JOBS:-$(nproc 2>/dev/null || echo 2)}"

# Debian packages a host build needs: compiler, CMake, Ninja, and the libraries of ferry-perf
# (CLI11, nlohmann-json) and of the tests (GoogleTest). Nothing else: g++ brings gcc, binutils
# and libc6-dev; every build uses Ninja, so build-essential's make and dpkg-dev are not needed.
FERRY_BUILD_PACKAGES=(g++ cmake ninja-build libgtest-dev libcli11-dev nlohmann-json3-dev)

# Debian packages of the clang and ThreadSanitizer builds of scripts/test.sh: Clang 14 (Debian
# 12's), its sanitizer runtimes (only recommended by clang-14, so named here), and LLVM's OpenMP
# runtime, whose Archer tool (libarcher.so) makes OpenMP's synchronisation visible to TSan.
# GCC's ASan and UBSan runtimes come with g++ (libasan8, libubsan1).
FERRY_CLANG_PACKAGES=(clang-14 libclang-rt-14-dev libomp-14-dev)
FERRY_CLANGXX="${FERRY_CLANGXX:-clang++-14}"

say() { printf '==> %s\n' "$*"; }
warn() { printf '==> warning: %s\n' "$*" >&2; }
die() {
  printf '==> error: %s\n' "$*" >&2
  exit 1
}

# Installs the Debian packages among "$@" that are not installed yet (nothing to do, and no
# network access, when all are), without their recommended packages (only what ferry's builds
# use). Needs root or password-less sudo when something is missing.
ensure_packages() {
  if ! command -v dpkg-query >/dev/null 2>&1; then
    warn "not a Debian system: cannot check for packages $*; assuming they are installed"
    return 0
  fi
  local missing=() p
  for p in "$@"; do
    if [[ "$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null)" != "install ok installed" ]]; then
      missing+=("$p")
    fi
  done
  if ((${#missing[@]} == 0)); then
    say "packages present: $*"
    return 0
  fi
  local sudo=()
  if ((EUID != 0)); then
    command -v sudo >/dev/null 2>&1 || die "missing packages ${missing[*]}; run as root or install them"
    sudo=(sudo -n)
  fi
  say "installing missing packages: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  "${sudo[@]}" apt-get update -q
  "${sudo[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}" </dev/null
}

# Configures the host build in build/: Release, default backend OpenMP, with ferry-perf, the
# tests and the examples. Keeps the generator of an existing build folder.
configure_host_build() { # [extra cmake options...]
  local gen=()
  [[ -f "$FERRY_BUILD/CMakeCache.txt" ]] || gen=(-G Ninja)
  say "configuring the host build in ${FERRY_BUILD#"$FERRY_ROOT"/}/ (Release, OpenMP)"
  # ferry-perf-unchecked (the suite without bounds checks, for perf/scripts/bounds-cost.sh) is
  # left out: neither script runs it, and it would compile every variant file a second time
  # (about 270 s of CPU in CI). The unchecked configuration has its own unit test
  # (tests/unit/test_no_bounds_checks.cpp); GPU runs link the program with
  # perf/scripts/link-unchecked.sh.
  cmake -S "$FERRY_ROOT" -B "$FERRY_BUILD" "${gen[@]}" -DCMAKE_BUILD_TYPE=Release \
    -DFERRY_DEVICE_BACKEND=none -DFERRY_BUILD_PERF=ON -DFERRY_PERF_UNCHECKED=OFF \
    -DFERRY_BUILD_TESTS=ON -DFERRY_BUILD_EXAMPLES=ON "$@"
}

# Prints the path of LLVM's Archer OpenMP tool (libarcher.so) that matches $FERRY_CLANGXX, or
# nothing: Debian ships it in libomp-14-dev under /usr/lib/llvm-14/lib, outside the loader's
# search path, so OMP_TOOL_LIBRARIES gets the full path.
find_archer() {
  local f
  f=$(dpkg-query -L libomp-14-dev 2>/dev/null | grep '/libarcher\.so$' | head -n 1 || true)
  if [[ -z "$f" ]] && command -v "$FERRY_CLANGXX" >/dev/null 2>&1; then
    # <llvm>/lib/clang/<version> is Clang's resource folder; the runtimes are in <llvm>/lib.
    f="$("$FERRY_CLANGXX" -print-resource-dir)/../../libarcher.so"
  fi
  [[ -n "$f" && -f "$f" ]] && realpath "$f"
  return 0
}

# Run-time settings of the sanitizer builds, as VAR=value words in the array SANITIZER_ENV (for
# `env`); they apply to their build too, since test discovery runs the test programs at build
# time. Options already in the environment come last, so they win.
#   ASan: leaks fail (LeakSanitizer), and the stack/initialisation-order checks that are off by
#         default are on.
#   UBSan: a stack trace with each report (the program aborts at the first one:
#          -fno-sanitize-recover=undefined, see cmake/FerrySanitize.cmake).
asan_env() {
  SANITIZER_ENV=(
    "ASAN_OPTIONS=detect_leaks=1:detect_stack_use_after_return=1:check_initialization_order=1:strict_init_order=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
    "UBSAN_OPTIONS=print_stacktrace=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}")
}
#   TSan: stop at the first report (a race fails its test), show both stacks of a lock-order
#         inversion, and skip the uninstrumented OpenMP runtime's own accesses (libarcher's
#         advice; Archer supplies the runtime's happens-before edges instead).
#   Archer (LLVM's OpenMP tool for TSan): loaded through OMP_TOOL_LIBRARIES; ignore_serial=0
#         keeps code outside parallel regions checked (host threads of the stress tests).
#   OMP_NUM_THREADS: at least 2, also on a 1-core machine, or no two OpenMP threads could race.
tsan_env() { # path of libarcher.so
  SANITIZER_ENV=(
    "TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1:ignore_noninstrumented_modules=1${TSAN_OPTIONS:+:$TSAN_OPTIONS}"
    "OMP_TOOL_LIBRARIES=$1"
    "ARCHER_OPTIONS=${ARCHER_OPTIONS:-enable=1 ignore_serial=0}")
  if (($(nproc 2>/dev/null || echo 1) < 2)); then
    SANITIZER_ENV+=("OMP_NUM_THREADS=${OMP_NUM_THREADS:-2}")
  fi
}

# Debian packages of the hip build of scripts/test.sh (AMD GPUs, compile and link only): Clang 22
# (compiles -x hip; clang-tools-22's clang-offload-bundler packs the host and device objects
# into one, and the driver fails without it ("posix_spawn failed"); clang-22 does not
# install it; its lld-22 links the device code, llvm-22's llvm-dis/llvm-as make the gfx942
# bitcode cmake/FerryDevice.cmake generates, libomp-22-dev is its OpenMP), HIP 5.2's headers and
# runtime library (libamdhip64-dev) and the ROCm device libraries (rocm-device-libs).
FERRY_HIP_PACKAGES=(clang-22 clang-tools-22 lld-22 llvm-22 libomp-22-dev libamdhip64-dev rocm-device-libs)
FERRY_HIP_CLANGXX="${FERRY_HIP_CLANGXX:-clang++-22}"

# Debian packages of the llvm_offload build of scripts/test.sh (one executable with NVIDIA and AMD
# images): Clang 22 (-foffload-via-llvm) with its clang-linker-wrapper (clang-tools-22), lld-22
# (links the AMD images), llvm-22 (llvm-offload-binary), LLVM's OpenMP runtime and offload API
# (libomp-22-dev; liboffload-22-dev: OffloadAPI.h and libLLVMOffload, which ferry's runtime calls,
# and libomptarget, which the driver names at the link) and the ROCm device libraries
# (rocm-device-libs: OCML for the AMD images' math). The NVIDIA images need the CUDA toolkit.
FERRY_LLVM_OFFLOAD_PACKAGES=(clang-22 clang-tools-22 lld-22 llvm-22 libomp-22-dev liboffload-22-dev rocm-device-libs)
FERRY_LLVM_OFFLOAD_CLANGXX="${FERRY_LLVM_OFFLOAD_CLANGXX:-clang++-22}"

# Prints the path of nvcc (PATH first, then the toolkit's usual place), or nothing.
find_nvcc() {
  if command -v nvcc >/dev/null 2>&1; then
    command -v nvcc
  elif [[ -x /usr/local/cuda/bin/nvcc ]]; then
    echo /usr/local/cuda/bin/nvcc
  fi
}

# Seconds since the epoch, for step timings.
now() { date +%s; }

# Sets CPU_NOW to the CPU seconds (user + system) used so far by finished child processes of
# this shell; with the wall time it shows how much of a step waited for cores. Call it as a plain
# command, not in $(...): a subshell would count only its own children.
cpu_now() {
  local f
  f=$(mktemp)
  times >"$f" # second line: the children's user and system time, "XmY.YYYs XmY.YYYs"
  CPU_NOW=$(awk 'NR == 2 { s = 0; for (i = 1; i <= 2; ++i) { split($i, a, /[ms]/); s += a[1] * 60 + a[2] } printf "%d", s }' "$f")
  rm -f "$f"
}
