# ferry_device_sources(<source>...): compiles the given sources for the build's device backend
# (FERRY_DEVICE_BACKEND), so that their launches can run on the device; does nothing in builds
# without one. Used by ferry's own library, tests, examples and ferry-perf, and by consumers
# (ferryConfig.cmake includes this file).
#
#   cuda  the sources become CUDA sources (nvcc, CMAKE_CUDA_ARCHITECTURES).
#   hip   the sources stay C++ sources, compiled by the C++ compiler (clang >= 22) with -x hip for
#         every architecture in FERRY_HIP_ARCHITECTURES (one object holds all of them), against
#         the ROCm device libraries in FERRY_ROCM_DEVICE_LIB_PATH.
#
# Sources must be listed in the directory that creates their target (source properties are
# per directory).
function(ferry_device_sources)
  if(FERRY_DEVICE_BACKEND STREQUAL "cuda")
    set_source_files_properties(${ARGN} PROPERTIES LANGUAGE CUDA)
  elseif(FERRY_DEVICE_BACKEND STREQUAL "hip")
    set(opts -x hip -mcode-object-version=5 --rocm-path=${FERRY_ROCM_PATH}
        --rocm-device-lib-path=${FERRY_ROCM_DEVICE_LIB_PATH})
    foreach(arch IN LISTS FERRY_HIP_ARCHITECTURES)
      list(APPEND opts --offload-arch=${arch})
    endforeach()
    # Debian's HIP 5.2 headers read __AMDGCN_WAVEFRONT_SIZE, which clang 22 no longer predefines;
    # every target ferry builds for is wave64 (ferry/backend/hip/intrinsics.hpp checks it).
    list(APPEND opts -D__AMDGCN_WAVEFRONT_SIZE=64)
    set_property(SOURCE ${ARGN} APPEND PROPERTY COMPILE_OPTIONS ${opts})
  endif()
endfunction()

# ferry_setup_hip(): checks the compiler and finds the HIP runtime and ROCm device libraries for
# FERRY_DEVICE_BACKEND=hip. Sets FERRY_ROCM_DEVICE_LIB_PATH (cache) and the imported target
# ferry_hip_runtime.
#
# The ROCm device libraries of Debian's HIP 5.2 predate gfx942 (MI300) and lack its ISA-version
# bitcode (oclc_isa_version_942.bc, which defines only the constant __oclc_ISA_version = 9402).
# Where it is missing, a folder of the build holds links to the installed libraries plus that
# file, generated from the gfx940 one with the constant changed (llvm-dis / llvm-as of the
# compiler's LLVM).
macro(ferry_setup_hip)
  if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang" OR CMAKE_CXX_COMPILER_VERSION VERSION_LESS 22)
    message(FATAL_ERROR "FERRY_DEVICE_BACKEND=hip compiles with clang >= 22 -x hip: configure "
                        "with -DCMAKE_CXX_COMPILER=clang++-22 (found ${CMAKE_CXX_COMPILER_ID} "
                        "${CMAKE_CXX_COMPILER_VERSION})")
  endif()
  set(FERRY_HIP_ARCHITECTURES "gfx90a;gfx942" CACHE STRING
      "AMD GPU architectures of the hip backend (one fat object for all)")
  set(FERRY_ROCM_PATH "/usr" CACHE PATH "ROCm/HIP installation prefix (HIP headers under include/hip)")
  find_library(FERRY_AMDHIP64_LIBRARY amdhip64 REQUIRED
               HINTS ${FERRY_ROCM_PATH}/lib ${FERRY_ROCM_PATH}/lib64)
  if(NOT TARGET ferry_hip_runtime)
    add_library(ferry_hip_runtime INTERFACE IMPORTED)
    set_target_properties(ferry_hip_runtime PROPERTIES
      INTERFACE_LINK_LIBRARIES ${FERRY_AMDHIP64_LIBRARY})
  endif()
  if(NOT FERRY_ROCM_DEVICE_LIB_PATH)
    find_path(_ferry_rocm_bitcode ocml.bc
              PATHS ${FERRY_ROCM_PATH}/lib/x86_64-linux-gnu/amdgcn/bitcode
                    ${FERRY_ROCM_PATH}/amdgcn/bitcode ${FERRY_ROCM_PATH}/lib/amdgcn/bitcode
              NO_DEFAULT_PATH REQUIRED)
    set(_ferry_bitcode ${_ferry_rocm_bitcode})
    if("gfx942" IN_LIST FERRY_HIP_ARCHITECTURES
       AND NOT EXISTS ${_ferry_rocm_bitcode}/oclc_isa_version_942.bc)
      get_filename_component(_ferry_llvm_bin ${CMAKE_CXX_COMPILER} REALPATH)
      get_filename_component(_ferry_llvm_bin ${_ferry_llvm_bin} DIRECTORY)
      find_program(FERRY_LLVM_DIS llvm-dis HINTS ${_ferry_llvm_bin} NO_DEFAULT_PATH REQUIRED)
      find_program(FERRY_LLVM_AS llvm-as HINTS ${_ferry_llvm_bin} NO_DEFAULT_PATH REQUIRED)
      set(_ferry_bitcode ${CMAKE_BINARY_DIR}/ferry-rocm-bitcode)
      file(MAKE_DIRECTORY ${_ferry_bitcode})
      file(GLOB _ferry_bc ${_ferry_rocm_bitcode}/*.bc)
      foreach(bc IN LISTS _ferry_bc)
        get_filename_component(name ${bc} NAME)
        file(CREATE_LINK ${bc} ${_ferry_bitcode}/${name} SYMBOLIC)
      endforeach()
      execute_process(COMMAND ${FERRY_LLVM_DIS} ${_ferry_rocm_bitcode}/oclc_isa_version_940.bc -o -
                      OUTPUT_VARIABLE _ferry_ll COMMAND_ERROR_IS_FATAL ANY)
      string(REPLACE "i32 9400" "i32 9402" _ferry_ll "${_ferry_ll}")
      file(WRITE ${_ferry_bitcode}/oclc_isa_version_942.ll "${_ferry_ll}")
      execute_process(COMMAND ${FERRY_LLVM_AS} ${_ferry_bitcode}/oclc_isa_version_942.ll
                              -o ${_ferry_bitcode}/oclc_isa_version_942.bc
                      COMMAND_ERROR_IS_FATAL ANY)
    endif()
    set(FERRY_ROCM_DEVICE_LIB_PATH ${_ferry_bitcode} CACHE PATH
        "ROCm device libraries (ocml.bc, ...) for the hip backend")
  endif()
endmacro()
