// ferry: the CUDA device backend (FERRY_DEVICE_BACKEND=cuda): its identity, included in every
// translation unit of a CUDA build (plain C++; see ferry/backend/device.hpp for the interface).
#pragma once

#include "ferry/core/backend.hpp"

namespace ferry::detail {
/// The backend this build's device launches run on.
inline constexpr backend device_backend_id = backend::cuda;
/// Why a launch on the device failed in a translation unit not compiled as CUDA.
inline constexpr const char* device_not_compiled =
    "this translation unit was not compiled as CUDA, so its kernels can run only on host "
    "backends (set FERRY_BACKEND=openmp, or compile the file with nvcc / as a CUDA source)";
/// The same, for ferry::unsafe::launch.
inline constexpr const char* device_not_compiled_unsafe =
    "this translation unit was not compiled as CUDA; set FERRY_BACKEND=openmp or compile it "
    "with nvcc";
}  // namespace ferry::detail

#if defined(__CUDACC__)
/// This translation unit is compiled by the CUDA compiler: its launches can run on the device.
#define FERRY_DEVICE_TU 1
#define FERRY_DEVICE_INTRINSICS_HEADER "ferry/backend/cuda/intrinsics.hpp"
#define FERRY_DEVICE_LAUNCH_HEADER "ferry/backend/gpu/launch.hpp"
#define FERRY_DEVICE_BLOCK_HEADER "ferry/backend/gpu/block.hpp"
#else
#define FERRY_DEVICE_TU 0
#endif
