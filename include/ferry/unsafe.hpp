// ferry::unsafe: interface C. Raw launches on device pointers with CUDA-style grid/block
// indices, for experts and hand-tuned baselines. Nothing is mapped, checked or verified:
// races, out-of-bounds accesses and stale data are the caller's problem. The name says so.
#pragma once

#include <omp.h>

#include <cstring>
#include <span>
#include <type_traits>
#include <utility>

#include "ferry/backend/device.hpp"
#include "ferry/core/backend.hpp"
#include "ferry/core/config.hpp"
#include "ferry/core/error.hpp"
#include "ferry/data/environment.hpp"

namespace ferry::unsafe {

/// Grid or block extents (x fastest), like CUDA's dim3.
struct dim3 {
  unsigned x = 1, y = 1, z = 1;
};

/// What an unsafe kernel receives first: its thread and block coordinates.
struct thread_index {
  dim3 thread;     ///< threadIdx
  dim3 block;      ///< blockIdx
  dim3 block_dim;  ///< blockDim
  dim3 grid_dim;   ///< gridDim
  /// blockIdx.x * blockDim.x + threadIdx.x
  FERRY_HOST_DEVICE FERRY_INLINE index global_x() const {
    return static_cast<index>(block.x) * block_dim.x + thread.x;
  }
  FERRY_HOST_DEVICE FERRY_INLINE index global_y() const {
    return static_cast<index>(block.y) * block_dim.y + thread.y;
  }
  FERRY_HOST_DEVICE FERRY_INLINE index global_z() const {
    return static_cast<index>(block.z) * block_dim.z + thread.z;
  }
};

/// ceil(n / d) for grid sizes; 0 for n <= 0 or d == 0. A count past what a dim3 extent holds
/// saturates at 2^32 - 1, which ferry::unsafe::launch refuses, rather than wrapping to a small
/// grid that would run without an error and leave indices unrun (and n + d - 1 is not formed, so
/// n up to INT64_MAX does not overflow).
constexpr unsigned blocks_for(index n, unsigned d) {
  if (n <= 0 || d == 0) return 0;
  const index g = n / d + (n % d != 0 ? 1 : 0);
  return g > index{0xffffffff} ? 0xffffffffu : static_cast<unsigned>(g);
}

/// n elements of T in the current backend's device memory (host memory on host backends).
/// Move-only RAII; copies are explicit and synchronous. Throws out_of_memory / device_error.
/// Its allocation and copies count in ferry::stats() (and FERRY_INFO) on every backend: on the
/// host-memory backends too, where the buffer stands for device memory and its copies are real.
template <class T>
class device_buffer {
  static_assert(std::is_trivially_copyable_v<T>, "device_buffer<T> needs a trivially copyable T");

 public:
  device_buffer() = default;
  explicit device_buffer(index n) : n_(n), rt_(detail::active_runtime()) {
    const std::size_t b = bytes();
    p_ = static_cast<T*>(rt_ ? rt_->allocate(b) : ::operator new(b ? b : 1));
    detail::record_allocation(b, "ferry::unsafe::device_buffer", p_);
  }
  /// A device copy of host data.
  explicit device_buffer(std::span<const T> host) : device_buffer(static_cast<index>(host.size())) {
    copy_from_host(host);
  }
  device_buffer(device_buffer&& o) noexcept
      : p_(std::exchange(o.p_, nullptr)), n_(std::exchange(o.n_, 0)), rt_(o.rt_) {}
  device_buffer& operator=(device_buffer&& o) noexcept {
    std::swap(p_, o.p_);
    std::swap(n_, o.n_);
    std::swap(rt_, o.rt_);
    return *this;
  }
  ~device_buffer() {
    if (!p_) return;
    if (rt_)
      rt_->deallocate(p_, bytes());
    else
      ::operator delete(p_);
  }
  /// Copies host[0, size()) to the device.
  void copy_from_host(std::span<const T> host) {
    const std::size_t b = host.size_bytes() < bytes() ? host.size_bytes() : bytes();
    const double t0 = detail::now_seconds();
    if (rt_)
      rt_->copy_to_device(p_, host.data(), b);
    else if (b)
      std::memcpy(p_, host.data(), b);
    detail::record_transfer(true, b, detail::now_seconds() - t0, "ferry::unsafe::device_buffer");
  }
  /// Copies the device data to host[0, size()); waits for earlier launches.
  void copy_to_host(std::span<T> host) const {
    const std::size_t b = host.size_bytes() < bytes() ? host.size_bytes() : bytes();
    const double t0 = detail::now_seconds();
    if (rt_)
      rt_->copy_to_host(host.data(), p_, b);
    else if (b)
      std::memcpy(host.data(), p_, b);
    detail::record_transfer(false, b, detail::now_seconds() - t0, "ferry::unsafe::device_buffer");
  }
  /// The device address.
  T* get() const { return p_; }
  index size() const { return n_; }
  std::size_t bytes() const { return static_cast<std::size_t>(n_) * sizeof(T); }

 private:
  T* p_ = nullptr;
  index n_ = 0;
  detail::device_runtime* rt_ = nullptr;
};

}  // namespace ferry::unsafe

#if FERRY_DEVICE_TU
#include FERRY_DEVICE_LAUNCH_HEADER

namespace ferry::unsafe {

/// Threads per warp on the build's device backend: 32 on NVIDIA GPUs, 64 on the AMD targets of
/// the hip backend (a wavefront; ferry/backend/<name>/intrinsics.hpp says where each comes
/// from). Raw kernels that combine values within a warp use it instead of a literal 32. Only in
/// translation units compiled for the device backend.
inline constexpr int warp_size = ferry::detail::device::warp_size;

/// Device code only: v of the lane `delta` above the calling one in its warp (the caller's own v
/// where that lane would be past the warp's end), for any trivially copyable T (moved as 4-byte
/// words). 0 < delta < warp_size. Every lane of the warp must call it with the same delta
/// (CUDA: __shfl_down_sync over the full warp; HIP: __shfl_down over the wavefront).
template <class T>
__device__ FERRY_INLINE T shuffle_down(const T& v, int delta) {
  return ferry::detail::device::shuffle_down_value(v, delta);
}

}  // namespace ferry::unsafe
#endif

namespace ferry::unsafe {
namespace detail {
template <class K, class... A>
void execute_host(dim3 grid, dim3 block, const K& kernel, const A&... args, bool parallel) {
  const long long nblocks = static_cast<long long>(grid.x) * grid.y * grid.z;
  auto run_block = [&](long long b) {
    thread_index t;
    t.block_dim = block;
    t.grid_dim = grid;
    t.block = dim3{static_cast<unsigned>(b % grid.x), static_cast<unsigned>((b / grid.x) % grid.y),
                   static_cast<unsigned>(b / (static_cast<long long>(grid.x) * grid.y))};
    for (unsigned z = 0; z < block.z; ++z)
      for (unsigned y = 0; y < block.y; ++y)
        for (unsigned x = 0; x < block.x; ++x) {
          t.thread = dim3{x, y, z};
          kernel(t, args...);
        }
  };
  if (parallel) {
#pragma omp parallel for schedule(static)
    for (long long b = 0; b < nblocks; ++b) run_block(b);
  } else {
    for (long long b = 0; b < nblocks; ++b) run_block(b);
  }
}
}  // namespace detail

namespace detail {
/// Refuses, on every backend, a raw launch shape that some GPU would refuse (launch_error naming
/// ferry::unsafe::launch): an extent of 0; a block of more than 1024 threads, or more than 1024
/// along x or y or 64 along z (CUDA's and HIP's limits); a grid of more than 2^31 - 1 blocks along
/// x or 65535 along y or z, or of more than 2^32 - 1 threads along x (AMD GPUs). Returns the
/// launch's threads, at most INT64_MAX (a grid a GPU takes can hold more: 2^31 - 1 x 65535 x
/// 65535 blocks of 1024). Out of line (src/launch.cpp).
std::int64_t check_unsafe_shape(dim3 grid, dim3 block);
}  // namespace detail

/// Launches kernel(thread_index, args...) on a grid of `grid` blocks of `block` threads.
///
/// Arguments are passed as they are (pointers from device_buffer::get(), values); nothing is
/// copied or checked but the shape. Asynchronous on device backends: call ferry::synchronize() or
/// copy back with device_buffer::copy_to_host() before reading results. On host backends each
/// block runs its threads in order, so kernels must not rely on __syncthreads-style barriers.
/// Throws launch_error, on every backend before the kernel runs, for a shape some GPU refuses
/// (detail::check_unsafe_shape: an extent of 0, a block past 1024 threads, a grid past 2^31 - 1 x
/// 65535 x 65535 blocks or 2^32 - 1 threads along x), so that a launch that runs on the host also
/// launches on a GPU; backend_error if the backend is a device one and this file was not compiled
/// for it.
template <class K, class... A>
void launch(dim3 grid, dim3 block, K kernel, A... args) {
  static_assert(std::is_empty_v<K>, "ferry::unsafe::launch: the kernel must be captureless");
  const std::int64_t threads = detail::check_unsafe_shape(grid, block);
  const backend b = current_backend();
  ferry::detail::record_launch("ferry::unsafe::launch", to_string(b), threads);
  switch (b) {
#if !FERRY_NVCC_DEVICE_PASS  // the host executors: host code, which nvcc's device pass drops
    case backend::serial:
    case backend::checked:
      detail::execute_host<K, A...>(grid, block, kernel, args..., false);
      return;
    case backend::openmp:
      detail::execute_host<K, A...>(grid, block, kernel, args..., true);
      return;
#endif
    default:  // the build's device backend (ferry/backend/device.hpp)
#if FERRY_DEVICE_TU
      ferry::detail::device::execute_unsafe<thread_index>(grid.x, grid.y, grid.z, block.x, block.y,
                                                          block.z, kernel, args...);
      return;
#else
      throw backend_error("ferry::unsafe::launch", ferry::detail::device_not_compiled_unsafe);
#endif
  }
}

}  // namespace ferry::unsafe
