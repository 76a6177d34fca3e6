// ferry: the GPU backends' host<->device transfer engine (written with the CUDA runtime's names;
// the hip backend maps them, see ferry/backend/hip/intrinsics.hpp).
//
// Copies between ordinary (pageable) host memory, such as a std::vector's storage, and device
// memory at close to the PCIe bandwidth of pinned memory. The CUDA driver's own path for pageable
// memory stages through its pinned buffers with one host thread (6.5-15 GB/s on the H200 machine,
// against 55 GB/s from pinned memory), and cudaHostRegister + unregister per call costs about
// 56 ms per GiB, so neither is used for large copies. Instead the engine owns a ring of pinned
// chunks and several host threads: they copy chunk k into (or out of) pinned memory while the DMA
// engine moves the chunks before it, so the host copy and the PCIe transfer overlap (50-54 GB/s
// from 256 MiB up, measured). perf/NOTES.md ("Transfers") gives the predictions and measurements
// behind the design; perf/results/transfer-h200.csv the numbers.
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

#include "ferry/backend/device.hpp"
#include FERRY_DEVICE_INTRINSICS_HEADER

namespace ferry::detail::gpu {

/// How a host thread moves its slice of a chunk.
enum class host_copy_kind {
  memcpy,  ///< std::memcpy (glibc picks the instructions).
  /// 16-byte loads and non-temporal (cache-bypassing) stores, then a store fence. Measured
  /// 8-16% slower on the H200 machine (plain stores can keep the ring in its 300 MiB L3).
  streaming
};

/// Which threads perform the parallel host copies of the staging pipeline.
enum class host_copy_executor {
  thread_pool,  ///< The engine's own std::thread workers (spin briefly, then sleep on a futex).
  openmp        ///< An OpenMP parallel region per chunk (falls back to thread_pool without OpenMP).
};

/// Where a staged transfer uses chunks smaller than chunk_bytes (see transfer_engine::schedule).
///
/// A staged transfer is a two-stage pipeline (host copy, DMA). While the DMA engine is the slower
/// stage it runs back to back from its first chunk to its last, and the time lost is the stage it
/// cannot overlap: the first host copy of an H2D transfer (before any DMA can start) and the last
/// host copy of a D2H transfer (after the last DMA). Small chunks at that end shorten it.
enum class chunk_ramp {
  /// About target_chunks equal chunks of at most chunk_bytes (clamped to min_chunk_bytes).
  none,
  /// Small chunks only at the host-copy end: H2D starts with ramp_first_bytes and doubles up to
  /// chunk_bytes; D2H uses the same sizes in reverse (ends with ramp_first_bytes).
  host_end,
  /// Small chunks at both ends, in both directions (ramp up, then down).
  both
};

/// The route a transfer takes; see transfer_engine::route.
enum class transfer_route {
  direct_pinned,    ///< Host memory is pinned (cudaMallocHost/cudaHostRegister): one DMA.
  direct_pageable,  ///< Small pageable copy: cudaMemcpyAsync through the driver's staging.
  staged            ///< Pageable copy through the engine's pinned ring and host threads.
};

/// Tunables of the staging pipeline.
///
/// The values of defaults() were chosen from the microbenchmark perf/transfer/transfer_bench.cu,
/// measured on an H200 (PCIe 5.0 x16, 16 CPU cores): perf/results/transfer-h200.csv, sections
/// "sweep", "variant" and "threshold" (an earlier version of the benchmark); ramp and run_ahead
/// are predicted, not yet measured (perf/NOTES.md, "Transfers"). The benchmark's rows
/// "engine_new" measure these settings, "engine_old" the schedule before ramp and run_ahead (each
/// constant's source is noted in transfer.cu).
struct transfer_config {
  /// Largest chunk, in bytes; also the size of each pinned ring buffer. Large transfers are cut
  /// into chunks of this size.
  std::size_t chunk_bytes;
  /// Smallest chunk, in bytes, used when a transfer is cut finer to fill the pipeline.
  std::size_t min_chunk_bytes;
  /// A transfer is cut into about this many chunks (between min_chunk_bytes and chunk_bytes each),
  /// so that filling and draining the pipeline costs about 1/target_chunks of the transfer.
  std::size_t target_chunks;
  /// Number of pinned ring buffers (>= 1). Pinned memory held: num_buffers * chunk_bytes.
  unsigned num_buffers;
  /// Host threads copying each chunk, the calling thread included (>= 1).
  unsigned num_threads;
  /// Pageable transfers of fewer bytes than this go straight through cudaMemcpyAsync.
  std::size_t direct_threshold_bytes;
  /// Instructions used for the host copies.
  host_copy_kind copy_kind;
  /// Threads used for the host copies.
  host_copy_executor executor;
  /// Chunk sizes within one transfer; with a ramp, chunk_bytes is the size between the ramps and
  /// min_chunk_bytes and target_chunks are not used.
  chunk_ramp ramp;
  /// First (H2D) or last (D2H) chunk of a ramp, in bytes (rounded up to 64 KiB, at most
  /// chunk_bytes). Each further ramp chunk is twice the one before.
  std::size_t ramp_first_bytes;
  /// Thread pool only: the workers copy the next chunks (as many as free ring buffers allow) while
  /// the calling thread waits for events and enqueues DMAs, instead of all threads finishing one
  /// chunk before anything else happens. false: one chunk at a time (the schedule measured first).
  bool run_ahead;

  /// The measured defaults (see the struct's comment), with num_threads capped at
  /// std::thread::hardware_concurrency().
  static transfer_config defaults();
};

/// Copies between pageable host memory and device memory through a pinned staging pipeline.
///
/// One engine serves one device (the one current at construction, or the one given); the streams
/// passed to h2d and d2h must belong to it. The pinned ring (num_buffers * chunk_bytes) and the
/// host threads are created at the first staged transfer and kept until destruction. Staged
/// transfers from several host threads are serialised by an internal mutex; direct ones are not.
/// The streams passed in must not be capturing a CUDA graph (the engine waits on events).
///
/// Routes (see route()): pinned host memory (type cudaMemoryTypeHost from
/// cudaPointerGetAttributes, at both ends of the range) goes with a single cudaMemcpyAsync;
/// pageable transfers below direct_threshold_bytes go through cudaMemcpyAsync from pageable
/// memory; larger ones are staged. Device or managed memory passed as the "host" pointer is copied
/// with cudaMemcpyDefault.
///
/// Errors: every CUDA call is checked; a failure throws ferry::device_error with an empty kernel
/// name and a message naming the CUDA call and cudaGetErrorString. A null pointer with a non-zero
/// size throws ferry::error. After a device error the engine may be used again once the device is
/// usable again.
class transfer_engine {
 public:
  /// Creates an engine for `device` (-1: the device current now). Allocates nothing yet.
  /// Throws ferry::error if the config is invalid (zero chunk, buffers or threads, or
  /// min_chunk_bytes > chunk_bytes, or a ramp with ramp_first_bytes zero), ferry::device_error if
  /// the device cannot be queried.
  explicit transfer_engine(transfer_config config = transfer_config::defaults(), int device = -1);
  /// Waits for the engine's DMAs still in flight, then frees the ring and joins the threads.
  ~transfer_engine();
  transfer_engine(const transfer_engine&) = delete;
  transfer_engine& operator=(const transfer_engine&) = delete;

  /// Copies `bytes` bytes from host memory `host_src` to device memory `dev_dst`, ordered on
  /// `stream` after the work already in it.
  ///
  /// Returns when `host_src` may be modified or freed again; the device data is complete when
  /// `stream` reaches the copy (wait on the stream, or enqueue the consumer on it). Staged and
  /// pageable-direct copies return before their last DMA has finished; a pinned source returns
  /// after the copy has finished (it synchronises `stream`).
  void h2d(void* dev_dst, const void* host_src, std::size_t bytes, cudaStream_t stream);

  /// Copies `bytes` bytes from device memory `dev_src` to host memory `host_dst`, ordered on
  /// `stream` after the work already in it. Returns when the host data is complete.
  void d2h(void* host_dst, const void* dev_src, std::size_t bytes, cudaStream_t stream);

  /// The route a transfer of `bytes` bytes to or from `host_ptr` would take (one
  /// cudaPointerGetAttributes call per end of the range, about a microsecond).
  transfer_route route(const void* host_ptr, std::size_t bytes) const;

  /// The chunk size, in bytes, a staged transfer of `bytes` bytes is cut into:
  /// clamp(round_up(bytes / target_chunks, 64 KiB), min_chunk_bytes, chunk_bytes).
  std::size_t chunk_for(std::size_t bytes) const noexcept;

  /// The chunk sizes, in order, a staged transfer of `bytes` bytes is cut into (`to_device`:
  /// H2D, else D2H). Each is a multiple of 64 KiB except possibly one, none exceeds chunk_bytes,
  /// and they sum to `bytes`.
  std::vector<std::size_t> schedule(std::size_t bytes, bool to_device) const;

  /// The configuration in use.
  const transfer_config& config() const noexcept;

  /// The device this engine serves.
  int device() const noexcept;

  /// Pinned host memory held by the ring, in bytes (0 before the first staged transfer).
  std::size_t pinned_bytes() const noexcept;

 private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

}  // namespace ferry::detail::gpu
