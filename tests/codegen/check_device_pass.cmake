# Compiles one CUDA source to PTX with nvcc twice: as every build does, where the launch front
# ends leave their host executors out of the device pass (FERRY_NVCC_DEVICE_PASS), and with
# -DFERRY_FULL_DEVICE_PASS=1, where the device pass analyses the whole front ends as the host
# pass does, and so instantiates every kernel the host code launches. Both must hold the same
# kernels (`.entry`); a kernel missing from the first would be launched by the host code and be
# absent on the GPU. (cmake -P; no GPU needed.)
#
#   -DCOMPILER=<nvcc> -DFLAGS="a;b" -DSRC=... -DWORK=<dir> -DMIN_KERNELS=n -P check_device_pass.cmake
#
# MIN_KERNELS: at least that many kernels, so that a source that launches nothing, or PTX this
# script cannot read, fails instead of passing with nothing compared.
foreach(v COMPILER FLAGS SRC WORK MIN_KERNELS)
  if(NOT DEFINED ${v})
    message(FATAL_ERROR "check_device_pass.cmake: -D${v}=... is required")
  endif()
endforeach()
file(MAKE_DIRECTORY ${WORK})

# The sorted kernel names of SRC compiled with FLAGS and the extra flags after `out`. Names of
# internal linkage carry hashes of the file and its command line, which differ between the two
# compilations: they are replaced by H (with the length prefixes they change).
function(kernels_of out ptx)
  execute_process(COMMAND ${COMPILER} ${FLAGS} ${ARGN} -ptx ${SRC} -o ${ptx}
                  RESULT_VARIABLE rc ERROR_VARIABLE err OUTPUT_VARIABLE log)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${COMPILER} failed (${rc}):\n${log}\n${err}")
  endif()
  file(STRINGS ${ptx} lines REGEX "^(\\.visible |\\.weak )?\\.entry ")
  set(names "")
  foreach(line IN LISTS lines)
    string(REGEX REPLACE "^(\\.visible |\\.weak )?\\.entry ([A-Za-z0-9_]+).*" "\\2" name "${line}")
    string(REGEX REPLACE "_INTERNAL_[0-9a-f]+_" "_INTERNAL_H_" name "${name}")
    string(REGEX REPLACE "_GLOBAL__N__[0-9a-f]+_" "_GLOBAL__N__H_" name "${name}")
    string(REGEX REPLACE "_[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]_[0-9]+"
                         "_H" name "${name}")
    string(REGEX REPLACE "N[0-9]+_(INTERNAL|GLOBAL)" "N_\\1" name "${name}")
    list(APPEND names ${name})
  endforeach()
  list(SORT names)
  set(${out} "${names}" PARENT_SCOPE)
endfunction()

kernels_of(trimmed ${WORK}/trimmed.ptx)
kernels_of(full ${WORK}/full.ptx -DFERRY_FULL_DEVICE_PASS=1)
list(LENGTH full n_full)
if(n_full LESS MIN_KERNELS)
  message(FATAL_ERROR "the full device pass compiles ${n_full} kernels, fewer than the "
                      "${MIN_KERNELS} expected: the source launches less than it should")
endif()
if(NOT trimmed STREQUAL full)
  set(missing ${full})
  if(trimmed)
    list(REMOVE_ITEM missing ${trimmed})
  endif()
  set(extra ${trimmed})
  if(full)
    list(REMOVE_ITEM extra ${full})
  endif()
  string(REPLACE ";" "\n  " missing "${missing}")
  string(REPLACE ";" "\n  " extra "${extra}")
  message(FATAL_ERROR "the device pass of a normal build compiles other kernels than the full "
                      "device pass.\nMissing (a launch of one would fail on the GPU):\n  "
                      "${missing}\nExtra:\n  ${extra}")
endif()
message(STATUS "${n_full} kernels, the same with and without the full device pass")
