# ferry_device_sources(<source>...): compiles the given sources for the build's device backend
# (FERRY_DEVICE_BACKEND), so that their launches can run on the device; does nothing in builds
# without one. Used by ferry's own library, tests, examples and ferry-perf, and by consumers
# (ferryConfig.cmake includes this file).
#
#   cuda  the sources become CUDA sources (nvcc, CMAKE_CUDA_ARCHITECTURES).
#   hip   the sources stay C++ sources, compiled by the C++ compiler (clang >= 22) with -x hip for
#         every architecture in FERRY_HIP_ARCHITECTURES (one object holds all of them), against
#         the ROCm device libraries in FERRY_ROCM_DEVICE_LIB_PATH.
#   llvm_offload  the sources stay C++ sources, compiled by clang >= 22 as CUDA with
#         -foffload-via-llvm for every architecture in FERRY_LLVM_OFFLOAD_ARCHITECTURES (NVIDIA and
#         AMD images in one object; ferry_setup_llvm_offload() below has the flags and why).
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
  elseif(FERRY_DEVICE_BACKEND STREQUAL "llvm_offload")
    set_property(SOURCE ${ARGN} APPEND PROPERTY COMPILE_OPTIONS ${FERRY_LLVM_OFFLOAD_COMPILE_OPTIONS})
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

# ferry_setup_llvm_offload(): checks the compiler and finds the device math libraries for
# FERRY_DEVICE_BACKEND=llvm_offload. Sets FERRY_LLVM_OFFLOAD_COMPILE_OPTIONS (what
# ferry_device_sources() adds to a device source) and FERRY_LLVM_OFFLOAD_LINK_OPTIONS (what every
# program linking ferry::ferry gets, through the library's interface).
#
# Compile (clang 22), each flag and why:
#   -x cuda -foffload-via-llvm    CUDA's language, kernels registered and launched through
#                                 functions that ferry's runtime defines (on LLVM's offload API)
#                                 instead of the CUDA runtime's;
#   -foffload-lto                 device code as bitcode, linked once per program (also at the
#                                 link): without it each source becomes a finished NVIDIA image,
#                                 and nvlink rejects a template kernel instantiated in two sources,
#                                 or two anonymous-namespace kernels of the same name (this mode
#                                 gives them external symbols), as multiple definitions;
#   --offload-arch=A (each)       one device image per architecture in the same object;
#   -nogpulib                     no OpenMP device runtime: Debian's packages do not ship it
#                                 (libompdevice), and CUDA kernels do not need it;
#   -nogpuinc                     without it, the device passes put clang's OpenMP math wrappers
#                                 first on the include path, and those stop every <cmath> include
#                                 ("for OpenMP compilation only") because the device passes of
#                                 this mode do not enable OpenMP; the device math ferry needs is in
#                                 ferry/backend/llvm_offload/intrinsics.hpp instead;
#   -include.../intrinsics.hpp    device overloads of math functions and CUDA's device names
#                                 before any code of the source (see that header).
# Not OpenMP: in this mode the driver drops -fopenmp from the host pass, and forcing it on
# (-Xclang -fopenmp, which no -Xarch_host can confine to the host) puts the device passes into
# OpenMP device mode, which leaves every CUDA kernel out of the device images (caught by the test
# codegen.llvm_offload_images_hold_the_kernels). So the host code of a device source has no
# OpenMP: a launch compiled there runs serially when the openmp backend is selected (sources not
# marked as device sources, and the library, keep their OpenMP).
# Link: -foffload-via-llvm with the same architectures and -nogpulib (the device link), -fopenmp
# (libomp, for the openmp backend), --as-needed (the driver also links libomptarget, LLVM's
# OpenMP offload runtime, which ferry's runtime replaces: it defines every function the
# compiler's registration and launch code calls, so the library is left out of the program),
# LLVM's offload API library (libLLVMOffload, FERRY_LIBOFFLOAD, and its header OffloadAPI.h,
# FERRY_LIBOFFLOAD_INCLUDE_DIR: Debian package liboffload-22-dev, found next to the compiler), and
# the vendors' device math libraries as inputs of each target's
# device link (-Xoffload-linker-<triple>): libdevice for NVPTX (FERRY_LIBDEVICE, from the CUDA
# toolkit), the ROCm device libraries' OCML and its control libraries for AMDGPU
# (FERRY_ROCM_DEVICE_LIB_PATH; the ISA-version library is per architecture, so one AMD
# architecture per build).
macro(ferry_setup_llvm_offload)
  if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang" OR CMAKE_CXX_COMPILER_VERSION VERSION_LESS 22)
    message(FATAL_ERROR "FERRY_DEVICE_BACKEND=llvm_offload compiles with clang >= 22 "
                        "-foffload-via-llvm: configure with -DCMAKE_CXX_COMPILER=clang++-22 (found "
                        "${CMAKE_CXX_COMPILER_ID} ${CMAKE_CXX_COMPILER_VERSION})")
  endif()
  set(FERRY_LLVM_OFFLOAD_ARCHITECTURES "sm_90;gfx90a" CACHE STRING
      "GPU architectures of the llvm_offload backend (NVIDIA sm_XX, AMD gfxXXX; one executable)")
  set(FERRY_ROCM_PATH "/usr" CACHE PATH "ROCm installation prefix (device libraries)")
  set(_ferry_nv_archs)
  set(_ferry_amd_archs)
  foreach(arch IN LISTS FERRY_LLVM_OFFLOAD_ARCHITECTURES)
    if(arch MATCHES "^sm_")
      list(APPEND _ferry_nv_archs ${arch})
    elseif(arch MATCHES "^gfx")
      list(APPEND _ferry_amd_archs ${arch})
    else()
      message(FATAL_ERROR "FERRY_LLVM_OFFLOAD_ARCHITECTURES: '${arch}' is neither sm_XX nor gfxXXX")
    endif()
  endforeach()
  list(LENGTH _ferry_amd_archs _ferry_n_amd)
  if(_ferry_n_amd GREATER 1)
    message(FATAL_ERROR "FERRY_LLVM_OFFLOAD_ARCHITECTURES: one AMD architecture per build (the "
                        "ROCm ISA-version library is linked into every AMD image); got "
                        "${_ferry_amd_archs}")
  endif()
  set(_ferry_arch_opts)
  foreach(arch IN LISTS FERRY_LLVM_OFFLOAD_ARCHITECTURES)
    list(APPEND _ferry_arch_opts --offload-arch=${arch})
  endforeach()
  set(FERRY_LLVM_OFFLOAD_COMPILE_OPTIONS -x cuda -foffload-via-llvm -foffload-lto ${_ferry_arch_opts}
      -nogpulib -nogpuinc -includeferry/backend/llvm_offload/intrinsics.hpp)
  set(FERRY_LLVM_OFFLOAD_LINK_OPTIONS -foffload-via-llvm -foffload-lto ${_ferry_arch_opts} -nogpulib
      -fopenmp -Wl,--as-needed)
  get_filename_component(_ferry_llvm_prefix ${CMAKE_CXX_COMPILER} REALPATH)
  get_filename_component(_ferry_llvm_prefix ${_ferry_llvm_prefix} DIRECTORY)
  get_filename_component(_ferry_llvm_prefix ${_ferry_llvm_prefix} DIRECTORY)
  find_path(FERRY_LIBOFFLOAD_INCLUDE_DIR OffloadAPI.h
            HINTS ${_ferry_llvm_prefix}/include/offload NO_DEFAULT_PATH)
  find_library(FERRY_LIBOFFLOAD NAMES LLVMOffload HINTS ${_ferry_llvm_prefix}/lib NO_DEFAULT_PATH)
  if(NOT FERRY_LIBOFFLOAD_INCLUDE_DIR OR NOT FERRY_LIBOFFLOAD)
    message(FATAL_ERROR "llvm_offload: LLVM's offload API (OffloadAPI.h and libLLVMOffload; "
                        "Debian package liboffload-22-dev) not found under ${_ferry_llvm_prefix}; "
                        "set FERRY_LIBOFFLOAD_INCLUDE_DIR and FERRY_LIBOFFLOAD")
  endif()
  if(_ferry_nv_archs)
    if(NOT FERRY_LIBDEVICE)
      find_package(CUDAToolkit QUIET)
      find_file(FERRY_LIBDEVICE libdevice.10.bc
                HINTS ${CUDAToolkit_LIBRARY_ROOT} ${CUDAToolkit_TARGET_DIR} /usr/local/cuda
                PATH_SUFFIXES nvvm/libdevice NO_DEFAULT_PATH)
    endif()
    if(NOT FERRY_LIBDEVICE)
      message(FATAL_ERROR "llvm_offload for ${_ferry_nv_archs}: libdevice.10.bc (CUDA toolkit, "
                          "nvvm/libdevice) not found; set FERRY_LIBDEVICE")
    endif()
    list(APPEND FERRY_LLVM_OFFLOAD_LINK_OPTIONS
         "SHELL:-Xoffload-linker-nvptx64-nvidia-cuda ${FERRY_LIBDEVICE}")
  endif()
  if(_ferry_amd_archs)
    if(NOT FERRY_ROCM_DEVICE_LIB_PATH)
      find_path(_ferry_rocm_bitcode ocml.bc
                PATHS ${FERRY_ROCM_PATH}/lib/x86_64-linux-gnu/amdgcn/bitcode
                      ${FERRY_ROCM_PATH}/amdgcn/bitcode ${FERRY_ROCM_PATH}/lib/amdgcn/bitcode
                NO_DEFAULT_PATH)
      if(NOT _ferry_rocm_bitcode)
        message(FATAL_ERROR "llvm_offload for ${_ferry_amd_archs}: the ROCm device libraries "
                            "(ocml.bc; Debian package rocm-device-libs) not found under "
                            "${FERRY_ROCM_PATH}; set FERRY_ROCM_DEVICE_LIB_PATH")
      endif()
      set(FERRY_ROCM_DEVICE_LIB_PATH ${_ferry_rocm_bitcode} CACHE PATH
          "ROCm device libraries (ocml.bc, ...) for the llvm_offload backend")
    endif()
    # gfx90a -> oclc_isa_version_90a.bc. The control libraries fix OCML's choices: wave64, no
    # flush of denormals, no unsafe or finite-only math, correctly rounded sqrt (what the HIP
    # driver links for default flags); abi_version_500 is code object version 5.
    string(REGEX REPLACE "^gfx" "" _ferry_isa ${_ferry_amd_archs})
    foreach(bc ocml oclc_isa_version_${_ferry_isa} oclc_abi_version_500 oclc_wavefrontsize64_on
               oclc_daz_opt_off oclc_unsafe_math_off oclc_finite_only_off
               oclc_correctly_rounded_sqrt_on)
      if(NOT EXISTS ${FERRY_ROCM_DEVICE_LIB_PATH}/${bc}.bc)
        message(FATAL_ERROR "llvm_offload: ${FERRY_ROCM_DEVICE_LIB_PATH}/${bc}.bc is missing")
      endif()
      list(APPEND FERRY_LLVM_OFFLOAD_LINK_OPTIONS
           "SHELL:-Xoffload-linker-amdgcn-amd-amdhsa ${FERRY_ROCM_DEVICE_LIB_PATH}/${bc}.bc")
    endforeach()
  endif()
endmacro()
