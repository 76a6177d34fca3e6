# Compiles one source to PTX with the CUDA compiler and checks instruction counts in each kernel.
#   cmake -DNVCC=... -DSRC=... -DOUT=... -DFLAGS="a;b" -DMAX_STORES=n -DMIN_NC_LOADS=n -P check_ptx.cmake
# Counts st.global and ld.global.nc lines per kernel (each `.entry` of the PTX file: ferry may
# instantiate several kernels for one launch, e.g. the grid-stride and loop-free 3D kernels) and
# checks the limits against every one of them.
execute_process(COMMAND ${NVCC} ${FLAGS} -ptx ${SRC} -o ${OUT}
                RESULT_VARIABLE rc ERROR_VARIABLE err OUTPUT_VARIABLE out)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "nvcc failed (${rc}):\n${out}\n${err}")
endif()
file(STRINGS ${OUT} lines REGEX "^[ \t]*(\\.visible[ \t]+)?\\.entry|^[ \t]*st\\.global|^[ \t]*ld\\.global\\.nc")
set(kernel -1)
foreach(line IN LISTS lines)
  if(line MATCHES "\\.entry[ \t]+([A-Za-z0-9_$]+)")
    math(EXPR kernel "${kernel} + 1")
    set(name_${kernel} ${CMAKE_MATCH_1})
    set(stores_${kernel} 0)
    set(nc_${kernel} 0)
  elseif(kernel LESS 0)
    message(FATAL_ERROR "${OUT}: an instruction before the first .entry")
  elseif(line MATCHES "st\\.global")
    math(EXPR stores_${kernel} "${stores_${kernel}} + 1")
  else()
    math(EXPR nc_${kernel} "${nc_${kernel}} + 1")
  endif()
endforeach()
if(kernel LESS 0)
  message(FATAL_ERROR "${OUT} holds no kernel (.entry)")
endif()
foreach(k RANGE ${kernel})
  message(STATUS "${SRC}: kernel ${k}: ${stores_${k}} st.global, ${nc_${k}} ld.global.nc "
                 "(${name_${k}})")
  if(stores_${k} GREATER ${MAX_STORES})
    message(FATAL_ERROR "kernel ${k}: expected at most ${MAX_STORES} global stores, found "
                        "${stores_${k}}: the kernel stores its partitioned element inside the "
                        "loop, so the compiler did not see the launch's restrict parameters")
  endif()
  if(nc_${k} LESS ${MIN_NC_LOADS})
    message(FATAL_ERROR "kernel ${k}: expected at least ${MIN_NC_LOADS} read-only (ld.global.nc) "
                        "loads, found ${nc_${k}}: the read-only views were not seen as restrict")
  endif()
endforeach()
