// ferry: the interface every separate-memory backend implements (the checked backend's
// host-emulated device, CUDA, ...). The data environment moves bytes only through it.
#pragma once

#include <cstddef>
#include <string>

namespace ferry::detail {

/// Alignment (bytes) of every device_runtime allocation. 256 is what CUDA guarantees for
/// cudaMalloc and for cudaMallocAsync pool blocks (CUDA C++ Programming Guide, "Device Memory":
/// "aligned to at least 256 bytes"), so the checked backend emulates the same. Element types
/// with a larger alignof are rejected at compile time by ferry::array, ferry::preload,
/// ferry::preload_mut and launch (their copies could not be aligned for them).
inline constexpr std::size_t allocation_alignment = 256;

/// The diagnostic of those rejections; `what` names the function ("preload", "launch").
#define FERRY_OVER_ALIGNED_MESSAGE(what)                                                        \
  "ferry::" what                                                                                \
  ": the element type's alignof exceeds 256 bytes, the alignment of device "                    \
  "allocations (CUDA's guarantee): its device copies could not keep the elements aligned. Use " \
  "a type with alignas(256) or less"

/// Allocation, copies and synchronisation of one device. All sizes are in bytes.
class device_runtime {
 public:
  virtual ~device_runtime() = default;
  /// Backend name ("checked", "cuda").
  virtual const char* name() const = 0;
  /// The device, in words (model, memory, driver), for reports.
  virtual std::string description() const = 0;
  /// Device memory of `bytes` bytes (from a caching pool), aligned to at least
  /// `allocation_alignment` bytes, so a copy of any element type ferry accepts is aligned.
  /// Throws out_of_memory.
  virtual void* allocate(std::size_t bytes) = 0;
  /// Returns memory from allocate() to the pool.
  virtual void deallocate(void* p, std::size_t bytes) noexcept = 0;
  /// Host->device copy. Ordered before later launches; returns once `host` may be reused.
  virtual void copy_to_device(void* dev, const void* host, std::size_t bytes) = 0;
  /// Device->host copy; returns when `host` holds the data (waits for earlier launches).
  virtual void copy_to_host(void* host, const void* dev, std::size_t bytes) = 0;
  /// Fills device memory with a byte pattern (used to poison write-only buffers).
  virtual void fill(void* dev, int byte, std::size_t bytes) = 0;
  /// Waits for all launched work; throws device_error naming `kernel` on a device fault.
  virtual void synchronize(const char* kernel) = 0;
  /// Returns memory cached by the allocator (freed blocks kept for reuse) to the system.
  virtual void release_cached() {}
  /// Host memory that copies to and from this device fastest (CUDA: page-locked), used by
  /// ferry::array for its host copy; aligned to at least `allocation_alignment` bytes.
  /// Throws out_of_memory.
  virtual void* allocate_host(std::size_t bytes);
  /// Frees memory from allocate_host().
  virtual void deallocate_host(void* p) noexcept;
};

}  // namespace ferry::detail
