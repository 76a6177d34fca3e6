// ferry: the llvm_offload backend's runtime, on LLVM's offload API (liboffload: OffloadAPI.h,
// libLLVMOffload): the device images of the program, device selection, one in-order queue,
// a caching device-memory pool, copies, page-locked host memory, the reduction scratch of the
// shared launch path (ferry/backend/gpu/launch.hpp), and the entry points that clang's
// -foffload-via-llvm code calls (image registration and kernel launches, below).
//
// Compiled as a device source (ferry_device_sources): it holds one small kernel, the probe that
// tells which device image runs (NVIDIA or AMD) and its warp width.
//
// Ordering: every launch, copy and fill goes on one in-order queue of the device, so each runs
// after everything issued before it, as on the cuda backend's stream. Launches and fills return
// at once; a copy to the host waits for the queue (and so for the kernels before it); a copy
// from the host waits too, so that the caller may change or free its memory on return;
// synchronize() waits for the queue. A kernel that fails (a trapped bounds check) fails the wait
// that follows it: liboffload reports the driver's error, and ferry throws device_error naming
// the last kernel, as the cuda backend does. (On AMD GPUs, LLVM 22's AMDGPU plug-in itself ends
// the process when a kernel traps, before ferry can report it.)
//
// libomptarget (LLVM's OpenMP offload runtime, which clang's driver links into every
// -foffload-via-llvm program) is not used: this file defines every function the compiler's code
// calls, and the link drops the library (--as-needed, cmake/FerryDevice.cmake).
#include <OffloadAPI.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "../gpu/reduction_pool.hpp"
#include "ferry/backend/device.hpp"
#include FERRY_DEVICE_INTRINSICS_HEADER
#include "ferry/backend/gpu/scratch.hpp"
#include "ferry/backend/llvm_offload/backend.hpp"
#include "ferry/core/error.hpp"
#include "ferry/data/environment.hpp"
#include "ferry/data/runtime.hpp"

// --- image registration ------------------------------------------------------------------------
//
// The code that clang-linker-wrapper adds to a -foffload-via-llvm program registers its device
// images at start-up: a global constructor calls __tgt_register_lib with a descriptor of every
// image (one per architecture) and of the program's offload entries, and __tgt_unregister_lib at
// exit. The layouts are LLVM 22's __tgt_bin_desc, __tgt_device_image (offload/include/Shared/
// APITypes.h) and its entry record llvm::offloading::EntryTy (llvm/Frontend/Offloading/
// Utility.h, the format since LLVM 20). Checked against what clang 22 emits: a program that
// defines these two functions and prints what it receives saw, for sm_90 + gfx90a, 2 images, each
// a plain ELF file (machine 190, EM_CUDA; machine 224, EM_AMDGPU), both pointing at the host's
// entry table; one entry per kernel (size 0, its address the kernel's host stub: the `func` that
// llvmLaunchKernel receives, its name the kernel's symbol in the images) and per __device__
// variable (size: its bytes), each 56 bytes apart, version 1, kind 1.
namespace {

/// One offload entry (llvm::offloading::EntryTy).
struct offload_entry {
  std::uint64_t reserved;  ///< always 0
  std::uint16_t version;   ///< 1
  std::uint16_t kind;      ///< the consumer (1: OpenMP, which -foffload-via-llvm uses)
  std::uint32_t flags;
  void* address;            ///< host address: a kernel's host stub, or a variable's host copy
  const char* symbol_name;  ///< the symbol in the device images
  std::uint64_t size;       ///< 0 for a kernel, the bytes of a variable
  std::uint64_t data;
  void* aux_address;
};
static_assert(sizeof(offload_entry) == 56);
static_assert(offsetof(offload_entry, address) == 16);
static_assert(offsetof(offload_entry, symbol_name) == 24);
static_assert(offsetof(offload_entry, size) == 32);

/// One device image (__tgt_device_image): [image_start, image_end) is the image file.
struct device_image {
  const void* image_start;
  const void* image_end;
  offload_entry* entries_begin;
  offload_entry* entries_end;
};
static_assert(sizeof(device_image) == 32);

/// What a program registers (__tgt_bin_desc).
struct binary_descriptor {
  std::int32_t image_count;
  device_image* images;
  offload_entry* host_entries_begin;
  offload_entry* host_entries_end;
};
static_assert(offsetof(binary_descriptor, images) == 8);
static_assert(sizeof(binary_descriptor) == 32);

/// Descriptors registered: one per program or shared library built with -foffload-via-llvm.
/// Constant-initialised, because registration runs in global constructors, before any other
/// static object of this file may be constructed.
constexpr int max_descriptors = 64;
constinit std::array<const binary_descriptor*, max_descriptors> g_descriptors{};
constinit int g_descriptor_count = 0;
constinit bool g_descriptor_overflow = false;
constinit std::mutex g_descriptor_mutex;

}  // namespace

/// Called by the program's registration code (a global constructor) with its device images;
/// keeps the descriptor until the first device use loads the images.
extern "C" void __tgt_register_lib(binary_descriptor* desc) {
  std::lock_guard lock(g_descriptor_mutex);
  if (g_descriptor_count == max_descriptors) {
    g_descriptor_overflow = true;  // reported when the device is first used
    return;
  }
  g_descriptors[g_descriptor_count++] = desc;
}

/// Called at exit (or when a shared library is unloaded): forgets the descriptor. Programs
/// already loaded on the device stay there until the process ends.
extern "C" void __tgt_unregister_lib(binary_descriptor* desc) {
  std::lock_guard lock(g_descriptor_mutex);
  for (int i = 0; i < g_descriptor_count; ++i)
    if (g_descriptors[i] == desc) {
      g_descriptors[i] = g_descriptors[--g_descriptor_count];
      g_descriptors[g_descriptor_count] = nullptr;
      return;
    }
}

namespace ferry::detail {

offload_registration offload_registered() {
  std::lock_guard lock(g_descriptor_mutex);
  offload_registration r;
  r.descriptors = g_descriptor_count;
  for (int d = 0; d < g_descriptor_count; ++d) {
    const binary_descriptor& desc = *g_descriptors[d];
    for (int i = 0; i < desc.image_count; ++i) {
      const auto* b = static_cast<const unsigned char*>(desc.images[i].image_start);
      const auto* e = static_cast<const unsigned char*>(desc.images[i].image_end);
      unsigned machine = 0;  // ELF header: magic at 0, e_machine (16 bits) at 18
      if (e - b >= 20 && b[0] == 0x7f && b[1] == 'E' && b[2] == 'L' && b[3] == 'F') {
        std::uint16_t m = 0;
        std::memcpy(&m, b + 18, sizeof m);
        machine = m;
      }
      r.image_machines.push_back(machine);
    }
    for (const offload_entry* e = desc.host_entries_begin; e != desc.host_entries_end; ++e)
      if (e->size == 0) ++r.kernels;
  }
  return r;
}

const char* offload_kernel_symbol(const void* stub) {
  std::lock_guard lock(g_descriptor_mutex);
  for (int d = 0; d < g_descriptor_count; ++d)
    for (const offload_entry* e = g_descriptors[d]->host_entries_begin;
         e != g_descriptors[d]->host_entries_end; ++e)
      if (e->size == 0 && e->address == stub) return e->symbol_name;
  return nullptr;
}

}  // namespace ferry::detail

// --- the device, its queue and its kernels
// ---------------------------------------------------------
namespace ferry::detail {
namespace {

/// liboffload's error details ("" on success).
std::string describe(ol_result_t r) {
  if (r == nullptr) return "";
  std::string s = "error " + std::to_string(static_cast<int>(r->Code));
  if (r->Details != nullptr && *r->Details) s += ": " + std::string(r->Details);
  return s;
}

/// "<call> failed (LLVM offload: <details>)".
std::string offload_message(const char* call, ol_result_t r) {
  return std::string(call) + " failed (LLVM offload " + describe(r) + ")";
}

/// Appended to a failed wait: a failed view bounds check traps (view.hpp), which the driver
/// reports as a failed kernel, after the thread printed the index and extent (device printf,
/// on stdout). The device does not know the kernel's name, so the host error names it.
constexpr const char* fault_hint =
    "; a failed ferry bounds check in device code (an index outside a view, view2d, view3d or "
    "atomic_add target) ends a kernel this way, as does a read through a read-only view far "
    "outside it";

/// One kernel of the registered images: its host stub (the key), its name, the program that
/// holds it, and its liboffload handle, looked up on first launch.
struct kernel_slot {
  const void* stub;
  const char* name;
  ol_program_handle_t program;
  std::atomic<ol_symbol_handle_t> symbol{nullptr};
};

/// LLVM's offload runtime as ferry uses it: the first GPU it lists, the host device (the other
/// end of copies), one queue, the programs made from the registered images and their kernels.
/// Created on first device use; lives as long as the process (never destroyed: the queue and
/// programs stay valid for work still in flight at exit).
class offload_context {
 public:
  /// The context; throws backend_error when the runtime finds no GPU or the program holds no
  /// image for it (and tries again on the next call).
  static offload_context& get() {
    static offload_context* c = new offload_context();  // a failed construction retries
    return *c;
  }

  ol_device_handle_t device() const { return device_; }
  ol_device_handle_t host() const { return host_; }
  ol_queue_handle_t queue() const { return queue_; }
  /// Serialises every call that issues work on or waits for the queue (liboffload's queue
  /// object is not made for concurrent use by several host threads).
  std::mutex& queue_mutex() { return queue_mutex_; }
  ol_platform_backend_t platform() const { return platform_; }
  const std::string& product() const { return product_; }
  const std::string& arch() const { return arch_; }
  unsigned compute_units() const { return compute_units_; }
  int gpu_count() const { return gpus_; }

  /// The kernel whose host stub is `stub`, looked up in its program on first use; nullptr with
  /// `why` set when no registered image holds it.
  ol_symbol_handle_t kernel(const void* stub, std::string& why) {
    auto it = std::lower_bound(kernels_.begin(), kernels_.end(), stub,
                               [](const kernel_slot& k, const void* s) { return k.stub < s; });
    if (it == kernels_.end() || it->stub != stub) {
      why = "the function launched is no kernel of this program's device images";
      return nullptr;
    }
    ol_symbol_handle_t sym = it->symbol.load(std::memory_order_acquire);
    if (sym != nullptr) return sym;
    const ol_result_t r = olGetSymbol(it->program, it->name, OL_SYMBOL_KIND_KERNEL, &sym);
    if (r != nullptr) {
      why = offload_message((std::string("olGetSymbol(") + it->name + ")").c_str(), r);
      return nullptr;
    }
    it->symbol.store(sym, std::memory_order_release);  // two threads may both look it up: same
    return sym;
  }

 private:
  offload_context() {
    if (const ol_result_t r = olInit(); r != nullptr)
      throw backend_error("",
                          "this build's backend is llvm_offload but LLVM's offload runtime "
                          "does not start (" +
                              offload_message("olInit", r) + ")");
    find_devices();
    if (device_ == nullptr)
      throw backend_error(
          "",
          "this build's backend is llvm_offload but LLVM's offload runtime finds no device "
          "(no GPU among the devices olIterateDevices lists; its plug-ins need the GPU "
          "driver: libcuda for NVIDIA, libhsa-runtime64 for AMD). Set "
          "FERRY_BACKEND=openmp (or serial) to run on the host");
    if (host_ == nullptr)
      throw backend_error("", "llvm_offload: LLVM's offload runtime lists no host device");
    describe_device();
    load_programs();
    if (const ol_result_t r = olCreateQueue(device_, &queue_); r != nullptr)
      throw backend_error("", "llvm_offload: " + offload_message("olCreateQueue", r));
  }

  /// The first GPU that olIterateDevices lists (the runtime lists each plug-in's devices in
  /// turn, then the host device) and the host device.
  void find_devices() {
    struct found {
      ol_device_handle_t gpu = nullptr;
      ol_device_handle_t host = nullptr;
      int gpus = 0;
    } f;
    const ol_result_t r = olIterateDevices(
        [](ol_device_handle_t d, void* user) {
          auto& f = *static_cast<found*>(user);
          ol_device_type_t type{};
          if (olGetDeviceInfo(d, OL_DEVICE_INFO_TYPE, sizeof type, &type) != nullptr) return true;
          if (type == OL_DEVICE_TYPE_HOST) {
            if (f.host == nullptr) f.host = d;
          } else if (type == OL_DEVICE_TYPE_GPU) {
            if (f.gpu == nullptr) f.gpu = d;
            ++f.gpus;
          }
          return true;
        },
        &f);
    if (r != nullptr)
      throw backend_error("", "llvm_offload: " + offload_message("olIterateDevices", r));
    device_ = f.gpu;
    host_ = f.host;
    gpus_ = f.gpus;
  }

  static std::string info_string(ol_device_handle_t d, ol_device_info_t what) {
    std::size_t n = 0;
    if (olGetDeviceInfoSize(d, what, &n) != nullptr || n == 0) return "";
    std::string s(n, '\0');
    if (olGetDeviceInfo(d, what, n, s.data()) != nullptr) return "";
    s.resize(std::strlen(s.c_str()));
    return s;
  }

  void describe_device() {
    product_ = info_string(device_, OL_DEVICE_INFO_PRODUCT_NAME);
    arch_ = info_string(device_, OL_DEVICE_INFO_NAME);
    std::uint32_t units = 0;
    if (olGetDeviceInfo(device_, OL_DEVICE_INFO_NUM_COMPUTE_UNITS, sizeof units, &units) == nullptr)
      compute_units_ = units;
    ol_platform_handle_t p = nullptr;
    if (olGetDeviceInfo(device_, OL_DEVICE_INFO_PLATFORM, sizeof p, &p) == nullptr && p != nullptr)
      static_cast<void>(
          olGetPlatformInfo(p, OL_PLATFORM_INFO_BACKEND, sizeof platform_, &platform_));
  }

  /// For every registered descriptor: the first image the device can run becomes a program, and
  /// each kernel entry (size 0) a slot, sorted by host stub for the launch's lookup.
  void load_programs() {
    std::lock_guard lock(g_descriptor_mutex);
    if (g_descriptor_overflow)
      throw backend_error("", "llvm_offload: more than " + std::to_string(max_descriptors) +
                                  " libraries registered device images");
    struct found {
      const void* stub;
      const char* name;
      ol_program_handle_t program;
    };
    std::vector<found> found_kernels;
    std::string rejected;
    for (int d = 0; d < g_descriptor_count; ++d) {
      const binary_descriptor& desc = *g_descriptors[d];
      ol_program_handle_t program = nullptr;
      for (int i = 0; i < desc.image_count && program == nullptr; ++i) {
        const device_image& im = desc.images[i];
        const auto size = static_cast<std::size_t>(static_cast<const char*>(im.image_end) -
                                                   static_cast<const char*>(im.image_start));
        bool valid = false;
        if (olIsValidBinary(device_, im.image_start, size, &valid) != nullptr || !valid) continue;
        if (const ol_result_t r = olCreateProgram(device_, im.image_start, size, &program);
            r != nullptr) {
          rejected += " " + offload_message("olCreateProgram", r);
          program = nullptr;
        }
      }
      if (program == nullptr)
        throw backend_error(
            "", "llvm_offload: none of the " + std::to_string(desc.image_count) +
                    " device images of this program runs on the GPU found (" +
                    (arch_.empty() ? product_ : arch_) +
                    "); rebuild with its architecture in FERRY_LLVM_OFFLOAD_ARCHITECTURES." +
                    rejected);
      programs_.push_back(program);
      for (const offload_entry* e = desc.host_entries_begin; e != desc.host_entries_end; ++e)
        if (e->size == 0 && e->address != nullptr && e->symbol_name != nullptr)
          found_kernels.push_back({e->address, e->symbol_name, program});
    }
    // Sorted by stub, for the launch's binary search. (A template kernel instantiated in several
    // sources has one stub and one entry in the linked program.)
    std::sort(found_kernels.begin(), found_kernels.end(),
              [](const found& a, const found& b) { return a.stub < b.stub; });
    kernels_ = std::vector<kernel_slot>(found_kernels.size());  // slots hold atomics: not moved
    for (std::size_t i = 0; i < found_kernels.size(); ++i) {
      kernels_[i].stub = found_kernels[i].stub;
      kernels_[i].name = found_kernels[i].name;
      kernels_[i].program = found_kernels[i].program;
    }
  }

  ol_device_handle_t device_ = nullptr;
  ol_device_handle_t host_ = nullptr;
  ol_queue_handle_t queue_ = nullptr;
  std::mutex queue_mutex_;
  int gpus_ = 0;
  ol_platform_backend_t platform_ = OL_PLATFORM_BACKEND_UNKNOWN;
  std::string product_, arch_;
  unsigned compute_units_ = 0;
  std::vector<ol_program_handle_t> programs_;
  std::vector<kernel_slot> kernels_;
};

/// Outcome of the calling thread's last launch: 0 and "" when it was issued.
thread_local unsigned g_launch_status = 0;
thread_local std::string g_launch_message;
/// Whether the last failure was the launch's configuration (sizes, arguments) rather than the
/// device (a fault of an earlier kernel also fails the next launch).
thread_local bool g_launch_config_error = false;

/// The call configuration of the <<<...>>> launch being made by this thread (clang's code
/// pushes it before calling the kernel's host stub, which pops it). Plain fields, so that the
/// thread-local needs no initialisation at run time.
struct call_configuration {
  unsigned grid[3];
  unsigned block[3];
  std::size_t shared;
  void* stream;
};
thread_local call_configuration g_call_configuration{};

/// Whether this thread has made a call that makes the device's driver context current on it.
/// liboffload's CUDA plug-in makes its context current in its memory and copy calls but not in
/// a launch, and a thread whose first call is a launch (resident data, launched from a new host
/// thread) would launch with no current context. One page-locked allocation of one byte (and its
/// free), the first time a thread launches, makes the context current on it.
thread_local bool g_thread_has_context = false;

void make_context_current(const offload_context& c) {
  if (g_thread_has_context) return;
  void* p = nullptr;
  if (olMemAlloc(c.device(), OL_ALLOC_TYPE_HOST, 1, &p) == nullptr && p != nullptr)
    static_cast<void>(olMemFree(p));
  g_thread_has_context = true;
}

}  // namespace
}  // namespace ferry::detail

/// The first half of a <<<grid, block, shared, stream>>> launch (clang's code calls it before
/// the kernel's host stub): keeps the configuration for the stub. Returns 0.
extern "C" unsigned __llvmPushCallConfiguration(dim3 grid, dim3 block, std::size_t shared,
                                                void* stream) {
  ferry::detail::g_call_configuration = {
      {grid.x, grid.y, grid.z}, {block.x, block.y, block.z}, shared, stream};
  return 0;
}

/// The second half (called by the kernel's host stub): hands the configuration back. Returns 0.
extern "C" unsigned __llvmPopCallConfiguration(dim3* grid, dim3* block, std::size_t* shared,
                                               void** stream) {
  const auto& c = ferry::detail::g_call_configuration;
  grid->x = c.grid[0];
  grid->y = c.grid[1];
  grid->z = c.grid[2];
  block->x = c.block[0];
  block->y = c.block[1];
  block->z = c.block[2];
  *shared = c.shared;
  *stream = c.stream;
  return 0;
}

/// The launch entry point of -foffload-via-llvm kernel launches (called by each kernel's host
/// stub): issues kernel `func` on ferry's queue with the grid and block extents (an extent of 0,
/// which the runtime's one-extent dim3 leaves in y and z, counts as 1) and `shared` bytes of
/// dynamic shared memory, and returns without waiting; 0 when issued. `args` points at clang's
/// packed arguments: { size_t size; void* data; void** pointers; }, `size` bytes at `data`
/// laid out as the kernel's parameters (LLVM's KernelLaunchParamsTy), which liboffload passes to
/// the driver as they are. `stream` is ignored: every launch goes on ferry's queue. A failure is
/// kept for gpu::after_launch (the thread's last launch status).
extern "C" unsigned llvmLaunchKernel(const void* func, dim3 grid, dim3 block, void** args,
                                     std::size_t shared, void* stream) {
  using namespace ferry::detail;
  (void)stream;
  struct packed_arguments {
    std::size_t size;
    void* data;
    void** pointers;
  };
  static_assert(sizeof(packed_arguments) == 24);
  g_launch_status = 0;
  g_launch_config_error = false;
  offload_context* c = nullptr;
  try {
    c = &offload_context::get();
  } catch (const std::exception& e) {
    g_launch_status = 1;
    g_launch_message = e.what();
    return g_launch_status;
  }
  make_context_current(*c);
  std::string why;
  const ol_symbol_handle_t kernel = c->kernel(func, why);
  if (kernel == nullptr) {
    g_launch_status = 1;
    g_launch_config_error = true;
    g_launch_message = why;
    return g_launch_status;
  }
  const auto* a = reinterpret_cast<const packed_arguments*>(args);
  ol_kernel_launch_size_args_t sizes{};
  sizes.Dimensions = 3;
  sizes.NumGroups = {grid.x, grid.y ? grid.y : 1, grid.z ? grid.z : 1};
  sizes.GroupSize = {block.x, block.y ? block.y : 1, block.z ? block.z : 1};
  sizes.DynSharedMemory = shared;
  ol_result_t r;
  {
    std::lock_guard lock(c->queue_mutex());
    r = olLaunchKernel(c->queue(), c->device(), kernel, a->data, a->size, &sizes);
  }
  if (r != nullptr) {
    g_launch_status = static_cast<unsigned>(r->Code) ? static_cast<unsigned>(r->Code) : 1u;
    // Sizes or arguments the device refuses (as the cuda backend's invalid configuration and
    // out-of-resources launch errors); anything else is the device's (a sticky fault).
    g_launch_config_error = r->Code == OL_ERRC_INVALID_ARGUMENT ||
                            r->Code == OL_ERRC_INVALID_SIZE || r->Code == OL_ERRC_INVALID_VALUE ||
                            r->Code == OL_ERRC_OUT_OF_RESOURCES;
    g_launch_message = offload_message("olLaunchKernel", r);
  }
  return g_launch_status;
}

namespace ferry::detail {
namespace gpu {

/// What the probe kernel reports: which image runs and its warp width.
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

/// Multiprocessors assumed where neither the runtime (device info) nor the probe kernel reports
/// them: 110, the compute units of one MI250X die. Used only to cap reduction grids, which are
/// correct with any grid.
constexpr unsigned default_multiprocessors = 110;

/// Block-shared memory a block may use, in bytes: 48 KiB, the most every device of both images
/// gives without an opt-in (CUDA's static limit; AMD gfx90a has 64 KiB of LDS per work-group).
constexpr std::size_t block_shared_limit = 48 * 1024;

}  // namespace
}  // namespace gpu

namespace {

class offload_device final : public device_runtime {
 public:
  offload_device() : ctx_(offload_context::get()) { probe(); }

  const char* name() const override { return "llvm_offload"; }
  std::string description() const override {
    std::string d = ctx_.platform() == OL_PLATFORM_BACKEND_CUDA     ? "NVIDIA GPU"
                    : ctx_.platform() == OL_PLATFORM_BACKEND_AMDGPU ? "AMD GPU"
                                                                    : "GPU";
    if (!ctx_.product().empty()) d += " " + ctx_.product();
    std::string image;
    if (probe_.vendor == 1)
      image = "sm_" + std::to_string(probe_.arch / 10) + " image";
    else if (probe_.vendor == 2)
      image = "gfx image, wave" + std::to_string(probe_.warp_size);
    else
      image = "unknown image";
    if (!ctx_.arch().empty() && ctx_.arch() != ctx_.product()) image = ctx_.arch() + ", " + image;
    return d + " (" + image + ", " + std::to_string(multiprocessors()) +
           " compute units) through LLVM offload (liboffload), GPU 0 of " +
           std::to_string(ctx_.gpu_count());
  }

  // A pool: freed blocks are kept by size (rounded up to 256 bytes) and handed out again, since
  // olMemAlloc and olMemFree are driver calls that a launch on fresh data would otherwise pay
  // each time. A block given back may still be in use by work on the queue; whoever takes it
  // next uses it through the same in-order queue, after that work.
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
    void* raw = nullptr;
    ol_result_t r =
        olMemAlloc(ctx_.device(), OL_ALLOC_TYPE_DEVICE, size + allocation_alignment, &raw);
    if (r != nullptr && cached_bytes() > 0) {
      release_cached();
      r = olMemAlloc(ctx_.device(), OL_ALLOC_TYPE_DEVICE, size + allocation_alignment, &raw);
    }
    if (r != nullptr || raw == nullptr)
      throw out_of_memory(last_kernel(), "cannot allocate " + std::to_string(bytes) +
                                             " bytes of device memory (" +
                                             offload_message("olMemAlloc", r) + ")");
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
  // Waits: the caller may change or free `host` on return.
  void copy_to_device(void* dev, const void* host, std::size_t n) override {
    if (n == 0) return;
    ol_result_t r;
    {
      std::lock_guard lock(ctx_.queue_mutex());
      r = olMemcpy(ctx_.queue(), dev, ctx_.device(), host, ctx_.host(), n);
      if (r == nullptr) r = olSyncQueue(ctx_.queue());
    }
    if (r != nullptr) fail("host-to-device copy", r);
  }
  void copy_to_host(void* host, const void* dev, std::size_t n) override {
    if (n == 0) return;
    ol_result_t r;
    {
      std::lock_guard lock(ctx_.queue_mutex());
      r = olMemcpy(ctx_.queue(), host, ctx_.host(), dev, ctx_.device(), n);
      if (r == nullptr) r = olSyncQueue(ctx_.queue());
    }
    if (r != nullptr) fail("device-to-host copy", r);
  }
  // On the queue, without waiting. The pattern is read from a table that lives as long as the
  // program, so the fill may read it after this call returns.
  void fill(void* dev, int byte, std::size_t n) override {
    if (n == 0) return;
    static constexpr auto patterns = [] {
      std::array<unsigned char, 256> t{};
      for (int i = 0; i < 256; ++i) t[i] = static_cast<unsigned char>(i);
      return t;
    }();
    ol_result_t r;
    {
      std::lock_guard lock(ctx_.queue_mutex());
      r = olMemFill(ctx_.queue(), dev, 1, &patterns[static_cast<unsigned char>(byte)], n);
    }
    if (r != nullptr) throw device_error(last_kernel(), offload_message("olMemFill", r));
  }
  void synchronize(const char* kernel) override {
    ol_result_t r;
    {
      std::lock_guard lock(ctx_.queue_mutex());
      r = olSyncQueue(ctx_.queue());
    }
    if (r != nullptr)
      throw device_error(*last_kernel() ? last_kernel() : kernel,
                         offload_message("olSyncQueue", r) + " while waiting for kernel '" +
                             last_kernel() + "'" + fault_hint);
  }
  // Waits for the queue first: a cached block may still be in use by work on it. The queue stays
  // locked until the blocks are freed: a block another thread gives back after the wait (its
  // kernel issued before the wait, which waited for it) is idle, but one given back after work
  // issued later would not be, so no work may be issued between the wait and the frees.
  void release_cached() override {
    std::lock_guard queue_lock(ctx_.queue_mutex());
    static_cast<void>(olSyncQueue(ctx_.queue()));  // a fault surfaces at the next wait again
    std::lock_guard lock(mutex_);
    for (auto& [size, p] : free_) {
      auto it = live_.find(p);
      if (it == live_.end()) continue;
      static_cast<void>(olMemFree(it->second.raw));
      live_.erase(it);
    }
    free_.clear();
    cached_bytes_ = 0;
  }
  void* allocate_host(std::size_t bytes) override {
    void* p = nullptr;
    if (olMemAlloc(ctx_.device(), OL_ALLOC_TYPE_HOST, bytes ? bytes : 1, &p) != nullptr)
      p = nullptr;
    if (p == nullptr || reinterpret_cast<std::uintptr_t>(p) % allocation_alignment != 0) {
      if (p) static_cast<void>(olMemFree(p));
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
        static_cast<void>(olMemFree(p));
        return;
      }
    }
    device_runtime::deallocate_host(p);
  }

  unsigned multiprocessors() const {
    if (ctx_.compute_units() > 0) return ctx_.compute_units();
    return probe_.sm_count > 0 ? probe_.sm_count : gpu::default_multiprocessors;
  }
  // Kernel names have static storage (literals or kernel_type_name's cache): keep the pointer.
  void note_kernel(const char* k) { last_kernel_.store(k, std::memory_order_relaxed); }
  /// The kernel launched last (noted by after_launch), "" before the first.
  const char* last_kernel() const { return last_kernel_.load(std::memory_order_relaxed); }
  gpu::reduction_pool& reductions() { return reductions_; }

  /// A failed copy (or the wait in it): an earlier kernel's fault surfaces at the first wait
  /// after it, so the error names the last kernel.
  [[noreturn]] void fail(const char* what, ol_result_t r) const {
    throw device_error(last_kernel(), offload_message(what, r) + " (after kernel '" +
                                          last_kernel() + "')" +
                                          (*last_kernel() ? fault_hint : ""));
  }

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
  /// Runs the probe kernel: proves that the image the runtime chose runs, and tells which.
  void probe() {
    void* d = nullptr;
    if (const ol_result_t r =
            olMemAlloc(ctx_.device(), OL_ALLOC_TYPE_DEVICE, sizeof(gpu::probe_result), &d);
        r != nullptr)
      throw backend_error("", "llvm_offload: " + offload_message("olMemAlloc (device probe)", r));
    gpu::probe_kernel<0><<<1, 1>>>(static_cast<gpu::probe_result*>(d));
    std::string why;
    if (g_launch_status != 0) why = g_launch_message;
    if (why.empty()) {
      std::lock_guard lock(ctx_.queue_mutex());
      ol_result_t r = olMemcpy(ctx_.queue(), &probe_, ctx_.host(), d, ctx_.device(), sizeof probe_);
      if (r == nullptr) r = olSyncQueue(ctx_.queue());
      if (r != nullptr) why = offload_message("probe read-back", r);
    }
    static_cast<void>(olMemFree(d));
    if (!why.empty())
      throw backend_error("", "llvm_offload: the device probe kernel did not run (" + why + ")");
  }

  offload_context& ctx_;
  gpu::probe_result probe_{};
  std::mutex mutex_;
  std::unordered_map<void*, block> live_;   // every block from olMemAlloc, by user address
  std::multimap<std::size_t, void*> free_;  // cached blocks by rounded size
  std::size_t cached_bytes_ = 0;
  std::unordered_set<void*> pinned_;  // page-locked blocks from olMemAlloc (host)
  gpu::reduction_pool reductions_;
  // Atomic: host threads launching at once note their kernels here while others read it for
  // their messages (a plain pointer would be a data race).
  std::atomic<const char*> last_kernel_{""};
};

offload_device& the_device() {
  // Throws backend_error (and retries next time) without a device. Never destroyed, as the
  // residency table (environment.cpp): objects with static storage duration made before it may
  // give their device memory back at exit (they would lock a destroyed mutex and search a
  // destroyed map).
  static offload_device* d = new offload_device;
  return *d;
}

}  // namespace

device_runtime& device_runtime_instance() {
  return the_device();
}

namespace gpu {

cudaStream_t stream() {
  return nullptr;  // unused: llvmLaunchKernel issues every launch on ferry's queue
}
int multiprocessors() {
  return static_cast<int>(the_device().multiprocessors());
}

void after_launch(const char* kernel) {
  offload_device& d = the_device();
  const char* previous = d.last_kernel();
  d.note_kernel(kernel);
  if (g_launch_status == 0) return;
  if (g_launch_config_error) throw launch_error(kernel, g_launch_message);
  // A fault of an earlier kernel (e.g. a trapped bounds check in a launch on resident data,
  // which copies nothing back) also fails the launches after it.
  std::string msg = g_launch_message;
  if (*previous)
    msg += " (the fault may come from the previous kernel, '" + std::string(previous) + "')";
  throw device_error(kernel, msg);
}

reduction_scratch& acquire_reduction_scratch(std::size_t device_bytes, std::size_t host_bytes,
                                             const char* kernel) {
  offload_device& d = the_device();
  return d.reductions().acquire(d, device_bytes, host_bytes, kernel);
}

void release_reduction_scratch(reduction_scratch& s) noexcept {
  the_device().reductions().release(s);
}

void read_reduction_result(reduction_scratch& s, const void* dev, std::size_t n,
                           const char* kernel) {
  offload_device& d = the_device();
  offload_context& c = offload_context::get();
  const auto t0 = std::chrono::steady_clock::now();
  ol_result_t r;
  {
    std::lock_guard lock(c.queue_mutex());
    r = olMemcpy(c.queue(), s.host, c.host(), dev, c.device(), n);
    if (r == nullptr) r = olSyncQueue(c.queue());
  }
  if (r != nullptr)
    throw device_error(kernel, offload_message("reduction read-back", r) + fault_hint);
  static_cast<void>(d);
  // The time includes the wait for the kernel: the copy cannot start before it ends.
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
