# Sanitizer builds: -DFERRY_SANITIZE=<list> instruments everything ferry's project builds (the
# library, the tests, the examples and ferry-perf) with the compiler's sanitizers.
#
#   cmake -S . -B build-asan -DFERRY_SANITIZE=address,undefined -DCMAKE_BUILD_TYPE=RelWithDebInfo
#   cmake -S . -B build-tsan -DFERRY_SANITIZE=thread -DCMAKE_CXX_COMPILER=clang++-14 \
#         -DCMAKE_BUILD_TYPE=RelWithDebInfo
#
# The value is what -fsanitize= takes, comma-separated; the checks this module knows are
# address, undefined, leak and thread (thread excludes address and leak: one runtime each).
# GCC and Clang only, and host builds only (FERRY_DEVICE_BACKEND=none): nvcc's device pass does
# not take these flags.
#
# Added flags (compile and link, directory-wide, so targets that do not link ferry are covered):
#   -fsanitize=<list> -fno-omit-frame-pointer  frames in reports even in optimised builds;
#   -fno-sanitize-recover=undefined            (with "undefined") a UB report aborts the program,
#                                              so the test that hit it fails instead of passing
#                                              with a message in its log.
# The ferry target also carries -fsanitize=<list> as an INTERFACE link option: a program that
# links a sanitized ferry (add_subdirectory or an installed package) needs the runtime.
#
# The module sets FERRY_SANITIZE_COMPILE_OPTIONS and FERRY_SANITIZE_LINK_OPTIONS (empty without
# sanitizers) for projects that want the same flags on their own targets.
#
# Run-time settings are environment variables and are not set here; scripts/test.sh uses:
#   ASAN_OPTIONS=detect_leaks=1:detect_stack_use_after_return=1:check_initialization_order=1:
#                strict_init_order=1
#   UBSAN_OPTIONS=print_stacktrace=1
#   TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1:ignore_noninstrumented_modules=1
# The OpenMP backend under ThreadSanitizer needs LLVM's libomp (Clang's -fopenmp) and its Archer
# tool (OMP_TOOL_LIBRARIES=<llvm lib dir>/libarcher.so), which tells TSan about OpenMP's
# barriers and task dependences; GCC's libgomp is not instrumented, and TSan reports its
# synchronisation as races.
include_guard(GLOBAL)

set(FERRY_SANITIZE "" CACHE STRING
    "Sanitizers, as for -fsanitize= (e.g. address,undefined or thread); empty: none")

set(FERRY_SANITIZE_COMPILE_OPTIONS "")
set(FERRY_SANITIZE_LINK_OPTIONS "")

if(FERRY_SANITIZE)
  if(NOT CMAKE_CXX_COMPILER_ID MATCHES "^(GNU|Clang)$")
    message(FATAL_ERROR "FERRY_SANITIZE needs GCC or Clang, not ${CMAKE_CXX_COMPILER_ID}")
  endif()
  if(NOT FERRY_DEVICE_BACKEND STREQUAL "none")
    message(FATAL_ERROR "FERRY_SANITIZE works in host builds only (FERRY_DEVICE_BACKEND=none)")
  endif()
  string(REPLACE "," ";" _ferry_sanitizers "${FERRY_SANITIZE}")
  foreach(_ferry_s IN LISTS _ferry_sanitizers)
    if(NOT _ferry_s MATCHES "^(address|undefined|leak|thread)$")
      message(FATAL_ERROR "FERRY_SANITIZE='${FERRY_SANITIZE}': '${_ferry_s}' is not one of "
                          "address, undefined, leak, thread")
    endif()
  endforeach()
  if("thread" IN_LIST _ferry_sanitizers AND
     ("address" IN_LIST _ferry_sanitizers OR "leak" IN_LIST _ferry_sanitizers))
    message(FATAL_ERROR "FERRY_SANITIZE='${FERRY_SANITIZE}': thread cannot be combined with "
                        "address or leak (each needs its own runtime)")
  endif()
  if("thread" IN_LIST _ferry_sanitizers AND CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    message(WARNING "FERRY_SANITIZE=thread with GCC: libgomp is not instrumented, so TSan "
                    "reports OpenMP's own synchronisation as data races. Use Clang "
                    "(LLVM's libomp and its Archer tool) for the openmp backend.")
  endif()

  list(JOIN _ferry_sanitizers "," _ferry_list)
  set(FERRY_SANITIZE_LINK_OPTIONS "-fsanitize=${_ferry_list}")
  set(FERRY_SANITIZE_COMPILE_OPTIONS "-fsanitize=${_ferry_list}" -fno-omit-frame-pointer)
  if("undefined" IN_LIST _ferry_sanitizers)
    list(APPEND FERRY_SANITIZE_COMPILE_OPTIONS -fno-sanitize-recover=undefined)
  endif()
  add_compile_options(${FERRY_SANITIZE_COMPILE_OPTIONS})
  add_link_options(${FERRY_SANITIZE_LINK_OPTIONS})
  message(STATUS "ferry: sanitizers ${_ferry_list}")
endif()

# Adds the sanitizer runtime to what programs linking <target> get (no-op without sanitizers).
function(ferry_sanitize_interface target)
  if(FERRY_SANITIZE_LINK_OPTIONS)
    target_link_options(${target} INTERFACE ${FERRY_SANITIZE_LINK_OPTIONS})
  endif()
endfunction()
