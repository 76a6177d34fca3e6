# Compiles one source to PTX and checks, in each kernel (`.entry`) of it, what ferry promises
# the compiler sees (cmake -P; no GPU needed):
#
#   -DCOMPILER=<nvcc or clang++> -DFLAGS="a;b" -DSRC=... -DOUT=... [checks] -P check_ptx.cmake
#
# FLAGS must make the compiler write PTX to OUT (nvcc: -ptx; clang: --cuda-device-only -S).
# ferry may instantiate several kernels for one launch (e.g. the loop-free and grid-stride 3D
# kernels), so every limit applies to every kernel. Checks, each optional:
#   MAX_STORES=n           at most n st.global (the partitioned element kept in a register
#                          over a loop: the launch's restrict parameters reached the compiler)
#   MIN_NC_LOADS=n         at least n ld.global.nc (read-only views loaded through the
#                          read-only path)
#   MAX_LOADS_BEFORE_FP=n  at most n global loads (ld.global*) before the first double-precision
#                          multiply or multiply-add, and no max.s64 (an extent normalised in the
#                          kernel instead of compared as it arrived); a kernel with no double
#                          arithmetic fails: the probe must be a kernel that computes
#   MAX_REGISTERS=n        at most n registers per thread in each kernel, as ptxas (-DPTXAS=...)
#                          compiles it for -DPTXAS_ARCH=sm_NN in relocatable mode (-c -O3), as
#                          LLVM's NVPTX device link runs it (a launch bound there let ptxas
#                          spend up to its budget: perf/NOTES.md, "One 1D kernel")
foreach(v COMPILER FLAGS SRC OUT)
  if(NOT DEFINED ${v})
    message(FATAL_ERROR "check_ptx.cmake: -D${v}=... is required")
  endif()
endforeach()
execute_process(COMMAND ${COMPILER} ${FLAGS} ${SRC} -o ${OUT}
                RESULT_VARIABLE rc ERROR_VARIABLE err OUTPUT_VARIABLE out)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${COMPILER} failed (${rc}):\n${out}\n${err}")
endif()
file(STRINGS ${OUT} lines
     REGEX "^[ \t]*(\\.visible[ \t]+|\\.weak[ \t]+)?\\.entry|^[ \t]*st\\.global|^[ \t]*ld\\.global|^[ \t]*(fma|mul)\\.rn\\.f64|^[ \t]*max\\.s64")
set(kernel -1)
foreach(line IN LISTS lines)
  if(line MATCHES "\\.entry[ \t]+([A-Za-z0-9_$]+)")
    math(EXPR kernel "${kernel} + 1")
    set(name_${kernel} ${CMAKE_MATCH_1})
    foreach(c stores nc loads max)
      set(${c}_${kernel} 0)
    endforeach()
    set(before_${kernel} -1)
  elseif(kernel LESS 0)
    message(FATAL_ERROR "${OUT}: an instruction before the first .entry")
  elseif(line MATCHES "st\\.global")
    math(EXPR stores_${kernel} "${stores_${kernel}} + 1")
  elseif(line MATCHES "ld\\.global")
    math(EXPR loads_${kernel} "${loads_${kernel}} + 1")
    if(line MATCHES "ld\\.global\\.nc")
      math(EXPR nc_${kernel} "${nc_${kernel}} + 1")
    endif()
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
  message(STATUS "${SRC}: kernel ${k}: ${stores_${k}} st.global, ${loads_${k}} global loads "
                 "(${nc_${k}} ld.global.nc, ${before_${k}} before the first multiply), "
                 "${max_${k}} max.s64 (${name_${k}})")
  if(DEFINED MAX_STORES)
    if(stores_${k} GREATER ${MAX_STORES})
      message(FATAL_ERROR "kernel ${k}: expected at most ${MAX_STORES} global stores, found "
                          "${stores_${k}}: the kernel stores its partitioned element inside the "
                          "loop, so the compiler did not see the launch's restrict parameters")
    endif()
  endif()
  if(DEFINED MIN_NC_LOADS)
    if(nc_${k} LESS ${MIN_NC_LOADS})
      message(FATAL_ERROR "kernel ${k}: expected at least ${MIN_NC_LOADS} read-only "
                          "(ld.global.nc) loads, found ${nc_${k}}: the read-only views were not "
                          "seen as restrict")
    endif()
  endif()
  if(DEFINED MAX_LOADS_BEFORE_FP)
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
      message(FATAL_ERROR "kernel ${k}: ${max_${k}} max.s64: a view's extent is normalised in "
                          "the kernel again (the restrict rebase must keep it: "
                          "detail::view_rebaser)")
    endif()
  endif()
endforeach()
if(DEFINED MAX_REGISTERS)
  if(NOT DEFINED PTXAS OR NOT DEFINED PTXAS_ARCH)
    message(FATAL_ERROR "check_ptx.cmake: MAX_REGISTERS needs -DPTXAS=... and -DPTXAS_ARCH=...")
  endif()
  execute_process(COMMAND ${PTXAS} -c -O3 -arch=${PTXAS_ARCH} -v ${OUT} -o ${OUT}.cubin
                  RESULT_VARIABLE rc ERROR_VARIABLE err OUTPUT_VARIABLE out)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${PTXAS} failed (${rc}):\n${out}\n${err}")
  endif()
  string(REPLACE "\n" ";" report "${out}${err}")
  set(function "")
  set(checked 0)
  foreach(line IN LISTS report)
    if(line MATCHES "Function properties for ([A-Za-z0-9_$]+)")
      set(function ${CMAKE_MATCH_1})
    elseif(line MATCHES "Used ([0-9]+) registers" AND NOT function STREQUAL "")
      set(used ${CMAKE_MATCH_1})
      math(EXPR checked "${checked} + 1")
      message(STATUS "${function}: ${used} registers")
      if(used GREATER ${MAX_REGISTERS})
        message(FATAL_ERROR "${function}: ${used} registers per thread (at most ${MAX_REGISTERS} "
                            "expected): ptxas spent registers on this kernel that cost occupancy; "
                            "a launch bound below 1024 threads in llvm_offload's NVPTX pass does this "
                            "(FERRY_ANY_BLOCK_BOUNDS, FERRY_LAUNCH_BOUNDS)")
      endif()
      set(function "")
    endif()
  endforeach()
  if(checked EQUAL 0)
    message(FATAL_ERROR "${PTXAS} reported no register counts:\n${out}\n${err}")
  endif()
endif()
