// ferry: the CUDA host<->device transfer engine (see include/ferry/backend/cuda/transfer.hpp).
#include "ferry/backend/cuda/transfer.hpp"

#include "ferry/core/error.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#if !defined(__CUDA_ARCH__) && (defined(__x86_64__) || defined(_M_X64))
#include <emmintrin.h>
#define FERRY_TRANSFER_SSE2 1
#else
#define FERRY_TRANSFER_SSE2 0
#endif

#if defined(_OPENMP) && !defined(__CUDA_ARCH__)
#include <omp.h>
#define FERRY_TRANSFER_OPENMP 1
#else
#define FERRY_TRANSFER_OPENMP 0
#endif

namespace ferry::cuda_detail {

namespace {

constexpr std::size_t kib = std::size_t{1} << 10;
constexpr std::size_t mib = std::size_t{1} << 20;

// Chunks are rounded to 64 KiB so that every thread's slice starts on a page and the DMA
// descriptors stay large.
constexpr std::size_t chunk_granule = 64 * kib;
// Thread slices are rounded to pages (no two threads write one cache line or page) and are at
// least this large: below it, waking another thread costs more than the copy it would take over.
constexpr std::size_t slice_granule = 4 * kib;
constexpr std::size_t min_slice_bytes = 64 * kib;
// How long an idle pool worker spins before it sleeps. Between two chunks of one transfer the
// workers wait for about one chunk's DMA (tens to hundreds of microseconds); a futex wake-up costs
// 5-20 us per thread, so they spin through that gap and sleep only once a transfer has ended.
constexpr auto worker_spin_time = std::chrono::microseconds(1000);

/// Throws ferry::device_error naming `call` unless `status` is cudaSuccess.
void check(cudaError_t status, const char* call) {
  if (status != cudaSuccess) {
    throw device_error("", std::string(call) + " failed: " + cudaGetErrorName(status) + ": " +
                               cudaGetErrorString(status));
  }
}

constexpr std::size_t round_up(std::size_t value, std::size_t granule) {
  return (value + granule - 1) / granule * granule;
}

/// Tells the processor this is a spin-wait loop (saves power, frees the sibling hyper-thread).
inline void cpu_relax() {
#if FERRY_TRANSFER_SSE2
  _mm_pause();
#endif
}

/// Copies with non-temporal stores so that the destination does not displace the cache and is
/// not read for ownership first: a plain store of a line not in cache reads it from memory, which
/// adds a third memory pass to the two a copy needs.
void streaming_copy(void* dst, const void* src, std::size_t bytes) {
#if FERRY_TRANSFER_SSE2
  auto* d = static_cast<char*>(dst);
  const auto* s = static_cast<const char*>(src);
  std::size_t head = (16 - (reinterpret_cast<std::uintptr_t>(d) & 15)) & 15;
  head = std::min(head, bytes);
  std::memcpy(d, s, head);
  d += head;
  s += head;
  bytes -= head;
  const std::size_t lines = bytes / 64;
  for (std::size_t i = 0; i < lines; ++i) {
    const __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s));
    const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s + 16));
    const __m128i c = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s + 32));
    const __m128i e = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s + 48));
    _mm_stream_si128(reinterpret_cast<__m128i*>(d), a);
    _mm_stream_si128(reinterpret_cast<__m128i*>(d + 16), b);
    _mm_stream_si128(reinterpret_cast<__m128i*>(d + 32), c);
    _mm_stream_si128(reinterpret_cast<__m128i*>(d + 48), e);
    d += 64;
    s += 64;
  }
  std::memcpy(d, s, bytes - lines * 64);
  // Non-temporal stores are weakly ordered: fence them before the slice is reported done.
  _mm_sfence();
#else
  std::memcpy(dst, src, bytes);
#endif
}

void copy_bytes(void* dst, const void* src, std::size_t bytes, host_copy_kind kind) {
  if (kind == host_copy_kind::streaming) {
    streaming_copy(dst, src, bytes);
  } else {
    std::memcpy(dst, src, bytes);
  }
}

/// Where slice `index` of `count` of a `bytes`-byte copy starts (page-rounded, clamped).
std::size_t slice_begin(std::size_t bytes, std::size_t count, std::size_t index) {
  const std::size_t slice = round_up((bytes + count - 1) / count, slice_granule);
  return std::min(bytes, slice * index);
}

/// How many threads a `bytes`-byte copy is worth, at most `threads`.
std::size_t slices_for(std::size_t bytes, unsigned threads) {
  return std::clamp<std::size_t>(bytes / min_slice_bytes, 1, threads);
}

/// A fixed set of worker threads that split one memcpy at a time with the calling thread.
///
/// One job at a time (the engine's mutex guarantees it). The caller publishes the job and bumps
/// `generation_`; each worker copies its slice and decrements `pending_`; the caller copies
/// slice 0 and spins until `pending_` is zero. Workers spin for worker_spin_time after a job,
/// then sleep in std::atomic::wait (a futex on Linux).
class copy_pool {
 public:
  /// `threads` counts the caller: threads - 1 workers are started.
  explicit copy_pool(unsigned threads) : threads_(threads) {
    workers_.reserve(threads - 1);
    // Each worker starts from the generation of now: a job published before the thread first
    // runs must still count as new to it.
    const std::uint32_t start = generation_.load(std::memory_order_relaxed);
    for (unsigned i = 1; i < threads; ++i) {
      workers_.emplace_back([this, i, start] { work(i, start); });
    }
  }

  ~copy_pool() {
    stop_.store(true, std::memory_order_relaxed);
    generation_.fetch_add(1, std::memory_order_release);
    generation_.notify_all();
    for (auto& worker : workers_) worker.join();
  }

  copy_pool(const copy_pool&) = delete;
  copy_pool& operator=(const copy_pool&) = delete;

  /// Copies `bytes` bytes with all threads; returns when every slice is done.
  void copy(void* dst, const void* src, std::size_t bytes, host_copy_kind kind) {
    const std::size_t slices = slices_for(bytes, threads_);
    if (slices == 1) {
      copy_bytes(dst, src, bytes, kind);
      return;
    }
    dst_ = static_cast<char*>(dst);
    src_ = static_cast<const char*>(src);
    bytes_ = bytes;
    slices_ = slices;
    kind_ = kind;
    pending_.store(threads_ - 1, std::memory_order_relaxed);
    generation_.fetch_add(1, std::memory_order_release);
    generation_.notify_all();
    run_slice(0);
    while (pending_.load(std::memory_order_acquire) != 0) cpu_relax();
  }

 private:
  void run_slice(std::size_t index) const {
    if (index >= slices_) return;
    const std::size_t begin = slice_begin(bytes_, slices_, index);
    const std::size_t end = slice_begin(bytes_, slices_, index + 1);
    if (end > begin) copy_bytes(dst_ + begin, src_ + begin, end - begin, kind_);
  }

  void work(unsigned index, std::uint32_t seen) {
    for (;;) {
      auto spin_start = std::chrono::steady_clock::now();
      unsigned spins = 0;
      std::uint32_t now = 0;
      while ((now = generation_.load(std::memory_order_acquire)) == seen) {
        if (++spins % 256 == 0 &&
            std::chrono::steady_clock::now() - spin_start > worker_spin_time) {
          generation_.wait(seen, std::memory_order_acquire);
          spin_start = std::chrono::steady_clock::now();
        }
        cpu_relax();
      }
      seen = now;
      if (stop_.load(std::memory_order_relaxed)) return;
      run_slice(index);
      pending_.fetch_sub(1, std::memory_order_release);
    }
  }

  unsigned threads_;
  std::vector<std::thread> workers_;
  // The job; written by the caller before the release increment of generation_.
  char* dst_ = nullptr;
  const char* src_ = nullptr;
  std::size_t bytes_ = 0;
  std::size_t slices_ = 0;
  host_copy_kind kind_ = host_copy_kind::memcpy;
  alignas(64) std::atomic<std::uint32_t> generation_{0};
  alignas(64) std::atomic<unsigned> pending_{0};
  std::atomic<bool> stop_{false};
};

/// Makes `device` current for a scope and restores the previous device.
class device_guard {
 public:
  explicit device_guard(int device) {
    check(cudaGetDevice(&previous_), "cudaGetDevice");
    if (previous_ != device) check(cudaSetDevice(device), "cudaSetDevice");
  }
  ~device_guard() {
    int current = previous_;
    if (cudaGetDevice(&current) == cudaSuccess && current != previous_) {
      static_cast<void>(cudaSetDevice(previous_));
    }
  }
  device_guard(const device_guard&) = delete;
  device_guard& operator=(const device_guard&) = delete;

 private:
  int previous_ = 0;
};

/// The CUDA memory type of `ptr`; pointers CUDA does not know are "unregistered".
cudaMemoryType memory_type(const void* ptr) {
  cudaPointerAttributes attributes{};
  if (cudaPointerGetAttributes(&attributes, ptr) != cudaSuccess) {
    // Older drivers report plain host pointers as an error; clear it and treat them as pageable.
    static_cast<void>(cudaGetLastError());
    return cudaMemoryTypeUnregistered;
  }
  return attributes.type;
}

}  // namespace

// --- defaults ----------------------------------------------------------------------------------

transfer_config transfer_config::defaults() {
  // Measured on H200 (PCIe 5.0 x16, 16-core Xeon VM), perf/results/transfer-h200.csv; the
  // reasoning is in perf/NOTES.md, "Transfers". Pinned cudaMemcpy there: 55 GB/s.
  transfer_config config{};
  // Sections "sweep" and "variant": 8 MiB chunks with 16 threads had the best worst case over
  // 256 MiB and 1 GiB in both directions (48.8-53.2 GB/s); 16 MiB chunks were equal (kept 8: half
  // the pinned memory); chunks of 2 MiB and less reached at most 33 GB/s at any thread count.
  config.chunk_bytes = 8 * mib;
  // Section "sweep", 8 MiB transfers: 1 MiB chunks beat one 8 MiB chunk (worst
  // direction 22.5 against 18.7 GB/s).
  config.min_chunk_bytes = 1 * mib;
  // Section "sweep", 64 MiB transfers: 8 MiB chunks (42 / 49 GB/s H2D / D2H) were best, so a
  // transfer is cut into 8 chunks until they reach min_chunk_bytes.
  config.target_chunks = 8;
  // Section "variant": 2 buffers lost a third (27-37 GB/s), 3 lost 4-7%; 4, 6 and 8 were equal.
  config.num_buffers = 4;
  // Section "sweep": 16 threads beat 8 and 12 for D2H (49-53 against 30-44 GB/s at >= 256 MiB),
  // whose host side writes pageable memory; capped at the hardware threads below.
  config.num_threads = 16;
  // Section "threshold": staging was faster than the driver's pageable path at every size
  // measured, from 64 KiB (3.8 against 2.1 GB/s) up; below 64 KiB (unmeasured) the driver's
  // path is kept.
  config.direct_threshold_bytes = 64 * kib;
  // Section "variant": non-temporal stores lost 8-16% at 1 GiB (44.7 against 53.1 GB/s H2D);
  // OpenMP equalled the pool within noise, and the pool does not depend on the caller's
  // OpenMP state (nested regions, OMP_NUM_THREADS).
  config.copy_kind = host_copy_kind::memcpy;
  config.executor = host_copy_executor::thread_pool;
  const unsigned hardware = std::thread::hardware_concurrency();
  if (hardware != 0) config.num_threads = std::min(config.num_threads, hardware);
  return config;
}

// --- the engine ----------------------------------------------------------------------------------

struct transfer_engine::impl {
  transfer_config config;
  int device = 0;

  std::mutex mutex;  // guards everything below
  char* ring = nullptr;
  std::vector<cudaEvent_t> events;  // events[b]: the last DMA that used ring buffer b
  std::unique_ptr<copy_pool> pool;
  unsigned next_buffer = 0;  // ring buffers are used round-robin across calls

  char* buffer(unsigned b) const { return ring + std::size_t{b} * config.chunk_bytes; }

  /// Allocates the ring, its events and the threads on the first staged transfer.
  void ensure_ready() {
    if (ring != nullptr) return;
    void* memory = nullptr;
    check(cudaHostAlloc(&memory, std::size_t{config.num_buffers} * config.chunk_bytes,
                        cudaHostAllocPortable),
          "cudaHostAlloc (transfer staging ring)");
    try {
      events.resize(config.num_buffers, nullptr);
      for (auto& event : events) {
        check(cudaEventCreateWithFlags(&event, cudaEventDisableTiming), "cudaEventCreate");
      }
      if (config.num_threads > 1 && !use_openmp()) {
        pool = std::make_unique<copy_pool>(config.num_threads);
      }
    } catch (...) {
      release_events();
      static_cast<void>(cudaFreeHost(memory));
      throw;
    }
    ring = static_cast<char*>(memory);
  }

  bool use_openmp() const {
    return FERRY_TRANSFER_OPENMP != 0 && config.executor == host_copy_executor::openmp;
  }

  void release_events() {
    for (auto& event : events) {
      if (event != nullptr) static_cast<void>(cudaEventDestroy(event));
    }
    events.clear();
  }

  /// Host copy of one chunk, split over the configured threads.
  void parallel_copy(void* dst, const void* src, std::size_t bytes) {
    const host_copy_kind kind = config.copy_kind;
#if FERRY_TRANSFER_OPENMP
    if (use_openmp()) {
      const std::size_t slices = slices_for(bytes, config.num_threads);
      auto* d = static_cast<char*>(dst);
      const auto* s = static_cast<const char*>(src);
      const int team = static_cast<int>(slices);
#pragma omp parallel for num_threads(team) schedule(static, 1)
      for (int i = 0; i < team; ++i) {
        const std::size_t begin = slice_begin(bytes, slices, static_cast<std::size_t>(i));
        const std::size_t end = slice_begin(bytes, slices, static_cast<std::size_t>(i) + 1);
        if (end > begin) copy_bytes(d + begin, s + begin, end - begin, kind);
      }
      return;
    }
#endif
    if (pool) {
      pool->copy(dst, src, bytes, kind);
    } else {
      copy_bytes(dst, src, bytes, kind);
    }
  }

  void staged_h2d(char* dev_dst, const char* host_src, std::size_t bytes, std::size_t chunk,
                  cudaStream_t stream) {
    for (std::size_t offset = 0; offset < bytes; offset += chunk) {
      const std::size_t length = std::min(chunk, bytes - offset);
      const unsigned b = next_buffer;
      next_buffer = (next_buffer + 1) % config.num_buffers;
      // The buffer's previous DMA (this call or an earlier one, any stream) must have read it.
      check(cudaEventSynchronize(events[b]), "cudaEventSynchronize (staging buffer free)");
      parallel_copy(buffer(b), host_src + offset, length);
      check(cudaMemcpyAsync(dev_dst + offset, buffer(b), length, cudaMemcpyHostToDevice, stream),
            "cudaMemcpyAsync (staged H2D chunk)");
      check(cudaEventRecord(events[b], stream), "cudaEventRecord (staged H2D chunk)");
    }
  }

  void staged_d2h(char* host_dst, const char* dev_src, std::size_t bytes, std::size_t chunk,
                  cudaStream_t stream) {
    const std::size_t chunks = (bytes + chunk - 1) / chunk;
    const unsigned first = next_buffer;
    auto buffer_of = [&](std::size_t k) {
      return static_cast<unsigned>((first + k) % config.num_buffers);
    };
    auto issue = [&](std::size_t k) {
      const unsigned b = buffer_of(k);
      const std::size_t offset = k * chunk;
      const std::size_t length = std::min(chunk, bytes - offset);
      // An earlier H2D on another stream may still be reading this buffer.
      check(cudaStreamWaitEvent(stream, events[b], 0), "cudaStreamWaitEvent (staging buffer)");
      check(cudaMemcpyAsync(buffer(b), dev_src + offset, length, cudaMemcpyDeviceToHost, stream),
            "cudaMemcpyAsync (staged D2H chunk)");
      check(cudaEventRecord(events[b], stream), "cudaEventRecord (staged D2H chunk)");
    };
    const std::size_t ahead = std::min<std::size_t>(config.num_buffers, chunks);
    for (std::size_t k = 0; k < ahead; ++k) issue(k);
    for (std::size_t k = 0; k < chunks; ++k) {
      const unsigned b = buffer_of(k);
      const std::size_t offset = k * chunk;
      const std::size_t length = std::min(chunk, bytes - offset);
      check(cudaEventSynchronize(events[b]), "cudaEventSynchronize (staged D2H chunk)");
      parallel_copy(host_dst + offset, buffer(b), length);
      if (k + config.num_buffers < chunks) issue(k + config.num_buffers);
    }
    next_buffer = buffer_of(chunks);
  }

  ~impl() {
    if (ring != nullptr) {
      // DMAs of an h2d that has returned may still read the ring: wait for them.
      for (auto& event : events) static_cast<void>(cudaEventSynchronize(event));
      release_events();
      static_cast<void>(cudaFreeHost(ring));
    }
  }
};

transfer_engine::transfer_engine(transfer_config config, int device)
    : impl_(std::make_unique<impl>()) {
  if (config.chunk_bytes == 0 || config.num_buffers == 0 || config.num_threads == 0 ||
      config.target_chunks == 0 || config.min_chunk_bytes > config.chunk_bytes) {
    throw error("",
                "transfer_engine: invalid transfer_config (chunk_bytes, num_buffers, "
                "num_threads and target_chunks must be non-zero, min_chunk_bytes <= "
                "chunk_bytes)");
  }
  if (device < 0) check(cudaGetDevice(&device), "cudaGetDevice");
  impl_->config = config;
  impl_->device = device;
}

transfer_engine::~transfer_engine() = default;

const transfer_config& transfer_engine::config() const noexcept {
  return impl_->config;
}

int transfer_engine::device() const noexcept {
  return impl_->device;
}

std::size_t transfer_engine::pinned_bytes() const noexcept {
  std::lock_guard lock(impl_->mutex);
  return impl_->ring == nullptr
             ? 0
             : std::size_t{impl_->config.num_buffers} * impl_->config.chunk_bytes;
}

std::size_t transfer_engine::chunk_for(std::size_t bytes) const noexcept {
  const transfer_config& c = impl_->config;
  const std::size_t even = round_up((bytes + c.target_chunks - 1) / c.target_chunks, chunk_granule);
  return std::clamp(even, std::max<std::size_t>(c.min_chunk_bytes, 1), c.chunk_bytes);
}

transfer_route transfer_engine::route(const void* host_ptr, std::size_t bytes) const {
  if (bytes == 0) return transfer_route::direct_pageable;
  const cudaMemoryType first = memory_type(host_ptr);
  if (first != cudaMemoryTypeUnregistered) {
    const cudaMemoryType last = memory_type(static_cast<const char*>(host_ptr) + bytes - 1);
    if (last == first) return transfer_route::direct_pinned;
  }
  return bytes < impl_->config.direct_threshold_bytes ? transfer_route::direct_pageable
                                                      : transfer_route::staged;
}

void transfer_engine::h2d(void* dev_dst, const void* host_src, std::size_t bytes,
                          cudaStream_t stream) {
  if (bytes == 0) return;
  if (dev_dst == nullptr || host_src == nullptr) {
    throw error("", "transfer_engine::h2d: null pointer with a non-zero size");
  }
  switch (route(host_src, bytes)) {
    case transfer_route::direct_pinned:
      // cudaMemcpyDefault also covers managed or device memory passed as the source.
      check(cudaMemcpyAsync(dev_dst, host_src, bytes, cudaMemcpyDefault, stream),
            "cudaMemcpyAsync (pinned H2D)");
      // The caller may reuse host_src on return, and the DMA reads it directly.
      check(cudaStreamSynchronize(stream), "cudaStreamSynchronize (pinned H2D)");
      return;
    case transfer_route::direct_pageable:
      // From pageable memory the runtime copies the source into its own staging memory before
      // returning (CUDA Runtime API, "API synchronization behavior"), so no wait is needed.
      check(cudaMemcpyAsync(dev_dst, host_src, bytes, cudaMemcpyHostToDevice, stream),
            "cudaMemcpyAsync (pageable H2D)");
      return;
    case transfer_route::staged:
      break;
  }
  impl& self = *impl_;
  std::lock_guard lock(self.mutex);
  device_guard guard(self.device);
  self.ensure_ready();
  self.staged_h2d(static_cast<char*>(dev_dst), static_cast<const char*>(host_src), bytes,
                  chunk_for(bytes), stream);
}

void transfer_engine::d2h(void* host_dst, const void* dev_src, std::size_t bytes,
                          cudaStream_t stream) {
  if (bytes == 0) return;
  if (host_dst == nullptr || dev_src == nullptr) {
    throw error("", "transfer_engine::d2h: null pointer with a non-zero size");
  }
  switch (route(host_dst, bytes)) {
    case transfer_route::direct_pinned:
      check(cudaMemcpyAsync(host_dst, dev_src, bytes, cudaMemcpyDefault, stream),
            "cudaMemcpyAsync (pinned D2H)");
      check(cudaStreamSynchronize(stream), "cudaStreamSynchronize (pinned D2H)");
      return;
    case transfer_route::direct_pageable:
      check(cudaMemcpyAsync(host_dst, dev_src, bytes, cudaMemcpyDeviceToHost, stream),
            "cudaMemcpyAsync (pageable D2H)");
      check(cudaStreamSynchronize(stream), "cudaStreamSynchronize (pageable D2H)");
      return;
    case transfer_route::staged:
      break;
  }
  impl& self = *impl_;
  std::lock_guard lock(self.mutex);
  device_guard guard(self.device);
  self.ensure_ready();
  self.staged_d2h(static_cast<char*>(host_dst), static_cast<const char*>(dev_src), bytes,
                  chunk_for(bytes), stream);
}

}  // namespace ferry::cuda_detail
