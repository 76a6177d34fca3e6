// ferry: the GPU backends' host<->device transfer engine (see
// include/ferry/backend/gpu/transfer.hpp).
#include "ferry/backend/gpu/transfer.hpp"

#include "ferry/core/error.hpp"

#include <algorithm>
#include <atomic>
#include <bit>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <exception>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#if !FERRY_DEVICE_PASS && (defined(__x86_64__) || defined(_M_X64))
#include <emmintrin.h>
#define FERRY_TRANSFER_SSE2 1
#else
#define FERRY_TRANSFER_SSE2 0
#endif

#if defined(_OPENMP) && !FERRY_DEVICE_PASS
#include <omp.h>
#define FERRY_TRANSFER_OPENMP 1
#else
#define FERRY_TRANSFER_OPENMP 0
#endif

namespace ferry::detail::gpu {

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

/// A fixed set of worker threads that copy a queue of chunks, each split into page-rounded slices.
///
/// The caller submits chunks (tasks, numbered in order) and later waits for each. A worker claims
/// the next unclaimed slice of the oldest submitted task that has one (one compare-and-swap on
/// `claim_`), copies it and decrements the task's `remaining`; so a worker that finishes its
/// slice of chunk k goes straight on to chunk k+1 if it has been submitted, and nobody waits for
/// the slowest slice of a chunk except the caller, for the chunk whose DMA it is about to issue.
/// The caller helps with the slices of the task it waits for. At most `capacity` tasks may be
/// submitted and not yet waited for (the engine's ring buffers bound it). Idle workers spin for
/// worker_spin_time, then sleep in std::atomic::wait (a futex on Linux).
class copy_pool {
 public:
  /// `threads` counts the caller: threads - 1 workers are started.
  copy_pool(unsigned threads, std::size_t capacity)
      : threads_(threads),
        // A power of two, so that task % capacity_ stays continuous when the task number wraps.
        capacity_(std::bit_ceil(std::max<std::size_t>(capacity, 1))),
        slots_(std::make_unique<task_slot[]>(capacity_)) {
    workers_.reserve(threads - 1);
    for (unsigned i = 1; i < threads; ++i) workers_.emplace_back([this] { work(); });
  }

  ~copy_pool() {
    stop_.store(true, std::memory_order_relaxed);
    signal_.fetch_add(1, std::memory_order_release);
    signal_.notify_all();
    for (auto& worker : workers_) worker.join();
  }

  copy_pool(const copy_pool&) = delete;
  copy_pool& operator=(const copy_pool&) = delete;

  /// Queues a copy of `bytes` (> 0) bytes; returns its task number for wait().
  std::uint32_t submit(void* dst, const void* src, std::size_t bytes, host_copy_kind kind) {
    const std::uint32_t task = published_.load(std::memory_order_relaxed);
    task_slot& slot = slots_[task % capacity_];
    slot.dst = static_cast<char*>(dst);
    slot.src = static_cast<const char*>(src);
    slot.bytes = bytes;
    slot.kind = kind;
    const std::size_t slices = slices_for(bytes, threads_);
    slot.remaining.store(slices, std::memory_order_relaxed);
    slot.slices.store(slices, std::memory_order_relaxed);
    published_.store(task + 1, std::memory_order_release);
    signal_.fetch_add(1, std::memory_order_release);
    signal_.notify_all();  // no system call unless a worker sleeps
    return task;
  }

  /// Returns when task `task` is copied, copying its unclaimed slices meanwhile.
  void wait(std::uint32_t task) {
    const task_slot& slot = slots_[task % capacity_];
    while (slot.remaining.load(std::memory_order_acquire) != 0) {
      std::uint32_t claimed = 0;
      std::uint32_t slice = 0;
      if (!try_claim(claimed, slice, &task))
        cpu_relax();
      else
        run_slice(claimed, slice);
    }
  }

  /// Copies `bytes` bytes with all threads; returns when every slice is done.
  void copy(void* dst, const void* src, std::size_t bytes, host_copy_kind kind) {
    if (slices_for(bytes, threads_) == 1) {
      copy_bytes(dst, src, bytes, kind);
      return;
    }
    wait(submit(dst, src, bytes, kind));
  }

 private:
  struct task_slot {
    // Written by the caller before the release store of published_; read by claimers after an
    // acquire load that saw the task published. `slices` is atomic because a claimer holding a
    // stale claim_ value may read it while the slot is reused (its compare-and-swap then fails).
    char* dst = nullptr;
    const char* src = nullptr;
    std::size_t bytes = 0;
    host_copy_kind kind = host_copy_kind::memcpy;
    std::atomic<std::size_t> slices{0};
    alignas(64) std::atomic<std::size_t> remaining{0};
  };

  /// Claims the next slice of a published task (only of `*only` if given). claim_ holds
  /// (task << 32) | next slice; it never passes published_.
  bool try_claim(std::uint32_t& task, std::uint32_t& slice, const std::uint32_t* only) {
    std::uint64_t claim = claim_.load(std::memory_order_acquire);
    for (;;) {
      const auto t = static_cast<std::uint32_t>(claim >> 32);
      const auto s = static_cast<std::uint32_t>(claim);
      if (t == published_.load(std::memory_order_acquire)) return false;
      if (only != nullptr && t != *only) return false;
      const std::size_t slices = slots_[t % capacity_].slices.load(std::memory_order_relaxed);
      const std::uint64_t next_task = std::uint64_t{static_cast<std::uint32_t>(t + 1)} << 32;
      const std::uint64_t next = s + 1 < slices ? claim + 1 : next_task;
      if (s >= slices) {
        // Only with a stale value; the exchange fails and reloads it.
        claim_.compare_exchange_weak(claim, next_task, std::memory_order_acquire);
        continue;
      }
      if (claim_.compare_exchange_weak(claim, next, std::memory_order_acq_rel,
                                       std::memory_order_acquire)) {
        task = t;
        slice = s;
        return true;
      }
    }
  }

  void run_slice(std::uint32_t task, std::uint32_t index) {
    task_slot& slot = slots_[task % capacity_];
    const std::size_t slices = slot.slices.load(std::memory_order_relaxed);
    const std::size_t begin = slice_begin(slot.bytes, slices, index);
    const std::size_t end = slice_begin(slot.bytes, slices, index + std::size_t{1});
    if (end > begin) copy_bytes(slot.dst + begin, slot.src + begin, end - begin, slot.kind);
    slot.remaining.fetch_sub(1, std::memory_order_release);
  }

  void work() {
    for (;;) {
      const std::uint32_t seen = signal_.load(std::memory_order_acquire);
      if (stop_.load(std::memory_order_relaxed)) return;
      std::uint32_t task = 0;
      std::uint32_t slice = 0;
      if (try_claim(task, slice, nullptr)) {
        run_slice(task, slice);
        continue;
      }
      auto spin_start = std::chrono::steady_clock::now();
      unsigned spins = 0;
      while (signal_.load(std::memory_order_acquire) == seen) {
        if (++spins % 256 == 0 &&
            std::chrono::steady_clock::now() - spin_start > worker_spin_time) {
          signal_.wait(seen, std::memory_order_acquire);
          spin_start = std::chrono::steady_clock::now();
        }
        cpu_relax();
      }
    }
  }

  unsigned threads_;
  std::size_t capacity_;
  std::unique_ptr<task_slot[]> slots_;
  std::vector<std::thread> workers_;
  alignas(64) std::atomic<std::uint64_t> claim_{0};
  alignas(64) std::atomic<std::uint32_t> published_{0};  // tasks [0, published_) submitted
  alignas(64) std::atomic<std::uint32_t> signal_{0};     // bumped by submit and stop
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
  return memory_type_of(attributes);
}

/// The chunk sizes of a staged transfer; see transfer_engine::schedule and chunk_ramp.
std::size_t even_chunk(const transfer_config& c, std::size_t bytes) {
  const std::size_t even = round_up((bytes + c.target_chunks - 1) / c.target_chunks, chunk_granule);
  return std::clamp(even, std::max<std::size_t>(c.min_chunk_bytes, 1), c.chunk_bytes);
}

/// `bytes` cut into ceil(bytes / cap) chunks of equal, 64 KiB-rounded size (the last one shorter).
void append_even(std::vector<std::size_t>& out, std::size_t bytes, std::size_t cap) {
  if (bytes == 0) return;
  const std::size_t count = (bytes + cap - 1) / cap;
  const std::size_t size = std::min(cap, round_up((bytes + count - 1) / count, chunk_granule));
  for (std::size_t offset = 0; offset < bytes; offset += size) {
    out.push_back(std::min(size, bytes - offset));
  }
}

std::vector<std::size_t> schedule_of(const transfer_config& c, std::size_t bytes, bool to_device) {
  std::vector<std::size_t> out;
  if (bytes == 0) return out;
  const std::size_t cap = c.chunk_bytes;
  const std::size_t first =
      std::min(cap, round_up(std::max<std::size_t>(c.ramp_first_bytes, 1), chunk_granule));
  if (c.ramp == chunk_ramp::none || first >= cap) {
    const std::size_t size = c.ramp == chunk_ramp::none ? even_chunk(c, bytes) : cap;
    for (std::size_t offset = 0; offset < bytes; offset += size) {
      out.push_back(std::min(size, bytes - offset));
    }
    return out;
  }
  // Ramp chunks first, 2 first, 4 first, ... below cap, placed while the rest stays at least as
  // large as the next ramp chunk (at each end for `both`); the rest in even chunks of <= cap.
  const bool both = c.ramp == chunk_ramp::both;
  const std::size_t ends = both ? 2 : 1;
  std::vector<std::size_t> ramp;
  std::size_t rest = bytes;
  for (std::size_t size = first; size < cap && rest >= (ends + 1) * size; size *= 2) {
    ramp.push_back(size);
    rest -= ends * size;
  }
  out = ramp;
  append_even(out, rest, cap);
  if (both) {
    out.insert(out.end(), ramp.rbegin(), ramp.rend());
  } else if (!to_device) {
    std::reverse(out.begin(), out.end());  // D2H: the small chunks go last
  }
  return out;
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
  // Not measured yet; chosen from the model in perf/NOTES.md ("Transfers", "Chunk ramp and
  // run-ahead workers: prediction"), to be checked against the rows "engine_new" and "ramp_*" of
  // ferry-transfer-bench. The exposed stage of a transfer is one host copy at the host end (H2D:
  // the first, before any DMA; D2H: the last, after every DMA): with 8 MiB chunks it is
  // estimated at 150-400 us of a 1.2 ms (64 MiB) transfer, with a 1 MiB first chunk about 20 us
  // (section "threshold": a whole 1 MiB staged transfer, copy and DMA, takes 60 us).
  config.ramp = chunk_ramp::host_end;
  config.ramp_first_bytes = 1 * mib;
  // Not measured yet (same model): with one chunk at a time the 15 workers idle while the caller
  // waits for the last slice and makes 2-3 CUDA calls per chunk (5-15 us against a 1 MiB chunk's
  // 19 us DMA).
  config.run_ahead = true;
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
        pool = std::make_unique<copy_pool>(config.num_threads, config.num_buffers);
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

  /// The chunks of a staged transfer: (offset, length) pairs in order.
  struct chunk {
    std::size_t offset;
    std::size_t length;
  };

  std::vector<chunk> plan(std::size_t bytes, bool to_device) const {
    std::vector<chunk> chunks;
    std::size_t offset = 0;
    for (std::size_t length : schedule_of(config, bytes, to_device)) {
      chunks.push_back({offset, length});
      offset += length;
    }
    return chunks;
  }

  bool run_ahead() const {
    return pool != nullptr && config.run_ahead;
  }

  /// If a CUDA call throws while copies are queued, waits for them before the exception leaves
  /// (they read or write the caller's memory and the ring).
  struct drain_on_throw {
    copy_pool& pool;
    const std::vector<std::uint32_t>& task;
    const std::size_t& waited;
    const std::size_t& submitted;
    int exceptions = std::uncaught_exceptions();
    ~drain_on_throw() {
      if (std::uncaught_exceptions() == exceptions) return;
      for (std::size_t k = waited; k < submitted; ++k) pool.wait(task[k]);
    }
  };

  /// Event query that tells "not yet" from errors.
  static bool event_done(cudaEvent_t event, const char* call) {
    const cudaError_t status = cudaEventQuery(event);
    if (status == cudaErrorNotReady) return false;
    check(status, call);
    return true;
  }

  void staged_h2d(char* dev_dst, const char* host_src, const std::vector<chunk>& chunks,
                  cudaStream_t stream) {
    const std::size_t n = chunks.size();
    const unsigned first = next_buffer;
    auto buffer_of = [&](std::size_t k) {
      return static_cast<unsigned>((first + k) % config.num_buffers);
    };
    auto issue = [&](std::size_t k) {
      const unsigned b = buffer_of(k);
      check(cudaMemcpyAsync(dev_dst + chunks[k].offset, buffer(b), chunks[k].length,
                            cudaMemcpyHostToDevice, stream),
            "cudaMemcpyAsync (staged H2D chunk)");
      check(cudaEventRecord(events[b], stream), "cudaEventRecord (staged H2D chunk)");
    };
    next_buffer = buffer_of(n);
    if (!run_ahead()) {
      for (std::size_t k = 0; k < n; ++k) {
        // The buffer's previous DMA (this call or an earlier one, any stream) must have read it.
        check(cudaEventSynchronize(events[buffer_of(k)]),
              "cudaEventSynchronize (staging buffer free)");
        parallel_copy(buffer(buffer_of(k)), host_src + chunks[k].offset, chunks[k].length);
        issue(k);
      }
      return;
    }
    // Chunk k may be copied once the previous DMA from its buffer (chunk k - num_buffers, or an
    // earlier call's) has finished; chunk `issued` is waited for, later ones only queried, so
    // that the caller never sleeps on a DMA while a copied chunk waits for its own DMA.
    std::vector<std::uint32_t> task(n);
    std::size_t submitted = 0;
    std::size_t issued = 0;
    const drain_on_throw drain{*pool, task, issued, submitted};
    for (; issued < n; ++issued) {
      while (submitted < n && submitted < issued + config.num_buffers) {
        const cudaEvent_t free = events[buffer_of(submitted)];
        if (submitted == issued) {
          check(cudaEventSynchronize(free), "cudaEventSynchronize (staging buffer free)");
        } else if (!event_done(free, "cudaEventQuery (staging buffer free)")) {
          break;
        }
        task[submitted] =
            pool->submit(buffer(buffer_of(submitted)), host_src + chunks[submitted].offset,
                         chunks[submitted].length, config.copy_kind);
        ++submitted;
      }
      pool->wait(task[issued]);
      issue(issued);
    }
  }

  void staged_d2h(char* host_dst, const char* dev_src, const std::vector<chunk>& chunks,
                  cudaStream_t stream) {
    const std::size_t n = chunks.size();
    const unsigned first = next_buffer;
    auto buffer_of = [&](std::size_t k) {
      return static_cast<unsigned>((first + k) % config.num_buffers);
    };
    auto issue = [&](std::size_t k) {
      const unsigned b = buffer_of(k);
      // An earlier H2D on another stream may still be reading this buffer.
      check(cudaStreamWaitEvent(stream, events[b], 0), "cudaStreamWaitEvent (staging buffer)");
      check(cudaMemcpyAsync(buffer(b), dev_src + chunks[k].offset, chunks[k].length,
                            cudaMemcpyDeviceToHost, stream),
            "cudaMemcpyAsync (staged D2H chunk)");
      check(cudaEventRecord(events[b], stream), "cudaEventRecord (staged D2H chunk)");
    };
    next_buffer = buffer_of(n);
    std::size_t issued = std::min<std::size_t>(config.num_buffers, n);
    for (std::size_t k = 0; k < issued; ++k) issue(k);
    if (!run_ahead()) {
      for (std::size_t k = 0; k < n; ++k) {
        const unsigned b = buffer_of(k);
        check(cudaEventSynchronize(events[b]), "cudaEventSynchronize (staged D2H chunk)");
        parallel_copy(host_dst + chunks[k].offset, buffer(b), chunks[k].length);
        if (issued < n) issue(issued++);
      }
      return;
    }
    // Chunk k's copy-out may start once its DMA has finished; chunk `done` is waited for, later
    // ones only queried. The DMA into a buffer is issued once the previous copy-out from it ends.
    std::vector<std::uint32_t> task(n);
    std::size_t submitted = 0;
    std::size_t done = 0;
    const drain_on_throw drain{*pool, task, done, submitted};
    for (; done < n; ++done) {
      while (submitted < issued) {
        const cudaEvent_t arrived = events[buffer_of(submitted)];
        if (submitted == done) {
          check(cudaEventSynchronize(arrived), "cudaEventSynchronize (staged D2H chunk)");
        } else if (!event_done(arrived, "cudaEventQuery (staged D2H chunk)")) {
          break;
        }
        task[submitted] =
            pool->submit(host_dst + chunks[submitted].offset, buffer(buffer_of(submitted)),
                         chunks[submitted].length, config.copy_kind);
        ++submitted;
      }
      pool->wait(task[done]);
      if (issued < n) issue(issued++);
    }
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
      config.target_chunks == 0 || config.min_chunk_bytes > config.chunk_bytes ||
      (config.ramp != chunk_ramp::none && config.ramp_first_bytes == 0)) {
    throw error("",
                "transfer_engine: invalid transfer_config (chunk_bytes, num_buffers, "
                "num_threads and target_chunks must be non-zero, min_chunk_bytes <= "
                "chunk_bytes, ramp_first_bytes non-zero with a ramp)");
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
  return even_chunk(impl_->config, bytes);
}

std::vector<std::size_t> transfer_engine::schedule(std::size_t bytes, bool to_device) const {
  return schedule_of(impl_->config, bytes, to_device);
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
  self.staged_h2d(static_cast<char*>(dev_dst), static_cast<const char*>(host_src),
                  self.plan(bytes, true), stream);
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
  self.staged_d2h(static_cast<char*>(host_dst), static_cast<const char*>(dev_src),
                  self.plan(bytes, false), stream);
}

}  // namespace ferry::detail::gpu
