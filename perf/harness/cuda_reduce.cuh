// ferry-perf: pieces of RAJAPerf's standard Base_CUDA reduction ("blkatm", spec 1.8), shared by
// the reduction baselines (DOT, TRAP_INT, PI_REDUCE, REDUCE3_INT).
//
// Per rep the host copies the initial value into a device result cell (from a pinned mirror),
// the kernel folds a grid-stride loop per thread into a
// dynamic shared-memory array of B entries, reduces it as a power-of-two tree with a
// __syncthreads() per level, and thread 0 of each block combines the block's value into the
// cell atomically; the host then copies the cell back and synchronizes the stream. The grid is the
// "occgs" tuning: min(ceil(N / B), max active blocks per SM x SMs), queried before the timer.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>

#include "harness/cuda_helpers.cuh"
#include "harness/kernel_base.hpp"

namespace ferry_perf::cuda_baseline {

/// `count` result cells of T in device memory, with a mirror in pinned host memory: RAJAPerf's
/// CUDA reduction data space set to `CudaDevice` (its fastest on a GPU without HMM, where the
/// default `CudaManagedDevicePreferredHostAccessed` migrates the cell's page between host and
/// device on every rep: 0.7-1.1 ms per rep on the H200, against tens of microseconds here). Per
/// rep, `initialize` writes the initial values into the mirror and copies them to the device cells
/// (asynchronously, on `stream`), and `copy_back` copies the cells into the mirror, waits for
/// `stream` and returns the mirror. Freed with the object. Throws std::runtime_error when CUDA
/// fails.
template <class T>
class result_cells {
 public:
  explicit result_cells(std::size_t count) : count_(count) {
    FERRY_PERF_CUDA_CHECK(cudaMalloc(&device_, count * sizeof(T)));
    FERRY_PERF_CUDA_CHECK(cudaMallocHost(&host_, count * sizeof(T)));
  }
  result_cells(const result_cells&) = delete;
  result_cells& operator=(const result_cells&) = delete;
  ~result_cells() {
    cudaFree(device_);
    cudaFreeHost(host_);
  }
  /// The device cells (what the kernel combines into).
  T* get() const { return device_; }
  /// Sets the cells to `init` (`count` values): host mirror, then an asynchronous H2D copy.
  void initialize(const T* init, cudaStream_t stream) {
    std::copy(init, init + count_, host_);
    FERRY_PERF_CUDA_CHECK(
        cudaMemcpyAsync(device_, host_, count_ * sizeof(T), cudaMemcpyHostToDevice, stream));
  }
  /// Copies the cells back (D2H), waits for `stream` and returns the host mirror (`count` values).
  const T* copy_back(cudaStream_t stream) {
    FERRY_PERF_CUDA_CHECK(
        cudaMemcpyAsync(host_, device_, count_ * sizeof(T), cudaMemcpyDeviceToHost, stream));
    FERRY_PERF_CUDA_CHECK(cudaStreamSynchronize(stream));
    return host_;
  }

 private:
  std::size_t count_;
  T* device_ = nullptr;
  T* host_ = nullptr;
};

/// The "occgs" grid of spec 1.8: min(ceil(n / block), max active blocks of `kernel` per SM with
/// `shmem` bytes of dynamic shared memory x number of SMs); at least 1.
template <class Kernel>
unsigned occgs_grid(Kernel* kernel, Index_type n, int block, std::size_t shmem) {
  int device = 0;
  FERRY_PERF_CUDA_CHECK(cudaGetDevice(&device));
  int sms = 0;
  FERRY_PERF_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  int per_sm = 0;
  FERRY_PERF_CUDA_CHECK(
      cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, block, shmem));
  const Index_type direct = (n + block - 1) / block;
  return static_cast<unsigned>(
      std::max<Index_type>(1, std::min<Index_type>(direct, Index_type{per_sm} * sms)));
}

}  // namespace ferry_perf::cuda_baseline
