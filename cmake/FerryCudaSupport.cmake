# What a CUDA build of ferry needs from CMake in every directory that compiles CUDA sources
# against ferry::ferry: ferry's own top-level CMakeLists.txt, a consumer that add_subdirectory()s
# ferry (forwarded to its scope), and one that uses find_package(ferry) (ferryConfig.cmake
# includes this file in its scope).
#
# CMake 3.25 predates nvcc's C++20 support: it has no flag for CUDA_STANDARD 20 and rejects the
# compile feature cuda_std_20 ("not known to CUDA compiler"), which ferry::ferry carries so that
# CUDA sources of consumers compile as C++20. Where CMake already knows the flag (newer CMake),
# nothing changes. Needs CUDA to be enabled in the calling directory; without it this does
# nothing (the caller says what to do).
macro(ferry_teach_cuda20)
  if(CMAKE_CUDA_COMPILER_LOADED AND CMAKE_CUDA_COMPILER_ID STREQUAL "NVIDIA"
     AND NOT CMAKE_CUDA20_STANDARD_COMPILE_OPTION)
    set(CMAKE_CUDA20_STANDARD_COMPILE_OPTION "-std=c++20")
    set(CMAKE_CUDA20_EXTENSION_COMPILE_OPTION "-std=c++20")
    set(CMAKE_CUDA20_COMPILE_FEATURES cuda_std_20)
    if(NOT "cuda_std_20" IN_LIST CMAKE_CUDA_COMPILE_FEATURES)
      list(APPEND CMAKE_CUDA_COMPILE_FEATURES cuda_std_20)
    endif()
  endif()
endmacro()
