#!/usr/bin/env bash
# Builds and runs every test:
#   1. host build in build/ (Release, OpenMP default): library, ferry-perf, tests, examples;
#      runs ctest;
#   2. packaging: installs build/ into build/install and builds and runs examples/consumer
#      against it with find_package(ferry), then again with add_subdirectory(ferry);
#   3. if nvcc is found (PATH or /usr/local/cuda/bin): CUDA build in build-cuda/
#      (-DFERRY_DEVICE_BACKEND=cuda), runs its ctest with FERRY_BACKEND=openmp, since a machine
#      without a GPU must pass too. Set FERRY_TEST_CUDA=0 to skip this part.
# Ends with the line "N passed, N failed" over all of them (a failed build counts as one failure;
# the build keeps going past a broken target, so everything else is still tested); exits
# non-zero on any failure.
#
# Usage: scripts/test.sh [ctest options...]    e.g. scripts/test.sh -R example
# Extra arguments go to both ctest runs (the packaging checks always run).
# Installs missing Debian build packages first (needs root or sudo then).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

passed=0
failed=0
failures=()
timings=()

# Records one check outside ctest (a build step, a packaging run).
record() { # name status
  if (("$2" == 0)); then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    failures+=("$1")
  fi
}

# Runs ctest in build folder $1 (label $2) with the remaining arguments and adds its counts.
run_ctest() {
  local dir="$1" label="$2" log
  shift 2
  log="$dir/ctest-summary.log"
  say "running the $label tests (ctest, $FERRY_JOBS jobs)"
  set +e
  ctest --test-dir "$dir" --output-on-failure --parallel "$FERRY_JOBS" "$@" 2>&1 | tee "$log"
  local rc=${PIPESTATUS[0]}
  set -e
  local line total=0 nfail=0
  line=$(grep -E '[0-9]+% tests passed, [0-9]+ tests? failed out of [0-9]+' "$log" | tail -n 1 || true)
  if [[ -n "$line" ]]; then
    nfail=$(sed -E 's/.* ([0-9]+) tests? failed out of ([0-9]+).*/\1/' <<<"$line")
    total=$(sed -E 's/.* ([0-9]+) tests? failed out of ([0-9]+).*/\2/' <<<"$line")
  elif grep -q 'No tests were found' "$log"; then
    warn "the $label build has no tests matching the selection"
  elif ((rc != 0)); then
    nfail=1 # ctest itself failed before running anything
    total=1
  fi
  passed=$((passed + total - nfail))
  failed=$((failed + nfail))
  ((nfail == 0)) || failures+=("$nfail $label test(s)")
  if ((rc != 0 && nfail == 0)); then
    failed=$((failed + 1))
    failures+=("ctest in ${dir#"$FERRY_ROOT"/} (exit status $rc)")
  fi
}

# Runs a build/configure step; on failure records it and returns 1 (without stopping the script).
step() { # name command...
  local name="$1"
  shift
  set +e
  "$@"
  local rc=$?
  set -e
  if ((rc != 0)); then
    record "$name" "$rc"
    warn "$name failed (exit status $rc)"
    return 1
  fi
}

# Timing of the parts: wall and CPU seconds (on 2 cores a build's CPU time is up to twice its
# wall time; much less means it waited for the machine).
part_start() {
  part_wall=$(now)
  cpu_now
  part_cpu=$CPU_NOW
}
part_end() { # label
  cpu_now
  timings+=("$1: $(($(now) - part_wall)) s wall, $((CPU_NOW - part_cpu)) s CPU")
}

# Builds everything in build folder $1 and keeps going past a failed target, so that one broken
# file costs one failure (this step) and the tests of everything else still run.
build_all() { # dir
  local keep_going=()
  case "$(sed -n 's/^CMAKE_GENERATOR:INTERNAL=//p' "$1/CMakeCache.txt")" in
    Ninja) keep_going=(-- -k 0) ;;
    "Unix Makefiles") keep_going=(-- -k) ;;
  esac
  cmake --build "$1" --parallel "$FERRY_JOBS" "${keep_going[@]}"
}

ensure_packages "${FERRY_BUILD_PACKAGES[@]}"

# --- 1. host build ---------------------------------------------------------------------------
part_start
host_ok=0
if step "configure (host)" configure_host_build; then
  host_ok=1
  say "building everything in build/ with $FERRY_JOBS jobs"
  step "build (host)" build_all "$FERRY_BUILD" || true
  run_ctest "$FERRY_BUILD" host "$@"
fi
part_end "host build + tests"

# --- 2. packaging ----------------------------------------------------------------------------
part_start
if ((host_ok)); then
  consumer_src="$FERRY_ROOT/examples/consumer"
  prefix="$FERRY_BUILD/install"
  say "packaging: installing build/ into build/install"
  if step "install" cmake --install "$FERRY_BUILD" --prefix "$prefix" >/dev/null; then
    say "packaging: consumer project with find_package(ferry)"
    rm -rf "$FERRY_BUILD/consumer-installed"
    if step "consumer (find_package): configure" cmake -S "$consumer_src" \
      -B "$FERRY_BUILD/consumer-installed" -G Ninja -DCMAKE_BUILD_TYPE=Release \
      -DCMAKE_PREFIX_PATH="$prefix" &&
      step "consumer (find_package): build" cmake --build "$FERRY_BUILD/consumer-installed"; then
      set +e
      "$FERRY_BUILD/consumer-installed/ferry_consumer"
      record "consumer (find_package): run" $?
      set -e
    fi
  fi
  say "packaging: consumer project with add_subdirectory(ferry)"
  if step "consumer (add_subdirectory): configure" cmake -S "$consumer_src" \
    -B "$FERRY_BUILD/consumer-subdir" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DFERRY_SOURCE_DIR="$FERRY_ROOT" &&
    step "consumer (add_subdirectory): build" \
      cmake --build "$FERRY_BUILD/consumer-subdir" --parallel "$FERRY_JOBS"; then
    set +e
    "$FERRY_BUILD/consumer-subdir/ferry_consumer"
    record "consumer (add_subdirectory): run" $?
    set -e
  fi
else
  warn "skipping the packaging checks: the host build could not be configured"
fi
part_end packaging

# --- 3. CUDA build (compile with nvcc, run on the host) ------------------------------------
nvcc="$(find_nvcc)"
if [[ "${FERRY_TEST_CUDA:-1}" == 0 ]]; then
  say "skipping the CUDA build (FERRY_TEST_CUDA=0)"
elif [[ -z "$nvcc" ]]; then
  say "nvcc not found (PATH, /usr/local/cuda/bin): skipping the CUDA build"
else
  part_start
  cuda_build="$FERRY_ROOT/build-cuda"
  gen=()
  [[ -f "$cuda_build/CMakeCache.txt" ]] || gen=(-G Ninja)
  say "configuring the CUDA build in build-cuda/ with $nvcc"
  # No GPU is needed to build; the tests run on OpenMP. Discovery of gtest cases at build time
  # runs the test programs, so the backend is set for the build too.
  export FERRY_BACKEND=openmp
  if step "configure (CUDA)" cmake -S "$FERRY_ROOT" -B "$cuda_build" "${gen[@]}" \
    -DCMAKE_BUILD_TYPE=Release -DFERRY_DEVICE_BACKEND=cuda -DCMAKE_CUDA_COMPILER="$nvcc" \
    -DFERRY_BUILD_PERF=ON -DFERRY_BUILD_TESTS=ON -DFERRY_BUILD_EXAMPLES=ON; then
    say "building everything in build-cuda/ with $FERRY_JOBS jobs (nvcc is slow)"
    step "build (CUDA)" build_all "$cuda_build" || true
    run_ctest "$cuda_build" "CUDA build (FERRY_BACKEND=openmp)" "$@"
  fi
  unset FERRY_BACKEND
  part_end "CUDA build + tests"
fi

# --- summary ---------------------------------------------------------------------------------
echo
for t in "${timings[@]}"; do say "$t"; done
if ((${#failures[@]})); then
  say "failures:"
  for f in "${failures[@]}"; do printf '    %s\n' "$f"; done
fi
echo "$passed passed, $failed failed"
((failed == 0))
