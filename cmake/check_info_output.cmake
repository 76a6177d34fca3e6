# The FERRY_INFO output test: runs PROGRAM (tests/unit/info_probe.cpp) and checks its stderr.
#
#   cmake -DPROGRAM=<info_probe> -DMODE=on|off -P check_info_output.cmake
#
# MODE=on: runs with FERRY_INFO=1 and OMP_WAIT_POLICY=passive and requires each line below, in
# this order (other lines may come between; a line is matched whole). MODE=off: runs with
# FERRY_INFO unset and requires no "ferry:" line on stderr (a sanitizer's tool may print there). The program's exit status must be 0 either way.
# The expected lines are the formats of src/stats.cpp, with the byte and thread counts of the
# probe's events (a backend's own allocation may round up or add guard bytes: any size there).
cmake_minimum_required(VERSION 3.25)
if(NOT DEFINED PROGRAM OR NOT MODE MATCHES "^(on|off)$")
  message(FATAL_ERROR "usage: cmake -DPROGRAM=<info_probe> -DMODE=on|off -P ${CMAKE_CURRENT_LIST_FILE}")
endif()

set(num "[0-9]+\\.[0-9]+")
set(expected
  "ferry: ferry::preload_mut +alloc +[0-9]+ bytes at 0x[0-9a-f]+"
  "ferry: ferry::preload_mut +H2D +8000 bytes +${num} ms +${num} GB/s"
  "ferry: info_probe_scale +launch on checked, 1000 threads"
  "ferry: ferry::preload_mut +D2H +8000 bytes +${num} ms +${num} GB/s"
  "ferry: ferry::unsafe::device_buffer +alloc +1000 bytes at 0x[0-9a-f]+"
  "ferry: ferry::unsafe::device_buffer +H2D +1000 bytes +${num} ms +${num} GB/s"
  "ferry: ferry::unsafe::device_buffer +D2H +1000 bytes +${num} ms +${num} GB/s"
  "ferry: openmp backend: [0-9]+ OpenMP threads on [0-9]+ hardware threads, wait policy: OMP_WAIT_POLICY=passive"
  "ferry: info_probe_omp +launch on openmp, 500 threads")

if(MODE STREQUAL "on")
  set(ENV{FERRY_INFO} 1)
  set(ENV{OMP_WAIT_POLICY} passive)
else()
  unset(ENV{FERRY_INFO})
endif()
execute_process(COMMAND "${PROGRAM}" RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message(STATUS "stdout:\n${out}stderr:\n${err}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the probe failed (exit status ${rc})")
endif()

if(MODE STREQUAL "off")
  if(err MATCHES "(^|\n)ferry:")
    message(FATAL_ERROR "FERRY_INFO unset, yet the probe logged to stderr")
  endif()
  return()
endif()

string(REPLACE "\n" ";" lines "${err}")
set(at 0)
list(LENGTH lines nlines)
foreach(re IN LISTS expected)
  set(found -1)
  set(i ${at})
  while(i LESS nlines)
    list(GET lines ${i} line)
    if(line MATCHES "^${re}$")
      set(found ${i})
      break()
    endif()
    math(EXPR i "${i} + 1")
  endwhile()
  if(found EQUAL -1)
    message(FATAL_ERROR "FERRY_INFO: no line matching\n  ^${re}$\nafter line ${at} of stderr")
  endif()
  math(EXPR at "${found} + 1")
endforeach()
message(STATUS "all ${nlines} stderr lines checked against the expected events")
