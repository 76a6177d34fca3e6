// ferry: the LLVM offload device backend (FERRY_DEVICE_BACKEND=llvm_offload): its identity,
// included in every translation unit of such a build (plain C++; see ferry/backend/device.hpp
// for the interface).
//
// Device sources are compiled by clang (>= 22) as CUDA with -foffload-via-llvm for every
// architecture in FERRY_LLVM_OFFLOAD_ARCHITECTURES (default sm_90 and gfx90a): one executable
// holds an NVIDIA and an AMD image of every kernel, and ferry's runtime loads the one for the GPU
// it finds through LLVM's offload API (liboffload). The kernels are the CUDA backend's
// (ferry/backend/gpu/), compiled with this backend's intrinsics.hpp; allocation, copies and
// launches go through the same API, on one in-order queue (src/backend/llvm_offload/runtime.cpp).
#pragma once

#include <cstddef>
#include <vector>

#include "ferry/core/backend.hpp"

namespace ferry::detail {
/// The backend this build's device launches run on.
inline constexpr backend device_backend_id = backend::llvm_offload;
/// Why a launch on the device failed in a translation unit not compiled for LLVM offload.
inline constexpr const char* device_not_compiled =
    "this translation unit was not compiled with clang -x cuda -foffload-via-llvm, so its "
    "kernels can run only on host backends (set FERRY_BACKEND=openmp, or mark the source with "
    "ferry_device_sources() in CMake)";
/// The same, for ferry::unsafe::launch.
inline constexpr const char* device_not_compiled_unsafe =
    "this translation unit was not compiled with clang -x cuda -foffload-via-llvm; set "
    "FERRY_BACKEND=openmp or mark the source with ferry_device_sources()";

// What the runtime knows of the program's device images before any device is used
// (src/backend/llvm_offload/runtime.cpp keeps the descriptors the program registers at
// start-up). Plain C++; for tests and reports: it needs no GPU.

/// The device images and kernels registered so far.
struct offload_registration {
  int descriptors = 0;  ///< registered descriptors (one per program or shared library)
  /// The ELF machine of each image (190: EM_CUDA, an NVIDIA image; 224: EM_AMDGPU), in
  /// registration order; 0 for an image that is no ELF file.
  std::vector<unsigned> image_machines;
  std::size_t kernels = 0;  ///< entries of size 0 (kernels), over every descriptor
};

/// The registered descriptors, read as the runtime reads them.
offload_registration offload_registered();

/// The symbol of the kernel whose host stub is `stub` (the address of a __global__ function in
/// host code) in the registered images, or nullptr when no descriptor lists it.
const char* offload_kernel_symbol(const void* stub);

}  // namespace ferry::detail

// clang defines __CUDA__ in every pass (host, NVPTX, AMDGPU) of a -x cuda compilation; in an
// llvm_offload build, ferry_device_sources() compiles sources that way with -foffload-via-llvm
// only (clang's own CUDA runtime wrapper, which also defines __CUDACC__, is not used).
#if defined(__CUDA__)
/// This translation unit is compiled for LLVM offload: its launches can run on the device.
#define FERRY_DEVICE_TU 1
#define FERRY_DEVICE_INTRINSICS_HEADER "ferry/backend/llvm_offload/intrinsics.hpp"
#define FERRY_DEVICE_LAUNCH_HEADER "ferry/backend/gpu/launch.hpp"
#define FERRY_DEVICE_BLOCK_HEADER "ferry/backend/gpu/block.hpp"
#else
#define FERRY_DEVICE_TU 0
#endif
