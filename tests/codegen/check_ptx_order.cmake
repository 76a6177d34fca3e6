# Compiles one source to PTX and checks the order of loads and floating-point arithmetic in each
# kernel (cmake -P; no GPU needed).
#
#   -DCOMPILER=<nvcc or clang++> -DFLAGS="a;b" -DSRC=... -DOUT=... -DMAX_LOADS_BEFORE_FP=n
#   -P check_ptx_order.cmake
#
# FLAGS must make the compiler write PTX to OUT (nvcc: -ptx; clang: --cuda-device-only -S). In
# every kernel (`.entry`) of the PTX: at most MAX_LOADS_BEFORE_FP global loads (ld.global*) before
# the first double-precision multiply or multiply-add, and no `max.s64` (an extent normalised in
# the kernel instead of compared as it arrived). A kernel with no double arithmetic fails too:
# the probe must be a kernel that computes.
foreach(v COMPILER FLAGS SRC OUT MAX_LOADS_BEFORE_FP)
  if(NOT DEFINED ${v})
    message(FATAL_ERROR "check_ptx_order.cmake: -D${v}=... is required")
  endif()
endforeach()
execute_process(COMMAND ${COMPILER} ${FLAGS} ${SRC} -o ${OUT}
                RESULT_VARIABLE rc ERROR_VARIABLE err OUTPUT_VARIABLE out)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${COMPILER} failed (${rc}):\n${out}\n${err}")
endif()
file(STRINGS ${OUT} lines
     REGEX "^[ \t]*(\\.visible[ \t]+|\\.weak[ \t]+)?\\.entry|^[ \t]*ld\\.global|^[ \t]*(fma|mul)\\.rn\\.f64|^[ \t]*max\\.s64")
set(kernel -1)
foreach(line IN LISTS lines)
  if(line MATCHES "\\.entry[ \t]+([A-Za-z0-9_$]+)")
    math(EXPR kernel "${kernel} + 1")
    set(name_${kernel} ${CMAKE_MATCH_1})
    set(loads_${kernel} 0)
    set(before_${kernel} -1)
    set(max_${kernel} 0)
  elseif(kernel LESS 0)
    message(FATAL_ERROR "${OUT}: an instruction before the first .entry")
  elseif(line MATCHES "ld\\.global")
    math(EXPR loads_${kernel} "${loads_${kernel}} + 1")
  elseif(line MATCHES "max\\.s64")
    math(EXPR max_${kernel} "${max_${kernel}} + 1")
  elseif(before_${kernel} LESS 0)
    set(before_${kernel} ${loads_${kernel}})
  endif()
endforeach()
if(kernel LESS 0)
  message(FATAL_ERROR "${OUT} holds no kernel (.entry)")
endif()
foreach(k RANGE ${kernel})
  message(STATUS "${SRC}: kernel ${k}: ${before_${k}} of ${loads_${k}} global loads before the "
                 "first multiply, ${max_${k}} max.s64 (${name_${k}})")
  if(before_${k} LESS 0)
    message(FATAL_ERROR "kernel ${k}: no double-precision multiply found")
  endif()
  if(before_${k} GREATER ${MAX_LOADS_BEFORE_FP})
    message(FATAL_ERROR "kernel ${k}: ${before_${k}} global loads before the first multiply "
                        "(at most ${MAX_LOADS_BEFORE_FP} expected): the compiler moved the "
                        "arithmetic below the loads, so the kernel body was optimised before "
                        "it was inlined into ferry's executor (FERRY_INLINE_CALLS)")
  endif()
  if(max_${k} GREATER 0)
    message(FATAL_ERROR "kernel ${k}: ${max_${k}} max.s64: a view's extent is normalised in the "
                        "kernel again (the restrict rebase must keep it: detail::view_rebaser)")
  endif()
endforeach()
