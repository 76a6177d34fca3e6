// ferry: the HIP device backend (FERRY_DEVICE_BACKEND=hip, AMD GPUs): its identity, included in
// every translation unit of a HIP build (plain C++; see ferry/backend/device.hpp for the
// interface). The kernels are the CUDA backend's (ferry/backend/gpu/), compiled by clang -x hip
// with this backend's intrinsics.hpp.
#pragma once

#include "ferry/core/backend.hpp"

namespace ferry::detail {
/// The backend this build's device launches run on.
inline constexpr backend device_backend_id = backend::hip;
/// Why a launch on the device failed in a translation unit not compiled as HIP.
inline constexpr const char* device_not_compiled =
    "this translation unit was not compiled as HIP, so its kernels can run only on host "
    "backends (set FERRY_BACKEND=openmp, or compile the file with clang -x hip / hipcc)";
/// The same, for ferry::unsafe::launch.
inline constexpr const char* device_not_compiled_unsafe =
    "this translation unit was not compiled as HIP; set FERRY_BACKEND=openmp or compile it "
    "with clang -x hip / hipcc";
}  // namespace ferry::detail

#if defined(__HIP__)
/// This translation unit is compiled as HIP: its launches can run on the device.
#define FERRY_DEVICE_TU 1
#define FERRY_DEVICE_INTRINSICS_HEADER "ferry/backend/hip/intrinsics.hpp"
#define FERRY_DEVICE_LAUNCH_HEADER "ferry/backend/gpu/launch.hpp"
#define FERRY_DEVICE_BLOCK_HEADER "ferry/backend/gpu/block.hpp"
#else
#define FERRY_DEVICE_TU 0
#endif
