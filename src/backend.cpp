// ferry: backend selection (FERRY_BACKEND), descriptions, and the checked backend's
// host-emulated device.
#include "ferry/core/backend.hpp"

#include <omp.h>

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <mutex>
#include <optional>
#include <string>

#include "ferry/backend/device.hpp"
#include "ferry/core/config.hpp"
#include "ferry/core/error.hpp"
#include "ferry/data/environment.hpp"

namespace ferry {
namespace detail {
#if FERRY_HAS_DEVICE_BACKEND
/// The device backend's runtime (its compiled part, e.g. src/backend/gpu/runtime.cpp); throws
/// backend_error without a device.
device_runtime& device_runtime_instance();
#endif

namespace {

/// The checked backend's device: host memory that is *not* the host data, so every mapping
/// rule (copy in, copy back, write-only, residency) is exercised exactly as on a GPU.
///
/// Its allocator is a checking one: every block is aligned to allocation_alignment (256, as
/// CUDA's) and preceded by a header holding a magic number and the block's size, so
/// outstanding bytes and blocks are counted exactly (tests assert zero after each test: a leak
/// on any error path shows) and a double or foreign free aborts instead of corrupting the heap.
/// Faults can be injected into allocations and copies (checked_inject_failure) to test the error
/// paths.
class checked_device final : public device_runtime {
 public:
  const char* name() const override { return "checked"; }
  std::string description() const override { return "host-emulated device (separate host memory)"; }
  void* allocate(std::size_t bytes) override {
    if (trip(fail_alloc_))
      throw out_of_memory(
          "", "checked backend: injected allocation failure (" + std::to_string(bytes) + " bytes)");
    return take(bytes, "device memory");
  }
  void deallocate(void* p, std::size_t) noexcept override { give(p); }
  void copy_to_device(void* dev, const void* host, std::size_t n) override {
    if (trip(fail_copy_))
      throw device_error("", "checked backend: injected host->device copy failure");
    std::memcpy(dev, host, n);
  }
  void copy_to_host(void* host, const void* dev, std::size_t n) override {
    if (trip(fail_copy_))
      throw device_error("", "checked backend: injected device->host copy failure");
    std::memcpy(host, dev, n);
  }
  void fill(void* dev, int byte, std::size_t n) override { std::memset(dev, byte, n); }
  void synchronize(const char*) override {}
  void* allocate_host(std::size_t bytes) override { return take(bytes, "host memory"); }
  void deallocate_host(void* p) noexcept override { give(p); }

  std::size_t outstanding_bytes() const { return bytes_.load(std::memory_order_relaxed); }
  std::size_t outstanding_blocks() const { return blocks_.load(std::memory_order_relaxed); }
  void inject(checked_fault kind, int after) {
    (kind == checked_fault::allocation ? fail_alloc_ : fail_copy_)
        .store(after, std::memory_order_relaxed);
  }

 private:
  static constexpr std::size_t header = allocation_alignment;  // keeps the block aligned
  static constexpr std::uint64_t magic = 0xfe77'5afe'b10c'0001ull;
  struct block_header {
    std::uint64_t magic;
    std::size_t bytes;
  };

  /// Counts down an armed fault; true when it fires.
  static bool trip(std::atomic<int>& countdown) {
    int c = countdown.load(std::memory_order_relaxed);
    while (c > 0)
      if (countdown.compare_exchange_weak(c, c - 1, std::memory_order_relaxed)) return c == 1;
    return false;
  }
  void* take(std::size_t bytes, const char* what) {
    const std::size_t a = allocation_alignment;
    const std::size_t rounded = bytes > SIZE_MAX - 2 * a ? 0 : (bytes + a - 1) / a * a;
    void* raw = rounded || bytes == 0 ? std::aligned_alloc(a, header + rounded) : nullptr;
    if (!raw)
      throw out_of_memory("", std::string("checked backend: cannot allocate ") +
                                  std::to_string(bytes) + " bytes of " + what);
    auto* h = static_cast<block_header*>(raw);
    h->magic = magic;
    h->bytes = bytes;
    bytes_.fetch_add(bytes, std::memory_order_relaxed);
    blocks_.fetch_add(1, std::memory_order_relaxed);
    return static_cast<std::byte*>(raw) + header;
  }
  void give(void* p) noexcept {
    if (!p) return;
    auto* h = reinterpret_cast<block_header*>(static_cast<std::byte*>(p) - header);
    if (h->magic != magic) {
      std::fprintf(stderr,
                   "ferry: checked backend: freeing %p, which is not a live block of its "
                   "allocator (double or foreign free)\n",
                   p);
      std::abort();
    }
    h->magic = 0;
    bytes_.fetch_sub(h->bytes, std::memory_order_relaxed);
    blocks_.fetch_sub(1, std::memory_order_relaxed);
    std::free(h);
  }
  std::atomic<std::size_t> bytes_{0};
  std::atomic<std::size_t> blocks_{0};
  std::atomic<int> fail_alloc_{0};
  std::atomic<int> fail_copy_{0};
};

/// Never destroyed, as the residency table (environment.cpp): objects with static storage
/// duration made before it may give their memory back at exit.
checked_device& the_checked_device() {
  static checked_device* d = new checked_device;
  return *d;
}

std::mutex g_mutex;
// Read on every launch: an atomic so the common path takes no lock (-1: not chosen yet).
std::atomic<int> g_backend{-1};

backend default_backend() {
#if FERRY_HAS_DEVICE_BACKEND
  return device_backend_id;
#else
  return backend::openmp;
#endif
}

/// Throws if b is not usable in this process.
void require_usable(backend b) {
  if (!backend_compiled(b))
    throw backend_error("", std::string("backend '") + to_string(b) +
                                "' is not compiled into this build (configure with "
                                "-DFERRY_DEVICE_BACKEND=" +
                                to_string(b) + "); host backends: serial, checked, openmp");
#if FERRY_HAS_DEVICE_BACKEND
  if (b == device_backend_id) (void)device_runtime_instance();  // throws without a device
#endif
}

/// The environment variable's value, or "" when unset.
std::string env_value(const char* name) {
  const char* v = std::getenv(name);
  return v ? std::string(v) : std::string();
}

/// The one-minute load average, or -1 where /proc/loadavg cannot be read.
double load_average_1min() {
  std::ifstream f("/proc/loadavg");
  double load = -1;
  if (!(f >> load)) return -1;
  return load;
}

std::string cpu_model() {
  std::ifstream f("/proc/cpuinfo");
  std::string line;
  while (std::getline(f, line))
    if (line.rfind("model name", 0) == 0) {
      auto p = line.find(':');
      if (p != std::string::npos) return line.substr(p + 2);
    }
  return "unknown CPU";
}

}  // namespace

device_runtime& checked_runtime() {
  return the_checked_device();
}

std::size_t checked_outstanding_bytes() {
  return the_checked_device().outstanding_bytes();
}

std::size_t checked_outstanding_allocations() {
  return the_checked_device().outstanding_blocks();
}

void checked_inject_failure(checked_fault kind, int after) {
  the_checked_device().inject(kind, after);
}

device_runtime* active_runtime() {
  return runtime_of(current_backend());
}

device_runtime* runtime_of(backend b) {
  switch (b) {
    case backend::serial:
    case backend::openmp:
      return nullptr;
    case backend::checked:
      return &checked_runtime();
    case backend::cuda:
    case backend::hip:
    case backend::llvm_offload:
#if FERRY_HAS_DEVICE_BACKEND
      if (current_backend() == device_backend_id) return &device_runtime_instance();
#endif
      break;
  }
  throw backend_error("", std::string("no runtime for backend '") + to_string(b) + "'");
}
}  // namespace detail

const char* to_string(backend b) {
  switch (b) {
    case backend::serial:
      return "serial";
    case backend::checked:
      return "checked";
    case backend::openmp:
      return "openmp";
    case backend::cuda:
      return "cuda";
    case backend::hip:
      return "hip";
    case backend::llvm_offload:
      return "llvm_offload";
  }
  return "?";
}

backend parse_backend(const std::string& name) {
  for (backend b : {backend::serial, backend::checked, backend::openmp, backend::cuda, backend::hip,
                    backend::llvm_offload})
    if (name == to_string(b)) return b;
  throw backend_error("", "unknown backend '" + name +
                              "' (valid: serial, checked, openmp, cuda, hip, llvm_offload)");
}

bool backend_compiled(backend b) {
  switch (b) {
    case backend::serial:
    case backend::checked:
    case backend::openmp:
      return true;
    case backend::cuda:
    case backend::hip:
    case backend::llvm_offload:
#if FERRY_HAS_DEVICE_BACKEND
      return b == detail::device_backend_id;
#else
      return false;
#endif
  }
  return false;
}

backend current_backend() {
  const int cached = detail::g_backend.load(std::memory_order_acquire);
  if (cached >= 0) return static_cast<backend>(cached);
  std::lock_guard lock(detail::g_mutex);
  if (detail::g_backend.load(std::memory_order_relaxed) < 0) {
    const char* env = std::getenv("FERRY_BACKEND");
    backend b = (env && *env) ? parse_backend(env) : detail::default_backend();
    detail::require_usable(b);
    detail::g_backend.store(static_cast<int>(b), std::memory_order_release);
  }
  return static_cast<backend>(detail::g_backend.load(std::memory_order_relaxed));
}

void set_backend(backend b) {
  detail::require_usable(b);
  std::lock_guard lock(detail::g_mutex);
  detail::g_backend.store(static_cast<int>(b), std::memory_order_release);
}

std::string backend_name() {
  return to_string(current_backend());
}

std::string device_description() {
  const backend b = current_backend();
  if (b == backend::openmp)
    return "host: " + detail::cpu_model() + ", " + std::to_string(omp_get_max_threads()) +
           " OpenMP threads";
  if (b == backend::serial) return "host: " + detail::cpu_model() + ", 1 thread";
  return detail::active_runtime()->description() + "; host: " + detail::cpu_model();
}

std::string openmp_wait_policy() {
  const std::string policy = detail::env_value("OMP_WAIT_POLICY");
  if (!policy.empty()) return "OMP_WAIT_POLICY=" + policy;
  std::string out = "runtime default: spin, then sleep (OMP_WAIT_POLICY not set";
  for (const char* tuning : {"GOMP_SPINCOUNT", "KMP_BLOCKTIME"}) {
    const std::string v = detail::env_value(tuning);
    if (!v.empty()) out += std::string(", ") + tuning + "=" + v;
  }
  return out + ")";
}

std::string host_oversubscription_warning() {
  // omp_get_num_procs: the hardware threads this process may run on (its CPU affinity mask).
  return detail::oversubscription_note(detail::load_average_1min(), omp_get_num_procs(),
                                       omp_get_max_threads(), openmp_wait_policy());
}

namespace detail {
std::string oversubscription_note(double load1, int hw_threads, int omp_threads,
                                  const std::string& policy) {
  if (load1 < 0 || hw_threads < 1) return "";
  if (load1 < 1.0 || load1 + omp_threads <= hw_threads) return "";
  char load_text[32];
  std::snprintf(load_text, sizeof load_text, "%.2f", load1);
  std::string note = std::string("the host looks oversubscribed: load average ") + load_text +
                     " (last minute) on " + std::to_string(hw_threads) +
                     " hardware threads, with " + std::to_string(omp_threads) + " OpenMP threads; ";
  const bool passive = policy.find("passive") != std::string::npos;
  if (passive)
    note += "threads wait passively (" + policy +
            "), but share cores with other work: timings are not those of an idle machine";
  else
    note += "spinning OpenMP threads (" + policy +
            ") take cores from threads with work and launch-heavy timings can swing by large "
            "factors: run on an idle machine, or set OMP_WAIT_POLICY=passive";
  return note;
}
}  // namespace detail

}  // namespace ferry
