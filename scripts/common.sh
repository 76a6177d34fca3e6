# Shared helpers of scripts/run-perf.sh and scripts/test.sh (sourced, not run).
#
# FERRY_ROOT      the repository root
# FERRY_BUILD     the host build folder (build/), shared by both scripts so neither rebuilds
#                 what the other built

FERRY_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
FERRY_BUILD="$FERRY_ROOT/build"
FERRY_JOBS="$(nproc 2>/dev/null || echo 2)"

# Debian packages a host build needs: compiler, CMake, Ninja, and the libraries of ferry-perf
# (CLI11, nlohmann-json) and of the tests (GoogleTest).
FERRY_BUILD_PACKAGES=(build-essential g++ cmake ninja-build libgtest-dev libcli11-dev
  nlohmann-json3-dev)

say() { printf '==> %s\n' "$*"; }
warn() { printf '==> warning: %s\n' "$*" >&2; }
die() {
  printf '==> error: %s\n' "$*" >&2
  exit 1
}

# Installs the Debian packages among "$@" that are not installed yet (nothing to do, and no
# network access, when all are). Needs root or password-less sudo when something is missing.
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
configure_host_build() {
  local gen=()
  [[ -f "$FERRY_BUILD/CMakeCache.txt" ]] || gen=(-G Ninja)
  say "configuring the host build in ${FERRY_BUILD#"$FERRY_ROOT"/}/ (Release, OpenMP)"
  cmake -S "$FERRY_ROOT" -B "$FERRY_BUILD" "${gen[@]}" -DCMAKE_BUILD_TYPE=Release \
    -DFERRY_DEVICE_BACKEND=none -DFERRY_BUILD_PERF=ON -DFERRY_BUILD_TESTS=ON \
    -DFERRY_BUILD_EXAMPLES=ON
}

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
