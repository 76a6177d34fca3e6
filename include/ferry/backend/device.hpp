// ferry: the build's device backend, as the front end sees it. The front end (launch.hpp,
// block.hpp, unsafe.hpp) names no backend: it includes this header and dispatches a device
// launch to detail::device::, which the selected backend's folder defines.
//
// The build system names the backend's header with FERRY_DEVICE_BACKEND_HEADER, a string
// ("ferry/backend/<name>/backend.hpp", from the CMake option FERRY_DEVICE_BACKEND; a public
// compile definition of ferry::ferry), which this header includes. Every device backend folder
// holds the same files:
//
//   backend.hpp     plain C++, included in every translation unit of the build: the backend's
//                   enum value (device_backend_id), its messages for translation units not
//                   compiled for it, and FERRY_DEVICE_TU (1 where this translation unit is
//                   compiled by the backend's device compiler). Where FERRY_DEVICE_TU is 1 it
//                   also defines FERRY_DEVICE_LAUNCH_HEADER and FERRY_DEVICE_BLOCK_HEADER: the
//                   headers that implement the launch interface below.
//   intrinsics.hpp  everything that differs between device compilers: runtime API names, thread
//                   ids, warp size, shuffles, cache-bypassing loads, profiler ranges.
//
// The launch interface (in namespace ferry::detail::device, device translation units only):
//   execute<Ops, Bounds>(name, block, space, kernel, bound, states)  one safe launch over an
//                  index space (Bounds: ferry::launch_bounds or no_launch_bounds);
//   execute_blocks<Blocked, Kernel, Bound, States, PhaseArgs, AllArgs>(name, geometry, kern,
//                  bound)                                    one block launch (block.hpp);
//   execute_unsafe<Index>(grid xyz, block xyz, kernel, args...)  one raw launch (unsafe.hpp);
//   max_block_shared_bytes()                                 block-shared memory limit;
//   warp_size, shuffle_down_value(v, delta)                  the warp width and the shuffle
//                                                            that ferry::unsafe exposes to raw
//                                                            kernels.
// Allocation, copies, synchronisation and error reports go through detail::device_runtime
// (data/runtime.hpp), which the backend's compiled runtime implements
// (detail::device_runtime_instance()).
#pragma once

#include "ferry/core/backend.hpp"

#if defined(FERRY_DEVICE_BACKEND_HEADER)
#include FERRY_DEVICE_BACKEND_HEADER
/// 1 in builds with a device backend.
#define FERRY_HAS_DEVICE_BACKEND 1
#else
#define FERRY_HAS_DEVICE_BACKEND 0
#define FERRY_DEVICE_TU 0
namespace ferry::detail {
/// Messages of the launch paths when the current backend is a device one this translation unit
/// was not compiled for; unreachable in a build without a device backend (current_backend()
/// never returns one there).
inline constexpr const char* device_not_compiled = "this build has no device backend";
inline constexpr const char* device_not_compiled_unsafe = "this build has no device backend";
}  // namespace ferry::detail
#endif
