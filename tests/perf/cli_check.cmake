# Runs ferry-perf with ARGS (a ;-list) and checks its exit status and its standard error:
#   cmake -DEXE=<ferry-perf> -DARGS="--npasses;0" -DEXPECT_RC=2 -DEXPECT_STDERR=<regex>
#         -P cli_check.cmake
# UNEXPECTED_STDERR (optional): a regex that standard error must not match.
# Fails (FATAL_ERROR) with what it saw when either differs.
execute_process(COMMAND ${EXE} ${ARGS} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc STREQUAL EXPECT_RC)
  message(FATAL_ERROR "exit status ${rc}, expected ${EXPECT_RC}\nstdout:\n${out}\nstderr:\n${err}")
endif()
if(DEFINED EXPECT_STDERR AND NOT err MATCHES "${EXPECT_STDERR}")
  message(FATAL_ERROR "stderr does not match '${EXPECT_STDERR}':\n${err}")
endif()
if(DEFINED UNEXPECTED_STDERR AND err MATCHES "${UNEXPECTED_STDERR}")
  message(FATAL_ERROR "stderr matches '${UNEXPECTED_STDERR}', which it must not:\n${err}")
endif()
if(DEFINED EXPECT_STDOUT AND NOT out MATCHES "${EXPECT_STDOUT}")
  message(FATAL_ERROR "stdout does not match '${EXPECT_STDOUT}':\n${out}")
endif()
# Optional: FILE must exist afterwards and match FILE_REGEX (e.g. a CSV's header and a row).
if(DEFINED FILE)
  file(READ ${FILE} content)
  if(NOT content MATCHES "${FILE_REGEX}")
    message(FATAL_ERROR "${FILE} does not match '${FILE_REGEX}':\n${content}")
  endif()
endif()
