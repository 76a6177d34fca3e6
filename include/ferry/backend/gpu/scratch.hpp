// ferry: the GPU backends' reduction scratch: what a reduction launch (gpu/launch.hpp) borrows
// from the runtime (src/backend/gpu/runtime.cpp). Plain C++, so the runtime need not include the
// launch path.
#pragma once

#include <cstddef>

namespace ferry::detail::gpu {

/// Working memory of one reduction launch: per-block partials and the folded result on the
/// device, a block counter, and page-locked host memory the result is copied into. The runtime
/// keeps them between launches (runtime.cu), one per reduction launch in flight, so steady-state
/// launches allocate nothing and host threads that launch at once never share one.
struct reduction_scratch {
  /// Blocks of the current launch that have stored their partial. Zero between launches: the
  /// last block's atomicInc wraps it back (an aborted launch leaves it set, but a trap also
  /// ends the device context, so no later launch reads it).
  unsigned* counter = nullptr;
  void* device = nullptr;    ///< `capacity` bytes of device memory, 256-byte aligned
  std::size_t capacity = 0;  ///< bytes at `device`
  void* host = nullptr;      ///< `host_capacity` bytes of page-locked host memory
  std::size_t host_capacity = 0;
};

/// Takes a reduction scratch (an idle one, or a new one when every one is in use) with at
/// least `device_bytes` at `device` and `host_bytes` at `host`, growing it if needed (a growth
/// is a device allocation, recorded in ferry::stats() and FERRY_INFO under `kernel`). Give it
/// back with release_reduction_scratch. Thread-safe. Throws out_of_memory / device_error.
reduction_scratch& acquire_reduction_scratch(std::size_t device_bytes, std::size_t host_bytes,
                                             const char* kernel);
/// Returns a scratch taken with acquire_reduction_scratch. Thread-safe.
void release_reduction_scratch(reduction_scratch& s) noexcept;
/// Copies `n` bytes at device address `dev` into s.host on the ferry stream and waits for it
/// (and so for the kernel before it); recorded as one device->host transfer under `kernel`.
/// Throws device_error naming the kernel when the copy or an earlier kernel failed.
void read_reduction_result(reduction_scratch& s, const void* dev, std::size_t n,
                           const char* kernel);

}  // namespace ferry::detail::gpu
