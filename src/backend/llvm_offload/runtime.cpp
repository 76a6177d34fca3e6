// ferry: the llvm_offload backend's runtime: device selection, a caching device-memory pool,
// copies and page-locked host memory through LLVM's offload runtime (libomptarget's OpenMP
// device-memory API: omp_target_alloc, omp_target_memcpy, ...), the reduction scratch of the
// shared launch path (ferry/backend/gpu/launch.hpp), and the entry point that clang's
// -foffload-via-llvm kernel launches call (llvmLaunchKernel, below).
//
// Compiled as a device source (ferry_device_sources): it holds one small kernel, the probe that
// tells which device image runs (NVIDIA or AMD) and how many multiprocessors the device has.
//
// Ordering: libomptarget runs each launch and each copy of this interface to completion before
// returning (a launch waits for its kernel), so there is no stream and synchronize() has nothing
// to wait for. A failed launch or a device fault ends the process inside libomptarget ("failure
// of target construct while offloading is mandatory"); ferry cannot turn it into an exception.
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "ferry/backend/device.hpp"
#include FERRY_DEVICE_INTRINSICS_HEADER
#include "ferry/backend/gpu/scratch.hpp"
#include "ferry/core/error.hpp"
#include "ferry/data/environment.hpp"
#include "ferry/data/runtime.hpp"

// libomptarget's own allocators of page-locked host memory (LLVM extensions of the OpenMP API,
// exported by libomptarget; omp.h does not declare them).
extern "C" void* llvm_omp_target_alloc_host(std::size_t size, int device);
extern "C" void llvm_omp_target_free_host(void* ptr, int device);

// --- kernel launches
// -------------------------------------------------------------------------------
//
// clang's -foffload-via-llvm turns k<<<grid, block, shared, stream>>>(args) into a call of
// llvmLaunchKernel(k, grid, block, args, shared, stream), which LLVM 22's libomptarget defines by
// passing its launch descriptor (KernelArgsTy) with version 0. libomptarget treats versions 0 and
// 1 as its oldest format and rebuilds the descriptor with y and z extents of 1 and no dynamic
// shared memory (seen in libomptarget 22.1's __tgt_target_kernel), so every 2D or 3D grid would
// run its first row only and block launches would get no shared memory. ferry's programs define
// the function themselves (the executable's definition takes precedence over the shared
// library's) and pass version 2, the first whose extents and dynamic shared memory libomptarget
// uses as given. The layout is LLVM's KernelArgsTy (offload/include/Shared/APITypes.h), checked
// below against the offsets libomptarget 22.1's own llvmLaunchKernel writes.
namespace {

struct offload_kernel_args {
  std::uint32_t version = 0;
  std::uint32_t num_args = 0;
  void** arg_base_ptrs = nullptr;
  void** arg_ptrs = nullptr;  // for a CUDA kernel: clang's packed arguments (size, data)
  std::int64_t* arg_sizes = nullptr;
  std::int64_t* arg_types = nullptr;
  void** arg_names = nullptr;
  void** arg_mappers = nullptr;
  std::uint64_t tripcount = 0;
  std::uint64_t flags = 0;  // bit 0: nowait, bit 1: launched by a kernel language (CUDA/HIP)
  std::uint32_t num_teams[3] = {0, 0, 0};
  std::uint32_t thread_limit[3] = {0, 0, 0};
  std::uint32_t dyn_cgroup_mem = 0;
};
static_assert(offsetof(offload_kernel_args, arg_ptrs) == 0x10);
static_assert(offsetof(offload_kernel_args, flags) == 0x40);
static_assert(offsetof(offload_kernel_args, num_teams) == 0x48);
static_assert(offsetof(offload_kernel_args, thread_limit) == 0x54);
static_assert(offsetof(offload_kernel_args, dyn_cgroup_mem) == 0x60);
static_assert(sizeof(offload_kernel_args) == 0x68);

/// The descriptor version whose extents and dynamic shared memory libomptarget takes as given.
constexpr std::uint32_t kernel_args_version = 2;
/// flags: launched by a kernel language, so arg_ptrs holds clang's packed arguments.
constexpr std::uint64_t kernel_args_is_cuda = 2;

/// The device every launch and allocation uses: the offload runtime's default device 0.
constexpr int offload_device_id = 0;

/// Status of the calling thread's last launch (0: launched and finished).
thread_local int g_last_launch_status = 0;

}  // namespace

extern "C" int __tgt_target_kernel(void* loc, std::int64_t device, std::int32_t num_teams,
                                   std::int32_t thread_limit, const void* host_ptr,
                                   offload_kernel_args* args);

/// The launch entry point of -foffload-via-llvm kernel launches (see above): runs kernel `func`
/// on device 0 with the full grid and block extents and `shared` bytes of dynamic shared memory,
/// and returns when it has finished; 0 on success. `stream` is unused (launches are ordered).
extern "C" unsigned llvmLaunchKernel(const void* func, dim3 grid, dim3 block, void** args,
                                     std::size_t shared, void* stream) {
  (void)stream;
  offload_kernel_args a;
  a.version = kernel_args_version;
  a.arg_ptrs = args;
  a.flags = kernel_args_is_cuda;
  a.num_teams[0] = grid.x;
  a.num_teams[1] = grid.y ? grid.y : 1;
  a.num_teams[2] = grid.z ? grid.z : 1;
  a.thread_limit[0] = block.x;
  a.thread_limit[1] = block.y ? block.y : 1;
  a.thread_limit[2] = block.z ? block.z : 1;
  a.dyn_cgroup_mem = static_cast<std::uint32_t>(shared);
  const int rc = __tgt_target_kernel(nullptr, offload_device_id, static_cast<std::int32_t>(grid.x),
                                     static_cast<std::int32_t>(block.x), func, &a);
  g_last_launch_status = rc;
  return static_cast<unsigned>(rc);
}

namespace ferry::detail {
namespace gpu {

/// What the probe kernel reports: which image runs and the device's multiprocessor count.
struct probe_result {
  unsigned vendor;     ///< 1: NVPTX image, 2: AMDGPU image
  unsigned arch;       ///< __CUDA_ARCH__ (NVPTX: 900 for sm_90); AMDGPU: 0
  unsigned sm_count;   ///< NVPTX: %nsmid (an upper bound of the SM ids); AMDGPU: 0
  unsigned warp_size;  ///< threads per warp or wavefront of the image
};

/// One thread writes what its image was compiled for. A template (N is always 0), so that its
/// definition is mergeable (linkonce): a program that lists libferry.a twice brings this object's
/// device code to the device link twice.
template <int N>
__global__ void probe_kernel(probe_result* out) {
#if defined(__NVPTX__)
  out->vendor = 1;
  out->arch = __CUDA_ARCH__;
  out->sm_count = __nvvm_read_ptx_sreg_nsmid();
#elif defined(__AMDGPU__)
  out->vendor = 2;
  out->arch = 0;
  out->sm_count = 0;
#endif
  out->warp_size = warp_size;
}

namespace {

/// Multiprocessors assumed where the device cannot report them (an AMD image): 110, the compute
/// units of one MI250X die. Used only to cap reduction grids, which are correct with any grid.
constexpr unsigned default_multiprocessors = 110;

/// Block-shared memory a block may use, in bytes: 48 KiB, the most every device of both images
/// gives without an opt-in (CUDA's static limit; AMD gfx90a has 64 KiB of LDS per work-group).
/// libomptarget has no query for the device's own limit.
constexpr std::size_t block_shared_limit = 48 * 1024;

}  // namespace
}  // namespace gpu

namespace {

std::string offload_message(const char* call) {
  return std::string(call) + " failed (LLVM offload runtime, device " +
         std::to_string(offload_device_id) + ")";
}

/// The reduction scratches: one per reduction launch in flight (see gpu/scratch.hpp).
class reduction_pool {
 public:
  gpu::reduction_scratch& take() {
    std::lock_guard lock(mutex_);
    if (idle_.empty()) {
      all_.push_back(std::make_unique<gpu::reduction_scratch>());
      idle_.reserve(all_.size());
      return *all_.back();
    }
    gpu::reduction_scratch* s = idle_.back();
    idle_.pop_back();
    return *s;
  }
  void give(gpu::reduction_scratch& s) noexcept {
    std::lock_guard lock(mutex_);
    idle_.push_back(&s);
  }

 private:
  std::mutex mutex_;
  std::vector<std::unique_ptr<gpu::reduction_scratch>> all_;
  std::vector<gpu::reduction_scratch*> idle_;
};

class offload_device final : public device_runtime {
 public:
  offload_device() {
    devices_ = omp_get_num_devices();
    if (devices_ <= 0)
      throw backend_error(
          "", std::string("this build's backend is llvm_offload but LLVM's offload runtime finds "
                          "no device (omp_get_num_devices() = ") +
                  std::to_string(devices_) +
                  "; its plug-ins need the GPU driver: libcuda for NVIDIA, libhsa-runtime64 for "
                  "AMD). Set FERRY_BACKEND=openmp (or serial) to run on the host");
    host_ = omp_get_initial_device();
    probe();
  }

  const char* name() const override { return "llvm_offload"; }
  std::string description() const override {
    std::string d;
    if (probe_.vendor == 1)
      d = "NVIDIA GPU (sm_" + std::to_string(probe_.arch / 10) + " image, " +
          std::to_string(probe_.sm_count) + " SMs)";
    else if (probe_.vendor == 2)
      d = "AMD GPU (gfx image, wave" + std::to_string(probe_.warp_size) + ")";
    else
      d = "GPU (unknown image)";
    return d + " through LLVM offload (libomptarget), device " + std::to_string(offload_device_id) +
           " of " + std::to_string(devices_);
  }

  // A pool: freed blocks are kept by size (rounded up to 256 bytes) and handed out again, since
  // omp_target_alloc and omp_target_free are driver calls (cuMemAlloc/cuMemFree: the latter
  // waits for the device) that a launch on fresh data would otherwise pay each time.
  void* allocate(std::size_t bytes) override {
    const std::size_t size = rounded(bytes);
    {
      std::lock_guard lock(mutex_);
      auto it = free_.find(size);
      if (it != free_.end()) {
        void* p = it->second;
        free_.erase(it);
        cached_bytes_ -= size;
        return p;
      }
    }
    // Over-allocated by one alignment unit so that the block can be aligned whatever the
    // runtime returns (device allocations are normally 256-byte aligned already).
    void* raw = omp_target_alloc(size + allocation_alignment, offload_device_id);
    if (raw == nullptr && cached_bytes() > 0) {
      release_cached();
      raw = omp_target_alloc(size + allocation_alignment, offload_device_id);
    }
    if (raw == nullptr)
      throw out_of_memory(last_kernel_, "cannot allocate " + std::to_string(bytes) +
                                            " bytes of device memory (omp_target_alloc)");
    const auto addr = reinterpret_cast<std::uintptr_t>(raw);
    auto* p = reinterpret_cast<void*>((addr + allocation_alignment - 1) / allocation_alignment *
                                      allocation_alignment);
    std::lock_guard lock(mutex_);
    live_[p] = block{raw, size};
    return p;
  }
  void deallocate(void* p, std::size_t) noexcept override {
    if (!p) return;
    std::lock_guard lock(mutex_);
    auto it = live_.find(p);
    if (it == live_.end()) return;
    free_.emplace(it->second.size, p);
    cached_bytes_ += it->second.size;
  }
  void copy_to_device(void* dev, const void* host, std::size_t n) override {
    if (n == 0) return;
    if (omp_target_memcpy(dev, host, n, 0, 0, offload_device_id, host_) != 0)
      throw device_error(last_kernel_, offload_message("omp_target_memcpy (host to device)"));
  }
  void copy_to_host(void* host, const void* dev, std::size_t n) override {
    if (n == 0) return;
    if (omp_target_memcpy(host, dev, n, 0, 0, host_, offload_device_id) != 0)
      throw device_error(last_kernel_, offload_message("omp_target_memcpy (device to host)"));
  }
  void fill(void* dev, int byte, std::size_t n) override {
    if (n == 0) return;
    if (omp_target_memset(dev, byte, n, offload_device_id) == nullptr)
      throw device_error(last_kernel_, offload_message("omp_target_memset"));
  }
  // Every launch and copy has finished when its call returned (see the file comment).
  void synchronize(const char*) override {}
  void release_cached() override {
    std::lock_guard lock(mutex_);
    for (auto& [size, p] : free_) {
      auto it = live_.find(p);
      if (it == live_.end()) continue;
      omp_target_free(it->second.raw, offload_device_id);
      live_.erase(it);
    }
    free_.clear();
    cached_bytes_ = 0;
  }
  void* allocate_host(std::size_t bytes) override {
    void* p = llvm_omp_target_alloc_host(bytes ? bytes : 1, offload_device_id);
    if (p == nullptr || reinterpret_cast<std::uintptr_t>(p) % allocation_alignment != 0) {
      if (p) llvm_omp_target_free_host(p, offload_device_id);
      return device_runtime::allocate_host(bytes);  // pageable, aligned
    }
    std::lock_guard lock(mutex_);
    pinned_.insert(p);
    return p;
  }
  void deallocate_host(void* p) noexcept override {
    if (!p) return;
    {
      std::lock_guard lock(mutex_);
      if (pinned_.erase(p) == 1) {
        llvm_omp_target_free_host(p, offload_device_id);
        return;
      }
    }
    device_runtime::deallocate_host(p);
  }

  unsigned multiprocessors() const {
    return probe_.sm_count > 0 ? probe_.sm_count : gpu::default_multiprocessors;
  }
  void note_kernel(const char* k) { last_kernel_ = k; }
  const char* last_kernel() const { return last_kernel_; }
  reduction_pool& reductions() { return reductions_; }
  int host() const { return host_; }

 private:
  struct block {
    void* raw;
    std::size_t size;
  };
  static std::size_t rounded(std::size_t bytes) {
    const std::size_t a = allocation_alignment;
    return bytes == 0 ? a : (bytes + a - 1) / a * a;
  }
  std::size_t cached_bytes() {
    std::lock_guard lock(mutex_);
    return cached_bytes_;
  }
  void probe() {
    void* d = omp_target_alloc(sizeof(gpu::probe_result), offload_device_id);
    if (d == nullptr) throw device_error("", offload_message("omp_target_alloc (device probe)"));
    gpu::probe_kernel<0><<<1, 1>>>(static_cast<gpu::probe_result*>(d));
    const int rc = g_last_launch_status;
    const int copied = omp_target_memcpy(&probe_, d, sizeof probe_, 0, 0, host_, offload_device_id);
    omp_target_free(d, offload_device_id);
    if (rc != 0 || copied != 0)
      throw backend_error("", "llvm_offload: the device probe kernel did not run (" +
                                  offload_message(rc != 0 ? "launch" : "omp_target_memcpy") +
                                  "); the executable may hold no image for this GPU");
  }

  int devices_ = 0;
  int host_ = 0;
  gpu::probe_result probe_{};
  std::mutex mutex_;
  std::unordered_map<void*, block> live_;   // every block from omp_target_alloc, by user address
  std::multimap<std::size_t, void*> free_;  // cached blocks by rounded size
  std::size_t cached_bytes_ = 0;
  std::unordered_set<void*> pinned_;  // blocks from llvm_omp_target_alloc_host
  reduction_pool reductions_;
  const char* last_kernel_ = "";
};

offload_device& the_device() {
  static offload_device d;  // throws backend_error (and retries next time) without a device
  return d;
}

}  // namespace

device_runtime& device_runtime_instance() {
  return the_device();
}

namespace gpu {

cudaStream_t stream() {
  return nullptr;
}
int multiprocessors() {
  return static_cast<int>(the_device().multiprocessors());
}

[[noreturn]] void x_grid_too_large(const char* kernel, index n, unsigned b) {
  constexpr index cap = 0x7fffffff;
  throw launch_error(kernel, "the index space has " + std::to_string(n) +
                                 " indices along x, more than a " + std::string(api_name) +
                                 " grid of " + std::to_string(b) + "-thread blocks covers (" +
                                 std::to_string(cap) + " blocks); split the launch");
}

void after_launch(const char* kernel) {
  the_device().note_kernel(kernel);
  if (g_last_launch_status != 0)
    throw device_error(kernel, "kernel launch failed: LLVM's offload runtime returned " +
                                   std::to_string(g_last_launch_status) + " (device " +
                                   std::to_string(offload_device_id) + " unusable)");
}

namespace {

/// Bytes before a reduction scratch's data: its block counter, padded so that the data stays
/// 256-byte aligned.
constexpr std::size_t counter_bytes = 256;

void grow_device(offload_device& d, reduction_scratch& s, std::size_t bytes, const char* kernel) {
  const std::size_t capacity = std::max(bytes, 2 * s.capacity);
  auto* base = static_cast<unsigned char*>(d.allocate(counter_bytes + capacity));
  try {
    d.fill(base, 0, sizeof(unsigned));
  } catch (...) {
    d.deallocate(base, 0);
    throw;
  }
  record_allocation(counter_bytes + capacity, kernel);
  if (s.counter) d.deallocate(s.counter, 0);
  s.counter = reinterpret_cast<unsigned*>(base);
  s.device = base + counter_bytes;
  s.capacity = capacity;
}

void grow_host(offload_device& d, reduction_scratch& s, std::size_t bytes) {
  const std::size_t capacity = std::max({bytes, 2 * s.host_capacity, std::size_t{256}});
  void* p = d.allocate_host(capacity);
  if (s.host) d.deallocate_host(s.host);
  s.host = p;
  s.host_capacity = capacity;
}

}  // namespace

reduction_scratch& acquire_reduction_scratch(std::size_t device_bytes, std::size_t host_bytes,
                                             const char* kernel) {
  offload_device& d = the_device();
  reduction_scratch& s = d.reductions().take();
  try {
    if (s.capacity < device_bytes) grow_device(d, s, device_bytes, kernel);
    if (s.host_capacity < host_bytes) grow_host(d, s, host_bytes);
  } catch (...) {
    d.reductions().give(s);
    throw;
  }
  return s;
}

void release_reduction_scratch(reduction_scratch& s) noexcept {
  the_device().reductions().give(s);
}

void read_reduction_result(reduction_scratch& s, const void* dev, std::size_t n,
                           const char* kernel) {
  offload_device& d = the_device();
  const auto t0 = std::chrono::steady_clock::now();
  if (omp_target_memcpy(s.host, dev, n, 0, 0, d.host(), offload_device_id) != 0)
    throw device_error(kernel, offload_message("reduction read-back (omp_target_memcpy)"));
  record_transfer(false, n,
                  std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(),
                  kernel);
}

std::size_t max_block_shared_bytes() {
  return block_shared_limit;
}

// Block launches never ask for more than max_block_shared_bytes(), the limit every device gives
// without an opt-in, so there is nothing to allow.
void allow_dynamic_shared(const void*, std::size_t, const char*) {}

}  // namespace gpu
}  // namespace ferry::detail
