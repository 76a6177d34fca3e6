// ferry: the GPU backends' runtime (cuda, hip): device selection, the stream, the stream-ordered
// memory pool, transfers through the pinned staging engine, and error reporting. Written with the
// CUDA runtime's names; compiled as the build's device language, with the backend's
// intrinsics.hpp supplying what differs.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

// The backend's profiler calls (range_push's definitions) are compiled here only.
#define FERRY_GPU_RUNTIME_SOURCE 1
#include "ferry/backend/device.hpp"
#include FERRY_DEVICE_INTRINSICS_HEADER
#include "ferry/backend/gpu/scratch.hpp"
#include "ferry/backend/gpu/transfer.hpp"
#include "ferry/core/config.hpp"
#include "ferry/core/error.hpp"
#include "ferry/data/environment.hpp"
#include "reduction_pool.hpp"

#if FERRY_GPU_DRIVER_LAUNCH
// The driver API's types and function-pointer types only: its functions are reached through
// cudaGetDriverEntryPointByVersion, so nothing links libcuda (a CPU-only machine runs host
// backends of a CUDA build without a driver installed).
#include <cudaTypedefs.h>
#endif

namespace ferry::detail {
namespace {

std::string cuda_message(const char* call, cudaError_t e) {
  return std::string(call) + " failed: " + cudaGetErrorName(e) + " (" + cudaGetErrorString(e) + ")";
}

/// Appended to a kernel-execution failure: a failed view bounds check traps (view.hpp), which
/// CUDA reports as one of these codes, after the thread printed the index and extent (device
/// printf, on stdout). The device does not know the kernel's name, so the host error names it.
std::string fault_hint(cudaError_t e) {
  if (e != cudaErrorLaunchFailure && e != cudaErrorIllegalInstruction &&
      e != cudaErrorIllegalAddress)
    return "";
  return "; a failed ferry bounds check in device code (an index outside a view, view2d, view3d "
         "or atomic_add target) ends a kernel this way, as does a read through a read-only view "
         "far outside it";
}

#if FERRY_GPU_DRIVER_LAUNCH
/// The driver's cuLaunchKernel (version 4.0's signature, current in CUDA 13).
using driver_launch_fn = PFN_cuLaunchKernel_v4000;

/// The driver function `name` as of CUDA 12.0's API; throws backend_error if the driver lacks it.
void* driver_entry(const char* name) {
  void* fn = nullptr;
  cudaDriverEntryPointQueryResult found = cudaDriverEntryPointSymbolNotFound;
  const cudaError_t e =
      cudaGetDriverEntryPointByVersion(name, &fn, 12000, cudaEnableDefault, &found);
  if (e != cudaSuccess || found != cudaDriverEntryPointSuccess || fn == nullptr) {
    static_cast<void>(cudaGetLastError());
    throw backend_error("", std::string("the CUDA driver has no ") + name +
                                " (CUDA 12.0 API): update the NVIDIA driver");
  }
  return fn;
}
driver_launch_fn load_driver_launch() {
  return reinterpret_cast<driver_launch_fn>(driver_entry("cuLaunchKernel"));
}
/// The driver's cuLaunchKernelEx (CUDA 11.6's signature, current in CUDA 13): a launch with
/// attributes, here programmatic stream serialization.
using driver_launch_ex_fn = PFN_cuLaunchKernelEx_v11060;
driver_launch_ex_fn load_driver_launch_ex() {
  return reinterpret_cast<driver_launch_ex_fn>(driver_entry("cuLaunchKernelEx"));
}
/// FERRY_DEPENDENT_LAUNCH: "0" turns programmatic dependent launches off (every kernel then
/// starts only once the one before it on the stream has ended, as without the attribute);
/// unset, "" or "1" leaves them on where the device has them. Throws backend_error for any other
/// value.
bool dependent_launch_wanted() {
  const char* v = std::getenv("FERRY_DEPENDENT_LAUNCH");
  const std::string s = v ? v : "";
  if (s.empty() || s == "1") return true;
  if (s == "0") return false;
  throw backend_error("", "FERRY_DEPENDENT_LAUNCH='" + s +
                              "' is not understood: set it to 0 (kernels wait for the previous "
                              "one to end before they start) or 1 (the default), or unset it");
}
/// Whether kernels launch as programmatic dependent launches on this device: compute capability
/// 9.0 (Hopper) and later, unless FERRY_DEPENDENT_LAUNCH=0.
bool dependent_launch_available(const cudaDeviceProp& p) {
  const bool wanted = dependent_launch_wanted();  // validated on every device, not only 9.0+
  return p.major >= 9 && wanted;
}
#else
using driver_launch_fn = void*;
using driver_launch_ex_fn = void*;
bool dependent_launch_available(const cudaDeviceProp&) {
  return false;
}
driver_launch_fn load_driver_launch() {
  return nullptr;
}
driver_launch_ex_fn load_driver_launch_ex() {
  return nullptr;
}
#endif

class gpu_device final : public device_runtime {
 public:
  gpu_device() {
    int count = 0;
    const cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess || count == 0) {
      static_cast<void>(cudaGetLastError());
      throw backend_error(
          "", std::string("this build's backend is ") + to_string(device_backend_id) + " but no " +
                  gpu::api_name + " device is usable (" +
                  (e != cudaSuccess ? cuda_message("cudaGetDeviceCount", e) : "no device found") +
                  "). Set FERRY_BACKEND=openmp (or serial) to run on the host");
    }
    check(cudaGetDevice(&device_), "cudaGetDevice");
    check(cudaGetDeviceProperties(&props_, device_), "cudaGetDeviceProperties");
    // Before anything is created: a bad FERRY_DEPENDENT_LAUNCH throws here, leaking nothing.
    dependent_ = dependent_launch_available(props_);
    check(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking), "cudaStreamCreateWithFlags");
    // Keep freed blocks cached in the pool instead of returning them to the driver at every
    // synchronisation: steady-state launches then allocate nothing from the driver.
    check(cudaDeviceGetDefaultMemPool(&pool_, device_), "cudaDeviceGetDefaultMemPool");
    std::uint64_t threshold = UINT64_MAX;
    check(cudaMemPoolSetAttribute(pool_, cudaMemPoolAttrReleaseThreshold, &threshold),
          "cudaMemPoolSetAttribute");
    engine_ = std::make_unique<gpu::transfer_engine>(gpu::transfer_config::defaults(), device_);
    launch_ = load_driver_launch();
    launch_ex_ = load_driver_launch_ex();
  }

  const char* name() const override { return to_string(device_backend_id); }
  std::string description() const override {
    int driver = 0, runtime = 0;
    static_cast<void>(cudaDriverGetVersion(&driver));
    static_cast<void>(cudaRuntimeGetVersion(&runtime));
    return gpu::describe_device(props_, driver, runtime);
  }
  // Pool blocks are aligned to at least allocation_alignment (256 bytes) as the CUDA guide
  // promises for device allocations; on an H200 with CUDA 13 every cudaMallocAsync block seen
  // (sizes 1 B to 1 MiB) was 512-byte aligned, cudaMalloc and cudaMallocHost 2 MiB-aligned.
  void* allocate(std::size_t bytes) override {
    void* p = nullptr;
    const cudaError_t e = cudaMallocAsync(&p, bytes ? bytes : 1, stream_);
    if (e == cudaErrorMemoryAllocation) {
      static_cast<void>(cudaGetLastError());  // not sticky: clear it so later launches work
      throw out_of_memory(current_kernel_, "cannot allocate " + std::to_string(bytes) +
                                               " bytes of device memory (" + props_.name + ")");
    }
    check(e, "cudaMallocAsync");
    return p;
  }
  void deallocate(void* p, std::size_t) noexcept override {
    if (p) static_cast<void>(cudaFreeAsync(p, stream_));
  }
  void copy_to_device(void* dev, const void* host, std::size_t n) override {
    gpu::range_push("ferry H2D");
    try {
      engine_->h2d(dev, host, n, stream_);
    } catch (const device_error& e) {
      gpu::range_pop();
      if (!e.kernel().empty()) throw;
      // An earlier kernel's fault (sticky) also fails the next launch's copies: name it.
      throw device_error(last_kernel(), e.detail() + " (after kernel '" + last_kernel() + "')" +
                                            fault_hint(cudaStreamQuery(stream_)));
    } catch (...) {
      gpu::range_pop();
      throw;
    }
    gpu::range_pop();
  }
  void copy_to_host(void* host, const void* dev, std::size_t n) override {
    gpu::range_push("ferry D2H");
    try {
      engine_->d2h(host, dev, n, stream_);
    } catch (const device_error& e) {
      gpu::range_pop();
      // A fault in an earlier kernel surfaces at the first copy that waits for it. The context's
      // error is sticky, so the stream still reports the fault's code.
      throw device_error(last_kernel(), e.detail() + " (after kernel '" + last_kernel() + "')" +
                                            fault_hint(cudaStreamQuery(stream_)));
    }
    gpu::range_pop();
  }
  void fill(void* dev, int byte, std::size_t n) override {
    check(cudaMemsetAsync(dev, byte, n, stream_), "cudaMemsetAsync");
  }
  void synchronize(const char* kernel) override {
    const cudaError_t e = cudaStreamSynchronize(stream_);
    if (e != cudaSuccess)
      throw device_error(*last_kernel() ? last_kernel() : kernel,
                         cuda_message("cudaStreamSynchronize", e) + " while waiting for kernel '" +
                             last_kernel() + "'" + fault_hint(e));
  }
  void release_cached() override { check(cudaMemPoolTrimTo(pool_, 0), "cudaMemPoolTrimTo"); }
  void* allocate_host(std::size_t bytes) override {
    void* p = nullptr;
    const cudaError_t e = cudaMallocHost(&p, bytes ? bytes : 1);
    if (e != cudaSuccess) {
      static_cast<void>(cudaGetLastError());
      throw out_of_memory(
          "", "cannot allocate " + std::to_string(bytes) + " bytes of page-locked host memory");
    }
    return p;
  }
  void deallocate_host(void* p) noexcept override { static_cast<void>(cudaFreeHost(p)); }

  cudaStream_t stream() const { return stream_; }
  int multiprocessors() const { return props_.multiProcessorCount; }
  std::size_t shared_per_block_optin() const { return gpu::shared_per_block_optin(props_); }
  // Kernel names have static storage (literals or kernel_type_name's cache): keep the pointer,
  // no copy on the launch path.
  void note_kernel(const char* k) { last_kernel_.store(k, std::memory_order_relaxed); }
  /// The kernel launched last (noted by after_launch), "" before the first.
  const char* last_kernel() const { return last_kernel_.load(std::memory_order_relaxed); }
  gpu::reduction_pool& reductions() { return reductions_; }
  int device() const { return device_; }
  /// The driver's cuLaunchKernel (CUDA; nullptr on backends that launch with <<<...>>>).
  driver_launch_fn driver_launch() const { return launch_; }
  /// The driver's cuLaunchKernelEx (as driver_launch).
  driver_launch_ex_fn driver_launch_ex() const { return launch_ex_; }
  /// Whether kernels whose code allows it launch as programmatic dependent launches.
  bool dependent_launch() const { return dependent_; }

  void check(cudaError_t e, const char* call) const {
    if (e == cudaSuccess) return;
    static_cast<void>(cudaGetLastError());
    if (e == cudaErrorMemoryAllocation) throw out_of_memory(last_kernel(), cuda_message(call, e));
    throw device_error(last_kernel(), cuda_message(call, e));
  }

 private:
  int device_ = 0;
  cudaDeviceProp props_{};
  cudaStream_t stream_ = nullptr;
  cudaMemPool_t pool_ = nullptr;
  std::unique_ptr<gpu::transfer_engine> engine_;
  gpu::reduction_pool reductions_;
  // Atomic: host threads launching at once note their kernels here while others read it for
  // their messages (a plain pointer would be a data race).
  std::atomic<const char*> last_kernel_{""};
  const char* current_kernel_ = "";
  driver_launch_fn launch_ = nullptr;
  driver_launch_ex_fn launch_ex_ = nullptr;
  bool dependent_ = false;
};

gpu_device& the_device() {
  // Throws backend_error (and retries next time) without a GPU. Never destroyed, as the
  // residency table (environment.cpp): objects with static storage duration made before it may
  // give their device memory back at exit.
  static gpu_device* d = new gpu_device;
  return *d;
}

}  // namespace

device_runtime& device_runtime_instance() {
  return the_device();
}

namespace gpu {

cudaStream_t stream() {
  return the_device().stream();
}
int multiprocessors() {
  return the_device().multiprocessors();
}

void range_push(const char* name) {
  profiler_push(name);
}
void range_pop() {
  profiler_pop();
}

void after_launch(const char* kernel) {
  gpu_device& d = the_device();
  const char* previous = d.last_kernel();
  d.note_kernel(kernel);
  const cudaError_t e = cudaGetLastError();
  if (e == cudaSuccess) return;
  if (e == cudaErrorInvalidConfiguration || e == cudaErrorInvalidValue ||
      e == cudaErrorLaunchOutOfResources)
    throw launch_error(kernel, cuda_message("kernel launch", e));
  // Execution faults are asynchronous and sticky: one from an earlier kernel (e.g. a trapped
  // bounds check in a launch on resident data, which copies nothing back) surfaces here.
  std::string msg = cuda_message("kernel launch", e) + fault_hint(e);
  if (*previous)
    msg += " (the fault may come from the previous kernel, '" + std::string(previous) + "')";
  throw device_error(kernel, msg);
}

#if FERRY_GPU_DRIVER_LAUNCH
bool dependent_launch_enabled() {
  return the_device().dependent_launch();
}

cudaFunction_t kernel_handle(const void* stub, const char* kernel, bool& dependent) {
  gpu_device& d = the_device();
  cudaFunction_t f = nullptr;
  const cudaError_t e = cudaGetFuncBySymbol(&f, stub);
  if (e != cudaSuccess) {
    static_cast<void>(cudaGetLastError());
    // No image of the kernel for this device (a fat binary without its architecture), or a
    // sticky fault of an earlier kernel.
    if (e == cudaErrorInvalidDeviceFunction || e == cudaErrorNoKernelImageForDevice ||
        e == cudaErrorSymbolNotFound)
      throw launch_error(kernel, cuda_message("cudaGetFuncBySymbol", e) +
                                     "; the build has no code for this device (" + d.description() +
                                     "): add its architecture to "
                                     "CMAKE_CUDA_ARCHITECTURES");
    throw device_error(kernel, cuda_message("cudaGetFuncBySymbol", e) + fault_hint(e));
  }
  dependent = false;
  if (d.dependent_launch()) {
    // The wait in grid_dependency_prologue exists only in device code compiled for a virtual
    // architecture of 9.0 or later: PTX of an older one, compiled for this device when the
    // module loads, holds none, and such a kernel must not start before its predecessor ends.
    cudaFuncAttributes a{};
    if (cudaFuncGetAttributes(&a, stub) == cudaSuccess)
      dependent = a.ptxVersion >= 90;
    else
      static_cast<void>(cudaGetLastError());
  }
  return f;
}

namespace {
/// The refused call and the driver result's name and text, e.g. "cuLaunchKernelEx failed:
/// CUDA_ERROR_INVALID_VALUE (invalid argument)".
std::string driver_message(const char* call, CUresult r) {
  static const auto name =
      reinterpret_cast<PFN_cuGetErrorName_v6000>(driver_entry("cuGetErrorName"));
  static const auto text =
      reinterpret_cast<PFN_cuGetErrorString_v6000>(driver_entry("cuGetErrorString"));
  const char* n = "unknown CUresult";
  const char* t = "no description";
  static_cast<void>(name(r, &n));
  static_cast<void>(text(r, &t));
  return std::string(call) + " failed: " + n + " (" + t + ")";
}

/// Throws the error of a launch the driver refused through `call` (cuLaunchKernel or
/// cuLaunchKernelEx; cold: runs only after a failure).
[[noreturn]] void launch_failed(const char* call, const char* kernel, const char* previous,
                                CUresult r) {
  if (r == CUDA_ERROR_INVALID_VALUE || r == CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES ||
      r == CUDA_ERROR_INVALID_HANDLE)
    throw launch_error(kernel, driver_message(call, r));
  // Execution faults are asynchronous and sticky: one of an earlier kernel (e.g. a trapped
  // bounds check in a launch on resident data, which copies nothing back) surfaces here. The
  // driver's codes of these faults are the runtime's (cuda.h and driver_types.h give both 700,
  // 715 and 719).
  std::string msg = driver_message(call, r) + fault_hint(static_cast<cudaError_t>(r));
  if (*previous)
    msg += " (the fault may come from the previous kernel, '" + std::string(previous) + "')";
  throw device_error(kernel, msg);
}
}  // namespace

void launch_handle(cudaFunction_t f, bool dependent, const char* kernel, dim3 grid, dim3 block,
                   unsigned shared, cudaStream_t st, void** params) {
  gpu_device& d = the_device();
  const char* previous = d.last_kernel();
  d.note_kernel(kernel);
  const auto launch = [&] {
    if (!dependent)
      return d.driver_launch()(f, grid.x, grid.y, grid.z, block.x, block.y, block.z, shared, st,
                               params, nullptr);
    // Programmatic stream serialization: the kernel may be placed on the multiprocessors once
    // every block of the kernel before it has exited, before that kernel has completed; its
    // prologue (griddepcontrol.wait) then waits for it to complete.
    CUlaunchAttribute attr{};
    attr.id = CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION;
    attr.value.programmaticStreamSerializationAllowed = 1;
    CUlaunchConfig c{};
    c.gridDimX = grid.x;
    c.gridDimY = grid.y;
    c.gridDimZ = grid.z;
    c.blockDimX = block.x;
    c.blockDimY = block.y;
    c.blockDimZ = block.z;
    c.sharedMemBytes = shared;
    c.hStream = st;
    c.attrs = &attr;
    c.numAttrs = 1;
    return d.driver_launch_ex()(&c, f, params, nullptr);
  };
  CUresult r = launch();
  if (r == CUDA_SUCCESS) [[likely]]
    return;
  if (r == CUDA_ERROR_INVALID_CONTEXT) {
    // A host thread that has made no runtime call yet (its launches found everything resident)
    // has no current context: the runtime makes the device's primary context current, as its
    // own launch would have.
    if (cudaSetDevice(d.device()) == cudaSuccess) r = launch();
    if (r == CUDA_SUCCESS) return;
  }
  launch_failed(dependent ? "cuLaunchKernelEx" : "cuLaunchKernel", kernel, previous, r);
}
#endif

reduction_scratch& acquire_reduction_scratch(std::size_t device_bytes, std::size_t host_bytes,
                                             const char* kernel) {
  gpu_device& d = the_device();
  return d.reductions().acquire(d, device_bytes, host_bytes, kernel);
}

void release_reduction_scratch(reduction_scratch& s) noexcept {
  the_device().reductions().release(s);
}

void read_reduction_result(reduction_scratch& s, const void* dev, std::size_t n,
                           const char* kernel) {
  gpu_device& d = the_device();
  const auto t0 = std::chrono::steady_clock::now();
  cudaError_t e = cudaMemcpyAsync(s.host, dev, n, cudaMemcpyDeviceToHost, d.stream());
  if (e == cudaSuccess) e = cudaStreamSynchronize(d.stream());
  if (e != cudaSuccess) {
    static_cast<void>(cudaGetLastError());
    throw device_error(kernel, cuda_message("reduction read-back", e) + fault_hint(e));
  }
  // The time includes the wait for the kernel: the copy cannot start before it ends.
  record_transfer(false, n,
                  std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(),
                  kernel);
}

std::size_t max_block_shared_bytes() {
  return the_device().shared_per_block_optin();
}

void allow_dynamic_shared(const void* f, std::size_t bytes, const char* kernel) {
  const cudaError_t e =
      cudaFuncSetAttribute(f, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(bytes));
  if (e != cudaSuccess) {
    static_cast<void>(cudaGetLastError());
    throw launch_error(kernel, cuda_message("cudaFuncSetAttribute (dynamic shared memory)", e));
  }
}

}  // namespace gpu
}  // namespace ferry::detail
