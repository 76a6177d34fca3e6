# Compiles one source to PTX with the CUDA compiler and checks instruction counts in it.
#   cmake -DNVCC=... -DSRC=... -DOUT=... -DFLAGS="a;b" -DMAX_STORES=n -DMIN_NC_LOADS=n -P check_ptx.cmake
# Counts st.global and ld.global.nc lines of the whole PTX file (the source holds one kernel).
execute_process(COMMAND ${NVCC} ${FLAGS} -ptx ${SRC} -o ${OUT}
                RESULT_VARIABLE rc ERROR_VARIABLE err OUTPUT_VARIABLE out)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "nvcc failed (${rc}):\n${out}\n${err}")
endif()
file(STRINGS ${OUT} stores REGEX "^[ \t]*st\\.global")
file(STRINGS ${OUT} nc_loads REGEX "^[ \t]*ld\\.global\\.nc")
list(LENGTH stores n_stores)
list(LENGTH nc_loads n_nc)
message(STATUS "${SRC}: ${n_stores} st.global, ${n_nc} ld.global.nc")
if(n_stores GREATER ${MAX_STORES})
  message(FATAL_ERROR "expected at most ${MAX_STORES} global stores, found ${n_stores}: the "
                      "kernel stores its partitioned element inside the loop, so the compiler "
                      "did not see the launch's restrict parameters")
endif()
if(n_nc LESS ${MIN_NC_LOADS})
  message(FATAL_ERROR "expected at least ${MIN_NC_LOADS} read-only (ld.global.nc) loads, found "
                      "${n_nc}: the read-only views were not seen as restrict")
endif()
