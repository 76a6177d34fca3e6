# Runs one compile-fail test; see FerryCompileFail.cmake.
#
#   cmake -DCONFIG=<file written by ferry_add_compile_fail_test> -DMODE=fail|control -P <this>
#
# MODE=fail:    the compile must fail and its output must match REGEX.
# MODE=control: the compile with the control define must succeed.
cmake_minimum_required(VERSION 3.25)

if(NOT DEFINED CONFIG OR NOT EXISTS "${CONFIG}")
  message(FATAL_ERROR "run_compile_fail: CONFIG='${CONFIG}' does not name a config file")
endif()
include("${CONFIG}")

set(args ${FLAGS})
if(MODE STREQUAL "control")
  list(APPEND args "${CONTROL_DEFINE}")
elseif(NOT MODE STREQUAL "fail")
  message(FATAL_ERROR "run_compile_fail: MODE must be 'fail' or 'control', not '${MODE}'")
endif()

execute_process(COMMAND "${COMPILER}" ${args} "${SOURCE}"
                RESULT_VARIABLE result
                OUTPUT_VARIABLE output
                ERROR_VARIABLE output)  # same variable: stdout and stderr merged in order

list(JOIN args " " shown_args)
set(command "${COMPILER} ${shown_args} ${SOURCE}")

if(MODE STREQUAL "control")
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "control compile failed (exit ${result}); the compile-fail source has an "
                        "error besides the intended one.\n${command}\n${output}")
  endif()
  message(STATUS "control compile succeeded: ${SOURCE}")
else()
  if(result EQUAL 0)
    message(FATAL_ERROR "compiled, but was expected to fail with a diagnostic matching "
                        "'${REGEX}'.\n${command}\n${output}")
  endif()
  if(NOT output MATCHES "${REGEX}")
    message(FATAL_ERROR "compile failed as expected, but no diagnostic matched '${REGEX}'.\n"
                        "${command}\n${output}")
  endif()
  message(STATUS "failed as expected with '${CMAKE_MATCH_0}': ${SOURCE}")
endif()
