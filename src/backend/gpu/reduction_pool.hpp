// ferry: the reduction scratches of the GPU backends' runtimes (src/backend/gpu/runtime.cpp for
// cuda and hip, src/backend/llvm_offload/runtime.cpp): one pool per device, written once against
// the device_runtime interface (allocate, fill, allocate_host), so that every runtime keeps and
// grows its scratches the same way. A private header of the library's sources.
#pragma once

#include <algorithm>
#include <cstddef>
#include <memory>
#include <mutex>
#include <vector>

#include "ferry/backend/gpu/scratch.hpp"
#include "ferry/data/environment.hpp"
#include "ferry/data/runtime.hpp"

namespace ferry::detail::gpu {

/// The reduction scratches (gpu/scratch.hpp, reduction_scratch) of one device: one per
/// reduction launch in flight. A launch takes an idle one and gives it back when its result is
/// on the host, so a single thread reuses one scratch forever and N threads launching at once
/// use N. Scratches live as long as the pool (the device's runtime, which lives as long as the
/// process), so their memory is never freed behind a launch.
class reduction_pool {
 public:
  /// Takes a scratch with at least `device_bytes` of device memory and `host_bytes` of
  /// page-locked host memory from `rt`, growing it if needed (a device growth is recorded in
  /// ferry::stats() under `kernel`). Thread-safe. Throws out_of_memory / device_error (the
  /// scratch is back in the pool then).
  reduction_scratch& acquire(device_runtime& rt, std::size_t device_bytes, std::size_t host_bytes,
                             const char* kernel) {
    reduction_scratch& s = take();
    try {
      if (s.capacity < device_bytes) grow_device(rt, s, device_bytes, kernel);
      if (s.host_capacity < host_bytes) grow_host(rt, s, host_bytes);
    } catch (...) {
      release(s);
      throw;
    }
    return s;
  }
  /// Gives back a scratch from acquire(). Thread-safe; never allocates.
  void release(reduction_scratch& s) noexcept {
    std::lock_guard lock(mutex_);
    idle_.push_back(&s);
  }

 private:
  /// Bytes before a scratch's data: its block counter, padded so that the data stays 256-byte
  /// aligned (the alignment of device allocations, and the most a state may need).
  static constexpr std::size_t counter_bytes = 256;

  reduction_scratch& take() {
    std::lock_guard lock(mutex_);
    if (idle_.empty()) {
      all_.push_back(std::make_unique<reduction_scratch>());
      idle_.reserve(all_.size());  // so that release() never allocates
      return *all_.back();
    }
    reduction_scratch* s = idle_.back();
    idle_.pop_back();
    return *s;
  }

  /// Replaces s's device memory by a block of at least `bytes` (doubling, so a scratch grows a
  /// few times at most) with a zeroed counter. The old block was last used by a launch whose
  /// result is on the host already; the runtime's frees are ordered after earlier work anyway.
  static void grow_device(device_runtime& rt, reduction_scratch& s, std::size_t bytes,
                          const char* kernel) {
    const std::size_t capacity = std::max(bytes, 2 * s.capacity);
    auto* base = static_cast<unsigned char*>(rt.allocate(counter_bytes + capacity));
    try {
      rt.fill(base, 0, sizeof(unsigned));
    } catch (...) {
      rt.deallocate(base, counter_bytes + capacity);
      throw;
    }
    record_allocation(counter_bytes + capacity, kernel, base);
    if (s.counter) rt.deallocate(s.counter, counter_bytes + s.capacity);
    s.counter = reinterpret_cast<unsigned*>(base);
    s.device = base + counter_bytes;
    s.capacity = capacity;
  }

  /// Replaces s's page-locked host memory by a block of at least `bytes` (256 at least: room
  /// for any usual set of reduction results, so this runs once per scratch).
  static void grow_host(device_runtime& rt, reduction_scratch& s, std::size_t bytes) {
    const std::size_t capacity = std::max({bytes, 2 * s.host_capacity, std::size_t{256}});
    void* p = rt.allocate_host(capacity);
    if (s.host) rt.deallocate_host(s.host);
    s.host = p;
    s.host_capacity = capacity;
  }

  std::mutex mutex_;
  std::vector<std::unique_ptr<reduction_scratch>> all_;
  std::vector<reduction_scratch*> idle_;
};

}  // namespace ferry::detail::gpu
