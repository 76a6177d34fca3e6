#!/usr/bin/env bash
# Builds and runs every test:
#   1. host build in build/ (Release, GCC, OpenMP default): library, ferry-perf (not
#      ferry-perf-unchecked: scripts/common.sh says why), tests, examples; runs ctest;
#   2. packaging: installs build/ into build/install and builds and runs examples/consumer
#      against it with find_package(ferry), then again with add_subdirectory(ferry);
#   3. ASan+UBSan build in build-asan/ (GCC, -DFERRY_SANITIZE=address,undefined): library, unit
#      tests, examples; runs them (every host backend: serial, checked, openmp/libgomp);
#   4. Clang + TSan build in build-tsan/ ($FERRY_CLANGXX, default clang++-14, with LLVM's libomp,
#      -DFERRY_SANITIZE=thread, Archer loaded for OpenMP): library, unit tests, examples; runs
#      them, and the compile-fail tests against Clang's diagnostics and the header check (which
#      compile without the sanitizer). It is the second compiler too: Clang rejects code GCC
#      accepts, and the reverse. Clang at -O3 runs the unit tests in parts 6 and 7 (clang 22
#      compiles their host code), so a separate Clang Release build (about 5 minutes of the CI
#      run) would repeat them;
#   5. if nvcc is found (PATH or /usr/local/cuda/bin): CUDA build in build-cuda/
#      (-DFERRY_DEVICE_BACKEND=cuda; no fuzzer: see there), runs its ctest with FERRY_BACKEND=openmp, since a machine
#      without a GPU must pass too; then its packaging: installs build-cuda/ into
#      build-cuda/install and builds examples/consumer-cuda (a source compiled by nvcc) against
#      it with find_package(ferry) and with add_subdirectory(ferry), and examples/consumer (plain
#      C++, no CUDA enabled) against the installed CUDA build; runs each with
#      FERRY_BACKEND=openmp (and on the GPU too where nvidia-smi lists one). Set
#      FERRY_TEST_CUDA=0 to skip this part.
#   6. hip build (compile and link only; no AMD GPU here) in build-hip/ (-DFERRY_DEVICE_BACKEND=hip,
#      $FERRY_HIP_CLANGXX, default clang++-22): installs its packages if missing (clang 22, HIP
#      5.2, ROCm device libraries), then compiles the library, the tests, the examples and
#      ferry-perf with -x hip for gfx90a (each device source: once for the host, once for the
#      target), and links them. ferry-perf gets the ferry variants of seven kernels only
#      (FERRY_PERF_VARIANTS below), which between them use every launch form the suite uses:
#      launch_blocks with read<K>, slices<K> and tiles3d (DIFFUSION3DPA, LTIMES), around and
#      indirect (MATVEC_3D_STENCIL, VOL3D), atomic_add (NODAL_ACCUMULATION_3D), reductions
#      (REDUCE3_INT), checked_array values (FIR); part 5 compiles all 27 for a device with nvcc,
#      and the unit tests compile every launch form here, so the other 20 (each compiled twice)
#      are left out to keep the part cheap; FERRY_TEST_HIP_PERF=1 compiles all of them (and runs
#      the ferry-perf tests).
#      ferry-perf-unchecked (the same sources again, without bounds checks) is left out to keep
#      the part cheap. One AMD target, not the build's
#      default gfx90a + gfx942 fat binary: a second target compiles every device source a third
#      time (about a third more CPU time for this part) and proves little more, since both are
#      wave64 targets of the same backend code; FERRY_HIP_ARCHITECTURES keeps both for users,
#      and FERRY_HIP_ARCHITECTURES="gfx90a;gfx942" scripts/test.sh, in a fresh build-hip/, checks
#      the pair (and the gfx942 ISA-version bitcode that cmake/FerryDevice.cmake generates). Runs
#      the unit tests of that build on the host backends (FERRY_BACKEND=openmp): the hip
#      build's host code, not its kernels (part 1 runs the ferry-perf tests). The differential fuzzer is left out
#      (-DFERRY_BUILD_FUZZ=OFF: this part does not run it, and the unit tests compile the same
#      launch machinery). Set FERRY_TEST_HIP=0 to skip this part.
#   7. if the CUDA toolkit is found (as in 5: its ptxas, nvlink and libdevice make the NVIDIA
#      images): llvm_offload build in build-llvm-offload/ (-DFERRY_DEVICE_BACKEND=llvm_offload,
#      $FERRY_LLVM_OFFLOAD_CLANGXX, default clang++-22, -foffload-via-llvm for sm_90 and gfx90a in
#      one executable): library, unit tests and examples (no fuzzer, as in 6; no ferry-perf:
#      its ferry files are compiled for the device by parts 5 and 6, and by clang 22 for AMD in
#      part 6, and this part's unit tests compile every launch form for both images; about four
#      minutes of the CI run; FERRY_TEST_LLVM_OFFLOAD_PERF=1 builds it too); runs its unit tests
#      on the host backends (FERRY_BACKEND=openmp: no GPU here). Set FERRY_TEST_LLVM_OFFLOAD=0 to
#      skip.
# FERRY_TEST_HOST=0 skips parts 1 and 2; FERRY_TEST_ASAN=0 and FERRY_TEST_TSAN=0 skip parts 3
# and 4 (so that, with FERRY_TEST_CUDA=0 and FERRY_TEST_LLVM_OFFLOAD=0 too, only the hip part
# runs: e.g. to time it). The sanitizer builds leave out ferry-perf (its own tests run in part 1);
# the ASan+UBSan build runs everything but the compile-fail and header tests, which compile code
# and run nothing (part 4 runs them with Clang).
# Ends with the line "N passed, N skipped, N failed" over all of them (skipped: tests that ran
# and reported a skip, e.g. GTEST_SKIP() for what a backend cannot do; a failed build counts as one failure;
# the build keeps going past a broken target, so everything else is still tested), after the
# wall and CPU time of each part; exits non-zero on any failure.
#
# Usage: scripts/test.sh [ctest options...]    e.g. scripts/test.sh -R example
# Extra arguments go to every ctest run (the packaging checks always run).
# Installs missing Debian build packages first (needs root or sudo then).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

# OpenMP threads sleep at barriers instead of spinning, unless the caller says otherwise: ctest
# runs two test programs at once on a 2-core machine, each with an OpenMP team, and a spinning
# thread then holds a core its team's other thread needs. Tests that launch thousands of times
# on the openmp backend (lead_attacks.*) took 20-65 s each in a CI run, about 1 s idle; two of
# them side by side took 1.8-2.0 s each with libgomp's default policy and 0.3-0.4 s with this one.
export OMP_WAIT_POLICY="${OMP_WAIT_POLICY:-passive}"

# Unit test sources compiled per translation unit (FERRY_UNIT_TEST_BATCH, tests/unit/
# CMakeLists.txt says why): each translation unit pays for gtest's and ferry's headers once,
# about 6 s of clang -x hip and 1 s of g++ apiece. Not in the CUDA build, where nvcc took longer
# for the batches than for the files alone. FERRY_UNIT_TEST_BATCH=1 compiles each source on its
# own, as a developer build does.
unit_batch=(-DFERRY_UNIT_TEST_BATCH="${FERRY_UNIT_TEST_BATCH:-6}")

passed=0
skipped=0
failed=0
failures=()
timings=()
# Prefix of the build and ctest commands of the current part: `env VAR=value...` for the
# sanitizers' run-time settings (empty: the environment as it is).
part_run=()

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
  "${part_run[@]}" ctest --test-dir "$dir" --output-on-failure --parallel "$FERRY_JOBS" "$@" 2>&1 |
    tee "$log"
  local rc=${PIPESTATUS[0]}
  set -e
  local line total=0 nfail=0 nskip=0
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
  # ctest counts a skipped test as not failed; it lists each under "The following tests did not
  # run:" as "<n> - <name> (Skipped)".
  nskip=$(grep -cE '^[[:space:]]*[0-9]+ - .* \(Skipped\)$' "$log" || true)
  passed=$((passed + total - nfail - nskip))
  skipped=$((skipped + nskip))
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
  "${part_run[@]}" cmake --build "$1" --parallel "$FERRY_JOBS" "${keep_going[@]}"
}

# Parts 3 and 4: configures build folder $2 (under the root) with compiler $3, build type $4 and
# sanitizers $5 (FERRY_SANITIZE; empty: none), builds everything in it (library, tests, and the
# examples if $6 is ON; never ferry-perf) and runs its ctest with the remaining arguments.
# Sanitizer builds compile RelWithDebInfo at -O1 with line tables only (-g1): optimised, so that
# UBSan sees what the optimiser assumes (-O1 is the level AddressSanitizer's documentation
# recommends), with file and line in every report. -O2 -g compiled the same tests about three
# times slower (test_launch.cpp under ASan+UBSan: 68 s against 23 s), the largest single cost of
# the CI run.
extra_build() { # label folder compiler build_type sanitize examples [ctest args...]
  local label="$1" dir="$FERRY_ROOT/$2" cxx="$3" type="$4" sanitize="$5" examples="$6"
  shift 6
  local flags=()
  [[ -z "$sanitize" ]] || flags=(-DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG")
  local gen=()
  [[ -f "$dir/CMakeCache.txt" ]] || gen=(-G Ninja)
  say "configuring the $label build in ${dir#"$FERRY_ROOT"/}/ ($cxx, $type${sanitize:+, -fsanitize=$sanitize})"
  if step "configure ($label)" cmake -S "$FERRY_ROOT" -B "$dir" "${gen[@]}" \
    -DCMAKE_BUILD_TYPE="$type" -DCMAKE_CXX_COMPILER="$cxx" -DFERRY_DEVICE_BACKEND=none \
    -DFERRY_SANITIZE="$sanitize" -DFERRY_BUILD_PERF=OFF -DFERRY_BUILD_TESTS=ON \
    -DFERRY_BUILD_EXAMPLES="$examples" "${unit_batch[@]}" "${flags[@]}"; then
    say "building everything in ${dir#"$FERRY_ROOT"/}/ with $FERRY_JOBS jobs"
    step "build ($label)" build_all "$dir" || true
    run_ctest "$dir" "$label" "$@"
  fi
}

packages=("${FERRY_BUILD_PACKAGES[@]}")
if [[ "${FERRY_TEST_TSAN:-1}" != 0 ]]; then
  packages+=("${FERRY_CLANG_PACKAGES[@]}")
fi
ensure_packages "${packages[@]}"

# --- 1. host build ---------------------------------------------------------------------------
host_ok=0
if [[ "${FERRY_TEST_HOST:-1}" == 0 ]]; then
  say "skipping the host build and packaging (FERRY_TEST_HOST=0)"
else
  part_start
  if step "configure (host)" configure_host_build "${unit_batch[@]}"; then
    host_ok=1
    say "building everything in build/ with $FERRY_JOBS jobs"
    step "build (host)" build_all "$FERRY_BUILD" || true
    run_ctest "$FERRY_BUILD" host "$@"
  fi
  part_end "host build + tests"
fi

# --- 2. packaging ----------------------------------------------------------------------------
# Builds consumer project $2 in folder $3 with the cmake options that follow "--" (Release,
# Ninja) and runs its program $4 (a file in $3); label $1 names the checks. The program runs with
# the environment as it is (part 6 sets FERRY_BACKEND=openmp), and on the GPU too when $5 is
# "gpu" and nvidia-smi lists one.
consumer_check() { # label source folder program gpu -- cmake options...
  local label="$1" src="$2" dir="$3" program="$4" gpu="$5"
  shift 6
  say "packaging: $label"
  # A consumer of an installed package starts afresh (its cache would keep the ferry it found
  # first); one that builds ferry from source keeps its folder, so a rerun rebuilds what changed.
  [[ " $* " != *" -DCMAKE_PREFIX_PATH="* ]] || rm -rf "$dir"
  if step "$label: configure" cmake -S "$src" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release "$@" &&
    step "$label: build" cmake --build "$dir" --parallel "$FERRY_JOBS"; then
    set +e
    "$dir/$program"
    record "$label: run${FERRY_BACKEND:+ (FERRY_BACKEND=$FERRY_BACKEND)}" $?
    if [[ "$gpu" == gpu ]] && nvidia-smi -L >/dev/null 2>&1; then
      env -u FERRY_BACKEND "$dir/$program"
      record "$label: run on the GPU" $?
    fi
    set -e
  fi
}

if [[ "${FERRY_TEST_HOST:-1}" != 0 ]]; then
  part_start
  if ((host_ok)); then
    consumer_src="$FERRY_ROOT/examples/consumer"
    prefix="$FERRY_BUILD/install"
    say "packaging: installing build/ into build/install"
    if step "install" cmake --install "$FERRY_BUILD" --prefix "$prefix" >/dev/null; then
      consumer_check "consumer (find_package)" "$consumer_src" "$FERRY_BUILD/consumer-installed" \
        ferry_consumer cpu -- -DCMAKE_PREFIX_PATH="$prefix"
    fi
    consumer_check "consumer (add_subdirectory)" "$consumer_src" "$FERRY_BUILD/consumer-subdir" \
      ferry_consumer cpu -- -DFERRY_SOURCE_DIR="$FERRY_ROOT"
  else
    warn "skipping the packaging checks: the host build could not be configured"
  fi
  part_end packaging
fi

# --- 3. AddressSanitizer + UndefinedBehaviorSanitizer -----------------------------------------
# GCC, so the openmp backend runs on libgomp here (and on LLVM's libomp in part 5).
# RelWithDebInfo at -O1 -g1 (see extra_build).
if [[ "${FERRY_TEST_ASAN:-1}" == 0 ]]; then
  say "skipping the ASan+UBSan build (FERRY_TEST_ASAN=0)"
else
  part_start
  asan_env
  part_run=(env "${SANITIZER_ENV[@]}")
  extra_build "ASan+UBSan" build-asan g++ RelWithDebInfo address,undefined ON \
    -LE 'compile_fail|headers' "$@"
  part_run=()
  part_end "ASan+UBSan build + tests"
fi

# --- 4. Clang + ThreadSanitizer --------------------------------------------------------------
# Clang, because TSan needs an OpenMP runtime it can see through: LLVM's libomp reports its
# synchronisation to the Archer tool, GCC's libgomp reports nothing (false races). Also the
# second compiler (Clang rejects code GCC accepts, and the reverse): it runs the compile-fail
# tests against Clang's diagnostics and the header check, which compile without the sanitizer.
if [[ "${FERRY_TEST_TSAN:-1}" == 0 ]]; then
  say "skipping the Clang + TSan build (FERRY_TEST_TSAN=0)"
else
  part_start
  archer="$(find_archer)"
  if [[ -z "$archer" ]]; then
    record "TSan: LLVM's Archer tool (libarcher.so, package libomp-14-dev) not found" 1
  else
    say "TSan: OpenMP tool $archer"
    tsan_env "$archer"
    part_run=(env "${SANITIZER_ENV[@]}")
    # TSan of LLVM 14 cannot map its shadow memory under more than 28 bits of mmap
    # randomisation (newer kernels' default): run without address randomisation then.
    if (($(cat /proc/sys/vm/mmap_rnd_bits 2>/dev/null || echo 28) > 28)) &&
      setarch "$(uname -m)" -R true 2>/dev/null; then
      say "TSan: vm.mmap_rnd_bits > 28, running without address randomisation (setarch -R)"
      part_run+=(setarch "$(uname -m)" -R)
    fi
    extra_build "Clang + TSan" build-tsan "$FERRY_CLANGXX" RelWithDebInfo thread ON "$@"
    part_run=()
  fi
  part_end "Clang + TSan build + tests"
fi

# --- 5. CUDA build (compile with nvcc, run on the host) ------------------------------------
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
  # runs the test programs, so the backend is set for the build too. ferry-perf-unchecked is
  # left out (the host build compiles the same sources with the checks off; for GPU runs,
  # perf/scripts/link-unchecked.sh builds it from this build's objects), which keeps the CI
  # within its time with the hip and llvm_offload parts. So is the differential fuzzer (about
  # 90 s of nvcc): without a GPU it would compare the host backends, as part 1 does; on a GPU
  # machine, build it (-DFERRY_BUILD_FUZZ=ON, the default) to compare cuda with them.
  export FERRY_BACKEND=openmp
  if step "configure (CUDA)" cmake -S "$FERRY_ROOT" -B "$cuda_build" "${gen[@]}" \
    -DCMAKE_BUILD_TYPE=Release -DFERRY_DEVICE_BACKEND=cuda -DCMAKE_CUDA_COMPILER="$nvcc" \
    -DFERRY_BUILD_PERF=ON -DFERRY_PERF_UNCHECKED=OFF -DFERRY_BUILD_TESTS=ON \
    -DFERRY_BUILD_FUZZ=OFF -DFERRY_BUILD_EXAMPLES=ON -DFERRY_UNIT_TEST_BATCH=1; then
    say "building everything in build-cuda/ with $FERRY_JOBS jobs (nvcc is slow)"
    step "build (CUDA)" build_all "$cuda_build" || true
    # Not the compile-fail tests: they compile with the build's C++ compiler (g++ here, as in
    # part 1), so this part would repeat part 1's checks exactly (about 140 s at -j2).
    run_ctest "$cuda_build" "CUDA build (FERRY_BACKEND=openmp)" -LE compile_fail "$@"
  fi
  part_end "CUDA build + tests"

  # CUDA packaging: what a CUDA project using ferry compiles (each consumer is one small
  # translation unit; add_subdirectory rebuilds the library, a few host sources).
  part_start
  if [[ -f "$cuda_build/CMakeCache.txt" ]]; then
    cuda_prefix="$cuda_build/install"
    say "packaging: installing build-cuda/ into build-cuda/install"
    if step "install (CUDA)" cmake --install "$cuda_build" --prefix "$cuda_prefix" >/dev/null; then
      consumer_check "CUDA consumer (find_package)" "$FERRY_ROOT/examples/consumer-cuda" \
        "$cuda_build/consumer-cuda-installed" ferry_consumer_cuda gpu -- \
        -DCMAKE_PREFIX_PATH="$cuda_prefix" -DCMAKE_CUDA_COMPILER="$nvcc"
      consumer_check "C++ consumer of the CUDA build (find_package)" \
        "$FERRY_ROOT/examples/consumer" "$cuda_build/consumer-installed" ferry_consumer cpu -- \
        -DCMAKE_PREFIX_PATH="$cuda_prefix"
    fi
    consumer_check "CUDA consumer (add_subdirectory)" "$FERRY_ROOT/examples/consumer-cuda" \
      "$cuda_build/consumer-cuda-subdir" ferry_consumer_cuda gpu -- \
      -DFERRY_SOURCE_DIR="$FERRY_ROOT" -DCMAKE_CUDA_COMPILER="$nvcc"
  fi
  unset FERRY_BACKEND
  part_end "CUDA packaging"
fi

# --- 6. hip build (compile and link only; no AMD GPU here) ------------------------------------
if [[ "${FERRY_TEST_HIP:-1}" == 0 ]]; then
  say "skipping the hip build (FERRY_TEST_HIP=0)"
else
  part_start
  ensure_packages "${FERRY_HIP_PACKAGES[@]}"
  hip_build="$FERRY_ROOT/build-hip"
  gen=()
  [[ -f "$hip_build/CMakeCache.txt" ]] || gen=(-G Ninja)
  hip_archs="${FERRY_HIP_ARCHITECTURES:-gfx90a}"
  say "configuring the hip build in build-hip/ with $FERRY_HIP_CLANGXX ($hip_archs)"
  # Test discovery runs the test programs at build time: on the host backends.
  export FERRY_BACKEND=openmp
  hip_perf_all=${FERRY_TEST_HIP_PERF:-0}
  hip_variants='^(DIFFUSION3DPA|LTIMES|MATVEC_3D_STENCIL|VOL3D|NODAL_ACCUMULATION_3D|REDUCE3_INT|FIR)-ferry[.]cpp$'
  ((hip_perf_all)) && hip_variants=""
  if step "configure (hip)" cmake -S "$FERRY_ROOT" -B "$hip_build" "${gen[@]}" \
    -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER="$FERRY_HIP_CLANGXX" \
    -DFERRY_DEVICE_BACKEND=hip "-DFERRY_HIP_ARCHITECTURES=$hip_archs" \
    -DFERRY_BUILD_PERF=ON -DFERRY_PERF_UNCHECKED=OFF "-DFERRY_PERF_VARIANTS=$hip_variants" \
    -DFERRY_BUILD_TESTS=ON \
    -DFERRY_BUILD_FUZZ=OFF -DFERRY_BUILD_EXAMPLES=ON "${unit_batch[@]}"; then
    say "building everything in build-hip/ with $FERRY_JOBS jobs (each device source: host, $hip_archs)"
    # One passed check when everything compiled and linked (a failure is recorded by step).
    if step "build (hip, $hip_archs)" build_all "$hip_build"; then
      record "build (hip, $hip_archs)" 0
    fi
    # The host code clang compiled as HIP, on the host backends (the kernels need an AMD GPU).
    hip_labels=unit
    ((hip_perf_all)) && hip_labels='unit|perf'
    run_ctest "$hip_build" "hip build (FERRY_BACKEND=openmp)" -L "$hip_labels" "$@"
  fi
  unset FERRY_BACKEND
  part_end "hip build (compile and link; host-backend tests)"
fi

# --- 7. llvm_offload build (NVIDIA and AMD images in one executable; runs on the host here) ----
if [[ "${FERRY_TEST_LLVM_OFFLOAD:-1}" == 0 ]]; then
  say "skipping the llvm_offload build (FERRY_TEST_LLVM_OFFLOAD=0)"
elif [[ -z "$nvcc" ]]; then
  say "CUDA toolkit not found: skipping the llvm_offload build (its NVIDIA images need ptxas, nvlink and libdevice)"
else
  part_start
  ensure_packages "${FERRY_LLVM_OFFLOAD_PACKAGES[@]}"
  lo_build="$FERRY_ROOT/build-llvm-offload"
  gen=()
  [[ -f "$lo_build/CMakeCache.txt" ]] || gen=(-G Ninja)
  say "configuring the llvm_offload build in build-llvm-offload/ with $FERRY_LLVM_OFFLOAD_CLANGXX (sm_90, gfx90a)"
  # No GPU here: test discovery at build time and the tests run on the host backends.
  export FERRY_BACKEND=openmp
  if step "configure (llvm_offload)" cmake -S "$FERRY_ROOT" -B "$lo_build" "${gen[@]}" \
    -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER="$FERRY_LLVM_OFFLOAD_CLANGXX" \
    -DFERRY_DEVICE_BACKEND=llvm_offload "-DFERRY_LLVM_OFFLOAD_ARCHITECTURES=sm_90;gfx90a" \
    -DCUDAToolkit_ROOT="$(dirname "$(dirname "$nvcc")")" -DFERRY_PERF_UNCHECKED=OFF \
    "-DFERRY_BUILD_PERF=$( ((${FERRY_TEST_LLVM_OFFLOAD_PERF:-0})) && echo ON || echo OFF)" \
    -DFERRY_BUILD_TESTS=ON -DFERRY_BUILD_FUZZ=OFF \
    -DFERRY_BUILD_EXAMPLES=ON "${unit_batch[@]}"; then
    say "building everything in build-llvm-offload/ with $FERRY_JOBS jobs (two device images per source)"
    step "build (llvm_offload, sm_90 + gfx90a)" build_all "$lo_build" || true
    run_ctest "$lo_build" "llvm_offload build (FERRY_BACKEND=openmp)" -L unit "$@"
  fi
  unset FERRY_BACKEND
  part_end "llvm_offload build + unit tests (host)"
fi

# --- summary ---------------------------------------------------------------------------------
echo
for t in "${timings[@]}"; do say "$t"; done
if ((${#failures[@]})); then
  say "failures:"
  for f in "${failures[@]}"; do printf '    %s\n' "$f"; done
fi
echo "$passed passed, $skipped skipped, $failed failed"
((failed == 0))
