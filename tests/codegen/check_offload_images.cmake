# Checks that an llvm_offload executable holds, for every architecture it was built for, a device
# image that contains ferry's kernels (cmake -P; no GPU needed).
#
#   -DEXE=<program> -DARCHS=<sm_90;gfx90a> -DKERNELS=<name;...> -DOBJCOPY=<objcopy>
#   -DOFFLOAD_BINARY=<llvm-offload-binary> -DREADELF=<llvm-readelf> -DWORK=<scratch folder>
#
# The images are in the program's .llvm.offloading section (clang's offload binary format); each is
# extracted with llvm-offload-binary and its symbol table searched for every name in KERNELS (a
# substring of the mangled kernel name). A build whose device passes dropped the kernels (an image
# with no kernel links and loads, and every launch then fails at run time) fails here, naming the
# architecture and the kernel.
foreach(v EXE ARCHS KERNELS OBJCOPY OFFLOAD_BINARY READELF WORK)
  if(NOT DEFINED ${v})
    message(FATAL_ERROR "check_offload_images.cmake: -D${v}=... is required")
  endif()
endforeach()
file(MAKE_DIRECTORY ${WORK})
set(section ${WORK}/offloading.bin)
execute_process(COMMAND ${OBJCOPY} -O binary --only-section=.llvm.offloading ${EXE} ${section}
                RESULT_VARIABLE rc ERROR_VARIABLE err)
file(SIZE ${section} bytes)
if(NOT rc EQUAL 0 OR bytes EQUAL 0)
  message(FATAL_ERROR "${EXE} has no .llvm.offloading section (${err})")
endif()
foreach(arch IN LISTS ARCHS)
  if(arch MATCHES "^sm_")
    set(triple nvptx64-nvidia-cuda)
  else()
    set(triple amdgcn-amd-amdhsa)
  endif()
  set(image ${WORK}/${arch}.elf)
  file(REMOVE ${image})
  execute_process(COMMAND ${OFFLOAD_BINARY} ${section}
                          --image=file=${image},triple=${triple},arch=${arch}
                  RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(NOT rc EQUAL 0 OR NOT EXISTS ${image})
    message(FATAL_ERROR "${EXE}: no ${arch} image (${err})")
  endif()
  execute_process(COMMAND ${READELF} -s -W ${image} OUTPUT_VARIABLE symbols RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${READELF} cannot read the ${arch} image of ${EXE}")
  endif()
  foreach(kernel IN LISTS KERNELS)
    string(FIND "${symbols}" "${kernel}" at)
    if(at EQUAL -1)
      message(FATAL_ERROR "${EXE}: the ${arch} image has no kernel named like '${kernel}'")
    endif()
  endforeach()
  message(STATUS "${arch}: ${KERNELS} present")
endforeach()
